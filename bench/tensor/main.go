// Command tensor measures gotensor's CPU speed against NumPy in one run:
// SGEMM as x.MatMul(y) on the BLAS tensor.BLAS reports (OpenBLAS when
// installed), and again in a child process with GOTENSOR_BLAS=gonum, and
// elementwise and reduction ops on large tensors. It runs
// bench/tensor_numpy.py with /usr/bin/python3 for NumPy's figures and
// prints the ratios.
//
// Run it from the repository root:
//
//	go run ./bench/tensor
//	go run ./bench/tensor -rounds 5
//
// The two sides alternate -rounds times (gotensor, then NumPy, then
// gotensor again, ...) and each figure is the best over the rounds, so
// that a busy spell on a shared machine does not fall on one side only.
//
// Both sides run with the environment as given (OPENBLAS_CORETYPE and
// OPENBLAS_L2_SIZE included, as CI has them); -native unsets those two for
// both sides, so that OpenBLAS picks the kernel for this CPU itself.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// numpyResult is the JSON object bench/tensor_numpy.py prints.
type numpyResult struct {
	Python string            `json:"python"`
	NumPy  string            `json:"numpy"`
	Env    map[string]string `json:"env"`
	BLAS   struct {
		Library  string `json:"library"`
		Corename string `json:"corename"`
		Threads  int    `json:"threads"`
		Source   string `json:"source"`
	} `json:"blas"`
	SGEMM struct {
		N       int     `json:"n"`
		Seconds float64 `json:"seconds"`
		GFLOPS  float64 `json:"gflops"`
	} `json:"sgemm"`
	Ops map[string]float64 `json:"ops"`
}

// tensorOp is one tensor operation timed against NumPy.
type tensorOp struct {
	name  string // key in numpyResult.Ops
	label string // how the Go and NumPy calls read
	run   func()
}

func main() {
	gemmN := flag.Int("gemm", 1024, "SGEMM size n: an n×n by n×n float32 product")
	gemmReps := flag.Int("gemm-reps", 10, "timed SGEMM runs per implementation (gonum runs a third as many)")
	opsN := flag.Int("ops", 4096, "tensor op size n: n×n float32 tensors")
	opsReps := flag.Int("ops-reps", 10, "timed runs per tensor op")
	rounds := flag.Int("rounds", 3, "times the two sides alternate; each figure is the best over the rounds")
	python := flag.String("python", "/usr/bin/python3", "Python interpreter with NumPy")
	script := flag.String("numpy", "bench/tensor_numpy.py", "the NumPy side of the benchmark")
	native := flag.Bool("native", false, "unset OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE for both sides")
	gemmOnly := flag.Bool("gemm-only", false, "print the SGEMM figure of the BLAS in use as JSON and exit (how the gonum figure is taken)")
	flag.Parse()

	if *native {
		// Before OpenBLAS loads: it reads the variables when it opens.
		os.Unsetenv("OPENBLAS_CORETYPE")
		os.Unsetenv("OPENBLAS_L2_SIZE")
	}
	if *gemmOnly {
		json.NewEncoder(os.Stdout).Encode(gemmResult{tensor.BLAS(), sgemmGFLOPS(*gemmN, *gemmReps)})
		return
	}
	if err := run(*gemmN, *gemmReps, *opsN, *opsReps, max(1, *rounds), *python, *script); err != nil {
		fmt.Fprintln(os.Stderr, "bench/tensor:", err)
		os.Exit(1)
	}
}

func run(gemmN, gemmReps, opsN, opsReps, rounds int, python, script string) error {
	// The BLAS is chosen once per process, so gonum's figure comes from a
	// child process, once: it is far from the others.
	gemm := []gemmResult{{BLAS: tensor.BLAS()}}
	ops := tensorOps(opsN)
	opTimes := map[string]float64{}
	var np *numpyResult
	for r := 0; r < rounds; r++ {
		gemm[0].GFLOPS = max(gemm[0].GFLOPS, sgemmGFLOPS(gemmN, gemmReps))
		for _, op := range ops {
			t := bestOf(op.run, opsReps, 2)
			if old, ok := opTimes[op.name]; !ok || t < old {
				opTimes[op.name] = t
			}
		}
		n, err := runNumPy(python, script, gemmN, gemmReps, opsN, opsReps)
		if err != nil {
			return err
		}
		if np == nil {
			np = n
			continue
		}
		np.SGEMM.GFLOPS = max(np.SGEMM.GFLOPS, n.SGEMM.GFLOPS)
		for k, v := range n.Ops {
			np.Ops[k] = min(np.Ops[k], v)
		}
	}
	if !strings.HasPrefix(gemm[0].BLAS, "gonum") {
		g, err := gonumGemm(gemmN, max(1, gemmReps/3))
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench/tensor: skipping gonum: %v\n", err)
		} else {
			gemm = append(gemm, g)
		}
	}

	fmt.Printf("gotensor CPU benchmark: %d CPUs, GOMAXPROCS=%d, %s %s/%s\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("environment: %s\n", openblasEnv())
	fmt.Printf("gotensor: %s\n", tensor.BLAS())
	fmt.Printf("numpy %s (Python %s): %s, OpenBLAS kernel %q, %d threads (from %s)\n\n",
		np.NumPy, np.Python, np.BLAS.Library, np.BLAS.Corename, np.BLAS.Threads, np.BLAS.Source)

	fmt.Printf("SGEMM %d×%d float32, best of %d after warm-up in each of %d rounds\n", gemmN, gemmN, gemmReps, rounds)
	fmt.Printf("  %-20s %10s %16s\n", "", "GFLOP/s", "ratio to numpy")
	for _, g := range gemm {
		fmt.Printf("  %-20s %10.1f %16.2f\n", g.BLAS, g.GFLOPS, g.GFLOPS/np.SGEMM.GFLOPS)
	}
	fmt.Printf("  %-20s %10.1f %16.2f\n\n", "numpy", np.SGEMM.GFLOPS, 1.0)

	fmt.Printf("Tensor ops on %d×%d float32, best of %d after warm-up in each of %d rounds\n", opsN, opsN, opsReps, rounds)
	fmt.Printf("  %-34s %12s %10s %16s\n", "gotensor / numpy", "gotensor ms", "numpy ms", "gotensor/numpy")
	for _, op := range ops {
		g, n := opTimes[op.name], np.Ops[op.name]
		fmt.Printf("  %-34s %12.2f %10.2f %16.2f\n", op.label, g*1e3, n*1e3, g/n)
	}
	return nil
}

// gemmResult is one SGEMM figure: the BLAS (as tensor.BLAS names it) and
// its speed.
type gemmResult struct {
	BLAS   string  `json:"blas"`
	GFLOPS float64 `json:"gflops"`
}

// sgemmGFLOPS times x.MatMul(y) for n×n float32 matrices with the BLAS in
// use.
func sgemmGFLOPS(n, reps int) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	a, b := make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = rng.Float32(), rng.Float32()
	}
	x, y := tensor.FromFloat32s(a, n, n), tensor.FromFloat32s(b, n, n)
	t := bestOf(func() { x.MatMul(y) }, reps, 2)
	return 2 * float64(n) * float64(n) * float64(n) / t / 1e9
}

// gonumGemm runs this program again with GOTENSOR_BLAS=gonum for the
// SGEMM figure of the pure-Go fallback.
func gonumGemm(n, reps int) (gemmResult, error) {
	self, err := os.Executable()
	if err != nil {
		return gemmResult{}, err
	}
	cmd := exec.Command(self, "-gemm-only", "-gemm", fmt.Sprint(n), "-gemm-reps", fmt.Sprint(reps))
	cmd.Env = append(os.Environ(), "GOTENSOR_BLAS=gonum")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return gemmResult{}, err
	}
	var g gemmResult
	if err := json.Unmarshal(out, &g); err != nil {
		return gemmResult{}, fmt.Errorf("the gonum run printed %q: %v", out, err)
	}
	return g, nil
}

// bestOf returns the shortest time in seconds of reps calls of fn, after
// warmup untimed calls.
func bestOf(fn func(), reps, warmup int) float64 {
	for range warmup {
		fn()
	}
	best := time.Duration(1<<63 - 1)
	for range reps {
		t0 := time.Now()
		fn()
		best = min(best, time.Since(t0))
	}
	return best.Seconds()
}

// runNumPy runs the NumPy side and decodes its result.
func runNumPy(python, script string, gemmN, gemmReps, opsN, opsReps int) (*numpyResult, error) {
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("%v: run from the repository root or pass -numpy PATH", err)
	}
	cmd := exec.Command(python, script,
		"--gemm", fmt.Sprint(gemmN), "--gemm-reps", fmt.Sprint(gemmReps),
		"--ops", fmt.Sprint(opsN), "--ops-reps", fmt.Sprint(opsReps))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", python, script, err)
	}
	var r numpyResult
	if err := json.Unmarshal(out, &r); err != nil {
		return nil, fmt.Errorf("%s printed %q: %v", script, out, err)
	}
	return &r, nil
}

// openblasEnv lists the OpenBLAS variables both sides run with.
func openblasEnv() string {
	var vars []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "OPENBLAS_") || strings.HasPrefix(kv, "GOTENSOR_BLAS=") {
			vars = append(vars, kv)
		}
	}
	if len(vars) == 0 {
		return "no OPENBLAS_* variables"
	}
	return strings.Join(vars, " ")
}
