package kernels

import (
	"embed"
	"regexp"
	"sort"
	"strings"
	"sync"
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

var entryRE = regexp.MustCompile(`(?m)^\s*\.visible\s+\.entry\s+([A-Za-z_]\w*)\s*\(`)

var index = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, mod := range Modules() {
		for _, e := range entryRE.FindAllSubmatch(PTX(mod), -1) {
			m[string(e[1])] = mod
		}
	}
	return m
})

// ModuleOf returns the module that defines kernel name, and false when no
// module does.
func ModuleOf(kernel string) (string, bool) {
	m, ok := index()[kernel]
	return m, ok
}

// Kernels returns every kernel name, sorted.
func Kernels() []string {
	var names []string
	for k := range index() {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
