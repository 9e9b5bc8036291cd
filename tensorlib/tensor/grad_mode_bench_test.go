package tensor

import "testing"

// benchSmallAdd times an Add of two 4-element tensors, one requiring
// grad, so that the op asks for the grad mode and records a node: the
// per-op cost of the grad-mode check, which must stay small beside the op.
func benchSmallAdd(b *testing.B) {
	x := Ones(4).SetRequiresGrad(true)
	y := Ones(4)
	for b.Loop() {
		x.Add(y)
	}
}

// BenchmarkGradModeSmallOp: no goroutine is inside a NoGrad scope (the
// usual case, one atomic load). autograd's BenchmarkEnabledOtherScope
// times the check while another goroutine is inside a scope.
func BenchmarkGradModeSmallOp(b *testing.B) { benchSmallAdd(b) }

// BenchmarkGradModeSmallOpNoGrad: the op runs inside a NoGrad scope of its
// own goroutine and records nothing.
func BenchmarkGradModeSmallOpNoGrad(b *testing.B) { NoGrad(func() { benchSmallAdd(b) }) }
