package tensor

import (
	"math"
	"slices"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// f64 is shorthand for a []float64 literal.
type f64 = []float64

// checkT fails the test unless x has the shape, dtype and values given,
// comparing floats within a relative tolerance of 1e-5 (NaN equals NaN).
func checkT(t *testing.T, name string, x *Tensor, shape []int, dt DType, want []float64) {
	t.Helper()
	checkTol(t, name, x, shape, dt, want, 1e-5)
}

// checkTol is checkT with an absolute tolerance of tol*max(1, |want|).
func checkTol(t *testing.T, name string, x *Tensor, shape []int, dt DType, want []float64, tol float64) {
	t.Helper()
	if !slices.Equal(x.Shape(), shape) {
		t.Errorf("%s: shape %v, want %v", name, x.Shape(), shape)
		return
	}
	if x.DType() != dt {
		t.Errorf("%s: dtype %v, want %v", name, x.DType(), dt)
	}
	got := x.Float64s()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", name, len(got), len(want))
		return
	}
	for i := range got {
		if !close(got[i], want[i], tol) {
			t.Errorf("%s: element %d = %v, want %v", name, i, got[i], want[i])
			return
		}
	}
}

func close(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// mustPanic returns the error f panicked with, failing the test when f
// returns normally or panics with something that is not an error.
func mustPanic(t *testing.T, f func()) error {
	t.Helper()
	err := Try(f)
	if err == nil {
		t.Fatalf("expected a panic")
	}
	return err
}

// arange returns 0, 1, ..., n-1 as Float32 of the given shape.
func arange(shape ...int) *Tensor {
	return Arange(0, float64(backend.Numel(shape)), 1).Reshape(shape...)
}
