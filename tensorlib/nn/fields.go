package nn

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// This file derives a module's children and tensors from its struct
// fields, as PyTorch derives them from a module's attributes, for modules
// that do not list them with Parameters and Children methods.
//
// The rule (also in Forwarder's doc comment): the exported fields of the
// struct a module is, or points to, in declaration order, each named by
// its `nn:"name"` tag or else its name in snake case (SelfAttn →
// self_attn), are
//
//   - a sub-module: a value that is a Forwarder (a field of an interface
//     type that is nil is skipped), or a struct or pointer to a struct
//     whose type was declared in a notebook cell (see below);
//   - a parameter: a *tensor.Tensor that requires grad;
//   - a buffer: a *tensor.Tensor with the tag `nn:",buffer"` (saved and
//     moved, not trained);
//   - a slice, array or map of those: children named "name.0", "name.1",
//     ... or "name.key" (keys in sorted order), as PyTorch's ModuleList,
//     ParameterList and ModuleDict name theirs.
//
// Other fields, unexported fields and fields tagged `nn:"-"` are ignored.
//
// This is the one place where nn looks beyond a module's methods, so it
// minds what a module can be:
//
//   - A value of a type declared in a notebook cell reaches compiled code
//     inside a wrapper that the interpreter (yaegi) makes for nn.Forwarder
//     or nn.Module: a struct whose first field, IValue, holds the value,
//     and whose other fields, W<Method>, hold its methods as functions.
//     structBehind looks through it, by that shape alone (nn imports
//     nothing of the interpreter), and reads only exported fields.
//   - yaegi builds a cell's struct type with reflect.StructOf: unnamed,
//     without methods, and with unexported fields renamed "X"+name, which
//     look exported to reflect. In an unnamed struct type, a field "X"
//     followed by a letter that is not upper case is such a renamed field
//     and is ignored (an exported field of a cell's type named so, Xavier,
//     cannot be told from a renamed avier, and is ignored too). A field whose type is another cell struct (or a pointer to
//     one) has no methods to ask, so it is taken as a sub-module: a module
//     whose Forward nn cannot call (fieldModule).
//   - When cells are compiled, their types are ordinary named Go types,
//     and the rule applies to them as to any compiled module.
//
// A module's own Parameters or Children method, when it has one, is used
// instead of its fields (an override), except when the method itself asks
// nn for them (see own.go), and nn never calls Forward.

var (
	tensorType    = reflect.TypeFor[*tensor.Tensor]()
	forwarderType = reflect.TypeFor[Forwarder]()
)

// fieldModule is a module reached through a field whose type was
// declared in a notebook cell: its struct, without the methods (see
// above). Its children and tensors are derived from its fields.
type fieldModule struct {
	v    reflect.Value // a struct or a pointer to one
	path string        // where it was found, for messages
}

// Forward panics: the interpreter keeps a cell type's methods to itself.
func (f fieldModule) Forward(*tensor.Tensor) *tensor.Tensor {
	panic(fmt.Errorf("nn: the module in field %s was declared in a notebook cell, and nn cannot call its Forward: call it through the field", f.path))
}

// structBehind returns the struct m is or points to, looking through the
// interpreter's wrapper (see above); ok is false for anything else and
// for a nil pointer.
func structBehind(m any) (v reflect.Value, ok bool) {
	if f, isField := m.(fieldModule); isField {
		v = f.v
	} else {
		v = reflect.ValueOf(m)
	}
	for depth := 0; depth < 4; depth++ {
		switch {
		case v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer:
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		case v.Kind() == reflect.Struct && isInterpWrapper(v.Type()):
			v = v.Field(0)
		case v.Kind() == reflect.Struct:
			return v, true
		default:
			return reflect.Value{}, false
		}
	}
	return reflect.Value{}, false
}

// isInterpWrapper reports whether t has the shape of yaegi's interface
// wrappers: a first field IValue of type interface{}, then only fields
// W<Name> of func type.
func isInterpWrapper(t reflect.Type) bool {
	if t.NumField() < 2 || t.Field(0).Name != "IValue" || t.Field(0).Type.Kind() != reflect.Interface || t.Field(0).Type.NumMethod() != 0 {
		return false
	}
	for i := 1; i < t.NumField(); i++ {
		f := t.Field(i)
		if !strings.HasPrefix(f.Name, "W") || f.Type.Kind() != reflect.Func {
			return false
		}
	}
	return true
}

// fieldChildren returns the children m's fields derive (see above): sub-
// modules with Module set, parameters and buffers with Tensor set. It is
// nil when m is not a struct or has none.
func fieldChildren(m Forwarder) []Child {
	v, ok := structBehind(m)
	if !ok {
		return nil
	}
	var out []Child
	t := v.Type()
	cell := t.Name() == ""
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || (cell && isRenamedUnexported(f.Name)) {
			continue
		}
		tag := f.Tag.Get("nn")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = snakeCase(f.Name)
		}
		out = appendChildren(out, name, v.Field(i), opts == "buffer")
	}
	return out
}

// appendChildren appends what the value v of a field named name derives.
func appendChildren(out []Child, name string, v reflect.Value, buffer bool) []Child {
	if !mayHold(v.Type()) {
		return out
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			out = appendChildren(out, name+"."+strconv.Itoa(i), v.Index(i), buffer)
		}
		return out
	case reflect.Map:
		keys := v.MapKeys()
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = fmt.Sprint(k.Interface())
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
		for _, i := range order {
			out = appendChildren(out, name+"."+names[i], v.MapIndex(keys[i]), buffer)
		}
		return out
	}
	if v.Type() == tensorType {
		t := v.Interface().(*tensor.Tensor)
		if t != nil && (buffer || t.RequiresGrad()) {
			out = append(out, Child{Name: name, Tensor: t})
		}
		return out
	}
	if (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && v.IsNil() {
		return out
	}
	if v.Kind() == reflect.Struct && v.CanAddr() && v.Addr().Type().Implements(forwarderType) {
		v = v.Addr()
	}
	if v.Type().Implements(forwarderType) {
		if m := v.Interface().(Forwarder); m != nil {
			return append(out, Child{Name: name, Module: m})
		}
		return out
	}
	// A cell's struct: a sub-module when it holds anything.
	if f := (fieldModule{v: v, path: name}); len(fieldChildren(f)) > 0 {
		out = append(out, Child{Name: name, Module: f})
	}
	return out
}

// mayHold reports whether a value of type t can be or hold a child: a
// tensor, a Forwarder, a struct type declared in a cell (or a pointer to
// one), or a slice, array or map of those.
func mayHold(t reflect.Type) bool {
	switch {
	case t == tensorType || t.Implements(forwarderType):
		return true
	case t.Kind() == reflect.Struct:
		return t.Name() == "" || reflect.PointerTo(t).Implements(forwarderType)
	case t.Kind() == reflect.Pointer:
		return t.Elem().Kind() == reflect.Struct && t.Elem().Name() == ""
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map:
		return mayHold(t.Elem())
	}
	return false
}

// isRenamedUnexported reports whether name is how yaegi renames an
// unexported field of a cell's struct: "X" then a letter that is not
// upper case, or "_".
func isRenamedUnexported(name string) bool {
	if len(name) < 2 || name[0] != 'X' {
		return false
	}
	r, _ := utf8.DecodeRuneInString(name[1:])
	return !unicode.IsUpper(r)
}

// snakeCase returns a Go field name as PyTorch attribute names are
// written: SelfAttn → self_attn, LMHead → lm_head, FC1 → fc1, Norm1 →
// norm1.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Parameters returns the tensors an optimizer of m updates, in a stable
// order, as PyTorch's model.parameters(): m's own Parameters method's
// result when it has one (every layer of this package does), and
// otherwise those of its children (Children: its fields, see Forwarder
// for the rule, or its own Children method's list): its own parameters
// (tensors that require grad), then its sub-modules' parameters, in
// order, each tensor once. It takes any Forwarder: a struct of fields
// and Forward, or a Module.
//
//	opt := optim.NewAdam(nn.Parameters(model), 1e-3)
//
// Called from m's own Parameters method on m itself, it derives them from
// m's children rather than call the method back, so this makes a struct
// of fields and Forward a Module:
//
//	func (m *MLP) Parameters() []*tensor.Tensor { return nn.Parameters(m) }
func Parameters(m Forwarder) []*tensor.Tensor { return parameters(m, new(goroutine)) }

// parameters is Parameters on the goroutine g.
func parameters(m Forwarder, g *goroutine) []*tensor.Tensor {
	if p, ok := m.(Module); ok {
		if leave, ok := enterOwn(m, "Parameters", g); ok {
			defer leave()
			return p.Parameters()
		}
	}
	var own, sub []*tensor.Tensor
	for _, c := range children(m, g) {
		switch {
		case c.Module != nil:
			sub = append(sub, parameters(c.Module, g)...)
		case c.Tensor != nil && c.Tensor.RequiresGrad():
			own = append(own, c.Tensor)
		}
	}
	seen := map[*tensor.Tensor]bool{}
	var out []*tensor.Tensor
	for _, p := range append(own, sub...) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Children returns m's named sub-modules and own tensors, as PyTorch's
// named_children() and its own named parameters and buffers: m's
// Children method's result when it has one (Container), and otherwise
// those its fields derive (see Forwarder). Sub-modules have Module set;
// m's own parameters and buffers have Tensor set. Called from m's own
// Children method on m itself, it derives from the fields, so a Children
// method may add to them:
//
//	for _, c := range nn.Children(model) { fmt.Println(c.Name) }
//
//	func (m *MLP) Children() []nn.Child { return append(nn.Children(m), nn.Child{Name: "extra", Module: m.extra}) }
func Children(m Forwarder) []Child { return children(m, new(goroutine)) }

// children is Children on the goroutine g.
func children(m Forwarder, g *goroutine) []Child {
	if c, ok := m.(Container); ok {
		if leave, ok := enterOwn(m, "Children", g); ok {
			defer leave()
			return c.Children()
		}
	}
	return fieldChildren(m)
}

// Train puts m and every layer under it in training mode, as PyTorch's
// model.train(): SetTraining(m, true).
func Train(m Forwarder) { SetTraining(m, true) }

// Eval puts m and every layer under it in evaluation mode, as PyTorch's
// model.eval(): SetTraining(m, false).
func Eval(m Forwarder) { SetTraining(m, false) }
