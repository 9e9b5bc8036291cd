package nn

import (
	"slices"
	"sync/atomic"

	"github.com/gotensor/gotensor/tensorlib/internal/access"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// This file is how nn finds, from nothing but a module's own Parameters
// method, the layers of this package inside it, with their buffers and
// training mode, when the module's fields do not show them (unexported
// fields; see fields.go for modules whose exported fields do).
//
// Every tensor of a layer's state carries a tag (set through
// tensorlib/internal/access, invisible to users) naming the layer, and
// the Sequentials whose Parameters listed it. To walk a module m, nn
// calls m.Parameters() and so reaches each layer whose parameters m
// lists, and each Sequential that listed its parameters during that very
// call (a Sequential in m; not one of another model that shares a layer
// with m), and through that Sequential its layers without parameters
// (Dropout).

// acc is package tensor's privileged operations.
var acc = access.Get[*tensor.Tensor]()

// A layer is one of this package's modules with state of its own.
type layer interface {
	Module
	// state lists the layer's tensors by local name, parameters and
	// buffers, as PyTorch names them ("weight", "running_mean"); nil
	// tensors are left out.
	state() []named
	// setMode sets training (true) or evaluation mode; layers that
	// behave the same in both ignore it.
	setMode(training bool)
}

// A tag is what a tensor of a layer's state carries.
type tag struct {
	layer layer         // the layer the tensor belongs to
	seqs  []*Sequential // the Sequentials whose Parameters listed it
}

// tagOf returns t's tag, an empty one when t has none.
func tagOf(t *tensor.Tensor) *tag {
	if g, ok := acc.Owner(t).(*tag); ok {
		return g
	}
	return &tag{}
}

// own tags l's state with l and returns ps (l's parameters). Layers call
// it from Parameters, so that tensors assigned to their fields later are
// tagged too. It writes only what changed, so that once a layer's tensors
// are tagged, its Parameters may run on several goroutines at once.
func own(l layer, ps []*tensor.Tensor) []*tensor.Tensor {
	for _, nt := range l.state() {
		if g, ok := acc.Owner(nt.t).(*tag); ok {
			if g.layer != l {
				g.layer = l
			}
		} else {
			acc.SetOwner(nt.t, &tag{layer: l})
		}
	}
	return ps
}

// walks counts the walks of visitLayers; a Sequential notes in listed the
// walk during which its Parameters last ran.
var walks atomic.Uint64

// list records that s's Parameters listed ps, now, and returns them.
func (s *Sequential) list(ps []*tensor.Tensor) []*tensor.Tensor {
	s.listed.Store(walks.Load())
	for _, p := range ps {
		g, ok := acc.Owner(p).(*tag)
		if !ok {
			g = &tag{}
			acc.SetOwner(p, g)
		}
		if !slices.Contains(g.seqs, s) {
			g.seqs = append(g.seqs, s)
		}
	}
	return ps
}

// visitLayers calls fn once for every layer of this package in m: m
// itself when it is one; the layers of a Sequential; m's children
// (Children); and, for a module with its own Parameters method, the
// layers its parameters are tagged with and the Sequentials that listed
// them while that method ran.
func visitLayers(m Forwarder, fn func(layer)) {
	layers := map[layer]bool{}
	seqs := map[*Sequential]bool{}
	var visit func(m Forwarder)
	visit = func(m Forwarder) {
		switch x := m.(type) {
		case *Sequential:
			if !seqs[x] {
				seqs[x] = true
				for _, l := range x.Layers {
					visit(l)
				}
			}
			return
		case layer:
			if !layers[x] {
				layers[x] = true
				fn(x)
			}
			return
		}
		for _, ch := range Children(m) {
			if ch.Module != nil {
				visit(ch.Module)
			}
		}
		if _, ok := m.(Module); !ok {
			return // its parameters are its children's
		}
		walk := walks.Add(1)
		var found []Forwarder
		for _, p := range Parameters(m) {
			g := tagOf(p)
			for _, s := range g.seqs {
				if s.listed.Load() == walk {
					found = append(found, s)
				}
			}
			if g.layer != nil {
				found = append(found, g.layer)
			}
		}
		for _, f := range found {
			visit(f)
		}
	}
	visit(m)
}

// nonNil returns the non-nil tensors of ts.
func nonNil(ts ...*tensor.Tensor) []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, t := range ts {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// namedNonNil takes name, tensor pairs and keeps the non-nil tensors.
func namedNonNil(pairs ...any) []named {
	var out []named
	for i := 0; i < len(pairs); i += 2 {
		if t := pairs[i+1].(*tensor.Tensor); t != nil {
			out = append(out, named{pairs[i].(string), t})
		}
	}
	return out
}
