//go:build !unix

package main

import "os"

// dupStderr returns os.Stderr: only Unix systems redirect fd 2.
func dupStderr() *os.File { return os.Stderr }
