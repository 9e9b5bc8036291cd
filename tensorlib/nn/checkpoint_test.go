package nn_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// run is a small training run with every part a checkpoint holds: a model
// with BatchNorm buffers and Dropout (the random generator), AdamW, a
// cosine schedule stepped each epoch, a shuffling loader, and float16
// autocast with a gradient scaler.
type run struct {
	dev    tensor.Device
	model  nn.Module
	opt    *optim.Adam
	sched  *optim.CosineLR
	scaler *optim.GradScaler
	loader *data.Loader
}

func newRun(dev tensor.Device, seed int64) *run {
	tensor.ManualSeed(100) // the data set: the same in every run
	x := tensor.Randn(40, 6)
	y := x.Narrow(1, 0, 3).Argmax(1) // a learnable rule
	tensor.ManualSeed(seed)
	r := &run{dev: dev}
	r.model = nn.NewSequential(nn.NewLinear(6, 16), nn.NewBatchNorm1d(16), nn.NewReLU(), nn.NewDropout(0.2), nn.NewLinear(16, 3))
	nn.To(r.model, dev)
	r.opt = optim.NewAdamW(nn.Parameters(r.model), 0.02)
	r.sched = optim.NewCosineLR(r.opt, 4, 0)
	r.scaler = optim.NewGradScaler(optim.InitScale(1024), optim.GrowthInterval(3))
	r.loader = data.NewLoader(data.NewTensorDataset(x, y), 8, data.Shuffle(3))
	return r
}

// train takes steps until step reaches to, returning each step's loss.
func (r *run) train(step *int, to int) []float64 {
	var losses []float64
	for *step < to {
		if !r.loader.Next() {
			r.sched.Step() // an epoch ended
			continue
		}
		x, y := r.loader.Batch()
		var loss *tensor.Tensor
		tensor.Autocast(tensor.Float16, func() {
			loss = nn.CrossEntropy(r.model.Forward(x.To(r.dev)), y.To(r.dev))
		})
		r.opt.ZeroGrad()
		r.scaler.Scale(loss).Backward()
		r.scaler.Step(r.opt)
		r.scaler.Update()
		losses = append(losses, loss.Item())
		*step++
	}
	return losses
}

func (r *run) checkpoint() nn.Checkpoint {
	return nn.Checkpoint{Model: r.model, Optimizer: r.opt, Scaler: r.scaler, Schedule: r.sched, Loader: r.loader}
}

// TestCheckpointResume checks that a run saved in the middle of an epoch
// and restored into freshly made parts (another initialisation, another
// random state) gives the same losses, bit for bit, as the run that did
// not stop, on the CPU and on the emulated CUDA device.
func TestCheckpointResume(t *testing.T) {
	if err := nn.UseTestEmulator(); err != nil {
		t.Fatal(err)
	}
	const total, stop = 14, 7 // 5 batches an epoch: stop in the second
	for _, dev := range []tensor.Device{tensor.CPU, tensor.CUDA(0)} {
		step := 0
		want := newRun(dev, 1).train(&step, total)

		path := filepath.Join(t.TempDir(), "run.ckpt")
		a := newRun(dev, 1)
		step = 0
		got := a.train(&step, stop)
		ck := a.checkpoint()
		ck.Step = step
		if err := nn.SaveCheckpoint(path, ck); err != nil {
			t.Fatal(err)
		}

		b := newRun(dev, 99) // other weights, data order state, random state
		ck = b.checkpoint()
		if err := nn.LoadCheckpoint(path, &ck); err != nil {
			t.Fatal(err)
		}
		if ck.Step != stop {
			t.Fatalf("%v: restored step %d, want %d", dev, ck.Step, stop)
		}
		step = ck.Step
		got = append(got, b.train(&step, total)...)
		for i := range want {
			if got[i] != want[i] || math.IsNaN(want[i]) {
				t.Errorf("%v: step %d: loss %v after resuming, %v without stopping", dev, i, got[i], want[i])
			}
		}
		if b.sched.Epoch() != 2 {
			t.Errorf("%v: the schedule is at epoch %d, want 2", dev, b.sched.Epoch())
		}
	}
}

// TestCheckpointErrors checks the messages for a file that is not a
// checkpoint, a part the file lacks, and a model that does not fit.
func TestCheckpointErrors(t *testing.T) {
	dir := t.TempDir()
	m := nn.NewSequential(nn.NewLinear(2, 2))
	plain := filepath.Join(dir, "model.safetensors")
	if err := nn.Save(plain, m); err != nil {
		t.Fatal(err)
	}
	ck := nn.Checkpoint{Model: m}
	if err := nn.LoadCheckpoint(plain, &ck); err == nil || !strings.Contains(err.Error(), "not a checkpoint") {
		t.Errorf("a model file: %v", err)
	}
	path := filepath.Join(dir, "run.ckpt")
	if err := nn.SaveCheckpoint(path, nn.Checkpoint{Model: m, Step: 3}); err != nil {
		t.Fatal(err)
	}
	ck = nn.Checkpoint{Model: m, Optimizer: optim.NewSGD(m.Parameters(), 0.1)}
	if err := nn.LoadCheckpoint(path, &ck); err == nil || !strings.Contains(err.Error(), "no optimizer state") {
		t.Errorf("a missing part: %v", err)
	}
	ck = nn.Checkpoint{Model: nn.NewSequential(nn.NewLinear(2, 3))}
	if err := nn.LoadCheckpoint(path, &ck); err == nil || !strings.Contains(err.Error(), "model") {
		t.Errorf("another model: %v", err)
	}
	if err := nn.SaveCheckpoint(path, nn.Checkpoint{}); err == nil {
		t.Error("a checkpoint without a model was saved")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind %s", e.Name())
		}
	}
}
