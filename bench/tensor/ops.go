package main

import "github.com/gotensor/gotensor/tensorlib/tensor"

// tensorOps builds the tensor ops timed against NumPy; the keys match
// those of bench/tensor_numpy.py.
func tensorOps(n int) []tensorOp {
	tensor.ManualSeed(0)
	a, b := tensor.Rand(n, n), tensor.Rand(n, n)
	return []tensorOp{
		{"add", "a.Add(b) / a+b", func() { a.Add(b) }},
		{"sum1", "x.Sum(1) / x.sum(1)", func() { a.Sum(1) }},
		{"exp", "x.Exp() / np.exp(x)", func() { a.Exp() }},
	}
}
