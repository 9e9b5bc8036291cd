package backend

// Conv computes 2-D convolutions directly. The CPU backend unfolds one
// sample at a time into a buffer that stays in cache and multiplies it
// there, where Im2Col and MatMul would write and read the columns of the
// whole batch.
type Conv interface {
	// Conv2d returns the cross-correlation of x under xl, [N, C, H, W],
	// with the filters w under wl, [F, C, KH, KW], plus the bias b under
	// bl, [F] (b is nil for none): [N, F, OH, OW], with the output size of
	// Window.
	Conv2d(x Storage, xl Layout, w Storage, wl Layout, b Storage, bl Layout, stride, padding, dilation [2]int) Storage
	// Conv2dBackward returns the gradients of Conv2d's x, w and b, given
	// the gradient g under gl of its result; it computes only those that
	// need says (x, w, b) and returns nil for the others.
	Conv2dBackward(g Storage, gl Layout, x Storage, xl Layout, w Storage, wl Layout, stride, padding, dilation [2]int, need [3]bool) (gx, gw, gb Storage)
}
