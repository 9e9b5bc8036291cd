package plan

import "testing"

func TestZZ(t *testing.T) {
	s := newSession(t)
	p := run(t, s, 1, "ch := make(chan any, 4)\nd, e := <-ch, <-ch\nvar m map[string]any\nf, g := m[\"a\"], m[\"b\"]")
	t.Log(dump(p))
}
