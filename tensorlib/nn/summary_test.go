package nn

import (
	"slices"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func TestSummary(t *testing.T) {
	m := NewSequential(
		NewConv2d(1, 8, 3, Padding(1)), NewBatchNorm2d(8), NewReLU(), NewMaxPool2d(2),
		newBlock(8), NewFlatten(), NewDropout(0.5), NewLinear(8*14*14, 10),
	)
	s := Summary(m, 2, 1, 28, 28)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	want := []struct {
		name   string
		shape  []int
		params int
	}{
		{"0", []int{2, 8, 28, 28}, 80},
		{"1", []int{2, 8, 28, 28}, 16},
		{"2", []int{2, 8, 28, 28}, 0},
		{"3", []int{2, 8, 14, 14}, 0},
		{"4", []int{2, 8, 14, 14}, 8*8*9 + 16},
		{"4.conv", nil, 8 * 8 * 9},
		{"4.bn", nil, 16},
		{"5", []int{2, 1568}, 0},
		{"6", []int{2, 1568}, 0},
		{"7", []int{2, 10}, 15690},
	}
	if len(s.Rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(s.Rows), len(want), s)
	}
	for i, w := range want {
		r := s.Rows[i]
		if r.Name != w.name || !slices.Equal(r.OutputShape, w.shape) || r.Params != w.params {
			t.Errorf("row %d: %s %v %d, want %s %v %d", i, r.Name, r.OutputShape, r.Params, w.name, w.shape, w.params)
		}
	}
	if s.TotalParams != NumParameters(m) || s.TrainableParams != s.TotalParams || !slices.Equal(s.OutputShape, []int{2, 10}) {
		t.Errorf("totals %d/%d, output %v", s.TotalParams, s.TrainableParams, s.OutputShape)
	}
	bn := m.At(1).(*BatchNorm)
	if !bn.Training || bn.NumBatchesTracked.Item() != 0 {
		t.Error("Summary changed a BatchNorm's mode or statistics")
	}
	text := s.String()
	for _, want := range []string{"(7) Linear(in_features=1568, out_features=10, bias=True)", "[2 10]", "15,690",
		"  (4.conv) Conv2d", "Total params: 16,378"} {
		if !strings.Contains(text, want) {
			t.Errorf("String() lacks %q:\n%s", want, text)
		}
	}
	lines := strings.Split(text, "\n")
	if len(lines[0]) != len(lines[1]) {
		t.Errorf("header and rule differ in width:\n%s", text)
	}
	if h := s.HTML(); !strings.Contains(h, "<table>") || !strings.Contains(h, "15,690") || !strings.Contains(h, "BatchNorm2d(8, eps=1e-05") {
		t.Errorf("HTML():\n%s", h)
	}
	// A wrong input shape is reported, not panicked.
	bad := Summary(m, 2, 3, 28, 28)
	if bad.Err == nil || bad.Rows[0].OutputShape != nil || !strings.Contains(bad.String(), "Forward pass failed") {
		t.Errorf("Summary with a bad input: %v\n%s", bad.Err, bad)
	}
	// Without an input shape: parameter counts only; Embedding takes Int64.
	if s := Summary(m); s.Err != nil || s.Rows[0].OutputShape != nil || s.OutputShape != nil {
		t.Errorf("Summary without input: %v", s)
	}
	e := Summary(NewSequential(NewEmbedding(10, 4), NewFlatten()), 2, 3)
	if e.Err != nil || !slices.Equal(e.OutputShape, []int{2, 12}) {
		t.Errorf("Summary of an Embedding model: %v, output %v", e.Err, e.OutputShape)
	}
	_ = tensor.CPU
}
