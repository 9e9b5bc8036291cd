package backend

// Sort is an optional interface for backends that order and scan the
// elements along one dim on their device; the CPU and CUDA backends
// implement it. Package tensor uses it when a tensor's backend implements
// it and otherwise computes on the host and copies the result back (Sort,
// Argsort, TopK, CumSum and Multinomial are then correct but cost a round
// trip). It follows
// Backend's conventions: inputs may be any view, results are new
// contiguous storages of the input's shape.
type Sort interface {
	// Argsort returns the Int64 positions along dim that put each slice of
	// s under l in ascending order (descending when descending is set).
	// The sort is stable: equal elements keep their order. NaN sorts above
	// every number, as in PyTorch. Bool inputs are not passed (package
	// tensor converts them to Int64 first).
	Argsort(s Storage, l Layout, dim int, descending bool) Storage
	// CumSum returns the inclusive prefix sums of s under l along dim, in
	// s's dtype (Int64 for Bool), accumulating floats in float64.
	CumSum(s Storage, l Layout, dim int) Storage
}

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
