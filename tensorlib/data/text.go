package data

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// debianFortunesDir is where Debian's fortunes package (and fortunes-min)
// installs its text files; a variable so that tests can replace it.
var debianFortunesDir = "/usr/share/games/fortunes"

// fortunesFile is the file FetchFortunes writes and LoadFortunes reads.
const fortunesFile = "fortunes.txt"

// FetchFortunes copies the English fortune cookies of Debian's fortunes
// package (/usr/share/games/fortunes: quotations, jokes and sayings, about
// 2.5 MB of text, separated by lines of "%") into dir (DefaultDir
// ("fortunes") when empty) as one file, fortunes.txt, for LoadFortunes: a
// small corpus for training a character-level language model. The files
// are taken in name order and the offensive ones, kept apart by Debian,
// are left out. It returns an error saying how to install the package
// when it is missing; with fortunes.txt present it does nothing.
//
//	err := data.FetchFortunes("") // then text, err := data.LoadFortunes("")
func FetchFortunes(dir string) error {
	dir, err := dataDir("fortunes", dir)
	if err != nil {
		return err
	}
	dst := filepath.Join(dir, fortunesFile)
	if st, err := os.Stat(dst); err == nil && st.Size() > 0 {
		return nil
	}
	entries, err := os.ReadDir(debianFortunesDir)
	if err != nil {
		return fmt.Errorf("data: FetchFortunes: %v: install Debian's fortunes package (apt-get install fortunes, as scripts/setup.sh does)", err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && !strings.Contains(n, ".") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fmt.Errorf("data: FetchFortunes: no fortune files in %s: reinstall Debian's fortunes package", debianFortunesDir)
	}
	var b strings.Builder
	for _, n := range names {
		t, err := os.ReadFile(filepath.Join(debianFortunesDir, n))
		if err != nil {
			return fmt.Errorf("data: FetchFortunes: %w", err)
		}
		b.Write(t)
		if len(t) > 0 && t[len(t)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("data: FetchFortunes: %w", err)
	}
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("data: FetchFortunes: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("data: FetchFortunes: %w", err)
	}
	return nil
}

// dataDir returns dir, or DefaultDir(name) when dir is empty.
func dataDir(name, dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return DefaultDir(name)
}

// LoadFortunes returns the text FetchFortunes wrote into dir (DefaultDir
// ("fortunes"): $GOTENSOR_DATA/fortunes or ~/.cache/gotensor/fortunes,
// when empty). When it is missing the error says how to fetch it
// (`gotensor data fortunes` or FetchFortunes).
//
//	text, err := data.LoadFortunes("")
func LoadFortunes(dir string) (string, error) {
	dir, err := dataDir("fortunes", dir)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(dir, fortunesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("data: LoadFortunes: no %s in %s: fetch it with `gotensor data fortunes` or data.FetchFortunes(%q)", fortunesFile, dir, dir)
	}
	if err != nil {
		return "", fmt.Errorf("data: LoadFortunes: %w", err)
	}
	return string(b), nil
}

// A CharVocab maps the distinct characters (runes) of a text to token ids
// 0..Size()-1, in code-point order, for character-level language models.
type CharVocab struct {
	chars []rune
	ids   map[rune]int64
}

// NewCharVocab returns the vocabulary of the characters in text.
//
//	vocab := data.NewCharVocab(text)
//	ids := vocab.Encode(text) // [len] Int64
func NewCharVocab(text string) *CharVocab {
	ids := map[rune]int64{}
	for _, r := range text {
		ids[r] = 0
	}
	v := &CharVocab{ids: ids}
	for r := range ids {
		v.chars = append(v.chars, r)
	}
	slices.Sort(v.chars)
	for i, r := range v.chars {
		ids[r] = int64(i)
	}
	return v
}

// Size returns the number of characters in the vocabulary.
func (v *CharVocab) Size() int { return len(v.chars) }

// Encode returns the ids of s's characters as a 1-D Int64 tensor. It
// panics with a *tensor.IndexError naming a character the vocabulary
// lacks.
func (v *CharVocab) Encode(s string) *tensor.Tensor {
	out := make([]int64, 0, len(s))
	for _, r := range s {
		id, ok := v.ids[r]
		if !ok {
			panic(&tensor.IndexError{Op: "data.CharVocab.Encode", Index: int(r), Size: len(v.chars),
				Msg: fmt.Sprintf("character %q is not in the vocabulary", r), Fix: "build the vocabulary from a text that has it"})
		}
		out = append(out, id)
	}
	return tensor.FromInt64s(out, len(out))
}

// Decode returns the text of ids (any dtype, any device, any shape, read
// in row-major order).
func (v *CharVocab) Decode(ids *tensor.Tensor) string {
	var b strings.Builder
	for _, id := range ids.Int64s() {
		if id >= 0 && int(id) < len(v.chars) {
			b.WriteRune(v.chars[id])
		} else {
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}

// Char returns the character of id, as a string ("" when id is out of
// range): tick labels for display.HeatMap.
func (v *CharVocab) Char(id int) string {
	if id < 0 || id >= len(v.chars) {
		return ""
	}
	return string(v.chars[id])
}
