// Package blas is the matrix-multiply layer under tensorlib: row-major SGEMM
// and DGEMM that run on OpenBLAS when the library is on the machine and on
// gonum's pure-Go BLAS otherwise.
//
// OpenBLAS is not linked: in a cgo build the package opens
// libopenblas.so.0 with dlopen on first use and calls cblas_sgemm and
// cblas_dgemm through function pointers, so one binary runs on machines with
// and without the library (Debian: apt-get install libopenblas0-pthread).
// A build with CGO_ENABLED=0 always uses gonum.
//
// Sgemm and Dgemm run products of at least 2^21 multiply-adds on
// GOMAXPROCS of OpenBLAS's threads, which share the packed operands, and
// smaller ones on the calling thread; SgemmSerial and DgemmSerial always
// run on the calling thread, for callers that run products in parallel
// themselves. OpenBLAS's idle threads spin before they sleep, taking cores
// from the Go code that runs between two products: the package sets
// OPENBLAS_THREAD_TIMEOUT (unless set) so that they spin for about 0.4 ms
// rather than a tenth of a second. Setting OPENBLAS_NUM_THREADS (or
// GOTO_NUM_THREADS, OMP_NUM_THREADS) hands the thread count to OpenBLAS
// for every product.
//
// The environment variable GOTENSOR_BLAS=gonum forces the gonum
// implementation; Use switches implementations at run time.
//
// Misuse (negative sizes, strides shorter than a row, slices too short for
// the matrices they hold) panics with a message prefixed "blas: ", whichever
// implementation runs.
package blas
