package cells

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The cache of built cells grows by a plugin of about 3.5 MB for every new
// cell (a plugin holds its own copy of the packages it links), so it is
// trimmed as go's build cache is: the entries used least recently go first,
// once the cache is larger than its limit, but never one used within the
// last day, which a running session may still import.

// DefaultCacheLimit is the size the cache is trimmed to when
// $GOTENSOR_CELLS_CACHE_MB does not say (2 GB: some 600 cells).
const DefaultCacheLimit = 2 << 30

// recentlyUsed is how long an entry stays, whatever the cache's size.
const recentlyUsed = 24 * time.Hour

var trimmed sync.Once

// cacheLimit returns the cache's size limit in bytes.
func cacheLimit() int64 {
	if mb, err := strconv.ParseInt(os.Getenv("GOTENSOR_CELLS_CACHE_MB"), 10, 64); err == nil && mb > 0 {
		return mb << 20
	}
	return DefaultCacheLimit
}

// used marks the entry of key as used now.
func used(dir, key string) {
	now := time.Now()
	for _, ext := range []string{".so", ".a", ".deps"} {
		os.Chtimes(filepath.Join(dir, key+ext), now, now)
	}
}

// trim removes the least recently used entries of the cache in dir until
// it holds at most limit bytes, sparing those used since cutoff, and the
// build directories older than cutoff. It returns the number of entries
// removed.
func trim(dir string, limit int64, cutoff time.Time) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	type entry struct {
		key  string
		size int64
		used time.Time
	}
	byKey := map[string]*entry{}
	var total int64
	for _, de := range ents {
		name := de.Name()
		if de.IsDir() && strings.HasPrefix(name, ".build-") {
			// A build a killed kernel left.
			if info, err := de.Info(); err == nil && info.ModTime().Before(cutoff) {
				os.RemoveAll(filepath.Join(dir, name))
			}
			continue
		}
		ext := filepath.Ext(name)
		if de.IsDir() || (ext != ".so" && ext != ".a" && ext != ".deps") {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		key := strings.TrimSuffix(name, ext)
		e := byKey[key]
		if e == nil {
			e = &entry{key: key}
			byKey[key] = e
		}
		e.size += info.Size()
		if info.ModTime().After(e.used) {
			e.used = info.ModTime()
		}
		total += info.Size()
	}
	if total <= limit {
		return 0
	}
	list := make([]*entry, 0, len(byKey))
	for _, e := range byKey {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].used.Before(list[j].used) })
	removed := 0
	for _, e := range list {
		if total <= limit || !e.used.Before(cutoff) {
			break
		}
		for _, ext := range []string{".so", ".a", ".deps"} {
			os.Remove(filepath.Join(dir, e.key+ext))
		}
		total -= e.size
		removed++
	}
	return removed
}
