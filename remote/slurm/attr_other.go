//go:build !linux

package slurm

import "syscall"

// sysProcAttr leaves srun in the launcher's process group: only Linux has
// the parent-death signal that makes a group of its own safe (see
// attr_linux.go, which this file must match).
func sysProcAttr() *syscall.SysProcAttr { return nil }
