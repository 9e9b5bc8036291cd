package nn

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// tinyLM is a user module with children and a tensor of its own, a learned
// position embedding, as a notebook's language model has.
type tinyLM struct {
	Tok  *Embedding
	Pos  *tensor.Tensor
	Head *Linear
	list bool // list Pos in Children
}

func newTinyLM(list bool) *tinyLM {
	return &tinyLM{Tok: NewEmbedding(5, 4), Pos: tensor.Randn(3, 4).SetRequiresGrad(true), Head: NewLinear(4, 5), list: list}
}

func (m *tinyLM) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Head.Forward(m.Tok.Forward(x).Add(m.Pos))
}

func (m *tinyLM) Parameters() []*tensor.Tensor {
	return append(append(m.Tok.Parameters(), m.Pos), m.Head.Parameters()...)
}

func (m *tinyLM) Children() []Child {
	cs := []Child{{Name: "tok", Module: m.Tok}, {Name: "head", Module: m.Head}}
	if m.list {
		cs = append(cs, Child{Name: "pos", Tensor: m.Pos})
	}
	return cs
}

func TestStateDictOwnTensors(t *testing.T) {
	for _, c := range []struct {
		list bool
		want []string
	}{
		{true, []string{"head.bias", "head.weight", "pos", "tok.weight"}},
		// Not listed: still saved, named by its place in Parameters.
		{false, []string{"1", "head.bias", "head.weight", "tok.weight"}},
	} {
		tensor.ManualSeed(1)
		m := newTinyLM(c.list)
		sd := StateDict(m)
		if got := keys(sd); !slices.Equal(got, c.want) {
			t.Errorf("listed %v: StateDict names %v, want %v", c.list, got, c.want)
			continue
		}
		path := filepath.Join(t.TempDir(), "lm.safetensors")
		if err := Save(path, m); err != nil {
			t.Fatal(err)
		}
		m2 := newTinyLM(c.list)
		if slices.Equal(m2.Pos.Float32s(), m.Pos.Float32s()) {
			t.Fatal("fresh model starts with the same position embedding")
		}
		if err := Load(path, m2); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m2.Pos.Float32s(), m.Pos.Float32s()) {
			t.Errorf("listed %v: Load left the position embedding at its random start", c.list)
		}
		x := tensor.FromInt64s([]int64{0, 3, 4})
		if !slices.Equal(m2.Forward(x).Float32s(), m.Forward(x).Float32s()) {
			t.Errorf("listed %v: reloaded model computes something else", c.list)
		}
	}
}
