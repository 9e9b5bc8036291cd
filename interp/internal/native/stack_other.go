//go:build !amd64 && !arm64

package native

// stackUsed returns 0 where no assembly reads the goroutine's stack
// bounds: runaway recursion then ends the process, as in Go.
func stackUsed() uintptr { return 0 }
