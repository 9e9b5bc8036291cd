//go:build cgo

// This file must stay in sync with openblas_nocgo.go.

package blas

/*
#cgo LDFLAGS: -ldl
#cgo noescape gtSgemm
#cgo nocallback gtSgemm
#cgo noescape gtDgemm
#cgo nocallback gtDgemm
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// CBLAS enum values (cblas.h).
enum { gtRowMajor = 101, gtNoTrans = 111, gtTrans = 112 };

typedef void (*gtSgemmFn)(int, int, int, int, int, int, float, const float *, int,
	const float *, int, float, float *, int);
typedef void (*gtDgemmFn)(int, int, int, int, int, int, double, const double *, int,
	const double *, int, double, double *, int);
typedef void (*gtSetThreadsFn)(int);
typedef char *(*gtCorenameFn)(void);

static gtSgemmFn gtSgemmPtr;
static gtDgemmFn gtDgemmPtr;
static gtSetThreadsFn gtSetThreadsPtr;
static gtCorenameFn gtCorenamePtr;

// gtLoad opens the library called name and resolves the symbols the package
// calls. It returns NULL on success and dlerror's message otherwise.
static const char *gtLoad(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		return dlerror();
	}
	gtSgemmPtr = (gtSgemmFn)dlsym(h, "cblas_sgemm");
	gtDgemmPtr = (gtDgemmFn)dlsym(h, "cblas_dgemm");
	gtSetThreadsPtr = (gtSetThreadsFn)dlsym(h, "openblas_set_num_threads");
	gtCorenamePtr = (gtCorenameFn)dlsym(h, "openblas_get_corename");
	if (gtSgemmPtr == NULL || gtDgemmPtr == NULL) {
		dlclose(h);
		gtSgemmPtr = NULL;
		gtDgemmPtr = NULL;
		gtSetThreadsPtr = NULL;
		gtCorenamePtr = NULL;
		return "cblas_sgemm or cblas_dgemm not found";
	}
	return NULL;
}

static void gtSetThreads(int n) {
	if (gtSetThreadsPtr != NULL) {
		gtSetThreadsPtr(n);
	}
}

static const char *gtCorename(void) {
	return gtCorenamePtr != NULL ? gtCorenamePtr() : "";
}

static void gtSgemm(int ta, int tb, int m, int n, int k, float alpha,
		const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc) {
	gtSgemmPtr(gtRowMajor, ta ? gtTrans : gtNoTrans, tb ? gtTrans : gtNoTrans,
		m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void gtDgemm(int ta, int tb, int m, int n, int k, double alpha,
		const double *a, int lda, const double *b, int ldb, double beta, double *c, int ldc) {
	gtDgemmPtr(gtRowMajor, ta ? gtTrans : gtNoTrans, tb ? gtTrans : gtNoTrans,
		m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// openblasLibs are the names tried, in order, by loadOpenBLAS.
var openblasLibs = []string{"libopenblas.so.0", "libopenblas.so"}

var (
	loadOnce sync.Once
	loadErr  error
	corename string
)

// loadOpenBLAS opens OpenBLAS once and sets openblasImpl. It returns why the
// library could not be loaded, the same error on every call.
func loadOpenBLAS() error {
	loadOnce.Do(func() {
		// Unless the user chose OpenBLAS's thread count, OpenBLAS runs
		// large products on GOMAXPROCS of its threads and the rest on the
		// calling one (see threadedGemm). Its idle threads spin for
		// 2^OPENBLAS_THREAD_TIMEOUT cycles before they sleep: 2^28 by
		// default, a tenth of a second, in which they take cores from the
		// goroutines that run between two products; see threadTimeout.
		// OpenBLAS reads the variable when it loads.
		managed := os.Getenv("OPENBLAS_NUM_THREADS") == "" && os.Getenv("GOTO_NUM_THREADS") == "" &&
			os.Getenv("OMP_NUM_THREADS") == ""
		if managed && os.Getenv("OPENBLAS_THREAD_TIMEOUT") == "" && os.Getenv("GOTO_THREAD_TIMEOUT") == "" {
			os.Setenv("OPENBLAS_THREAD_TIMEOUT", threadTimeout)
		}
		var msgs []string
		for _, lib := range openblasLibs {
			name := C.CString(lib)
			msg := C.gtLoad(name)
			C.free(unsafe.Pointer(name))
			if msg == nil {
				corename = C.GoString(C.gtCorename())
				openblasImpl = &impl{name: OpenBLAS, sgemm: openblasSgemm, dgemm: openblasDgemm}
				if managed {
					C.gtSetThreads(1)
					openblasImpl.threads = func(n int) { C.gtSetThreads(C.int(n)) }
				}
				return
			}
			msgs = append(msgs, C.GoString(msg))
		}
		loadErr = fmt.Errorf("blas: cannot load OpenBLAS (%s); install it with apt-get install libopenblas0-pthread",
			strings.Join(msgs, "; "))
	})
	return loadErr
}

// threadTimeout is the OPENBLAS_THREAD_TIMEOUT the package sets: 2^20
// cycles, about 0.4 ms here, long enough for a thread to be still awake
// at the next product of a training step (a sleeping one takes a wake-up
// each time), short enough not to spin through the convolutions between
// two. MNIST epochs, best of 3 alternating runs (2-core machine,
// 2026-11-24): MLP 0.69 s with 2^16, 0.56 s with 2^20, 0.60 s with 2^24,
// 0.94 s with 2^28; the notebook's CNN 3.28, 3.36, 3.39 and 3.99 s.
const threadTimeout = "20"

// OpenBLASCore returns the CPU kernel OpenBLAS runs, such as "Haswell"
// (OPENBLAS_CORETYPE overrides its choice), or "" when OpenBLAS cannot be
// loaded.
func OpenBLASCore() string {
	if loadOpenBLAS() != nil {
		return ""
	}
	return corename
}

func openblasSgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	C.gtSgemm(cbool(transA), cbool(transB), C.int(m), C.int(n), C.int(k), C.float(alpha),
		(*C.float)(first(a)), C.int(lda), (*C.float)(first(b)), C.int(ldb),
		C.float(beta), (*C.float)(first(c)), C.int(ldc))
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
}

func openblasDgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	C.gtDgemm(cbool(transA), cbool(transB), C.int(m), C.int(n), C.int(k), C.double(alpha),
		(*C.double)(first(a)), C.int(lda), (*C.double)(first(b)), C.int(ldb),
		C.double(beta), (*C.double)(first(c)), C.int(ldc))
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
}

// first returns a pointer to s[0], or nil for an empty slice (k == 0 leaves A
// and B unread).
func first[T float32 | float64](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
