//go:build unix

package main

import (
	"os"
	"syscall"
)

// dupStderr returns a new file on the process's current standard error, so
// that what is written to it still reaches the terminal after fd 2 is
// redirected. It returns os.Stderr when fd 2 cannot be duplicated.
func dupStderr() *os.File {
	fd, err := syscall.Dup(2)
	if err != nil {
		return os.Stderr
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "/dev/stderr")
}
