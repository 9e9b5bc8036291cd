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
// OpenBLAS runs single-threaded and Sgemm and Dgemm split large products
// into bands of rows or columns over GOMAXPROCS goroutines (OpenBLAS's
// own threads spin for a while after each call and take cores from the
// Go code between products); SgemmSerial and DgemmSerial never split,
// for callers that run products in parallel themselves. Setting
// OPENBLAS_NUM_THREADS (or GOTO_NUM_THREADS, OMP_NUM_THREADS) hands
// threading back to OpenBLAS.
//
// The environment variable GOTENSOR_BLAS=gonum forces the gonum
// implementation; Use switches implementations at run time.
//
// Misuse (negative sizes, strides shorter than a row, slices too short for
// the matrices they hold) panics with a message prefixed "blas: ", whichever
// implementation runs.
package blas
