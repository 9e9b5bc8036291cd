package autograd

import "testing"

// BenchmarkEnabled is the grad-mode check every recorded op makes, while
// no goroutine is inside a NoGrad scope.
func BenchmarkEnabled(b *testing.B) {
	for b.Loop() {
		Enabled()
	}
}

// BenchmarkEnabledOtherScope is the check while another goroutine is
// inside a NoGrad scope.
func BenchmarkEnabledOtherScope(b *testing.B) {
	inside, leave := make(chan bool), make(chan bool)
	go NoGrad(func() {
		inside <- true
		<-leave
	})
	<-inside
	defer func() { leave <- true }()
	for b.Loop() {
		Enabled()
	}
}
