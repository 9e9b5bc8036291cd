package nn

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Embedding is a lookup table of NumEmbeddings vectors of size
// EmbeddingDim, as torch.nn.Embedding: Int64 indices of any shape S give
// the rows of Weight, shaped [S..., EmbeddingDim].
type Embedding struct {
	NumEmbeddings, EmbeddingDim int
	Weight                      *tensor.Tensor // [NumEmbeddings, EmbeddingDim], from N(0, 1)
}

// NewEmbedding returns an Embedding with Weight drawn from N(0, 1), as in
// PyTorch. It panics when a size is not positive.
//
//	emb := nn.NewEmbedding(10000, 64)
//	v := emb.Forward(tensor.FromInts([]int{3, 1, 4}, 3)) // [3 64]
func NewEmbedding(numEmbeddings, embeddingDim int) *Embedding {
	if numEmbeddings <= 0 || embeddingDim <= 0 {
		panic(fmt.Errorf("nn: NewEmbedding(%d, %d): sizes must be positive", numEmbeddings, embeddingDim))
	}
	return &Embedding{NumEmbeddings: numEmbeddings, EmbeddingDim: embeddingDim,
		Weight: param(tensor.Randn(numEmbeddings, embeddingDim))}
}

// Forward returns the rows of Weight that idx (Int64) selects. It panics
// with a *tensor.DTypeError when idx is not Int64 and an
// *tensor.IndexError when an index is out of range.
func (l *Embedding) Forward(idx *tensor.Tensor) *tensor.Tensor {
	if idx.DType() != tensor.Int64 {
		panic(&tensor.DTypeError{Op: "nn.Embedding", DTypes: []tensor.DType{idx.DType()},
			Msg: fmt.Sprintf("indices must be Int64, got %v", idx.DType()),
			Fix: "convert with idx.AsType(tensor.Int64)"})
	}
	shape := append(idx.Shape(), l.EmbeddingDim)
	return l.Weight.IndexSelect(0, idx.Reshape(-1)).Reshape(shape...)
}

// Parameters returns Weight.
func (l *Embedding) Parameters() []*tensor.Tensor { return own(l, nonNil(l.Weight)) }

func (l *Embedding) state() []named { return namedNonNil("weight", l.Weight) }
func (l *Embedding) setMode(bool)   {}

// To moves the weight to dev in place (see the function To).
func (l *Embedding) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr: Embedding(10000, 64).
func (l *Embedding) String() string {
	return fmt.Sprintf("Embedding(%d, %d)", l.NumEmbeddings, l.EmbeddingDim)
}
