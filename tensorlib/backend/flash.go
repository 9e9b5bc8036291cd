package backend

// FlashAttention is an optional interface for backends with a
// tensor-core attention kernel (FlashAttention-2's tiling and online
// softmax, products in a 16-bit float format with float32 accumulation),
// forward and backward, with a rows' log-sum-exp saved by the forward so
// that the backward recomputes the scores instead of storing them.
// Package tensor uses it for ScaledDotProductAttention without a mask
// (causal or not) and without dropout where FlashAttentionSupports says
// so, for float32 only when asked (tensor.AttnFlash), since it rounds the
// operands to 16 bits. Operands are contiguous storages with no offset:
// q [B, L, E], k [B, S, E], v [B, S, E], of one dtype, L and S at least
// 1.
type FlashAttention interface {
	// FlashAttentionSupports reports whether the kernels take operands
	// of dtype dt with head size e (that of q, k and v alike) on this
	// device.
	FlashAttentionSupports(dt DType, e int) bool
	// FlashAttentionForward returns the output [B, L, E] in q's dtype and
	// the rows' log-sum-exp of the scaled scores [B, L] in Float32, for
	// the backward.
	FlashAttentionForward(q, k, v Storage, b, l, s, e int, scale float64, causal bool) (out, lse Storage)
	// FlashAttentionBackward returns the gradients of q, k and v for the
	// gradient g [B, L, E] of the output out, from the forward's lse.
	FlashAttentionBackward(q, k, v, out, lse, g Storage, b, l, s, e int, scale float64, causal bool) (dq, dk, dv Storage)
}
