package kernel

// Names of the package's tests for its external tests.

// Murmur2 is murmur2, the hash that names a cell's dumped source.
var Murmur2 = murmur2

// NewFakeDebugger returns the language side of fakeDebugger, which sends
// seen the breakpoints of each setBreakpoints request.
func NewFakeDebugger(seen chan []int) Debugger { return fakeDebugger{seen: seen} }
