package optim

import (
	"fmt"
	"math"
)

// StepLR multiplies an optimizer's learning rate by gamma every stepSize
// epochs, following torch.optim.lr_scheduler.StepLR: after e calls of Step
// the learning rate is lr0 * gamma^(e/stepSize) (integer division), where
// lr0 is the optimizer's learning rate when the schedule was made. Make one
// with NewStepLR.
type StepLR struct {
	opt      Optimizer
	base     float64
	stepSize int
	gamma    float64
	epoch    int
	lr       float64
}

// NewStepLR returns a StepLR schedule of opt. Call its Step once an epoch,
// after the epoch's optimizer steps. It panics when opt is nil or stepSize
// is below 1.
//
//	sched := optim.NewStepLR(opt, 30, 0.1) // lr/10 every 30 epochs
func NewStepLR(opt Optimizer, stepSize int, gamma float64) *StepLR {
	if opt == nil {
		panic("optim: NewStepLR: optimizer is nil")
	}
	if stepSize < 1 {
		panic(fmt.Sprintf("optim: NewStepLR: step size %d; it must be at least 1 epoch", stepSize))
	}
	lr := opt.LR()
	return &StepLR{opt: opt, base: lr, stepSize: stepSize, gamma: gamma, lr: lr}
}

// Step ends an epoch: it advances the schedule and sets the optimizer's
// learning rate for the next epoch.
func (s *StepLR) Step() {
	s.epoch++
	s.lr = s.base * math.Pow(s.gamma, float64(s.epoch/s.stepSize))
	s.opt.SetLR(s.lr)
}

// LR returns the learning rate the schedule set last (the optimizer's
// learning rate when the schedule was made, before the first Step).
func (s *StepLR) LR() float64 { return s.lr }

// Epoch returns the number of Step calls so far.
func (s *StepLR) Epoch() int { return s.epoch }

// CosineLR anneals an optimizer's learning rate from its initial value lr0
// down to etaMin along half a cosine over tMax epochs, following
// torch.optim.lr_scheduler.CosineAnnealingLR: after e calls of Step the
// learning rate is
//
//	etaMin + (lr0 - etaMin) * (1 + cos(pi*e/tMax)) / 2
//
// Past tMax it climbs back up along the same cosine, as PyTorch's does.
// Make one with NewCosineLR.
type CosineLR struct {
	opt    Optimizer
	base   float64
	tMax   int
	etaMin float64
	epoch  int
	lr     float64
}

// NewCosineLR returns a CosineLR schedule of opt that reaches etaMin after
// tMax epochs. Call its Step once an epoch, after the epoch's optimizer
// steps. It panics when opt is nil or tMax is below 1.
//
//	sched := optim.NewCosineLR(opt, epochs, 0)
func NewCosineLR(opt Optimizer, tMax int, etaMin float64) *CosineLR {
	if opt == nil {
		panic("optim: NewCosineLR: optimizer is nil")
	}
	if tMax < 1 {
		panic(fmt.Sprintf("optim: NewCosineLR: tMax %d; it must be at least 1 epoch", tMax))
	}
	lr := opt.LR()
	return &CosineLR{opt: opt, base: lr, tMax: tMax, etaMin: etaMin, lr: lr}
}

// Step ends an epoch: it advances the schedule and sets the optimizer's
// learning rate for the next epoch.
func (s *CosineLR) Step() {
	s.epoch++
	s.lr = s.etaMin + (s.base-s.etaMin)*(1+math.Cos(math.Pi*float64(s.epoch)/float64(s.tMax)))/2
	s.opt.SetLR(s.lr)
}

// LR returns the learning rate the schedule set last (the optimizer's
// learning rate when the schedule was made, before the first Step).
func (s *CosineLR) LR() float64 { return s.lr }

// Epoch returns the number of Step calls so far.
func (s *CosineLR) Epoch() int { return s.epoch }
