package plan

import "testing"

// TestRewritesHooks checks the code generated for os.Exit, log.Fatal and runtime.Goexit.
func TestRewritesHooks(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"os.Exit, log.Fatal and runtime.Goexit call the session's hooks", "import \"runtime\"\nif n > 10 { os.Exit(3) }\nexit := os.Exit\n_ = exit\nlog.Fatalf(\"x %d\", 1)\nl := log.Default()\nl.Fatal(\"y\")\nruntime.Goexit()",
			[]string{"_gt.Exit(3)", "exit = _gt.Exit", "_gt.Fatalf(log.Printf)(\"x %d\", 1)", "_gt.Fatal(func(_gtv ...any) { l.Print(_gtv...) })(\"y\")", "_gt.Goexit()"}, nil},
	})
}
