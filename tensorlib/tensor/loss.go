package tensor

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// CrossEntropy returns the mean cross-entropy loss of the logits [N, C]
// (unnormalised scores) against the Int64 class labels [N], as
// torch.nn.functional.cross_entropy: the mean over rows of
// logsumexp(row) - row[label], a 0-d tensor. It is computed stably in one
// fused op whose gradient is (softmax(logits) - onehot(labels)) / N. It
// panics with a *ShapeError or *DTypeError on wrong shapes or dtypes and an
// *IndexError when a label is outside [0, C).
//
//	loss := tensor.CrossEntropy(model.Forward(x), y)
func CrossEntropy(logits, labels *Tensor) *Tensor {
	const op = "CrossEntropy"
	logits = AutocastFloat32(logits)
	sameDevice(op, logits, labels)
	needFloat(op, logits)
	if labels.DType() != Int64 {
		panic(dtypeErr(op, "labels are class indices: convert with labels.AsType(tensor.Int64)", []DType{labels.DType()},
			"labels must be Int64, got %v", labels.DType()))
	}
	if logits.Dim() != 2 || labels.Dim() != 1 || labels.layout.Shape[0] != logits.layout.Shape[0] {
		panic(shapeErr(op, "pass logits [N, C] and labels [N]", [][]int{logits.Shape(), labels.Shape()},
			"logits %v and labels %v do not fit", logits.layout.Shape, labels.layout.Shape))
	}
	if !fused("Loss", logits) {
		return inFloat32(logits.DType(), func(xs []*Tensor) *Tensor { return CrossEntropy(xs[0], labels) }, logits)
	}
	n := logits.layout.Shape[0]
	var lsm, out *Tensor
	var lse backend.Storage
	idx := labels.Unsqueeze(1)
	lb, fused := logits.backend.Backend.(backend.Loss)
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(*IndexError); ok {
					e.Op = op
					e.Msg = fmt.Sprintf("label %d is outside [0, %d)", e.Index, e.Size)
					e.Fix = "labels must be class indices in [0, C), C = logits.Size(1)"
				}
				panic(r)
			}
		}()
		if fused {
			var s backend.Storage
			s, lse = lb.CrossEntropy(logits.storage, logits.layout, labels.storage, labels.layout)
			out = newTensor(logits.backend, s, []int{})
			return
		}
		lsm = logits.Detach().LogSoftmax(1)
		out = lsm.Gather(1, idx).Mean().Neg()
	}()
	if !tracked(logits) {
		return out
	}
	if fused {
		return record(out, op, func(g *Tensor) []*Tensor {
			s := lb.CrossEntropyBackward(g.storage, g.layout, logits.storage, logits.layout, labels.storage, labels.layout, lse)
			return []*Tensor{newTensor(g.backend, s, logits.Shape())}
		}, logits)
	}
	return record(out, op, func(g *Tensor) []*Tensor {
		p := lsm.Exp() // softmax, fresh storage
		m1 := FullLike(idx, -1).AsType(p.DType())
		p.backend.ScatterAdd(p.storage, p.layout, 1, idx.storage, idx.layout, m1.storage, m1.layout)
		return []*Tensor{p.Mul(g).DivScalar(float64(n))}
	}, logits)
}
