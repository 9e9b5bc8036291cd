//go:build unix

package kernel

import (
	"net"
	"syscall"
)

// tryWrite writes as much of b to nc as it takes without blocking and
// returns how much that was.
func tryWrite(nc net.Conn, b []byte) (int, error) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc.Write(b)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nc.Write(b)
	}
	n := 0
	var werr error
	err = raw.Write(func(fd uintptr) bool {
		for n < len(b) {
			k, e := syscall.Write(int(fd), b[n:])
			if k > 0 {
				n += k
			}
			switch e {
			case nil:
				if k <= 0 {
					return true
				}
			case syscall.EINTR:
			case syscall.EAGAIN:
				return true
			default:
				werr = e
				return true
			}
		}
		return true // done, or the rest waits for the flushing goroutine
	})
	if werr == nil {
		werr = err
	}
	return n, werr
}
