//go:build cuda

package gpu

import "gonum.org/v1/gonum/blas"

type blasTranspose = blas.Transpose

const (
	blasNoTrans = blas.NoTrans
	blasTrans   = blas.Trans
)
