package backend

// A Window is the geometry of a 2-D sliding window over an input
// [N, C, H, W], as Im2Col, Col2Im and MaxPool2d use it: kernel KH×KW,
// strides SH, SW, zero padding PH, PW, dilation DH, DW, and the output
// size OH×OW.
type Window struct {
	N, C, H, W     int
	KH, KW, SH, SW int
	PH, PW, DH, DW int
	OH, OW         int
}

// NewWindow returns the window over an input of shape [N, C, H, W] with
// the given (H, W) pairs, and its output size
// OH = (H + 2*PH - DH*(KH-1) - 1)/SH + 1, and OW likewise.
func NewWindow(shape []int, kernel, stride, padding, dilation [2]int) Window {
	w := Window{N: shape[0], C: shape[1], H: shape[2], W: shape[3],
		KH: kernel[0], KW: kernel[1], SH: stride[0], SW: stride[1],
		PH: padding[0], PW: padding[1], DH: dilation[0], DW: dilation[1]}
	w.OH = OutputSize(w.H, w.KH, w.SH, w.PH, w.DH)
	w.OW = OutputSize(w.W, w.KW, w.SW, w.PW, w.DW)
	return w
}

// OutputSize returns the number of positions of a window of size k,
// stride s and dilation d over n inputs padded with p on each side.
func OutputSize(n, k, s, p, d int) int { return (n+2*p-d*(k-1)-1)/s + 1 }
