//go:build unix

package cells

import (
	"os/exec"
	"syscall"
	"time"
)

// lowerPriority gives process pid the lowest CPU priority (nice 19); a
// failure leaves it as it is.
func lowerPriority(pid int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, 19) }

// ownGroup starts cmd in a process group of its own, which cancelling its
// context kills whole: the go command's compilers would otherwise run on
// after it, and hold its output open so that Wait waits for them.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
}
