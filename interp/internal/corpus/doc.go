// Package corpus runs Go programs from public corpora — yaegi's regression
// programs, Go by Example and the "run" programs of the Go distribution's
// own test directory — for the cell layer's acceptance test: every
// program in a child process of its own under a time limit, so that a
// program that exits, crashes, hangs or leaks goroutines costs one result,
// not the test.
//
// No program text lives in this repository: the programs are read where the
// Go toolchain keeps them (yaegi's _test directory in the module cache,
// $GOROOT/test) or from a checkout the person running the test names (Go
// by Example).
//
// The child is the test binary itself. Its TestMain calls ServeChild first,
// with one Runner per mode ("bare", "cell", ...); Run starts the binary again
// with the job in its environment, and ServeChild runs it and exits:
//
//	func TestMain(m *testing.M) {
//		corpus.ServeChild(map[string]corpus.Runner{"bare": corpus.Bare, "cell": runCell})
//		os.Exit(m.Run())
//	}
package corpus
