package kernels

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestModulesHaveEntries(t *testing.T) {
	srcs, _ := filepath.Glob("*.cu")
	if len(srcs) != len(Modules()) {
		t.Fatalf("%d .cu files but %d PTX modules %v: run go generate ./kernels", len(srcs), len(Modules()), Modules())
	}
	for _, src := range srcs {
		mod := strings.TrimSuffix(src, ".cu")
		ptx := PTX(mod)
		if ptx == nil {
			t.Errorf("no PTX for %s", src)
			continue
		}
		// compute_70, or the source's nvcc-arch line (kernels/internal/gen).
		arch := "70"
		if b, err := os.ReadFile(src); err == nil {
			if m := regexp.MustCompile(`(?m)^//\s*nvcc-arch:\s*compute_([0-9]+)\s*$`).FindSubmatch(b); m != nil {
				arch = string(m[1])
			}
		}
		if !strings.Contains(string(ptx), ".target sm_"+arch) {
			t.Errorf("%s.ptx does not target sm_%s (compute_%s)", mod, arch, arch)
		}
	}
	for _, k := range []Kernel{"add_f32", "sum_rows_f32", "argmax_rows_part_i64", "gather_bool", "im2col_f64", "adam_f32", "uniform_f32", "cast_i64_bool"} {
		if _, ok := ModuleOf(k); !ok {
			t.Errorf("kernel %s is in no module", k)
		}
	}
	if _, ok := ModuleOf("no_such_kernel"); ok {
		t.Error("ModuleOf found no_such_kernel")
	}
}

// TestKernelNames checks the <op>_<dtype> naming convention: a dtype, or
// b1 to b16 for kernels that move elements of that many bytes
// whatever their dtype (the test kernels of selftest.cu, which no op
// launches, excepted).
func TestKernelNames(t *testing.T) {
	re := regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*_(f32|f64|i64|bool|bf16|f16|b1|b2|b4|b8|b16)$`)
	for _, k := range Kernels() {
		if !re.MatchString(string(k)) && !strings.HasPrefix(string(k), "selftest_") {
			t.Errorf("kernel %s is not named <op>_<dtype>", k)
		}
	}
}

// TestEmulatorTableCurrent checks that the emulator's generated table
// records the digest of every source as it is now, so that the emulator
// is never built from stale sources (run go generate ./kernels).
func TestEmulatorTableCurrent(t *testing.T) {
	gen, err := os.ReadFile("../cuda/internal/emu/kernels_gen.h")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, pat := range []string{"*.cu", "*.cuh"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("//   %s sha256:%x\n", filepath.ToSlash(f), sha256.Sum256(data))
		if !strings.Contains(string(gen), line) {
			t.Errorf("kernels_gen.h has a stale digest of %s: run go generate ./kernels", f)
		}
	}
	// Every entry of the PTX is in the table, and nothing else.
	n := strings.Count(string(gen), "\n  X(")
	if n != len(Kernels()) {
		t.Errorf("kernels_gen.h lists %d kernels, the PTX has %d: run go generate ./kernels", n, len(Kernels()))
	}
}

// TestNamesMatchPTX checks the generated names (names_gen.go) against the
// entry points the embedded PTX defines, module by module: every entry
// has its constant, in its module, and every constant is an entry (run
// go generate ./kernels when they differ).
func TestNamesMatchPTX(t *testing.T) {
	entry := regexp.MustCompile(`(?m)^\s*\.visible\s+\.entry\s+([A-Za-z_]\w*)\s*\(`)
	seen := 0
	for _, mod := range Modules() {
		for _, e := range entry.FindAllSubmatch(PTX(mod), -1) {
			k := Kernel(e[1])
			seen++
			if got, ok := ModuleOf(k); !ok || got != mod {
				t.Errorf("kernel %s of %s.ptx: ModuleOf = %q, %v; run go generate ./kernels", k, mod, got, ok)
			}
		}
	}
	if n := len(Kernels()); n != seen {
		t.Errorf("names_gen.go names %d kernels, the PTX defines %d: run go generate ./kernels", n, seen)
	}
	// The constants are the PTX's names, spelled in Go.
	for k, want := range map[Kernel]string{AddF32: "add_f32", CastI64Bool: "cast_i64_bool", ReluBackwardF32: "relu_backward_f32"} {
		if string(k) != want {
			t.Errorf("constant for %s is %q", want, k)
		}
	}
}

// TestOps checks the generated ops: each maps a dtype key to the kernel
// <op>_<key>, which exists, and a dtype without a kernel is missing.
func TestOps(t *testing.T) {
	for _, c := range []struct {
		op   Op
		key  string
		want Kernel
	}{{Add, "f32", AddF32}, {Cast, "i64_bool", CastI64Bool}, {ReluBackward, "f64", ReluBackwardF64},
		{SumRows, "f32", SumRowsF32}, {FlashFwdD64, "bf16_f32", FlashFwdD64Bf16F32}} {
		if k, ok := c.op.For(c.key); !ok || k != c.want {
			t.Errorf("%s.For(%q) = %q, %v, want %q", c.op.Name, c.key, k, ok, c.want)
		}
	}
	if k, ok := ReluBackward.For("bool"); ok {
		t.Errorf("relu_backward.For(bool) = %q, want none", k)
	}
	for _, op := range []Op{Add, Cast, Where, SoftmaxWarp4, Argsort} {
		if len(op.ByDType) == 0 {
			t.Errorf("op %s has no kernels", op.Name)
		}
		for key, k := range op.ByDType {
			if string(k) != op.Name+"_"+key {
				t.Errorf("%s[%q] = %q", op.Name, key, k)
			}
			if _, ok := ModuleOf(k); !ok {
				t.Errorf("%s[%q] = %q: no module", op.Name, key, k)
			}
		}
	}
}
