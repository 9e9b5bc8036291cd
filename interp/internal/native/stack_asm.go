//go:build amd64 || arm64

package native

// stackUsed returns how many bytes of its stack the calling goroutine
// uses: g.stack.hi, the first field of the runtime's g after stack.lo,
// less the stack pointer.
func stackUsed() uintptr
