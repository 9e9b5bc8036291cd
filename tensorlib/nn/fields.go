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
// The rule (also in Module's doc comment): the exported fields of the
// struct a module is, or points to, in declaration order, each named by
// its `nn:"name"` tag or else its name in snake case (SelfAttn →
// self_attn), are
//
//   - a sub-module: a value that is a Module (a field of an interface type
//     that is nil is skipped), or a struct or pointer to a struct whose
//     type was declared in a notebook cell (see below);
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
//     inside a wrapper that the interpreter (yaegi) makes for nn.Module: a
//     struct whose first field, IValue, holds the value, and whose other
//     fields, W<Method>, hold its methods as functions. structBehind looks
//     through it, by that shape alone (nn imports nothing of the
//     interpreter), and reads only exported fields.
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
// instead of its fields (an override), and nn never calls Forward.

var (
	tensorType = reflect.TypeFor[*tensor.Tensor]()
	moduleType = reflect.TypeFor[Module]()
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
func fieldChildren(m Module) []Child {
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
	if v.Kind() == reflect.Struct && v.CanAddr() && v.Addr().Type().Implements(moduleType) {
		v = v.Addr()
	}
	if v.Type().Implements(moduleType) {
		if m := v.Interface().(Module); m != nil {
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
// tensor, a Module, a struct type declared in a cell (or a pointer to
// one), or a slice, array or map of those.
func mayHold(t reflect.Type) bool {
	switch {
	case t == tensorType || t.Implements(moduleType):
		return true
	case t.Kind() == reflect.Struct:
		return t.Name() == "" || reflect.PointerTo(t).Implements(moduleType)
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

// paramLister is a module with its own Parameters method.
type paramLister interface {
	Parameters() []*tensor.Tensor
}

// Parameters returns the tensors an optimizer of m updates, in a stable
// order, as PyTorch's model.parameters(): m's own Parameters method's
// result when it has one (every layer of this package does), and
// otherwise those its fields derive: its own parameters (exported
// *tensor.Tensor fields that require grad), then its sub-modules'
// parameters, in field order, each tensor once (see Module for the
// rule).
//
//	opt := optim.NewAdam(nn.Parameters(model), 1e-3)
//
// A Parameters method of your own must not call nn.Parameters on its own
// module: that would call the method back.
func Parameters(m Module) []*tensor.Tensor {
	if p, ok := m.(paramLister); ok {
		return p.Parameters()
	}
	var own, sub []*tensor.Tensor
	for _, c := range fieldChildren(m) {
		switch {
		case c.Module != nil:
			sub = append(sub, Parameters(c.Module)...)
		case c.Tensor.RequiresGrad():
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
// those its fields derive (see Module). Sub-modules have Module set;
// m's own parameters and buffers have Tensor set.
//
//	for _, c := range nn.Children(model) { fmt.Println(c.Name) }
func Children(m Module) []Child {
	if c, ok := m.(Container); ok {
		return c.Children()
	}
	return fieldChildren(m)
}

// Train puts m and every layer under it in training mode, as PyTorch's
// model.train(): SetTraining(m, true).
func Train(m Module) { SetTraining(m, true) }

// Eval puts m and every layer under it in evaluation mode, as PyTorch's
// model.eval(): SetTraining(m, false).
func Eval(m Module) { SetTraining(m, false) }
