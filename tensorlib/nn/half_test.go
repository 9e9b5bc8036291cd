package nn_test

import (
	"path/filepath"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/tensor"
	"github.com/gotensor/gotensor/tensorlib/tensorio"
)

// TestLoadHalfStateDict loads a state dict saved in bfloat16 and float16
// (as PyTorch saves a model.bfloat16()'s) into a Float32 model: the
// parameters take the 16-bit values, converted exactly, and keep their
// dtype; nn.Save writes a 16-bit tensor as BF16 or F16.
func TestLoadHalfStateDict(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.BFloat16, tensor.Float16} {
		tensor.ManualSeed(1)
		src := nn.NewSequential(nn.NewLinear(5, 3), nn.NewReLU(), nn.NewLinear(3, 2))
		state := map[string]*tensor.Tensor{}
		for name, p := range nn.StateDict(src) {
			state[name] = p.AsType(dt)
		}
		path := filepath.Join(t.TempDir(), "half.safetensors")
		if err := tensorio.SaveSafetensors(path, state, nil); err != nil {
			t.Fatal(err)
		}
		dst := nn.NewSequential(nn.NewLinear(5, 3), nn.NewReLU(), nn.NewLinear(3, 2))
		if err := nn.Load(path, dst); err != nil {
			t.Fatal(err)
		}
		for name, p := range nn.StateDict(dst) {
			if p.DType() != tensor.Float32 {
				t.Errorf("%v: %s became %v", dt, name, p.DType())
			}
			want, got := state[name].Float64s(), p.Float64s()
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%v: %s[%d] = %v, want %v", dt, name, i, got[i], want[i])
				}
			}
		}
		ts, _, err := tensorio.LoadSafetensors(path)
		if err != nil || ts["0.weight"].DType() != dt {
			t.Errorf("%v: the file holds %v (%v)", dt, ts["0.weight"].DType(), err)
		}
	}
}
