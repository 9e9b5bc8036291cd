package corpus

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGoRunCached checks that a program's result is built and run by the
// go command once and then read from the cache (the kept result, changed
// by the test, is what the second call returns), that another source is
// built again, and that a run that timed out is not kept.
func TestGoRunCached(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cache := t.TempDir()
	t.Setenv(GoRunCacheEnv, cache)
	ctx := context.Background()
	hello := Program{Name: "hello", Src: "package main\n\nfunc main() { println(\"hi\") }\n"}
	spin := Program{Name: "spin", Src: "package main\n\nfunc main() { for {} }\n"}
	got, err := GoRunCached(ctx, []Program{hello, spin}, t.TempDir(), 2*time.Second, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r := got["hello"]; r.Stderr != "hi\n" || r.TimedOut {
		t.Fatalf("hello: %+v, want hi on standard error", r)
	}
	if r := got["spin"]; !r.TimedOut {
		t.Fatalf("spin: %+v, want a time-out", r)
	}
	kept, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	if len(kept) != 1 {
		t.Fatalf("kept %d results, want hello's alone (a time-out is not kept)", len(kept))
	}
	var r Result
	b, _ := os.ReadFile(kept[0])
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	r.Stderr = "from the cache\n"
	b, _ = json.Marshal(r)
	if err := os.WriteFile(kept[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	other := Program{Name: "other", Src: "package main\n\nfunc main() { println(\"other\") }\n"}
	again, err := GoRunCached(ctx, []Program{{Name: "hello2", Src: hello.Src}, other}, t.TempDir(), 10*time.Second, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r := again["hello2"]; r.Stderr != "from the cache\n" || r.Name != "hello2" {
		t.Errorf("hello's source again: %+v, want the kept result under the new name", r)
	}
	if r := again["other"]; r.Stderr != "other\n" {
		t.Errorf("other: %+v, want it built and run", r)
	}
}
