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
