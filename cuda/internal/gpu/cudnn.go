//go:build cuda

package gpu

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// The cuDNN entry points the convolution calls, declared here rather than
// through cudnn.h: the library is opened with dlopen, as cuBLAS is, so
// that binaries need no cuDNN to build or to run. Handles and descriptors
// are opaque pointers and enums ints, as in cudnn.h (cuDNN 8 and 9).
typedef struct {
	int algo;
	int status;
	float time;
	size_t memory;
	int determinism;
	int mathType;
	int reserved[3];
} gtAlgoPerf; // cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t

typedef int (*gtNewFn)(void **);
typedef int (*gtDelFn)(void *);
typedef size_t (*gtVersionFn)(void);
typedef const char *(*gtErrFn)(int);
typedef int (*gtSetTensorFn)(void *, int, int, int, int, int, int);
typedef int (*gtSetConvFn)(void *, int, int, int, int, int, int, int, int);
typedef int (*gtSetMathFn)(void *, int);
typedef int (*gtAlgoFn)(void *, void *, void *, void *, void *, int, int *, gtAlgoPerf *);
typedef int (*gtWsFn)(void *, void *, void *, void *, void *, int, size_t *);
typedef int (*gtRunFn)(void *, const void *, void *, const void *, void *, const void *, void *, int,
	void *, size_t, const void *, void *, void *);

static gtNewFn gtDnnCreate, gtNewTensor, gtNewFilter, gtNewConv;
static gtDelFn gtDnnDestroy, gtDelTensor, gtDelFilter, gtDelConv;
static gtVersionFn gtDnnVersion;
static gtErrFn gtDnnError;
static gtSetTensorFn gtSetTensor, gtSetFilter;
static gtSetConvFn gtSetConv;
static gtSetMathFn gtSetMath;
static gtAlgoFn gtAlgo[3];
static gtWsFn gtWs[3];
static gtRunFn gtRun[3];

static const char *gtCudnnLoad(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		return dlerror();
	}
#define SYM(v, T, s) if ((v = (T)dlsym(h, s)) == NULL) { dlclose(h); gtDnnCreate = NULL; return "missing " s; }
	SYM(gtDnnCreate, gtNewFn, "cudnnCreate")
	SYM(gtDnnDestroy, gtDelFn, "cudnnDestroy")
	SYM(gtDnnVersion, gtVersionFn, "cudnnGetVersion")
	SYM(gtDnnError, gtErrFn, "cudnnGetErrorString")
	SYM(gtNewTensor, gtNewFn, "cudnnCreateTensorDescriptor")
	SYM(gtDelTensor, gtDelFn, "cudnnDestroyTensorDescriptor")
	SYM(gtNewFilter, gtNewFn, "cudnnCreateFilterDescriptor")
	SYM(gtDelFilter, gtDelFn, "cudnnDestroyFilterDescriptor")
	SYM(gtNewConv, gtNewFn, "cudnnCreateConvolutionDescriptor")
	SYM(gtDelConv, gtDelFn, "cudnnDestroyConvolutionDescriptor")
	SYM(gtSetTensor, gtSetTensorFn, "cudnnSetTensor4dDescriptor")
	SYM(gtSetFilter, gtSetTensorFn, "cudnnSetFilter4dDescriptor")
	SYM(gtSetConv, gtSetConvFn, "cudnnSetConvolution2dDescriptor")
	SYM(gtSetMath, gtSetMathFn, "cudnnSetConvolutionMathType")
	SYM(gtAlgo[0], gtAlgoFn, "cudnnGetConvolutionForwardAlgorithm_v7")
	SYM(gtAlgo[1], gtAlgoFn, "cudnnGetConvolutionBackwardDataAlgorithm_v7")
	SYM(gtAlgo[2], gtAlgoFn, "cudnnGetConvolutionBackwardFilterAlgorithm_v7")
	SYM(gtWs[0], gtWsFn, "cudnnGetConvolutionForwardWorkspaceSize")
	SYM(gtWs[1], gtWsFn, "cudnnGetConvolutionBackwardDataWorkspaceSize")
	SYM(gtWs[2], gtWsFn, "cudnnGetConvolutionBackwardFilterWorkspaceSize")
	SYM(gtRun[0], gtRunFn, "cudnnConvolutionForward")
	SYM(gtRun[1], gtRunFn, "cudnnConvolutionBackwardData")
	SYM(gtRun[2], gtRunFn, "cudnnConvolutionBackwardFilter")
#undef SYM
	return NULL;
}

static int gtCudnnCreate(void **h) { return gtDnnCreate(h); }
static int gtCudnnDestroy(void *h) { return gtDnnDestroy(h); }
static size_t gtCudnnVersion(void) { return gtDnnVersion(); }
static const char *gtCudnnError(int s) { return gtDnnError(s); }
static int gtNewDesc(int kind, void **d) {
	return kind == 0 ? gtNewTensor(d) : kind == 1 ? gtNewFilter(d) : gtNewConv(d);
}
static void gtDelDesc(int kind, void *d) {
	if (d == NULL) return;
	if (kind == 0) gtDelTensor(d); else if (kind == 1) gtDelFilter(d); else gtDelConv(d);
}
// NCHW is 0 in cudnnTensorFormat_t; the tensor setter takes (format,
// dtype, ...), the filter setter (dtype, format, ...).
static int gtSetTensor4d(void *d, int dt, int n, int c, int h, int w) { return gtSetTensor(d, 0, dt, n, c, h, w); }
static int gtSetFilter4d(void *d, int dt, int k, int c, int h, int w) { return gtSetFilter(d, dt, 0, k, c, h, w); }
// CUDNN_CROSS_CORRELATION is 1; dt is the compute type. The math type is
// CUDNN_FMA_MATH (3), which keeps float32 out of TF32 tensor cores, unless
// the caller allows them: CUDNN_DEFAULT_MATH (0) for TF32,
// CUDNN_TENSOR_OP_MATH (1) for 16-bit data.
static int gtSetConv2d(void *d, int ph, int pw, int sh, int sw, int dh, int dw, int dt, int math) {
	int st = gtSetConv(d, ph, pw, sh, sw, dh, dw, 1, dt);
	return st ? st : gtSetMath(d, math);
}
static int gtSetConvMath(void *d, int math) { return gtSetMath(d, math); }
// gtAlgos asks cuDNN's heuristics for kind's algorithms, best first. The
// operands are in the order of the kind's query: forward (x, w, conv, y),
// backward data (w, dy, conv, dx), backward filter (x, dy, conv, dw).
static int gtAlgos(int kind, void *h, void *a, void *b, void *conv, void *c, int n, int *got, gtAlgoPerf *res) {
	return gtAlgo[kind](h, a, b, conv, c, n, got, res);
}
static int gtWorkspace(int kind, void *h, void *a, void *b, void *conv, void *c, int algo, size_t *ws) {
	return gtWs[kind](h, a, b, conv, c, algo, ws);
}
// gtConv runs kind with alpha 1 and beta 0 (float or double scalars as
// the data): forward (x, w → y), backward data (w, dy → dx), backward
// filter (x, dy → dw).
static int gtConv(int kind, int dbl, void *h, void *ad, unsigned long long a, void *bd, unsigned long long b,
		void *conv, int algo, unsigned long long ws, size_t wsBytes, void *cd, unsigned long long c) {
	float f1 = 1, f0 = 0;
	double d1 = 1, d0 = 0;
	const void *one = dbl ? (const void *)&d1 : (const void *)&f1;
	const void *zero = dbl ? (const void *)&d0 : (const void *)&f0;
	return gtRun[kind](h, one, ad, (const void *)a, bd, (const void *)b, conv, algo, (void *)ws, wsBytes, zero, cd, (void *)c);
}
*/
import "C"

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/gotensor/gotensor/cuda/internal/driver"
)

// cudnnNames are the libraries tried, newest first. GOTENSOR_CUDNN
// chooses: unset searches these names and uses cuDNN when one loads
// (gotensor's im2col + GEMM otherwise), "1" searches them and reports an
// error when none loads, "0" leaves cuDNN out, anything else is the
// library's path.
var cudnnNames = []string{"libcudnn.so.9", "libcudnn.so.8", "libcudnn.so"}

var (
	cudnnOnce   sync.Once
	cudnnLoaded bool
	cudnnErr    error
	cudnnStatus = "not used (GOTENSOR_CUDNN=0): im2col + GEMM"
)

// CuDNN returns how convolutions run: with cuDNN (its version), or
// without and why.
func CuDNN() string {
	loadCudnn()
	return cudnnStatus
}

// loadCudnn opens cuDNN once, unless GOTENSOR_CUDNN is 0. It returns
// false, with no error, when cuDNN is not asked for by name (GOTENSOR_CUDNN
// unset) and not found, and the reason when asked for and not found.
func loadCudnn() (bool, error) {
	env := os.Getenv("GOTENSOR_CUDNN")
	if env == "0" {
		return false, nil
	}
	cudnnOnce.Do(func() {
		names := cudnnNames
		if env != "1" && env != "" {
			names = []string{env}
		}
		p, tried := searchLibrary(names, func(p *C.char) *C.char { return C.gtCudnnLoad(p) })
		if tried == nil {
			cudnnLoaded = true
			v := int(C.gtCudnnVersion())
			cudnnStatus = fmt.Sprintf("cuDNN %d.%d.%d (%s)", v/10000, v/100%100, v%100, p)
			if v < 10000 { // cuDNN 8 numbers versions as major*1000 + minor*100 + patch
				cudnnStatus = fmt.Sprintf("cuDNN %d.%d.%d (%s)", v/1000, v/100%10, v%100, p)
			}
			return
		}
		if env == "" {
			cudnnStatus = fmt.Sprintf("not used (no cuDNN found: tried %s; set GOTENSOR_CUDNN to its path): im2col + GEMM", strings.Join(names, ", "))
			return
		}
		cudnnErr = fmt.Errorf("gpu: GOTENSOR_CUDNN=%s but cuDNN cannot be loaded (tried %s): install cuDNN 8 or 9, or set GOTENSOR_CUDNN to the library's path (0 to convolve without it); the first error: %s",
			env, strings.Join(names, ", "), tried[0])
		cudnnStatus = "not used: " + cudnnErr.Error()
	})
	return cudnnLoaded, cudnnErr
}

// convDriver is a Driver that also convolves with cuDNN.
type convDriver struct {
	*Driver
	h     unsafe.Pointer // cudnnHandle_t, made on the device's thread
	plans map[driver.ConvArgs]*convPlan
}

var _ driver.Convolver = (*convDriver)(nil)

// convPlan is what one shape and kind of convolution needs: cuDNN's
// descriptors and the algorithm chosen, kept for the next call.
type convPlan struct {
	x, w, y, conv unsafe.Pointer
	algo          C.int
	ws            int
}

// WithCuDNN returns d itself, or d with cuDNN's convolutions when
// GOTENSOR_CUDNN asks for them and the library loads. Call it on the
// device's thread, after Open.
func (d *Driver) WithCuDNN() driver.Driver {
	ok, _ := loadCudnn()
	if !ok {
		return d
	}
	var h unsafe.Pointer
	if st := C.gtCudnnCreate(&h); st != 0 {
		cudnnStatus = "not used: cudnnCreate failed: " + C.GoString(C.gtCudnnError(st))
		return d
	}
	return &convDriver{Driver: d, h: h, plans: map[driver.ConvArgs]*convPlan{}}
}

// Close destroys the cuDNN handle and the descriptors, then closes the
// device.
func (d *convDriver) Close() error {
	for _, p := range d.plans {
		C.gtDelDesc(0, p.x)
		C.gtDelDesc(1, p.w)
		C.gtDelDesc(0, p.y)
		C.gtDelDesc(2, p.conv)
	}
	if d.h != nil {
		C.gtCudnnDestroy(d.h)
		d.h = nil
	}
	return d.Driver.Close()
}

// dnnErr turns a cudnnStatus_t into an error.
func dnnErr(what string, st C.int) error {
	if st == 0 {
		return nil
	}
	return fmt.Errorf("gpu: cuDNN %s: %s (status %d)", what, C.GoString(C.gtCudnnError(st)), int(st))
}

// plan returns c's plan, making the descriptors and choosing the
// algorithm the first time.
func (d *convDriver) plan(c driver.ConvArgs) (*convPlan, error) {
	key := c
	key.X, key.Wt, key.Y = 0, 0, 0
	if p, ok := d.plans[key]; ok {
		return p, nil
	}
	// The data type (CUDNN_DATA_FLOAT 0, DOUBLE 1, HALF 2, BFLOAT16 9),
	// the compute type (float for 16-bit data) and the math type.
	dt, compute, math := C.int(0), C.int(0), C.int(3)
	switch {
	case c.Double:
		dt, compute = 1, 1
	case c.Half == driver.F16:
		dt, math = 2, 1
	case c.Half == driver.BF16:
		dt, math = 9, 1
	case c.TF32:
		math = 0
	}
	tensorOps := math != 3
	p := &convPlan{}
	fail := func(err error) (*convPlan, error) {
		C.gtDelDesc(0, p.x)
		C.gtDelDesc(1, p.w)
		C.gtDelDesc(0, p.y)
		C.gtDelDesc(2, p.conv)
		return nil, err
	}
	for _, m := range []struct {
		kind C.int
		d    *unsafe.Pointer
	}{{0, &p.x}, {1, &p.w}, {0, &p.y}, {2, &p.conv}} {
		if err := dnnErr("creating a descriptor", C.gtNewDesc(m.kind, m.d)); err != nil {
			return fail(err)
		}
	}
	if err := dnnErr("describing the input", C.gtSetTensor4d(p.x, dt, C.int(c.N), C.int(c.C), C.int(c.H), C.int(c.W))); err != nil {
		return fail(err)
	}
	if err := dnnErr("describing the filters", C.gtSetFilter4d(p.w, dt, C.int(c.F), C.int(c.C), C.int(c.KH), C.int(c.KW))); err != nil {
		return fail(err)
	}
	if err := dnnErr("describing the output", C.gtSetTensor4d(p.y, dt, C.int(c.N), C.int(c.F), C.int(c.OH), C.int(c.OW))); err != nil {
		return fail(err)
	}
	if err := dnnErr("describing the convolution", C.gtSetConv2d(p.conv, C.int(c.PadH), C.int(c.PadW), C.int(c.StrideH), C.int(c.StrideW), C.int(c.DilH), C.int(c.DilW), compute, math)); err != nil {
		return fail(err)
	}
	a, b, out := p.operands(c.Kind)
	const want = 16
	var res [want]C.gtAlgoPerf
	var got C.int
	if err := dnnErr("choosing an algorithm", C.gtAlgos(C.int(c.Kind), d.h, a, b, p.conv, out, want, &got, &res[0])); err != nil {
		return fail(err)
	}
	found := false
	for _, r := range res[:got] {
		// CUDNN_STATUS_SUCCESS, and a tensor-op (TF32) algorithm only
		// where allowed; the descriptor takes the algorithm's math type.
		if r.status != 0 || !tensorOps && (r.mathType == 1 || r.mathType == 2) {
			continue
		}
		if tensorOps && dnnErr("setting the math type", C.gtSetConvMath(p.conv, r.mathType)) != nil {
			continue
		}
		var ws C.size_t
		if dnnErr("", C.gtWorkspace(C.int(c.Kind), d.h, a, b, p.conv, out, r.algo, &ws)) != nil || ws > 1<<30 {
			continue
		}
		p.algo, p.ws, found = r.algo, int(ws), true
		break
	}
	if !found {
		return fail(fmt.Errorf("gpu: cuDNN has no usable algorithm for this convolution (%d candidates; tensor cores allowed: %v)", int(got), tensorOps))
	}
	d.plans[key] = p
	return p, nil
}

// operands returns the descriptors of a kind's two inputs and its output,
// in cuDNN's order for that kind.
func (p *convPlan) operands(k driver.ConvKind) (a, b, out unsafe.Pointer) {
	switch k {
	case driver.ConvBackwardData:
		return p.w, p.y, p.x
	case driver.ConvBackwardFilter:
		return p.x, p.y, p.w
	}
	return p.x, p.w, p.y
}

// ConvWorkspace returns the scratch bytes of c's algorithm.
func (d *convDriver) ConvWorkspace(c driver.ConvArgs) (int, error) {
	p, err := d.plan(c)
	if err != nil {
		return 0, err
	}
	return p.ws, nil
}

// Conv runs c on the default stream.
func (d *convDriver) Conv(c driver.ConvArgs, workspace driver.DevicePtr, bytes int) error {
	p, err := d.plan(c)
	if err != nil {
		return err
	}
	if bytes < p.ws {
		return fmt.Errorf("gpu: cuDNN convolution: %d bytes of workspace, the algorithm needs %d", bytes, p.ws)
	}
	ad, bd, od := p.operands(c.Kind)
	ap, bp, op := c.X, c.Wt, c.Y
	switch c.Kind {
	case driver.ConvBackwardData:
		ap, bp, op = c.Wt, c.Y, c.X
	case driver.ConvBackwardFilter:
		ap, bp, op = c.X, c.Y, c.Wt
	}
	dbl := C.int(0)
	if c.Double {
		dbl = 1
	}
	st := C.gtConv(C.int(c.Kind), dbl, d.h, ad, C.ulonglong(ap), bd, C.ulonglong(bp), p.conv, p.algo,
		C.ulonglong(workspace), C.size_t(bytes), od, C.ulonglong(op))
	return dnnErr([...]string{"forward", "backward data", "backward filter"}[c.Kind], st)
}
