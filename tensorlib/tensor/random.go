package tensor

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// rng is the package's generator. Each random op draws one seed from it and
// hands that to the backend, so results depend only on ManualSeed and the
// sequence of random calls, not on the device or on parallelism.
var rng = struct {
	sync.Mutex
	src *rand.PCG
}{src: rand.NewPCG(rand.Uint64(), rand.Uint64())}

// ManualSeed seeds the package's random generator: after ManualSeed(s), the
// same sequence of Rand, Randn and RandInt calls gives the same tensors.
func ManualSeed(seed int64) {
	rng.Lock()
	rng.src = rand.NewPCG(uint64(seed), 0x853c49e6748fea9b)
	rng.Unlock()
}

func nextSeed() uint64 {
	rng.Lock()
	defer rng.Unlock()
	return rng.src.Uint64()
}

// RNGState returns the state of the package's random generator (as
// torch.get_rng_state): SetRNGState with it makes the following random
// calls (Randn, Dropout, shuffles drawn from it) repeat those that
// followed RNGState. nn.SaveCheckpoint saves it.
func RNGState() []byte {
	rng.Lock()
	defer rng.Unlock()
	b, _ := rng.src.MarshalBinary() // never fails
	return b
}

// SetRNGState restores a state RNGState returned. It returns an error,
// changing nothing, when state is not one.
func SetRNGState(state []byte) error {
	src := new(rand.PCG)
	if err := src.UnmarshalBinary(state); err != nil {
		return fmt.Errorf("tensor: SetRNGState: not a state RNGState returned (%d bytes): %v", len(state), err)
	}
	rng.Lock()
	rng.src = src
	rng.Unlock()
	return nil
}

func random(op string, d Device, dist backend.Distribution, dt DType, a, b float64, shape []int) *Tensor {
	shape = checkShape(op, shape)
	be := engineOf(op, d)
	return newTensor(be, be.Random(dist, dt, backend.Numel(shape), a, b, nextSeed()), shape)
}

// Rand returns a Float32 tensor of the given shape with elements drawn
// uniformly from [0, 1).
func Rand(shape ...int) *Tensor { return random("Rand", CPU, backend.Uniform, Float32, 0, 1, shape) }

// Randn returns a Float32 tensor of the given shape with elements drawn
// from the standard normal distribution.
func Randn(shape ...int) *Tensor { return random("Randn", CPU, backend.Normal, Float32, 0, 1, shape) }

// RandInt returns an Int64 tensor of the given shape with elements drawn
// uniformly from the integers in [lo, hi). It panics with a *ShapeError
// when hi <= lo.
func RandInt(lo, hi int, shape ...int) *Tensor {
	return RandIntOn(CPU, lo, hi, shape...)
}

// RandOn is Rand drawn on device d by d's own generator: on a CUDA device
// the numbers are made on the GPU, with no copy from the host. Like Rand it
// draws one seed from the generator that ManualSeed sets, so a seeded
// program gives the same tensors on every run; the numbers differ from the
// CPU's (each backend has its own generator), so use Rand(...).To(d) to get
// the CPU's numbers on d. It panics with a *DeviceError when d cannot be
// used.
//
//	w := tensor.RandOn(tensor.CUDA(0), 1024, 1024)
func RandOn(d Device, shape ...int) *Tensor {
	return random("RandOn", d, backend.Uniform, Float32, 0, 1, shape)
}

// RandnOn is Randn drawn on device d by d's own generator; see RandOn.
//
//	x := tensor.RandnOn(tensor.DefaultDevice(), 64, 784)
func RandnOn(d Device, shape ...int) *Tensor {
	return random("RandnOn", d, backend.Normal, Float32, 0, 1, shape)
}

// RandIntOn is RandInt drawn on device d by d's own generator; see RandOn.
// It panics with a *ShapeError when hi <= lo.
func RandIntOn(d Device, lo, hi int, shape ...int) *Tensor {
	op := "RandIntOn"
	if d == CPU {
		op = "RandInt"
	}
	if hi <= lo {
		panic(valueErr(op, "pass lo < hi", "empty range [%d, %d)", lo, hi))
	}
	return random(op, d, backend.IntUniform, Int64, float64(lo), float64(hi), shape)
}

// RandPerm returns a random permutation of 0..n-1 as an Int64 tensor.
func RandPerm(n int) *Tensor {
	rng.Lock()
	p := rand.New(rng.src).Perm(n) // a Rand keeps no state of its own
	rng.Unlock()
	v := make([]int64, n)
	for i, x := range p {
		v[i] = int64(x)
	}
	return newTensor(cpuEngine, cpuEngine.FromHost(v), []int{n})
}

// Dropout returns x with each element zeroed with probability p and the
// others scaled by 1/(1-p), so the expected value is unchanged
// (torch.nn.functional.dropout in training mode). The mask is drawn on x's
// device from the generator ManualSeed seeds. Gradients flow through the
// kept elements. It panics with a *ValueError unless 0 <= p <= 1.
func Dropout(x *Tensor, p float64) *Tensor {
	if !(p >= 0 && p <= 1) {
		panic(valueErr("Dropout", "use a probability in [0, 1]", "dropout probability %v", p))
	}
	needFloat("Dropout", x)
	switch p {
	case 0:
		return x
	case 1:
		return x.MulScalar(0)
	}
	u := newTensor(x.backend, x.backend.Random(backend.Uniform, x.DType(), x.Numel(), 0, 1, nextSeed()), x.Shape())
	keep := u.GeScalar(p).AsType(x.DType()).MulScalar(1 / (1 - p))
	return x.Mul(keep)
}
