package backend

import (
	"sort"
	"sync"
)

// A Factory opens the backend for one device of its kind. Package tensor
// calls it once per device, the first time the device is used; it returns
// an error when the device cannot be used (no such ordinal, driver
// failure).
type Factory func(index int) (Backend, error)

var registry struct {
	sync.RWMutex
	factories map[string]Factory
}

// Register makes devices of the given kind available to package tensor,
// the way database/sql drivers register themselves: the CUDA backend calls
// Register("cuda", ...) when its devices are provided (a GPU build, or
// cuda.UseEmulator). It panics if kind is "cpu" or empty, f is nil, or the
// kind is already registered.
func Register(kind string, f Factory) {
	registry.Lock()
	defer registry.Unlock()
	if kind == "" || kind == "cpu" || f == nil {
		panic("backend: Register: kind must be a non-empty name other than \"cpu\" and the factory non-nil")
	}
	if _, dup := registry.factories[kind]; dup {
		panic("backend: Register: backend " + kind + " registered twice")
	}
	if registry.factories == nil {
		registry.factories = map[string]Factory{}
	}
	registry.factories[kind] = f
}

// Lookup returns the factory registered for kind.
func Lookup(kind string) (Factory, bool) {
	registry.RLock()
	defer registry.RUnlock()
	f, ok := registry.factories[kind]
	return f, ok
}

// Kinds returns the registered device kinds, sorted ("cpu", built in, is
// not among them).
func Kinds() []string {
	registry.RLock()
	defer registry.RUnlock()
	ks := make([]string, 0, len(registry.factories))
	for k := range registry.factories {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
