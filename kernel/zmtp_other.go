//go:build !unix

package kernel

import "net"

// tryWrite writes b to nc. Where the system calls of unix are missing it
// blocks until b is written.
func tryWrite(nc net.Conn, b []byte) (int, error) { return nc.Write(b) }
