//go:build unix

package cells

import "syscall"

// lowerPriority gives process pid the lowest CPU priority (nice 19); a
// failure leaves it as it is.
func lowerPriority(pid int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, 19) }
