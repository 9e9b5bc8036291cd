package main

import "github.com/gotensor/gotensor/tensorlib/tensor"

// tensorOps builds the tensor ops timed against NumPy; the keys match
// those of bench/tensor_numpy.py.
func tensorOps(n int) []tensorOp {
	tensor.ManualSeed(0)
	a, b := tensor.Rand(n, n), tensor.Rand(n, n)
	c := a.SubScalar(0.5) // half negative, for ReLU
	return []tensorOp{
		{"add", "a.Add(b) / a+b", func() { a.Add(b) }},
		{"mul", "a.Mul(b) / a*b", func() { a.Mul(b) }},
		{"mulscalar", "x.MulScalar(2.5) / x*2.5", func() { a.MulScalar(2.5) }},
		{"relu", "x.ReLU() / np.maximum(x, 0)", func() { c.ReLU() }},
		{"exp", "x.Exp() / np.exp(x)", func() { a.Exp() }},
		{"tanh", "x.Tanh() / np.tanh(x)", func() { a.Tanh() }},
		{"sum1", "x.Sum(1) / x.sum(1)", func() { a.Sum(1) }},
		{"sum0", "x.Sum(0) / x.sum(0)", func() { a.Sum(0) }},
		{"sumall", "x.Sum() / x.sum()", func() { a.Sum() }},
		{"max1", "x.Max(1) / x.max(1)", func() { a.Max(1) }},
	}
}
