// Command gen compiles the CUDA C kernels of package kernels to PTX with
// nvcc and writes the emulator's view of them. Run it through
//
//	go generate ./kernels
//
// It writes kernels/ptx/<family>.ptx for each kernels/<family>.cu (nvcc
// -ptx -arch=compute_70, or the architecture of the source's
// "// nvcc-arch: compute_NN" line); kernels/names_gen.go, a constant of
// type kernels.Kernel for every entry point of the PTX, the module
// that defines it, and a kernels.Op for every op, its kernels by dtype
// (opTables); and cuda/internal/emu/kernels_gen.h, which
// includes the same sources into the CPU emulator and lists every entry
// point found in the PTX, marking those that synchronize (bar.sync, or a
// warp primitive such as bar.warp.sync or shfl.sync, directly or through a
// called function) so that the emulator runs their threads as coroutines. The header records a SHA-256 digest of each
// source, so that a source change also changes a file the Go build tracks,
// and the emulator is rebuilt.
//
// Flags:
//
//	-check      compare with the committed files instead of writing; exit 1
//	            and name the files that differ (scripts/check-ptx.sh)
//	-emu-only   rewrite kernels_gen.h and names_gen.go from the committed
//	            PTX, without nvcc
//	-nvcc path  the compiler (default $NVCC, else nvcc on $PATH)
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Arch is the virtual architecture the PTX targets; the driver JIT-compiles
// it for the GPU at hand (Volta and newer). A source that needs a later
// one (the tensor cores' mma.sync m16n8k16 needs compute_80) says so in a
// line of its own, "// nvcc-arch: compute_80", and the Go side launches
// its kernels only on devices that have it.
const Arch = "compute_70"

// archRE finds a source's nvcc-arch line.
var archRE = regexp.MustCompile(`(?m)^//\s*nvcc-arch:\s*(compute_[0-9]+)\s*$`)

// archOf returns the virtual architecture to compile src for.
func archOf(src string) (string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	if m := archRE.FindSubmatch(b); m != nil {
		return string(m[1]), nil
	}
	return Arch, nil
}

func main() {
	check := flag.Bool("check", false, "compare with the committed files instead of writing them")
	emuOnly := flag.Bool("emu-only", false, "rewrite the emulator table from the committed PTX without running nvcc")
	nvcc := flag.String("nvcc", os.Getenv("NVCC"), "nvcc to run (default: nvcc on $PATH)")
	dir := flag.String("dir", ".", "the kernels directory")
	flag.Parse()
	if *nvcc == "" {
		*nvcc = "nvcc"
	}
	if err := run(*dir, *nvcc, *check, *emuOnly); err != nil {
		fmt.Fprintln(os.Stderr, "kernels/gen:", err)
		os.Exit(1)
	}
}

func run(dir, nvcc string, check, emuOnly bool) error {
	sources, err := filepath.Glob(filepath.Join(dir, "*.cu"))
	if err != nil {
		return err
	}
	sort.Strings(sources)
	if len(sources) == 0 {
		return fmt.Errorf("no .cu files in %s", dir)
	}
	want := map[string][]byte{} // path -> content
	var ptxs []ptxFile
	for _, src := range sources {
		family := strings.TrimSuffix(filepath.Base(src), ".cu")
		ptxPath := filepath.Join(dir, "ptx", family+".ptx")
		var ptx []byte
		if emuOnly {
			if ptx, err = os.ReadFile(ptxPath); err != nil {
				return fmt.Errorf("%v (run without -emu-only, with nvcc, to create it)", err)
			}
		} else {
			if ptx, err = compile(nvcc, src); err != nil {
				return err
			}
			want[ptxPath] = ptx
		}
		ptxs = append(ptxs, ptxFile{family: family, src: filepath.Base(src), ptx: ptx})
	}
	table, err := emuTable(dir, ptxs)
	if err != nil {
		return err
	}
	want[filepath.Join(dir, "..", "cuda", "internal", "emu", "kernels_gen.h")] = table
	names, err := goTable(ptxs)
	if err != nil {
		return err
	}
	want[filepath.Join(dir, "names_gen.go")] = names

	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if check {
		var stale []string
		for _, p := range paths {
			have, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(have, want[p]) {
				stale = append(stale, p)
			}
		}
		if !emuOnly {
			// PTX files with no source left.
			old, _ := filepath.Glob(filepath.Join(dir, "ptx", "*.ptx"))
			for _, p := range old {
				if _, ok := want[p]; !ok {
					stale = append(stale, p+" (no source)")
				}
			}
		}
		if len(stale) > 0 {
			return fmt.Errorf("generated files are stale; run go generate ./kernels (with %s) and commit:\n\t%s",
				nvccVersion(nvcc), strings.Join(stale, "\n\t"))
		}
		return nil
	}
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, want[p], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// compile runs nvcc on src and returns the PTX.
func compile(nvcc, src string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "kernels-ptx")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "out.ptx")
	// Run in the source's directory with a relative name, so that the
	// PTX does not depend on where the checkout is.
	arch, err := archOf(src)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(nvcc, "-ptx", "-arch="+arch, "-std=c++17", "-o", out, filepath.Base(src))
	cmd.Dir = filepath.Dir(src)
	if msg, err := cmd.CombinedOutput(); err != nil {
		if _, lookErr := exec.LookPath(nvcc); lookErr != nil {
			return nil, fmt.Errorf("%s not found: install the CUDA toolkit (scripts/setup-cuda.sh) or set NVCC", nvcc)
		}
		return nil, fmt.Errorf("%s %s: %v\n%s", nvcc, src, err, msg)
	}
	return os.ReadFile(out)
}

func nvccVersion(nvcc string) string {
	out, err := exec.Command(nvcc, "--version").Output()
	if err != nil {
		return "nvcc"
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, l := range lines {
		if strings.Contains(l, "release") {
			return "nvcc " + strings.TrimSpace(l)
		}
	}
	return "nvcc"
}

type ptxFile struct {
	family, src string
	ptx         []byte
}

var (
	funcHead = regexp.MustCompile(`(?m)^\s*(?:\.visible\s+|\.weak\s+)?(\.entry|\.func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)`)
	callRE   = regexp.MustCompile(`\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$]*)`)
	// A barrier, a warp barrier, a warp shuffle or a tensor-core
	// instruction: the emulator runs the threads of such a kernel as
	// coroutines.
	syncRE = regexp.MustCompile(`\b(?:bar|barrier)\.sync\b|\bbar\.red\b|\bbarrier\.red\b|\bbar\.warp\.sync\b|\bshfl\.sync\b|\bvote\.sync\b|\bmatch\.sync\b|\bredux\.sync\b|\bmma\.sync\b|\bldmatrix\.sync\b`)
)

type ptxFunc struct {
	entry bool
	sync  bool
	calls []string
}

// parsePTX returns the functions of a PTX module by name, entries in
// order of appearance.
func parsePTX(ptx []byte) (map[string]*ptxFunc, []string) {
	funcs := map[string]*ptxFunc{}
	var entries []string
	text := string(ptx)
	heads := funcHead.FindAllStringSubmatchIndex(text, -1)
	for i, h := range heads {
		kind, name := text[h[2]:h[3]], text[h[4]:h[5]]
		end := len(text)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		body := text[h[1]:end]
		// A declaration without a body ends in ';' before any '{'.
		open := strings.Index(body, "{")
		if open < 0 {
			continue
		}
		if semi := strings.Index(body, ";"); semi >= 0 && semi < open && !strings.Contains(body[:open], ")") {
			continue
		}
		f := &ptxFunc{entry: kind == ".entry", sync: syncRE.MatchString(body)}
		for _, m := range callRE.FindAllStringSubmatch(body, -1) {
			f.calls = append(f.calls, m[1])
		}
		if old, ok := funcs[name]; ok && !f.entry {
			old.sync = old.sync || f.sync
			old.calls = append(old.calls, f.calls...)
			continue
		}
		funcs[name] = f
		if f.entry {
			entries = append(entries, name)
		}
	}
	// Propagate sync through calls to a fixed point.
	for changed := true; changed; {
		changed = false
		for _, f := range funcs {
			if f.sync {
				continue
			}
			for _, c := range f.calls {
				if g, ok := funcs[c]; ok && g.sync {
					f.sync, changed = true, true
					break
				}
			}
		}
	}
	return funcs, entries
}

// emuTable returns kernels_gen.h.
func emuTable(dir string, ptxs []ptxFile) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go generate ./kernels (kernels/internal/gen); DO NOT EDIT.\n\n")
	b.WriteString("// The CUDA C sources of kernels/, compiled by the host compiler, and their\n")
	b.WriteString("// entry points as listed in the PTX. Digests of the sources (a change to\n")
	b.WriteString("// any of them changes this file, so the Go build recompiles the emulator):\n")
	deps, err := digestFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, d := range deps {
		fmt.Fprintf(&b, "//   %s\n", d)
	}
	b.WriteString("\n// What the sources use of CUDA, for the host compiler.\n")
	b.WriteString("#include \"cuda_emu.h\"\n\n")
	for _, p := range ptxs {
		fmt.Fprintf(&b, "#include \"../../../kernels/%s\"\n", p.src)
	}
	b.WriteString("\n// EMU_KERNELS(X) calls X(name, sync) for every entry point; sync is 1\n")
	b.WriteString("// when the kernel calls __syncthreads or a warp primitive.\n")
	b.WriteString("#define EMU_KERNELS(X)")
	seen := map[string]string{}
	for _, p := range ptxs {
		funcs, entries := parsePTX(p.ptx)
		if len(entries) == 0 {
			return nil, fmt.Errorf("%s: no entry points in the PTX", p.src)
		}
		for _, e := range entries {
			if other, dup := seen[e]; dup {
				return nil, fmt.Errorf("kernel %s defined in both %s and %s", e, other, p.src)
			}
			seen[e] = p.src
			sync := 0
			if funcs[e].sync {
				sync = 1
			}
			fmt.Fprintf(&b, " \\\n  X(%s, %d)", e, sync)
		}
	}
	b.WriteString("\n")
	return b.Bytes(), nil
}

// digestFiles returns "path sha256:hex" for every source the emulator
// compiles from kernels/: *.cu and *.cuh. (The emulator's own files,
// cuda_emu.h among them, are in its package's folder, which the Go build
// tracks itself.)
func digestFiles(dir string) ([]string, error) {
	var files []string
	for _, pat := range []string{"*.cu", "*.cuh"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(dir, f)
		out = append(out, fmt.Sprintf("%s sha256:%x", filepath.ToSlash(rel), sha256.Sum256(data)))
	}
	return out, nil
}

// goName returns the Go name of kernel k: its words capitalized and
// joined, relu_backward_f32 → ReluBackwardF32.
func goName(k string) string {
	var b strings.Builder
	for _, w := range strings.Split(k, "_") {
		if w == "" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// goTable returns names_gen.go: a constant of type Kernel for every entry
// point of the PTX, the ops (opTables), and the module that defines
// each kernel.
func goTable(ptxs []ptxFile) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go generate ./kernels (kernels/internal/gen); DO NOT EDIT.\n\n")
	b.WriteString("package kernels\n\n")
	b.WriteString("// The kernels, one constant an entry point of the PTX, named after it\n")
	b.WriteString("// (relu_backward_f32 is ReluBackwardF32), grouped by the .cu file, the\n")
	b.WriteString("// module, that defines them.\n")
	b.WriteString("const (\n")
	names := map[string]string{}
	var table bytes.Buffer
	for i, p := range ptxs {
		_, entries := parsePTX(p.ptx)
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\t// %s\n", p.src)
		for _, e := range entries {
			g := goName(e)
			if other, dup := names[g]; dup {
				return nil, fmt.Errorf("kernels %s and %s have one Go name, %s: rename one", other, e, g)
			}
			names[g] = e
			fmt.Fprintf(&b, "\t%s Kernel = %q\n", g, e)
			fmt.Fprintf(&table, "\t%s: %q,\n", g, p.family)
		}
	}
	b.WriteString(")\n\n")
	ops, err := opTables(ptxs, names)
	if err != nil {
		return nil, err
	}
	b.Write(ops)
	b.WriteString("// modules maps each kernel to its module.\n")
	b.WriteString("var modules = map[Kernel]string{\n")
	b.Write(table.Bytes())
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// dtypes are the dtype suffixes of kernel names, as cuda's suffix
// returns them.
var dtypes = map[string]bool{"f32": true, "f64": true, "i64": true, "bool": true, "bf16": true, "f16": true}

// splitOp splits kernel k, <op>_<dtype> or <op>_<dtype>_<dtype> (the cast
// pairs, cast_f32_i64; flash's format and dtype, flash_fwd_d64_bf16_f32),
// into op and the dtype key (f32, f32_i64); ok is false when k does not
// end in a dtype.
func splitOp(k string) (op, key string, ok bool) {
	words := strings.Split(k, "_")
	n := 0
	for n < 2 && n < len(words)-1 && dtypes[words[len(words)-1-n]] {
		n++
	}
	if n == 0 {
		return "", "", false
	}
	cut := len(words) - n
	return strings.Join(words[:cut], "_"), strings.Join(words[cut:], "_"), true
}

// opTables returns the declarations of an Op for every op that has
// kernels by dtype, named after the op (add is Add), sorted by name.
// names holds the Go names of the kernels, which an op's must not be.
func opTables(ptxs []ptxFile, names map[string]string) ([]byte, error) {
	type op struct {
		name string
		keys []string
		ks   map[string]string // key -> kernel
	}
	ops := map[string]*op{}
	for _, p := range ptxs {
		_, entries := parsePTX(p.ptx)
		for _, e := range entries {
			name, key, ok := splitOp(e)
			if !ok {
				continue
			}
			o := ops[name]
			if o == nil {
				o = &op{name: name, ks: map[string]string{}}
				ops[name] = o
			}
			o.keys = append(o.keys, key)
			o.ks[key] = e
		}
	}
	var b bytes.Buffer
	b.WriteString("// The ops: the kernels <op>_<dtype> of each op by the dtype suffix\n")
	b.WriteString("// (f32, f64, i64, bool, bf16, f16; two for the cast pairs,\n")
	b.WriteString("// cast_<from>_<to>, and flash's format and dtype), one variable an op,\n")
	b.WriteString("// named after it (add is Add; Add.For(\"f32\") is AddF32).\n")
	b.WriteString("var (\n")
	goOps := map[string]string{}
	for _, n := range slices.Sorted(maps.Keys(ops)) {
		o := ops[n]
		g := goName(n)
		if k, dup := names[g]; dup {
			return nil, fmt.Errorf("op %s and kernel %s have one Go name, %s: rename one", n, k, g)
		}
		if other, dup := goOps[g]; dup {
			return nil, fmt.Errorf("ops %s and %s have one Go name, %s: rename one", other, n, g)
		}
		goOps[g] = n
		fmt.Fprintf(&b, "\t%s = Op{Name: %q, ByDType: map[string]Kernel{", g, n)
		for i, k := range o.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q: %s", k, goName(o.ks[k]))
		}
		b.WriteString("}}\n")
	}
	b.WriteString(")\n\n")
	return b.Bytes(), nil
}
