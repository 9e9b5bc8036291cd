//go:build !unix

package cells

// lowerPriority does nothing where processes have no nice value.
func lowerPriority(pid int) {}
