package data

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// A Dataset is a set of N examples: Images holds the inputs, with the
// examples along dim 0, and Labels holds the N targets (or is nil for an
// unlabelled set). For MNIST, Images is [N,1,28,28] Float32 in [0,1] and
// Labels is [N] Int64.
type Dataset struct {
	Images, Labels *tensor.Tensor
}

// NewTensorDataset returns a Dataset of the examples along dim 0 of x and
// y (y may be nil). It panics when x is a scalar or when y does not have as
// many rows as x.
//
//	ds := data.NewTensorDataset(tensor.Randn(100, 3), tensor.RandInt(0, 2, 100))
func NewTensorDataset(x, y *tensor.Tensor) *Dataset {
	if x == nil {
		panic("data: NewTensorDataset: x is nil; give a tensor with the examples along dim 0")
	}
	if x.Dim() == 0 {
		panic("data: NewTensorDataset: x is a scalar; give a tensor with the examples along dim 0")
	}
	if y != nil && (y.Dim() == 0 || y.Size(0) != x.Size(0)) {
		panic(fmt.Sprintf("data: NewTensorDataset: x has %d examples (shape %v) but y has shape %v; their dim 0 sizes must match",
			x.Size(0), x.Shape(), y.Shape()))
	}
	return &Dataset{Images: x, Labels: y}
}

// Len returns the number of examples.
func (d *Dataset) Len() int {
	if d.Images == nil || d.Images.Dim() == 0 {
		return 0
	}
	return d.Images.Size(0)
}

// Get returns example i: a view of row i of Images and of Labels (y is
// nil when the set has no labels; for MNIST y is a 0-d Int64 tensor). It
// panics when i is out of range.
//
//	x, y := train.Get(0) // x: [1 28 28], y.Item(): 5
func (d *Dataset) Get(i int) (x, y *tensor.Tensor) {
	if n := d.Len(); i < 0 || i >= n {
		panic(fmt.Sprintf("data: Dataset.Get: index %d is out of range for a dataset of %d examples", i, n))
	}
	x = d.Images.Select(0, i)
	if d.Labels != nil {
		y = d.Labels.Select(0, i)
	}
	return x, y
}

// String describes the dataset's size and tensors, like
// "Dataset(60000 examples, images [60000 1 28 28] float32, labels [60000] int64)".
func (d *Dataset) String() string {
	s := fmt.Sprintf("Dataset(%d examples", d.Len())
	if d.Images != nil {
		s += fmt.Sprintf(", images %v %v", d.Images.Shape(), d.Images.DType())
	}
	if d.Labels != nil {
		s += fmt.Sprintf(", labels %v %v", d.Labels.Shape(), d.Labels.DType())
	}
	return s + ")"
}
