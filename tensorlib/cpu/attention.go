package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/internal/blas"
)

// Tile sizes of the blocked attention: a tile of queries against a tile of
// keys makes a [attnQ, attnK] block of scores, small enough to stay in
// cache.
const (
	attnQ = 64
	attnK = 64
)

type attnFloat interface{ ~float32 | ~float64 }

// attnProblem is one blocked attention over contiguous operands: q [B, L,
// E], k [B, S, E], v [B, S, Ev] flattened over their batch dims, with an
// optional additive bias read at biasOff[b] + i*biasRS + j*biasCS.
type attnProblem[T attnFloat] struct {
	q, k, v        []T
	B, L, S, E, Ev int
	scale          T
	causal         bool
	bias           []T
	biasOff        []int
	biasRS, biasCS int
	gemm           func(transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
}

// keyEnd returns the end of the keys the query rows [i0, i1) may see.
func (p *attnProblem[T]) keyEnd(i1 int) int {
	if p.causal {
		return min(p.S, i1)
	}
	return p.S
}

// scores fills s, [bq, bk] with row stride attnK, with the scaled scores
// and masks of queries [i0, i0+bq) and keys [j0, j0+bk) of batch b.
func (p *attnProblem[T]) scores(s []T, b, i0, bq, j0, bk int) {
	E := p.E
	p.gemm(false, true, bq, bk, E, p.scale, p.q[(b*p.L+i0)*E:], E, p.k[(b*p.S+j0)*E:], E, 0, s, attnK)
	inf := T(math.Inf(-1))
	for r := 0; r < bq; r++ {
		row := s[r*attnK : r*attnK+bk]
		i := i0 + r
		if p.bias != nil {
			off := p.biasOff[b] + i*p.biasRS + j0*p.biasCS
			for c := range row {
				row[c] += p.bias[off+c*p.biasCS]
			}
		}
		if p.causal {
			for c := max(0, i+1-j0); c < bk; c++ {
				row[c] = inf
			}
		}
	}
}

// forward writes out [B, L, Ev] and the rows' logsumexp lse [B, L].
func (p *attnProblem[T]) forward(out, lse []T) {
	nq := (p.L + attnQ - 1) / attnQ
	parallelFor(p.B*nq, 1, func(lo, hi int) {
		s := make([]T, attnQ*attnK)
		m := make([]T, attnQ)
		l := make([]T, attnQ)
		for u := lo; u < hi; u++ {
			b, i0 := u/nq, (u%nq)*attnQ
			bq := min(attnQ, p.L-i0)
			acc := out[(b*p.L+i0)*p.Ev : (b*p.L+i0+bq)*p.Ev]
			clear(acc)
			for r := 0; r < bq; r++ {
				m[r], l[r] = T(math.Inf(-1)), 0
			}
			end := p.keyEnd(i0 + bq)
			for j0 := 0; j0 < end; j0 += attnK {
				bk := min(attnK, end-j0)
				p.scores(s, b, i0, bq, j0, bk)
				for r := 0; r < bq; r++ {
					row := s[r*attnK : r*attnK+bk]
					mt := m[r]
					for _, x := range row {
						if x > mt {
							mt = x
						}
					}
					if math.IsInf(float64(mt), -1) {
						// Nothing seen yet: the tile adds nothing.
						clear(row)
						continue
					}
					corr := T(math.Exp(float64(m[r] - mt)))
					var sum T
					for c, x := range row {
						e := T(math.Exp(float64(x - mt)))
						row[c] = e
						sum += e
					}
					l[r] = l[r]*corr + sum
					m[r] = mt
					if corr != 1 {
						a := acc[r*p.Ev : (r+1)*p.Ev]
						for e := range a {
							a[e] *= corr
						}
					}
				}
				p.gemm(false, false, bq, p.Ev, bk, 1, s, attnK, p.v[(b*p.S+j0)*p.Ev:], p.Ev, 1, acc, p.Ev)
			}
			for r := 0; r < bq; r++ {
				inv := 1 / l[r] // a row that saw no key: 0/0, NaN
				a := acc[r*p.Ev : (r+1)*p.Ev]
				for e := range a {
					a[e] *= inv
				}
				if l[r] == 0 {
					for e := range a {
						a[e] = T(math.NaN())
					}
				}
				lse[b*p.L+i0+r] = m[r] + T(math.Log(float64(l[r])))
			}
		}
	})
}

// backward returns the gradients of q, k and v for the gradient g [B, L,
// Ev] of out, recomputing the probabilities tile by tile from lse.
func (p *attnProblem[T]) backward(g, out, lse []T) (dq, dk, dv []T) {
	E, Ev := p.E, p.Ev
	dq = make([]T, len(p.q))
	dk = make([]T, len(p.k))
	dv = make([]T, len(p.v))
	// D_i = sum_e g_ie out_ie.
	D := make([]T, p.B*p.L)
	for i := range D {
		var d T
		for e := 0; e < Ev; e++ {
			d += g[i*Ev+e] * out[i*Ev+e]
		}
		D[i] = d
	}
	// Batches are independent; within one, dk and dv gather from every
	// query tile, so one goroutine takes a whole batch.
	parallelFor(p.B, 1, func(lo, hi int) {
		s := make([]T, attnQ*attnK)
		dp := make([]T, attnQ*attnK)
		for b := lo; b < hi; b++ {
			for i0 := 0; i0 < p.L; i0 += attnQ {
				bq := min(attnQ, p.L-i0)
				gq := g[(b*p.L+i0)*Ev:]
				end := p.keyEnd(i0 + bq)
				for j0 := 0; j0 < end; j0 += attnK {
					bk := min(attnK, end-j0)
					p.scores(s, b, i0, bq, j0, bk)
					for r := 0; r < bq; r++ {
						ls := lse[b*p.L+i0+r]
						row := s[r*attnK : r*attnK+bk]
						for c, x := range row {
							row[c] = T(math.Exp(float64(x - ls)))
						}
					}
					// dV += Pᵀ g; dP = g Vᵀ.
					p.gemm(true, false, bk, Ev, bq, 1, s, attnK, gq, Ev, 1, dv[(b*p.S+j0)*Ev:], Ev)
					p.gemm(false, true, bq, bk, Ev, 1, gq, Ev, p.v[(b*p.S+j0)*Ev:], Ev, 0, dp, attnK)
					// dS = P (dP - D), scaled.
					for r := 0; r < bq; r++ {
						d := D[b*p.L+i0+r]
						for c := 0; c < bk; c++ {
							x := s[r*attnK+c]
							if x == 0 {
								dp[r*attnK+c] = 0 // masked: no gradient, even from an infinite dP
								continue
							}
							dp[r*attnK+c] = x * (dp[r*attnK+c] - d) * p.scale
						}
					}
					p.gemm(false, false, bq, E, bk, 1, dp, attnK, p.k[(b*p.S+j0)*E:], E, 1, dq[(b*p.L+i0)*E:], E)
					p.gemm(true, false, bk, E, bq, 1, dp, attnK, p.q[(b*p.L+i0)*E:], E, 1, dk[(b*p.S+j0)*E:], E)
				}
			}
		}
	})
	return dq, dk, dv
}

// Attention is scaled dot-product attention on the CPU, blocked so that
// the scores never fill memory: softmax(q kᵀ·scale + bias) v, with the
// keys after each query masked when causal. q [B, L, E], k [B, S, E] and
// v [B, S, Ev] are contiguous Float32 or Float64 storages read from the
// offsets in offs (q's, k's, v's); bias, nil for none, is added to score
// (b, i, j) from bias[biasOff[b] + i*biasStrides[0] + j*biasStrides[1]].
// It returns out [B, L, Ev] and backward, which returns the gradients of
// q, k and v for the gradient g of out (contiguous from offset gOff).
func Attention(q, k, v backend.Storage, offs [3]int, B, L, S, E, Ev int, bias backend.Storage, biasOff []int, biasStrides [2]int,
	scale float64, causal bool) (out backend.Storage, backward func(g backend.Storage, gOff int) (dq, dk, dv backend.Storage)) {
	switch store(q).dtype {
	case Float32:
		pr := &attnProblem[float32]{q: store(q).f32[offs[0]:], k: store(k).f32[offs[1]:], v: store(v).f32[offs[2]:], B: B, L: L, S: S, E: E, Ev: Ev,
			scale: float32(scale), causal: causal, gemm: blas.SgemmSerial}
		if bias != nil {
			pr.bias, pr.biasOff, pr.biasRS, pr.biasCS = store(bias).f32, biasOff, biasStrides[0], biasStrides[1]
		}
		return runAttention(pr, Float32, func(s *Storage) []float32 { return s.f32 })
	default:
		pr := &attnProblem[float64]{q: store(q).f64[offs[0]:], k: store(k).f64[offs[1]:], v: store(v).f64[offs[2]:], B: B, L: L, S: S, E: E, Ev: Ev,
			scale: scale, causal: causal, gemm: blas.DgemmSerial}
		if bias != nil {
			pr.bias, pr.biasOff, pr.biasRS, pr.biasCS = store(bias).f64, biasOff, biasStrides[0], biasStrides[1]
		}
		return runAttention(pr, Float64, func(s *Storage) []float64 { return s.f64 })
	}
}

func runAttention[T attnFloat](pr *attnProblem[T], dt DType, slice func(*Storage) []T) (backend.Storage, func(backend.Storage, int) (dq, dk, dv backend.Storage)) {
	n := pr.B * pr.L * pr.Ev
	os := newStorage(dt, n)
	ls := newStorage(dt, pr.B*pr.L)
	if n > 0 {
		pr.forward(slice(os), slice(ls))
	}
	return os, func(g backend.Storage, gOff int) (dq, dk, dv backend.Storage) {
		gq, gk, gv := pr.backward(slice(store(g))[gOff:], slice(os), slice(ls))
		wrap := func(d []T) backend.Storage {
			s := newStorage(dt, 0)
			switch any(d).(type) {
			case []float32:
				s.f32 = any(d).([]float32)
			case []float64:
				s.f64 = any(d).([]float64)
			}
			return s
		}
		return wrap(gq), wrap(gk), wrap(gv)
	}
}
