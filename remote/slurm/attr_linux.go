//go:build linux

package slurm

import "syscall"

// sysProcAttr puts srun in a process group of its own, so that the SIGKILL
// Jupyter sends the launcher's group spares it, and has the kernel deliver
// SIGTERM to it when the launcher dies, which makes srun end the job.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
