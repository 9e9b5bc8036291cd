package widgets

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
)

// newID returns a model id: 32 random hexadecimal digits, as ipywidgets'
// uuid4().hex.
func newID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails; see crypto/rand.Read
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return hex.EncodeToString(b[:])
}

// equalJSON reports whether two state values are equal as JSON values.
func equalJSON(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

// number returns v as a float64 when it is a Go number.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// formatNumber formats a float the shortest way, without an exponent for
// ordinary sizes: 3, 0.5, 1e-05.
func formatNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// removeBuffers takes the binary values ([]byte) out of a state, as the
// protocol sends them: a value in an object is removed, one in a list
// becomes null, and each one's path (keys and list indexes from the top)
// goes in paths, in the order of buffers. state is left as it was; the
// returned state shares what holds no buffer.
func removeBuffers(state map[string]any) (out map[string]any, paths [][]any, buffers [][]byte) {
	v := separate(state, nil, &paths, &buffers)
	return v.(map[string]any), paths, buffers
}

// separate is removeBuffers for one value at path.
func separate(v any, path []any, paths *[][]any, buffers *[][]byte) any {
	switch v := v.(type) {
	case map[string]any:
		var out map[string]any
		for _, k := range sortedKeys(v) {
			x := v[k]
			if b, ok := x.([]byte); ok {
				if out == nil {
					out = copyMap(v)
				}
				delete(out, k)
				*paths = append(*paths, append(clonePath(path), k))
				*buffers = append(*buffers, b)
				continue
			}
			if y := separate(x, append(clonePath(path), k), paths, buffers); !sameValue(x, y) {
				if out == nil {
					out = copyMap(v)
				}
				out[k] = y
			}
		}
		if out == nil {
			return v
		}
		return out
	case []any:
		var out []any
		for i, x := range v {
			if b, ok := x.([]byte); ok {
				if out == nil {
					out = append([]any(nil), v...)
				}
				out[i] = nil
				*paths = append(*paths, append(clonePath(path), float64(i)))
				*buffers = append(*buffers, b)
				continue
			}
			if y := separate(x, append(clonePath(path), float64(i)), paths, buffers); !sameValue(x, y) {
				if out == nil {
					out = append([]any(nil), v...)
				}
				out[i] = y
			}
		}
		if out == nil {
			return v
		}
		return out
	}
	return v
}

// putBuffers puts binary buffers back into a state received from the
// front end, at the paths the message gives.
func putBuffers(state map[string]any, paths [][]any, buffers [][]byte) error {
	if len(paths) != len(buffers) {
		return fmt.Errorf("widgets: %d buffer paths for %d buffers", len(paths), len(buffers))
	}
	for i, p := range paths {
		if len(p) == 0 {
			return fmt.Errorf("widgets: empty buffer path")
		}
		var at any = state
		for _, step := range p[:len(p)-1] {
			next, err := index(at, step)
			if err != nil {
				return err
			}
			at = next
		}
		switch c := at.(type) {
		case map[string]any:
			k, ok := p[len(p)-1].(string)
			if !ok {
				return fmt.Errorf("widgets: buffer path %v: %v is not a key", p, p[len(p)-1])
			}
			c[k] = buffers[i]
		case []any:
			j, ok := p[len(p)-1].(float64)
			if !ok || j < 0 || int(j) >= len(c) {
				return fmt.Errorf("widgets: buffer path %v: %v is not an index of a list of %d", p, p[len(p)-1], len(c))
			}
			c[int(j)] = buffers[i]
		default:
			return fmt.Errorf("widgets: buffer path %v leads into a %T", p, at)
		}
	}
	return nil
}

// index returns container[step] for a buffer path.
func index(container, step any) (any, error) {
	switch c := container.(type) {
	case map[string]any:
		if k, ok := step.(string); ok {
			if v, ok := c[k]; ok {
				return v, nil
			}
		}
	case []any:
		if j, ok := step.(float64); ok && j >= 0 && int(j) < len(c) {
			return c[int(j)], nil
		}
	}
	return nil, fmt.Errorf("widgets: buffer path step %v not found in a %T", step, container)
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func clonePath(p []any) []any { return append([]any(nil), p...) }

// sameValue reports whether separate returned its argument unchanged.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		return ok && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(bm).UnsafePointer()
	case []any:
		bs, ok := b.([]any)
		return ok && len(a) == len(bs) && (len(a) == 0 || &a[0] == &bs[0])
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
