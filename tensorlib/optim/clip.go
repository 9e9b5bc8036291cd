package optim

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// ClipGradNorm rescales the gradients of params so that their total L2
// norm (the norm of all gradients joined into one vector) is at most
// maxNorm, and returns the total norm before clipping, following
// torch.nn.utils.clip_grad_norm_. When the norm exceeds maxNorm every
// gradient is multiplied by maxNorm/(norm+1e-6). Parameters whose Grad is
// nil are skipped. It panics when maxNorm is negative or NaN.
//
//	loss.Backward()
//	norm := optim.ClipGradNorm(model.Parameters(), 1.0)
//	opt.Step()
func ClipGradNorm(params []*tensor.Tensor, maxNorm float64) float64 {
	if !(maxNorm >= 0) {
		panic(fmt.Sprintf("optim: ClipGradNorm: max norm %v; it must be >= 0", maxNorm))
	}
	var sq float64
	for _, p := range params {
		if p == nil || p.Grad() == nil {
			continue
		}
		g := p.Grad()
		n := g.Mul(g).Sum().Item()
		sq += n
	}
	norm := math.Sqrt(sq)
	coef := maxNorm / (norm + 1e-6)
	if coef < 1 {
		for _, p := range params {
			if p == nil || p.Grad() == nil {
				continue
			}
			p.SetGrad(p.Grad().MulScalar(coef))
		}
	}
	return norm
}

// ClipGradValue clamps every gradient element of params into
// [-clip, clip], following torch.nn.utils.clip_grad_value_. Parameters
// whose Grad is nil are skipped. It panics when clip is negative or NaN.
func ClipGradValue(params []*tensor.Tensor, clip float64) {
	if !(clip >= 0) {
		panic(fmt.Sprintf("optim: ClipGradValue: clip value %v; it must be >= 0", clip))
	}
	for _, p := range params {
		if p == nil || p.Grad() == nil {
			continue
		}
		p.SetGrad(p.Grad().Clamp(-clip, clip))
	}
}
