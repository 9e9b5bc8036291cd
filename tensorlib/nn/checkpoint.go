package nn

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
	"github.com/gotensor/gotensor/tensorlib/tensorio"
)

// A Stateful is a part of a training run that saves and restores what it
// holds between steps as named tensors: the optimizers (optim.SGD, Adam),
// schedules (StepLR, CosineLR) and gradient scaler (GradScaler) of package
// optim, and data.Loader, implement it.
type Stateful interface {
	// StateDict returns the state; the tensors may be the object's own.
	StateDict() map[string]*tensor.Tensor
	// LoadStateDict restores a state StateDict returned, or returns an
	// error and changes nothing.
	LoadStateDict(state map[string]*tensor.Tensor) error
}

// A Checkpoint names the parts of a training run that SaveCheckpoint
// writes to one file and LoadCheckpoint restores, so that a notebook that
// restarts continues where it stopped. Model is required; the other parts
// may be nil. The random generator's state (tensor.RNGState: dropout,
// initialisation) is always saved and restored too.
type Checkpoint struct {
	Model     Forwarder // the parameters and buffers (nn.StateDict): a layer, a Module or a struct of fields and Forward
	Optimizer Stateful  // *optim.SGD or *optim.Adam: moments, momentum buffers, steps, learning rate
	Scaler    Stateful  // *optim.GradScaler: the loss scale and its count of good steps
	Schedule  Stateful  // *optim.StepLR or *optim.CosineLR: the epoch
	Loader    Stateful  // *data.Loader: the epoch and the next batch
	Step      int       // the caller's count of what is done (steps or epochs)
}

// The parts of a checkpoint file: tensors under "<part>.<name>", and in
// the metadata the format, the step and the random generator's state.
const (
	ckptFormat   = "gotensor-checkpoint-1"
	ckptFormatKV = "format"
)

func (c *Checkpoint) parts() []struct {
	name string
	s    Stateful
} {
	return []struct {
		name string
		s    Stateful
	}{{"optimizer", c.Optimizer}, {"scaler", c.Scaler}, {"schedule", c.Schedule}, {"loader", c.Loader}}
}

// SaveCheckpoint writes c to path in one safetensors file: the model's
// parameters and buffers as "model.<name>" (PyTorch's names), each other
// part's state as "<part>.<name>" ("optimizer.state.0.exp_avg",
// "scaler.scale"), and the step and the random generator's state in the
// metadata. Tensors on a GPU are copied to the host. The file is written
// beside path and renamed over it, so that an interrupted save leaves the
// previous checkpoint whole.
//
//	ck := nn.Checkpoint{Model: model, Optimizer: opt, Scaler: scaler, Loader: loader}
//	...
//	ck.Step = step
//	if err := nn.SaveCheckpoint("run.ckpt", ck); err != nil { ... }
func SaveCheckpoint(path string, c Checkpoint) error {
	if c.Model == nil {
		return fmt.Errorf("nn: SaveCheckpoint: %s: the Checkpoint has no Model", path)
	}
	ts, err := stateForSave(c.Model)
	if err != nil {
		return fmt.Errorf("nn: SaveCheckpoint: %s: %w", path, err)
	}
	all := make(map[string]*tensor.Tensor, len(ts))
	for name, t := range ts {
		all["model."+name] = t
	}
	for _, p := range c.parts() {
		if p.s == nil {
			continue
		}
		for name, t := range p.s.StateDict() {
			all[p.name+"."+name] = t
		}
	}
	meta := map[string]string{
		ckptFormatKV: ckptFormat,
		"step":       strconv.Itoa(c.Step),
		"rng":        base64.StdEncoding.EncodeToString(tensor.RNGState()),
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("nn: SaveCheckpoint: %w", err)
	}
	tmp.Close()
	if err := tensorio.SaveSafetensors(tmp.Name(), all, meta); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("nn: SaveCheckpoint: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("nn: SaveCheckpoint: %w", err)
	}
	return nil
}

// LoadCheckpoint restores c's parts from a file SaveCheckpoint wrote: the
// model's parameters and buffers in place (names and shapes must match,
// as for Load), then each part of c that is not nil (the file must hold
// its state), the random generator, and c.Step. Make the model, optimizer,
// scaler, schedule and loader as for a new run, then load: the run goes on
// as if it had not stopped. It returns an error when the file is not a
// checkpoint or a part does not fit; the model is checked before anything
// changes, but a later part's error leaves the earlier ones restored.
//
//	ck := nn.Checkpoint{Model: model, Optimizer: opt, Scaler: scaler, Loader: loader}
//	if err := nn.LoadCheckpoint("run.ckpt", &ck); err == nil {
//		fmt.Println("resuming after step", ck.Step)
//	}
func LoadCheckpoint(path string, c *Checkpoint) error {
	fail := func(err error) error { return fmt.Errorf("nn: LoadCheckpoint: %s: %w", path, err) }
	if c == nil || c.Model == nil {
		return fail(fmt.Errorf("pass a *Checkpoint with the Model to restore"))
	}
	ts, meta, err := tensorio.LoadSafetensors(path)
	if err != nil {
		return fmt.Errorf("nn: LoadCheckpoint: %w", err)
	}
	if meta[ckptFormatKV] != ckptFormat {
		return fail(fmt.Errorf("not a checkpoint (format %q): nn.SaveCheckpoint writes them; nn.Load reads a model's file", meta[ckptFormatKV]))
	}
	step, err := strconv.Atoi(meta["step"])
	if err != nil {
		return fail(fmt.Errorf("bad step %q", meta["step"]))
	}
	rng, err := base64.StdEncoding.DecodeString(meta["rng"])
	if err != nil {
		return fail(fmt.Errorf("bad random generator state: %v", err))
	}
	split := map[string]map[string]*tensor.Tensor{}
	for name, t := range ts {
		part, rest, ok := strings.Cut(name, ".")
		if !ok {
			return fail(fmt.Errorf("unexpected tensor %q", name))
		}
		if split[part] == nil {
			split[part] = map[string]*tensor.Tensor{}
		}
		split[part][rest] = t
	}
	if err := loadState(c.Model, split["model"]); err != nil {
		return fail(fmt.Errorf("model: %w", err))
	}
	for _, p := range c.parts() {
		if p.s == nil {
			continue
		}
		st, ok := split[p.name]
		if !ok {
			return fail(fmt.Errorf("the checkpoint has no %s state (it holds %s); leave the Checkpoint's %s nil", p.name, partNames(split), p.name))
		}
		if err := p.s.LoadStateDict(st); err != nil {
			return fail(fmt.Errorf("%s: %w", p.name, err))
		}
	}
	if err := tensor.SetRNGState(rng); err != nil {
		return fail(err)
	}
	c.Step = step
	return nil
}

// partNames lists the parts a checkpoint file holds.
func partNames(split map[string]map[string]*tensor.Tensor) string {
	var names []string
	for n := range split {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
