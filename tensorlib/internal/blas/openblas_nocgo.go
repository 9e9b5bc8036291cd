//go:build !cgo

// This file must stay in sync with openblas_cgo.go.

package blas

import "errors"

var errNoCgo = errors.New("blas: this build has no cgo (CGO_ENABLED=0), so OpenBLAS cannot be loaded; rebuild with CGO_ENABLED=1 and a C compiler")

// loadOpenBLAS always fails in a build without cgo.
func loadOpenBLAS() error { return errNoCgo }

// OpenBLASCore returns the CPU kernel OpenBLAS runs, such as "Haswell"
// (OPENBLAS_CORETYPE overrides its choice), or "" when OpenBLAS cannot be
// loaded.
func OpenBLASCore() string { return "" }
