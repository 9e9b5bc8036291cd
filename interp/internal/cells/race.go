//go:build race

package cells

// raceEnabled reports whether the kernel runs with the race detector: the
// packages its plugins link must be compiled with it too.
const raceEnabled = true
