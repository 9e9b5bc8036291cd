package nn

import (
	"reflect"
	"sync"

	goroutines "github.com/gotensor/gotensor/internal/goroutine"
)

// This file lets a module's own Parameters or Children method be written
// with nn's function of the same name on the module itself,
//
//	func (m *MLP) Parameters() []*tensor.Tensor { return nn.Parameters(m) }
//
// which makes a struct of fields and Forward a Module. nn.Parameters(m)
// calls m's method when m has one; here the method calls nn.Parameters(m)
// back. So nn notes every such call it makes, by goroutine, module and
// method, until the method returns, and a call of nn.Parameters (or
// nn.Children) on the same module from inside it, on the same goroutine,
// derives from the fields instead of calling the method again. Another
// goroutine that asks for the same module's parameters at the same time
// is not inside the method, and gets the method's result as usual.

// ownCall is a call of a module's own method that nn made and that has not
// returned yet.
type ownCall struct {
	goroutine uint64
	module    any // moduleIdentity
	method    string
}

var (
	ownMu    sync.Mutex
	ownCalls = map[ownCall]bool{}
)

// goroutine is the number of the goroutine that a walk of Parameters or
// Children runs on, read once per walk when a module needs it; 0 until
// then.
type goroutine uint64

// id returns g's number, reading it on first use.
func (g *goroutine) id() uint64 {
	if *g == 0 {
		*g = goroutine(goroutines.ID())
	}
	return uint64(*g)
}

// enterOwn reports whether nn may call m's own method named method now,
// on the goroutine g: false when g is already inside that method of m,
// called by nn. When it returns true, the caller calls the method and
// then leave.
func enterOwn(m Forwarder, method string, g *goroutine) (leave func(), ok bool) {
	if builtin(m) {
		return func() {}, true // this package's modules never call back
	}
	k := ownCall{g.id(), moduleIdentity(m), method}
	ownMu.Lock()
	defer ownMu.Unlock()
	if ownCalls[k] {
		return nil, false
	}
	ownCalls[k] = true
	return func() {
		ownMu.Lock()
		delete(ownCalls, k)
		ownMu.Unlock()
	}, true
}

// nnPath is this package's import path.
var nnPath = reflect.TypeFor[Linear]().PkgPath()

// builtin reports whether m is one of this package's modules, whose
// Parameters and Children methods never call nn.Parameters or nn.Children
// on themselves.
func builtin(m Forwarder) bool {
	t := reflect.TypeOf(m)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == nnPath && t != reflect.TypeFor[fieldModule]()
}

// moduleIdentity returns what tells m from other modules while its method
// runs: the type and address of the struct m points to (through the
// interpreter's wrapper for a module declared in a cell, see fields.go),
// or, for a module that is a value rather than a pointer, its type.
func moduleIdentity(m Forwarder) any {
	type addressed struct {
		t reflect.Type
		p uintptr
	}
	if v, ok := structBehind(m); ok {
		if v.CanAddr() {
			return addressed{v.Type(), v.UnsafeAddr()}
		}
		return v.Type()
	}
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Struct && isInterpWrapper(v.Type()) && !v.Field(0).IsNil() {
		v = v.Field(0).Elem()
	}
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		return addressed{v.Type(), v.Pointer()}
	}
	return v.Type()
}
