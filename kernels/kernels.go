package kernels

import (
	"embed"
	"slices"
	"sort"
	"strings"
)

//go:embed ptx/*.ptx
var ptxFS embed.FS

// Modules returns the kernel families, sorted: the names of the .cu files
// without the extension, each one PTX module.
func Modules() []string {
	ents, err := ptxFS.ReadDir("ptx")
	if err != nil {
		panic("kernels: " + err.Error())
	}
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".ptx"))
	}
	sort.Strings(names)
	return names
}

// PTX returns the PTX of module name, or nil when there is no such
// module.
func PTX(name string) []byte {
	b, err := ptxFS.ReadFile("ptx/" + name + ".ptx")
	if err != nil {
		return nil
	}
	return b
}

// A Kernel names one entry point of the PTX, <op>_<dtype> (add_f32,
// cast_i64_bool). names_gen.go, generated from the PTX by go generate
// ./kernels, has one constant for each (AddF32, CastI64Bool), so that
// code that names a kernel by its constant is checked by the compiler.
type Kernel string

// ModuleOf returns the module that defines kernel k, and false when no
// module does.
func ModuleOf(k Kernel) (string, bool) {
	m, ok := modules[k]
	return m, ok
}

// Kernels returns every kernel, sorted.
func Kernels() []Kernel {
	names := make([]Kernel, 0, len(modules))
	for k := range modules {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
