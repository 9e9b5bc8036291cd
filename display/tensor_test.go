package display

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// tensorTables parses a tensor's HTML and returns its header text, slice
// labels and tables.
func tensorTables(t *testing.T, x *tensor.Tensor) (header string, labels []string, tables [][][]string) {
	t.Helper()
	b := TensorBundle(x)
	if got, want := b.Data["text/plain"], x.String(); got != want {
		t.Errorf("text/plain = %q, want x.String() %q", got, want)
	}
	h, _ := b.Data["text/html"].(string)
	root := parseXHTML(t, h)
	if len(root.children) != 1 {
		t.Fatalf("%d top-level elements, want 1", len(root.children))
	}
	root = root.children[0]
	if root.attrs["class"] != "gt-tensor" {
		t.Fatalf("root element %s class %q, want a div of class gt-tensor", root.name, root.attrs["class"])
	}
	if hs := root.withClass("gt-h"); len(hs) == 1 {
		header = hs[0].allText()
	} else {
		t.Fatalf("%d header divs, want 1", len(hs))
	}
	for _, s := range root.withClass("gt-s") {
		labels = append(labels, s.allText())
	}
	for _, tb := range root.find("table") {
		tables = append(tables, tb.rows())
	}
	return header, labels, tables
}

func TestTensorHTMLMatrix(t *testing.T) {
	// PyTorch: torch.tensor([[1.5, 2.25, 3], [4, -0.5, 100]]) prints
	// 4 decimals (values not all whole, magnitudes within 1000x).
	x := tensor.FromFloat32s([]float32{1.5, 2.25, 3, 4, -0.5, 100}, 2, 3)
	header, labels, tables := tensorTables(t, x)
	for _, want := range []string{"shape [2, 3]", "dtype float32", "device cpu"} {
		if !strings.Contains(header, want) {
			t.Errorf("header %q lacks %q", header, want)
		}
	}
	if strings.Contains(header, "summarised") {
		t.Errorf("header %q says summarised for 6 elements", header)
	}
	if len(labels) != 0 {
		t.Errorf("slice labels %q for a 2-D tensor", labels)
	}
	want := [][][]string{{
		{"", "0", "1", "2"},
		{"0", "1.5000", "2.2500", "3.0000"},
		{"1", "4.0000", "-0.5000", "100.0000"},
	}}
	if !reflect.DeepEqual(tables, want) {
		t.Errorf("tables\n%q\nwant\n%q", tables, want)
	}
}

func TestTensorHTMLVectorScalarDTypes(t *testing.T) {
	for i, c := range []struct {
		x      *tensor.Tensor
		header string
		want   [][]string
	}{
		// Whole floats print as "2." (torch.arange(4.)).
		{tensor.Arange(0, 4, 1), "shape [4]", [][]string{{"0", "1", "2", "3"}, {"0.", "1.", "2.", "3."}}},
		{tensor.Scalar(3.5), "shape []", [][]string{{"3.5000"}}},
		{tensor.FromInt64s([]int64{-1, 20, 3}, 3), "dtype int64", [][]string{{"0", "1", "2"}, {"-1", "20", "3"}}},
		{tensor.FromBools([]bool{true, false}, 2), "dtype bool", [][]string{{"0", "1"}, {"True", "False"}}},
		{tensor.FromFloat64s([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 1.5}, 4), "dtype float64",
			[][]string{{"0", "1", "2", "3"}, {"nan", "inf", "-inf", "1.5000"}}},
		// Magnitudes spanning more than 1000x switch to scientific notation.
		{tensor.FromFloat64s([]float64{0.001, 10}, 2), "shape [2]", [][]string{{"0", "1"}, {"1.0000e-03", "1.0000e+01"}}},
		// 16-bit floats show their rounded values, as PyTorch prints
		// torch.tensor([3.14159, 1e-3]).bfloat16(): 3.1406, 9.9945e-04.
		{tensor.FromFloat32s([]float32{3.14159, 100}, 2).AsType(tensor.BFloat16), "dtype bfloat16",
			[][]string{{"0", "1"}, {"3.1406", "100.0000"}}},
		{tensor.FromFloat32s([]float32{0.1, 2}, 2).AsType(tensor.Float16), "dtype float16",
			[][]string{{"0", "1"}, {"0.1000", "2.0000"}}},
	} {
		header, _, tables := tensorTables(t, c.x)
		if !strings.Contains(header, c.header) {
			t.Errorf("%d: header %q lacks %q", i, header, c.header)
		}
		if len(tables) != 1 || !reflect.DeepEqual(tables[0], c.want) {
			t.Errorf("%d: tables %q, want one: %q", i, tables, c.want)
		}
	}
}

func TestTensorHTMLSlices(t *testing.T) {
	x := tensor.Arange(0, 12, 1).Reshape(2, 2, 3)
	_, labels, tables := tensorTables(t, x)
	if want := []string{"[0, :, :]", "[1, :, :]"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	want := [][][]string{
		{{"", "0", "1", "2"}, {"0", "0.", "1.", "2."}, {"1", "3.", "4.", "5."}},
		{{"", "0", "1", "2"}, {"0", "6.", "7.", "8."}, {"1", "9.", "10.", "11."}},
	}
	if !reflect.DeepEqual(tables, want) {
		t.Errorf("tables\n%q\nwant\n%q", tables, want)
	}
}

func TestTensorHTMLSummary(t *testing.T) {
	// 1600 > 1000 elements: 3 edge items per dim, as PyTorch prints
	// torch.arange(1000., 2600.).reshape(40, 40). All whole, span < 1000x.
	x := tensor.Arange(1000, 2600, 1).Reshape(40, 40)
	header, _, tables := tensorTables(t, x)
	if !strings.Contains(header, "summarised") || !strings.Contains(header, "shape [40, 40]") {
		t.Errorf("header %q", header)
	}
	want := [][]string{
		{"", "0", "1", "2", "…", "37", "38", "39"},
		{"0", "1000.", "1001.", "1002.", "…", "1037.", "1038.", "1039."},
		{"1", "1040.", "1041.", "1042.", "…", "1077.", "1078.", "1079."},
		{"2", "1080.", "1081.", "1082.", "…", "1117.", "1118.", "1119."},
		{"⋮", "⋮", "⋮", "⋮", "⋱", "⋮", "⋮", "⋮"},
		{"37", "2480.", "2481.", "2482.", "…", "2517.", "2518.", "2519."},
		{"38", "2520.", "2521.", "2522.", "…", "2557.", "2558.", "2559."},
		{"39", "2560.", "2561.", "2562.", "…", "2597.", "2598.", "2599."},
	}
	if len(tables) != 1 || !reflect.DeepEqual(tables[0], want) {
		t.Errorf("tables\n%q\nwant\n%q", tables, want)
	}

	// Other dtypes summarise the same way.
	_, _, tables = tensorTables(t, tensor.Arange(0, 1600, 1).Reshape(40, 40).AsType(tensor.Int64))
	if got := tables[0][7]; !reflect.DeepEqual(got, []string{"39", "1560", "1561", "1562", "…", "1597", "1598", "1599"}) {
		t.Errorf("int64 last row %q", got)
	}
	_, _, tables = tensorTables(t, tensor.Arange(0, 1600, 1).Reshape(40, 40).GtScalar(1597))
	if got := tables[0][7]; !reflect.DeepEqual(got, []string{"39", "False", "False", "False", "…", "False", "True", "True"}) {
		t.Errorf("bool last row %q", got)
	}

	// Exactly 1000 elements are shown in full.
	_, _, tables = tensorTables(t, tensor.Zeros(10, 100))
	if len(tables) != 1 || len(tables[0]) != 11 || len(tables[0][0]) != 101 {
		t.Errorf("[10,100] zeros: %d tables, want 1 of 11 rows of 101 cells", len(tables))
	}

	// A 4-D batch: leading dims become slice labels, summarised too.
	_, labels, tables := tensorTables(t, tensor.Zeros(20, 1, 10, 10))
	wantLabels := []string{"[0, 0, :, :]", "[1, 0, :, :]", "[2, 0, :, :]", "⋮", "[17, 0, :, :]", "[18, 0, :, :]", "[19, 0, :, :]"}
	if !reflect.DeepEqual(labels, wantLabels) {
		t.Errorf("labels %q, want %q", labels, wantLabels)
	}
	if len(tables) != 6 || len(tables[0]) != 8 || tables[0][1][1] != "0." {
		t.Errorf("4-D: %d tables, first %q; want 6 of 8 rows", len(tables), tables[0])
	}
}

func TestTensorHTMLEmptyAndGrad(t *testing.T) {
	b := TensorBundle(tensor.Zeros(0, 3))
	root := parseXHTML(t, b.Data["text/html"].(string))
	if !strings.Contains(root.allText(), "(empty)") || len(root.find("table")) != 0 {
		t.Errorf("empty tensor HTML %q", b.Data["text/html"])
	}
	x := tensor.Ones(2)
	if g, ok := any(x).(interface {
		SetRequiresGrad(bool) *tensor.Tensor
	}); ok {
		g.SetRequiresGrad(true)
		header, _, _ := tensorTables(t, x)
		if !strings.Contains(header, "requires_grad true") {
			t.Errorf("header %q lacks requires_grad true", header)
		}
		y := x.MulScalar(2)
		if f, ok := any(y).(interface{ GradFn() string }); ok && f.GradFn() != "" {
			header, _, tables := tensorTables(t, y)
			if !strings.Contains(header, "grad_fn "+f.GradFn()) || tables[0][1][0] != "2." {
				t.Errorf("header %q lacks grad_fn %s, or values %q wrong", header, f.GradFn(), tables)
			}
		}
	}
}

func TestRenderTensor(t *testing.T) {
	r := record(t)
	x := tensor.Eye(2)
	Show(x)
	d := r.all()
	if len(d) != 1 || d[0].id != "" || d[0].update {
		t.Fatalf("published %+v, want one plain display", d)
	}
	if !reflect.DeepEqual(d[0].b, TensorBundle(x)) {
		t.Errorf("Show published a bundle other than TensorBundle's")
	}
	if got := Render((*tensor.Tensor)(nil)).Data["text/plain"]; got != "<nil>" {
		t.Errorf("nil tensor renders as %q", got)
	}
}
