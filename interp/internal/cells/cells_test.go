package cells

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestBuiltCellOpensWithoutTheGoCommand: a cell that this kernel binary
// built before (a restarted kernel running its notebook again) is found
// in the cache before the builder has asked the go command for anything:
// a second builder that never preloads returns the first one's plugin.
func TestBuiltCellOpensWithoutTheGoCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a plugin")
	}
	ctx := context.Background()
	cfg := Config{CacheDir: t.TempDir(), Salt: "cache-test"}
	first, err := New(ctx, cfg)
	var u *Unavailable
	if errors.As(err, &u) {
		t.Skip("no compiled cells here: ", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Preload(ctx); err != nil {
		t.Fatal(err)
	}
	const src = "package main\n\n// Answer is a compiled cell's function.\nfunc Answer() int { return 42 }\n"
	path, so, err := first.Build(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hostBuildID() == "" {
		t.Skip("this binary's build ID cannot be read: cells are keyed by their packages' archives")
	}

	again, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// No Preload: a Build that needed the go command would wait for it.
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	path2, so2, err := again.Build(short, src, nil)
	if err != nil {
		t.Fatalf("the cached cell waited for the go command: %v", err)
	}
	if path2 != path || so2 != so {
		t.Fatalf("the cached cell is %s in %s, built as %s in %s", path2, so2, path, so)
	}
	if a := again.cells[path]; a == nil || !contains(a.deps, "runtime") || !strings.HasSuffix(a.file, ".a") {
		t.Fatalf("the cached cell's archive and dependencies were not recorded: %+v", a)
	}
	// A different cell is not in the cache.
	if _, _, ok := again.cached(again.quickKey(src+"// changed\n", nil)); ok {
		t.Fatal("a changed cell was found in the cache")
	}
}
