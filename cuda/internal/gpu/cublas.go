//go:build cuda

package gpu

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// The few cuBLAS entry points the backend calls, declared here rather than
// through cublas_v2.h: the library is opened with dlopen, so one binary runs
// with whichever cuBLAS the machine has (11, 12 or 13), whose symbols carry
// a version named after their own soname.
typedef int (*gtCreateFn)(void **);
typedef int (*gtDestroyFn)(void *);
typedef int (*gtSgemmBatchedFn)(void *, int, int, int, int, int, const float *,
	const float *, int, long long, const float *, int, long long, const float *,
	float *, int, long long, int);
typedef int (*gtDgemmBatchedFn)(void *, int, int, int, int, int, const double *,
	const double *, int, long long, const double *, int, long long, const double *,
	double *, int, long long, int);
// cublasGemmStridedBatchedEx (cuBLAS 11 and later: the compute type is a
// cublasComputeType_t, the data types cudaDataType_t).
typedef int (*gtGemmExBatchedFn)(void *, int, int, int, int, int, const void *,
	const void *, int, int, long long, const void *, int, int, long long, const void *,
	void *, int, int, long long, int, int, int);

static gtCreateFn gtCreate;
static gtDestroyFn gtDestroy;
static gtSgemmBatchedFn gtSgemmBatched;
static gtDgemmBatchedFn gtDgemmBatched;
static gtGemmExBatchedFn gtGemmExBatched;

static const char *gtCublasLoad(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		return dlerror();
	}
	gtCreate = (gtCreateFn)dlsym(h, "cublasCreate_v2");
	gtDestroy = (gtDestroyFn)dlsym(h, "cublasDestroy_v2");
	gtSgemmBatched = (gtSgemmBatchedFn)dlsym(h, "cublasSgemmStridedBatched");
	gtDgemmBatched = (gtDgemmBatchedFn)dlsym(h, "cublasDgemmStridedBatched");
	gtGemmExBatched = (gtGemmExBatchedFn)dlsym(h, "cublasGemmStridedBatchedEx");
	if (!gtCreate || !gtDestroy || !gtSgemmBatched || !gtDgemmBatched || !gtGemmExBatched) {
		dlclose(h);
		gtCreate = NULL;
		return "cublasCreate_v2, cublasDestroy_v2, cublas[SD]gemmStridedBatched or cublasGemmStridedBatchedEx not found";
	}
	return NULL;
}

static int gtCublasCreate(void **h) { return gtCreate(h); }
static int gtCublasDestroy(void *h) { return gtDestroy(h); }

static int gtSgemm(void *h, int ta, int tb, int m, int n, int k, float alpha,
		unsigned long long a, int lda, long long sa, unsigned long long b, int ldb, long long sb,
		float beta, unsigned long long c, int ldc, long long sc, int batch) {
	return gtSgemmBatched(h, ta, tb, m, n, k, &alpha, (const float *)a, lda, sa,
		(const float *)b, ldb, sb, &beta, (float *)c, ldc, sc, batch);
}

// gtGemmEx runs a GEMM of dtype-typed A, B and C (cudaDataType_t:
// CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14) with float alpha, beta and
// compute type compute (CUBLAS_COMPUTE_32F 68, CUBLAS_COMPUTE_32F_FAST_TF32
// 77), letting cuBLAS pick the algorithm (CUBLAS_GEMM_DEFAULT, -1).
static int gtGemmEx(void *h, int ta, int tb, int m, int n, int k, float alpha, int dtype, int compute,
		unsigned long long a, int lda, long long sa, unsigned long long b, int ldb, long long sb,
		float beta, unsigned long long c, int ldc, long long sc, int batch) {
	return gtGemmExBatched(h, ta, tb, m, n, k, &alpha, (const void *)a, dtype, lda, sa,
		(const void *)b, dtype, ldb, sb, &beta, (void *)c, dtype, ldc, sc, batch, compute, -1);
}

static int gtDgemm(void *h, int ta, int tb, int m, int n, int k, double alpha,
		unsigned long long a, int lda, long long sa, unsigned long long b, int ldb, long long sb,
		double beta, unsigned long long c, int ldc, long long sc, int batch) {
	return gtDgemmBatched(h, ta, tb, m, n, k, &alpha, (const double *)a, lda, sa,
		(const double *)b, ldb, sb, &beta, (double *)c, ldc, sc, batch);
}
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/gotensor/gotensor/cuda/internal/driver"
)

// cublasNames are the libraries tried, newest first; GOTENSOR_CUBLAS names
// another. Each is tried as a bare name (the dynamic loader's search path)
// and in the CUDA toolkit's usual folders.
var cublasNames = []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"}

var cublasDirs = []string{"", "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"}

var (
	cublasOnce sync.Once
	cublasErr  error
)

// loadCublas opens cuBLAS once.
func loadCublas() error {
	cublasOnce.Do(func() {
		names := cublasNames
		if n := os.Getenv("GOTENSOR_CUBLAS"); n != "" {
			names = []string{n}
		}
		_, tried := searchLibrary(names, func(p *C.char) *C.char { return C.gtCublasLoad(p) })
		if tried == nil {
			return
		}
		cublasErr = fmt.Errorf("gpu: cannot load cuBLAS (tried %s): install the CUDA toolkit's cuBLAS, add its folder to LD_LIBRARY_PATH, or set GOTENSOR_CUBLAS to the library's path; the first error: %s",
			strings.Join(names, ", "), tried[0])
	})
	return cublasErr
}

// searchLibrary tries each of names, a bare name in the loader's search
// path and then in the CUDA toolkit's folders (and $CUDA_HOME/lib64), a
// name with a slash as it is, with load, which returns NULL on success and
// the loader's error otherwise. It returns the path that loaded, or nil
// and every error.
func searchLibrary(names []string, load func(path *C.char) *C.char) (string, []string) {
	dirs := cublasDirs
	if h := os.Getenv("CUDA_HOME"); h != "" {
		dirs = append(dirs, filepath.Join(h, "lib64"))
	}
	var tried []string
	for _, n := range names {
		for _, d := range dirs {
			p := n
			if d != "" {
				if strings.Contains(n, "/") {
					continue
				}
				p = filepath.Join(d, n)
			}
			cp := C.CString(p)
			msg := load(cp)
			C.free(unsafe.Pointer(cp))
			if msg == nil {
				return p, nil
			}
			tried = append(tried, C.GoString(msg))
		}
	}
	return "", tried
}

// cublasHandle is a cuBLAS context for the device current on the calling
// thread.
type cublasHandle struct{ h unsafe.Pointer }

func newCublas() (*cublasHandle, error) {
	if err := loadCublas(); err != nil {
		return nil, err
	}
	var h unsafe.Pointer
	if st := C.gtCublasCreate(&h); st != 0 {
		return nil, fmt.Errorf("gpu: cublasCreate failed: %s", cublasStatus(int(st)))
	}
	return &cublasHandle{h: h}, nil
}

func (c *cublasHandle) close() {
	if c.h != nil {
		C.gtCublasDestroy(c.h)
		c.h = nil
	}
}

// gemm runs one strided batched sgemm or dgemm, or GemmEx for 16-bit
// operands and TF32.
func (c *cublasHandle) gemm(g driver.GemmArgs) error {
	op := func(t driver.Transpose) C.int {
		if t {
			return 1 // CUBLAS_OP_T
		}
		return 0 // CUBLAS_OP_N
	}
	var st C.int
	switch {
	case g.Half != driver.NotHalf || g.TF32 && !g.Double:
		dtype, compute := C.int(0), C.int(68) // CUDA_R_32F, CUBLAS_COMPUTE_32F
		switch {
		case g.Half == driver.BF16:
			dtype = 14 // CUDA_R_16BF
		case g.Half == driver.F16:
			dtype = 2 // CUDA_R_16F
		default:
			compute = 77 // CUBLAS_COMPUTE_32F_FAST_TF32
		}
		st = C.gtGemmEx(c.h, op(g.TransA), op(g.TransB), C.int(g.M), C.int(g.N), C.int(g.K), C.float(g.Alpha), dtype, compute,
			C.ulonglong(g.A), C.int(g.LDA), C.longlong(g.StrideA), C.ulonglong(g.B), C.int(g.LDB), C.longlong(g.StrideB),
			C.float(g.Beta), C.ulonglong(g.C), C.int(g.LDC), C.longlong(g.StrideC), C.int(g.Batch))
	case g.Double:
		st = C.gtDgemm(c.h, op(g.TransA), op(g.TransB), C.int(g.M), C.int(g.N), C.int(g.K), C.double(g.Alpha),
			C.ulonglong(g.A), C.int(g.LDA), C.longlong(g.StrideA), C.ulonglong(g.B), C.int(g.LDB), C.longlong(g.StrideB),
			C.double(g.Beta), C.ulonglong(g.C), C.int(g.LDC), C.longlong(g.StrideC), C.int(g.Batch))
	default:
		st = C.gtSgemm(c.h, op(g.TransA), op(g.TransB), C.int(g.M), C.int(g.N), C.int(g.K), C.float(g.Alpha),
			C.ulonglong(g.A), C.int(g.LDA), C.longlong(g.StrideA), C.ulonglong(g.B), C.int(g.LDB), C.longlong(g.StrideB),
			C.float(g.Beta), C.ulonglong(g.C), C.int(g.LDC), C.longlong(g.StrideC), C.int(g.Batch))
	}
	if st != 0 {
		return fmt.Errorf("gpu: cuBLAS gemm %dx%dx%d (batch %d): %s", g.M, g.N, g.K, g.Batch, cublasStatus(int(st)))
	}
	return nil
}

// cublasStatus names a cublasStatus_t.
func cublasStatus(s int) string {
	names := map[int]string{
		1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED",
		7: "CUBLAS_STATUS_INVALID_VALUE", 8: "CUBLAS_STATUS_ARCH_MISMATCH",
		11: "CUBLAS_STATUS_MAPPING_ERROR", 13: "CUBLAS_STATUS_EXECUTION_FAILED",
		14: "CUBLAS_STATUS_INTERNAL_ERROR", 15: "CUBLAS_STATUS_NOT_SUPPORTED",
		16: "CUBLAS_STATUS_LICENSE_ERROR",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("cublasStatus %d", s)
}
