package backend

import "testing"

// BenchmarkInterruptedBound is the check a small op makes on a goroutine
// that a notebook session has bound its hook to.
func BenchmarkInterruptedBound(b *testing.B) {
	defer BindInterruptHook(func() bool { return false })()
	for b.Loop() {
		Interrupted()
	}
}
