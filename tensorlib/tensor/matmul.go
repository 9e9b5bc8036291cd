package tensor

import "fmt"

// MatMul returns the matrix product of x and y with torch.matmul's rules:
//
//   - 1-D @ 1-D is the dot product, a 0-d tensor;
//   - 2-D @ 2-D is the matrix product, [m, k] @ [k, n] = [m, n];
//   - a 1-D left operand is a row vector and a 1-D right operand a column
//     vector, and the added dim is removed from the result;
//   - with more dims, the leading (batch) dims broadcast as in Add:
//     [B, m, k] @ [k, n] = [B, m, n], [B, 1, m, k] @ [C, k, n] = [B, C, m, n].
//
// Mixed float dtypes promote; Bool is not supported. Transposed operands
// (x.T()) go to BLAS without a copy. It panics with a *ShapeError when the
// inner sizes differ or an operand is 0-d.
//
//	h := x.MatMul(w) // [128 784] @ [784 256] = [128 256]
func (x *Tensor) MatMul(y *Tensor) *Tensor {
	x, y = AutocastLower(x), AutocastLower(y)
	sameDevice("MatMul", x, y)
	if x.Dim() == 0 || y.Dim() == 0 {
		panic(shapeErr("MatMul", "both operands need at least 1 dim; use Mul for a scalar product", [][]int{x.Shape(), y.Shape()},
			"%v @ %v: 0-d operand", x.layout.Shape, y.layout.Shape))
	}
	dt := PromoteTypes(x.DType(), y.DType())
	if dt == Bool {
		panic(dtypeErr("MatMul", "convert first with AsType(tensor.Float32)", []DType{x.DType(), y.DType()},
			"%v @ %v: Bool matrices are not supported", x.DType(), y.DType()))
	}
	a, b := x.AsType(dt), y.AsType(dt)
	if a.Dim() == 1 {
		a = a.Unsqueeze(0)
	}
	if b.Dim() == 1 {
		b = b.Unsqueeze(-1)
	}
	m, k := a.layout.Shape[a.Dim()-2], a.layout.Shape[a.Dim()-1]
	k2, n := b.layout.Shape[b.Dim()-2], b.layout.Shape[b.Dim()-1]
	if k != k2 {
		panic(shapeErr("MatMul", fmt.Sprintf("the last dim of the left operand must equal the %s of the right; transpose one with .T() or .Transpose(-2, -1)",
			map[bool]string{true: "only dim", false: "second-to-last dim"}[y.Dim() == 1]), [][]int{x.Shape(), y.Shape()},
			"%v @ %v: inner sizes %d and %d differ", x.layout.Shape, y.layout.Shape, k, k2))
	}
	// [.., m, k] @ [k, n] with a contiguous left side: fold the batch into m.
	if a.Dim() > 2 && b.Dim() == 2 && a.IsContiguous() {
		lead := cloneInts(a.layout.Shape[:a.Dim()-2])
		out := a.Reshape(-1, k).MatMul(b)
		return out.Reshape(append(lead, m, n)...).squeezeMatMul(x, y)
	}
	return matmul(a, b).squeezeMatMul(x, y)
}

// matmul is the primitive behind MatMul: a [batch..., m, k] @ b
// [batch..., k, n] with the batch dims broadcast, both of one dtype and
// at least 2-D.
func matmul(a, b *Tensor) *Tensor {
	m, k, n := a.layout.Shape[a.Dim()-2], a.layout.Shape[a.Dim()-1], b.layout.Shape[b.Dim()-1]
	batch := broadcastShapes("MatMul", a.layout.Shape[:a.Dim()-2], b.layout.Shape[:b.Dim()-2])
	la := a.layout.BroadcastTo(append(cloneInts(batch), m, k))
	lb := b.layout.BroadcastTo(append(cloneInts(batch), k, n))
	s := a.backend.MatMul(a.storage, la, b.storage, lb)
	out := newTensor(a.backend, s, append(cloneInts(batch), m, n))
	if !tracked(a, b) {
		return out
	}
	// ga = g @ bᵀ and gb = aᵀ @ g, of the broadcast batch shape: the engine
	// sums them over the batch dims an operand was broadcast along.
	return record(out, "MatMul", func(g *Tensor) []*Tensor {
		var ga, gb *Tensor
		if needGrad(a) {
			ga = matmul(g, b.Transpose(-2, -1))
		}
		if needGrad(b) {
			gb = matmul(a.Transpose(-2, -1), g)
		}
		return []*Tensor{ga, gb}
	}, a, b)
}

// squeezeMatMul removes the dims MatMul added for 1-D operands.
func (out *Tensor) squeezeMatMul(x, y *Tensor) *Tensor {
	if y.Dim() == 1 {
		out = out.Squeeze(-1)
	}
	if x.Dim() == 1 {
		out = out.Squeeze(-2 + boolInt(y.Dim() == 1))
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Linear returns x @ wᵀ + b, the affine map of nn.Linear: x is [..., in],
// w is [out, in] and b is [out], or nil for none; the result is
// [..., out]. Mixed float dtypes promote as in MatMul.
//
// It is one differentiable op rather than MatMul, T and Add: backward
// computes w's gradient as gᵀ @ x, in w's own [out, in] layout (through
// T it would come out transposed and be copied), and b's as the column
// sums of g. It panics with a *ShapeError when the shapes do not fit.
//
//	h := tensor.Linear(x, w, b) // [128 784], [256 784], [256] → [128 256]
func Linear(x, w, b *Tensor) *Tensor {
	const op = "Linear"
	x, w, b = AutocastLower(x), AutocastLower(w), AutocastLower(b)
	operands := []*Tensor{x, w}
	if b != nil {
		operands = append(operands, b)
	}
	sameDevice(op, operands...)
	if x.Dim() == 0 || w.Dim() != 2 || x.layout.Shape[x.Dim()-1] != w.layout.Shape[1] {
		panic(shapeErr(op, "pass x [..., in] and w [out, in]", [][]int{x.Shape(), w.Shape()},
			"input %v and weight %v do not fit", x.layout.Shape, w.layout.Shape))
	}
	in, out := w.layout.Shape[1], w.layout.Shape[0]
	if b != nil && (b.Dim() != 1 || b.layout.Shape[0] != out) {
		panic(shapeErr(op, fmt.Sprintf("the bias must be [%d], one per output", out), [][]int{w.Shape(), b.Shape()},
			"bias of shape %v for weight %v", b.layout.Shape, w.layout.Shape))
	}
	// The forward ops run on detached operands, so they record nothing;
	// the one node below stands for all of them.
	x2 := x.Detach()
	if x.Dim() != 2 {
		x2 = x2.Reshape(-1, in)
	}
	y := x2.MatMul(w.Detach().T())
	if b != nil {
		y = y.Add(b.Detach())
	}
	shape := append(cloneInts(x.layout.Shape[:x.Dim()-1]), out)
	if x.Dim() != 2 {
		y = y.Reshape(shape...)
	}
	if !tracked(operands...) {
		return y
	}
	w2 := w.Detach()
	return record(y, op, func(g *Tensor) []*Tensor {
		g2 := g
		if g.Dim() != 2 {
			g2 = g.Reshape(-1, out)
		}
		gs := make([]*Tensor, len(operands))
		if needGrad(x) {
			gs[0] = g2.MatMul(w2).Reshape(x.layout.Shape...)
		}
		if needGrad(w) {
			gs[1] = g2.T().MatMul(x2) // [out, N] @ [N, in]: w's layout
		}
		if b != nil && needGrad(b) {
			gs[2] = g2.Sum(0)
		}
		return gs
	}, operands...)
}
