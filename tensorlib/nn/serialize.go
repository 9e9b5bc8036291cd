package nn

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
	"github.com/gotensor/gotensor/tensorlib/tensorio"
)

// Save writes m's parameters and buffers (StateDict) to path in the
// safetensors format, named as PyTorch names them ("0.weight",
// "0.bias", "1.running_mean", ...). PyTorch reads the file with
// safetensors.torch.load_file, and model.load_state_dict takes the result
// when the model has the same structure. Tensors on other devices are
// copied to the CPU for writing.
//
//	if err := nn.Save("mnist.safetensors", model); err != nil { ... }
func Save(path string, m Forwarder) error {
	ts, err := stateForSave(m)
	if err != nil {
		return fmt.Errorf("nn: Save: %s: %w", path, err)
	}
	if err := tensorio.SaveSafetensors(path, ts, map[string]string{"format": "pt"}); err != nil {
		return fmt.Errorf("nn: Save: %w", err)
	}
	return nil
}

func stateForSave(m Forwarder) (map[string]*tensor.Tensor, error) {
	ts := map[string]*tensor.Tensor{}
	for _, nt := range namedTensors(m, "") {
		if nt.t == nil {
			continue
		}
		if _, dup := ts[nt.name]; dup {
			return nil, fmt.Errorf("two tensors are named %q; give the model's children distinct names", nt.name)
		}
		t := nt.t.Detach()
		if t.Device() != tensor.CPU {
			t = t.CPU()
		}
		ts[nt.name] = t
	}
	return ts, nil
}

// Load reads a safetensors file written by Save (or by PyTorch's
// safetensors.torch.save_file from a model of the same structure) into
// m's parameters and buffers, in place: optimizers that hold the
// parameters keep working. Every name and shape must match; otherwise
// nothing is changed and the error lists what is missing, unexpected or
// of another shape. Values are converted to each parameter's dtype and
// device.
//
//	model := nn.NewSequential(nn.NewLinear(784, 10))
//	if err := nn.Load("mnist.safetensors", model); err != nil { ... }
func Load(path string, m Forwarder) error {
	ts, _, err := tensorio.LoadSafetensors(path)
	if err != nil {
		return fmt.Errorf("nn: Load: %w", err)
	}
	if err := loadState(m, ts); err != nil {
		return fmt.Errorf("nn: Load: %s: %w", path, err)
	}
	return nil
}

// LoadStateDict copies the tensors of state into m's parameters and
// buffers of the same names, in place, as Load does for a file. Every
// name and shape must match; otherwise nothing is changed and the error
// says what differs.
func LoadStateDict(m Forwarder, state map[string]*tensor.Tensor) error {
	if err := loadState(m, state); err != nil {
		return fmt.Errorf("nn: LoadStateDict: %w", err)
	}
	return nil
}

func loadState(m Forwarder, src map[string]*tensor.Tensor) error {
	dst := namedTensors(m, "")
	var missing, unexpected, mismatched []string
	have := map[string]bool{}
	for _, nt := range dst {
		have[nt.name] = true
		t, ok := src[nt.name]
		switch {
		case !ok:
			missing = append(missing, nt.name)
		case !slices.Equal(t.Shape(), nt.t.Shape()):
			mismatched = append(mismatched, fmt.Sprintf("%s is %v in the file and %v in the model", nt.name, t.Shape(), nt.t.Shape()))
		}
	}
	for name := range src {
		if !have[name] {
			unexpected = append(unexpected, name)
		}
	}
	sort.Strings(unexpected)
	var problems []string
	if len(missing) > 0 {
		problems = append(problems, "missing "+strings.Join(missing, ", "))
	}
	if len(unexpected) > 0 {
		problems = append(problems, "unexpected "+strings.Join(unexpected, ", "))
	}
	problems = append(problems, mismatched...)
	if len(problems) > 0 {
		return fmt.Errorf("the tensors do not fit the model: %s", strings.Join(problems, "; "))
	}
	tensor.NoGrad(func() {
		for _, nt := range dst {
			t := src[nt.name]
			tensor.CopyInto(nt.t, t.AsType(nt.t.DType()).To(nt.t.Device()))
		}
	})
	return nil
}
