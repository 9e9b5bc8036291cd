package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// checkSet compares a loaded set with the pixel and label formulas.
func checkSet(t *testing.T, what string, ds *Dataset, n int) {
	t.Helper()
	if got := ds.Images.Shape(); !equalInts(got, []int{n, 1, 28, 28}) {
		t.Fatalf("%s images shape %v, want [%d 1 28 28]", what, got, n)
	}
	if ds.Images.DType() != tensor.Float32 || ds.Labels.DType() != tensor.Int64 {
		t.Fatalf("%s dtypes %v, %v; want float32, int64", what, ds.Images.DType(), ds.Labels.DType())
	}
	if got := ds.Labels.Shape(); !equalInts(got, []int{n}) {
		t.Fatalf("%s labels shape %v, want [%d]", what, got, n)
	}
	px := ds.Images.Float32s()
	for k := 0; k < n; k++ {
		for r := 0; r < 28; r++ {
			for c := 0; c < 28; c++ {
				want := float32(pixel(k, r, c)) / 255
				if got := px[(k*28+r)*28+c]; got != want {
					t.Fatalf("%s image %d pixel (%d,%d) = %v, want %v", what, k, r, c, got, want)
				}
			}
		}
	}
	for k, got := range ds.Labels.Int64s() {
		if got != int64(label(k)) {
			t.Fatalf("%s label %d = %d, want %d", what, k, got, label(k))
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLoadMNISTRawAndGzip(t *testing.T) {
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		writeSet(t, dir, 5, 3, gz)
		train, test, err := LoadMNIST(dir)
		if err != nil {
			t.Fatalf("gz=%v: %v", gz, err)
		}
		checkSet(t, "train", train, 5)
		checkSet(t, "test", test, 3)
	}
}

func TestLoadMNISTPixelScale(t *testing.T) {
	// The extremes map to exactly 0 and 1, and 128 to float32(128)/255.
	dir := t.TempDir()
	writeSet(t, dir, 2, 1, false)
	train, _, err := LoadMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	px := train.Images.Float32s()
	// pixel(0, 0, 0) = 0; find a 255 and a 128.
	found := map[byte]bool{}
	for i, v := range idxImages(2, 28, 28)[16:] {
		switch v {
		case 0, 255, 128:
			want := map[byte]float32{0: 0, 255: 1, 128: 0.5019608}[v]
			if px[i] != want {
				t.Fatalf("byte %d gave %v, want %v", v, px[i], want)
			}
			found[v] = true
		}
	}
	if len(found) != 3 {
		t.Fatalf("test images lack 0, 128 or 255: %v", found)
	}
}

func TestLoadMNISTDottedNames(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, dir, 2, 2, false)
	for _, std := range idxFiles {
		dotted := strings.Replace(std, "-idx", ".idx", 1)
		if err := os.Rename(filepath.Join(dir, std), filepath.Join(dir, dotted)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := LoadMNIST(dir); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultDir(t *testing.T) {
	root := t.TempDir()
	t.Setenv(EnvDataDir, root)
	if d, err := DefaultDir("mnist"); err != nil || d != filepath.Join(root, "mnist") {
		t.Fatalf("DefaultDir = %q, %v; want %q", d, err, filepath.Join(root, "mnist"))
	}
	writeSet(t, filepath.Join(root, "mnist"), 4, 2, true)
	train, test, err := LoadMNIST("")
	if err != nil {
		t.Fatal(err)
	}
	if train.Len() != 4 || test.Len() != 2 {
		t.Fatalf("Len = %d, %d; want 4, 2", train.Len(), test.Len())
	}

	t.Setenv(EnvDataDir, "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg-cache")
	if d, err := DefaultDir("fashion-mnist"); err != nil || d != "/tmp/xdg-cache/gotensor/fashion-mnist" {
		t.Fatalf("DefaultDir = %q, %v; want /tmp/xdg-cache/gotensor/fashion-mnist", d, err)
	}
}

func TestLoadFashionMNISTDebianFallback(t *testing.T) {
	deb := t.TempDir()
	writeSet(t, deb, 3, 2, true)
	old := debianFashionDir
	debianFashionDir = deb
	defer func() { debianFashionDir = old }()
	t.Setenv(EnvDataDir, t.TempDir()) // empty: fall back to Debian's directory
	train, test, err := LoadFashionMNIST("")
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, "train", train, 3)
	checkSet(t, "test", test, 2)
	// An explicit directory is not second-guessed.
	if _, _, err := LoadFashionMNIST(t.TempDir()); err == nil {
		t.Fatal("LoadFashionMNIST(empty dir) succeeded")
	}
}

func TestLoadMNISTErrors(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(dir string)
		want   []string
	}{
		{"missing", func(dir string) { os.Remove(filepath.Join(dir, testLabels)) },
			[]string{testLabels, "not found", "gotensor data mnist", "data.FetchMNIST("}},
		{"bad magic", func(dir string) {
			b := idxImages(5, 28, 28)
			b[3] = 0x01
			writeFile(t, filepath.Join(dir, trainImages), b)
		}, []string{trainImages, "magic number is 2049", "want 2051", "FetchMNIST"}},
		{"labels where images belong", func(dir string) {
			writeFile(t, filepath.Join(dir, testImages), idxLabels(3))
		}, []string{testImages, "magic number"}},
		{"truncated raw", func(dir string) {
			writeFile(t, filepath.Join(dir, trainImages), idxImages(5, 28, 28)[:1000])
		}, []string{trainImages, "1000 bytes", "truncated"}},
		{"truncated gzip", func(dir string) {
			os.Remove(filepath.Join(dir, trainImages))
			writeFile(t, filepath.Join(dir, trainImages+".gz"), gzipped(idxImages(5, 28, 28)[:2000]))
		}, []string{trainImages + ".gz", "truncated"}},
		{"trailing data in gzip", func(dir string) {
			os.Remove(filepath.Join(dir, trainImages))
			writeFile(t, filepath.Join(dir, trainImages+".gz"), gzipped(append(idxImages(5, 28, 28), 1, 2, 3)))
		}, []string{trainImages + ".gz", "more data"}},
		{"counts differ", func(dir string) {
			writeFile(t, filepath.Join(dir, trainLabels), idxLabels(4))
		}, []string{"4 labels", "5 images"}},
		{"label out of range", func(dir string) {
			b := idxLabels(5)
			b[8+2] = 10
			writeFile(t, filepath.Join(dir, trainLabels), b)
		}, []string{trainLabels, "label 10 of example 2"}},
	}
	for _, c := range cases {
		dir := t.TempDir()
		writeSet(t, dir, 5, 3, false)
		c.break_(dir)
		_, _, err := LoadMNIST(dir)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
		if !strings.HasPrefix(err.Error(), "data: LoadMNIST: ") {
			t.Errorf("%s: error %q lacks the package and op prefix", c.name, err)
		}
	}
}

func TestLoadMNISTMissingDir(t *testing.T) {
	_, _, err := LoadMNIST("/nonexistent/mnist")
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/mnist") || !strings.Contains(err.Error(), "gotensor data mnist") {
		t.Fatalf("error %v does not name the directory and the fix", err)
	}
	_, _, err = LoadFashionMNIST("/nonexistent/fm")
	if err == nil || !strings.Contains(err.Error(), "dataset-fashion-mnist") || !strings.Contains(err.Error(), "FetchFashionMNIST") {
		t.Fatalf("error %v does not say how to get Fashion-MNIST", err)
	}
}

// Label counts of the real data sets: MNIST's as published with it
// (torchvision's targets.bincount()), Fashion-MNIST's 6000/1000 per class.
var (
	mnistTrainCounts = []int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}
	mnistTestCounts  = []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}
)

func checkReal(t *testing.T, what string, ds *Dataset, counts []int) {
	t.Helper()
	n := 0
	for _, c := range counts {
		n += c
	}
	if got := ds.Images.Shape(); !equalInts(got, []int{n, 1, 28, 28}) {
		t.Fatalf("%s images shape %v, want [%d 1 28 28]", what, got, n)
	}
	got := make([]int, 10)
	for _, l := range ds.Labels.Int64s() {
		got[l]++
	}
	if !equalInts(got, counts) {
		t.Fatalf("%s label counts %v, want %v", what, got, counts)
	}
	lo, hi := ds.Images.MinAll().Item(), ds.Images.MaxAll().Item()
	if lo != 0 || hi != 1 {
		t.Fatalf("%s pixels in [%v, %v], want [0, 1]", what, lo, hi)
	}
}

func TestLoadRealMNIST(t *testing.T) {
	start := time.Now()
	train, test, err := LoadMNIST("")
	if err != nil {
		testenv.Missing(t, "MNIST not present (%v); fetch it with `go run ./cmd/gotensor data mnist`", err)
	}
	t.Logf("LoadMNIST: %v", time.Since(start))
	checkReal(t, "train", train, mnistTrainCounts)
	checkReal(t, "test", test, mnistTestCounts)
}

func TestLoadRealFashionMNIST(t *testing.T) {
	start := time.Now()
	train, test, err := LoadFashionMNIST("")
	if err != nil {
		testenv.Missing(t, "Fashion-MNIST not present (%v); scripts/setup.sh installs dataset-fashion-mnist", err)
	}
	t.Logf("LoadFashionMNIST: %v", time.Since(start))
	even := func(n int) []int {
		c := make([]int, 10)
		for i := range c {
			c[i] = n
		}
		return c
	}
	checkReal(t, "train", train, even(6000))
	checkReal(t, "test", test, even(1000))
}
