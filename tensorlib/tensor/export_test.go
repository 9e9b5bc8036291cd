package tensor

// SetAttnBlockedMin sets the number of scores from which the CPU's
// ScaledDotProductAttention takes the blocked kernel, for tests, and
// returns a function that restores it.
func SetAttnBlockedMin(n int) (restore func()) {
	old := attnBlockedMin
	attnBlockedMin = n
	return func() { attnBlockedMin = old }
}
