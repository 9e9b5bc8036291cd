package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// GoRunCacheEnv names the directory where GoRunCached keeps results; "off"
// keeps none. Unset, it is gotensor/gorun in the user's cache directory.
const GoRunCacheEnv = "GOTENSOR_GORUN_CACHE"

// GoRunCached is GoRun with results kept between calls, in the directory
// $GOTENSOR_GORUN_CACHE names: a program whose source was built and run
// by the same Go toolchain before is not built or run again. The result
// of a program's run depends on its source and the toolchain alone (the
// programs it serves print the same each run: their cells are compared
// with it), and building a hundred programs is most of the time a
// differential test takes. A run that timed out, which a busy machine can
// cause, is not kept.
func GoRunCached(ctx context.Context, progs []Program, dir string, timeout time.Duration, workers int) (map[string]Result, error) {
	cache := goRunCacheDir()
	version := goVersion(ctx)
	if cache == "" || version == "" {
		return GoRun(ctx, progs, dir, timeout, workers)
	}
	results := map[string]Result{}
	var need []Program
	for _, p := range progs {
		var r Result
		if b, err := os.ReadFile(filepath.Join(cache, cacheKey(version, p.Src))); err == nil && json.Unmarshal(b, &r) == nil {
			r.Name = p.Name
			results[p.Name] = r
			continue
		}
		need = append(need, p)
	}
	if len(need) == 0 {
		return results, nil
	}
	got, err := GoRun(ctx, need, dir, timeout, workers)
	if err != nil {
		return got, err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		cache = "" // results are still returned, and kept next time
	}
	for _, p := range need {
		r, ok := got[p.Name]
		if !ok {
			continue
		}
		results[p.Name] = r
		if r.TimedOut || cache == "" {
			continue
		}
		if b, err := json.Marshal(r); err == nil {
			name := filepath.Join(cache, cacheKey(version, p.Src))
			tmp := name + ".tmp" + filepath.Base(dir)
			if os.WriteFile(tmp, b, 0o644) == nil {
				os.Rename(tmp, name) // whole or not at all, for concurrent tests
			}
		}
	}
	return results, nil
}

// goRunCacheDir returns the directory of kept results, or "" for none.
func goRunCacheDir() string {
	switch dir := os.Getenv(GoRunCacheEnv); dir {
	case "off":
		return ""
	case "":
		user, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(user, "gotensor", "gorun")
	default:
		return dir
	}
}

// goVersion returns the go command's version and platform ("go1.26.0
// linux/amd64"), or "" when it cannot tell.
func goVersion(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH").Output()
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// cacheKey names a program's kept result: a hash of the toolchain's
// version and the source.
func cacheKey(version, src string) string {
	h := sha256.New()
	h.Write([]byte(version))
	h.Write([]byte{0})
	h.Write([]byte(src))
	return hex.EncodeToString(h.Sum(nil)) + ".json"
}
