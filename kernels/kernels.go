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

// An Op is the kernels of one op by dtype: Name is the op's part of
// their names, <op>_<dtype>, and ByDType maps the dtype suffix (f32, f64,
// i64, bool, bf16, f16; two joined by "_" for kernels named after two,
// cast_<from>_<to>) to the kernel. names_gen.go has one for every op
// (Add, CastF32Bool's Cast, SumRows).
type Op struct {
	Name    string
	ByDType map[string]Kernel
}

// For returns op's kernel for dtype, and false when op has none.
func (o Op) For(dtype string) (Kernel, bool) {
	k, ok := o.ByDType[dtype]
	return k, ok
}

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
