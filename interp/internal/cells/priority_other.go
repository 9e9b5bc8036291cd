//go:build !unix

package cells

import (
	"os/exec"
	"time"
)

// lowerPriority does nothing where processes have no nice value.
func lowerPriority(pid int) {}

// ownGroup bounds how long Wait waits for cmd's output once its context
// is cancelled, where there are no process groups to kill whole.
func ownGroup(cmd *exec.Cmd) { cmd.WaitDelay = 10 * time.Second }
