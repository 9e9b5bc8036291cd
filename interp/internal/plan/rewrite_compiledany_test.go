package plan

import (
	"strings"
	"testing"
)

// TestCompiledAny checks what the planner does with values of a cell's
// types handed to compiled code as an any: the interpreter's interface
// value for the standard library's containers, a warning at a call of
// other compiled code that would see them otherwise than Go does, a
// check when the call runs for values inside interfaces, and nothing for
// the calls that read them as Go does.
func TestCompiledAny(t *testing.T) {
	const decls = `import (
	"container/list"
	"container/heap"
	"context"
	"encoding/gob"
	"io"
	"log/slog"
	"reflect"
	"sort"
	"sync"
)
type Temp float64
func (t Temp) String() string { return "t" }
type Celsius float64
type User struct {
	Name   string
	secret int
}
type Plain struct{ A, B int }
type key int
var l = list.New()
var logger *slog.Logger
var m sync.Map
`
	cases := []struct {
		name, src string
		has       []string // in the generated code
		hasNot    []string
		warn      string // a substring of the one warning, or "" for none
	}{
		{"a container keeps the interpreter's interface value", "l.PushBack(Temp(2))",
			[]string{"l.PushBack(any(func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }("}, nil, ""},
		{"heap.Push too", "func push(h heap.Interface) { heap.Push(h, Temp(1)) }",
			[]string{"heap.Push(h, any(func(_gtx Temp) any"}, nil, ""},
		{"a sync.Map's value, not its key", "m.Store(Temp(1), Temp(2))",
			[]string{"m.Store(Temp(1), any(func(_gtx Temp) any"}, nil, ""},
		{"a context's value as a store, its key as a key of its type (see contextKey)", "_ = context.WithValue(context.Background(), key(1), Temp(3))",
			[]string{`_gt.ContextKey(`, `key(1), "main.key", _gtType)`, `, any(func(_gtx Temp) any`}, nil, ""},
		{"a type without methods too (it has a name tag)", "l.PushBack(Celsius(1))",
			[]string{"l.PushBack(any(func(_gtx Celsius) any"}, nil, ""},
		{"a pointer to a bare type warns", "c := Celsius(1)\nl.PushBack(&c)", nil, nil,
			"keeps a *Celsius, a type declared in a cell, as the interpreter's *float64"},
		{"a struct comes back as itself", "l.PushBack(User{})", nil, []string{"any("}, ""},
		{"slog looks for String", `logger.Info("m", "t", Temp(1))`, nil, nil,
			"log/slog's (*Logger).Info, compiled code, gets a Temp: it would not find the method String of Temp"},
		{"slog writes unexported fields", `logger.Info("m", "u", User{})`, nil, nil,
			"it sees the interpreter's struct of User: its unexported field secret would be written as Xsecret"},
		{"gob looks for its own methods, not String", `_ = gob.NewEncoder(io.Discard).Encode(Temp(1))`, nil, nil, ""},
		{"reflect sees the interpreter's type", `_ = reflect.TypeOf(Celsius(1))`, nil, nil,
			"reflect sees Celsius, a type declared in a cell, as the interpreter's type"},
		{"exempt calls", "ts := []Temp{2, 1}\nsort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })\n_ = reflect.DeepEqual(ts, ts)\n_ = context.WithValue(context.Background(), Temp(1), 2)",
			nil, []string{"any("}, ""},
		{"reflect.DeepEqual compares what the wrappers hold", "var v any = Celsius(1)\n_ = reflect.DeepEqual(v, Celsius(1))",
			[]string{"_gt.DeepEqual", "(v, any(func(_gtx Celsius) any { var _gtr any = _gtx; return _gtr }("}, []string{"_gt.Compiled("}, ""},
		{"a value inside an interface is checked when the call runs", "var v any = Temp(1)\nlogger.Info(\"m\", \"v\", v)",
			[]string{`logger.Info("m", "v", _gt.Compiled(`, `gets a %s, a type declared in a cell, inside an interface`}, nil, ""},
		{"and a slice of them passed with ...", "func logf(args ...any) { logger.Info(\"m\", args...) }",
			[]string{`logger.Info("m", _gt.CompiledSlice(`}, nil, ""},
		{"one warning for a function and a type in a cell", `logger.Info("m", "a", Temp(1), "b", Temp(2))`, nil, nil,
			"gets a Temp"},
		{"a plain struct is read as Go reads it", `logger.Info("m", "p", Plain{1, 2})`, nil, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			run(t, s, 1, decls)
			p := run(t, s, 2, c.src)
			code := dump(p)
			for _, h := range c.has {
				if !strings.Contains(code, h) {
					t.Errorf("the code lacks %q:\n%s", h, code)
				}
			}
			for _, h := range c.hasNot {
				if strings.Contains(code, h) {
					t.Errorf("the code has %q:\n%s", h, code)
				}
			}
			switch {
			case c.warn == "" && len(p.Warnings) > 0:
				t.Errorf("warnings %q, want none", p.Warnings)
			case c.warn != "" && (len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], c.warn)):
				t.Errorf("warnings %q, want one with %q", p.Warnings, c.warn)
			}
		})
	}
}
