package backend

// Attention is an optional interface for backends with a fused attention
// kernel: softmax(q kᵀ scale) v without writing the [L, S] scores to
// memory. Package tensor uses it for ScaledDotProductAttention without a
// mask (causal or not) and without dropout, when the head sizes are at
// most MaxHead. Operands are contiguous storages with no offset: q [B, L,
// E], k [B, S, E], v [B, S, Ev], of one float dtype.
type Attention interface {
	// MaxAttentionHead returns the largest E and Ev the kernels take.
	MaxAttentionHead() int
	// AttentionForward returns the output [B, L, Ev] and the rows'
	// log-sum-exp of the scaled scores [B, L], for the backward.
	AttentionForward(q, k, v Storage, b, l, s, e, ev int, scale float64, causal bool) (out, lse Storage)
	// AttentionBackward returns the gradients of q, k and v for the
	// gradient g [B, L, Ev] of the output out, from the forward's lse.
	AttentionBackward(q, k, v, out, lse, g Storage, b, l, s, e, ev int, scale float64, causal bool) (dq, dk, dv Storage)
}
