package cells

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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

// TestTrimRemovesLeastRecentlyUsed: the cache is trimmed to its limit by
// removing the entries used least recently (all three files of each),
// never one used since the cutoff.
func TestTrimRemovesLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	write := func(key string, size int, age time.Duration) {
		for _, ext := range []string{".so", ".a", ".deps"} {
			p := filepath.Join(dir, key+ext)
			if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("oldest", 100, 72*time.Hour) // 300 bytes an entry
	write("older", 100, 48*time.Hour)
	write("old", 100, 30*time.Hour)
	write("recent", 100, time.Hour)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not the cache's"), 0o644); err != nil {
		t.Fatal(err)
	}
	// 1200 bytes: down to 700 removes the two least recently used.
	if n := trim(dir, 700, now.Add(-24*time.Hour)); n != 2 {
		t.Fatalf("trim removed %d entries, want 2", n)
	}
	for key, want := range map[string]bool{"oldest": false, "older": false, "old": true, "recent": true} {
		for _, ext := range []string{".so", ".a", ".deps"} {
			if got := isFile(filepath.Join(dir, key+ext)); got != want {
				t.Errorf("%s%s present = %v, want %v", key, ext, got, want)
			}
		}
	}
	// Under the limit only by removing what was used within the day:
	// nothing more goes.
	if n := trim(dir, 100, now.Add(-24*time.Hour)); n != 1 {
		t.Fatalf("the second trim removed %d entries, want 1 (old; recent is spared)", n)
	}
	if !isFile(filepath.Join(dir, "recent.so")) || !isFile(filepath.Join(dir, "notes.txt")) {
		t.Fatal("trim removed an entry used within the day, or a file not of the cache")
	}
}
