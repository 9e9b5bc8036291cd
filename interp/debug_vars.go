package interp

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Scopes and variables: a frame's, the session's, and a value's children;
// evaluate by a variable's name.

// dapVariable is a variable of the Debug Adapter Protocol.
type dapVariable struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type"`
	VariablesReference int    `json:"variablesReference"`
	EvaluateName       string `json:"evaluateName,omitempty"`

	v reflect.Value
}

// variables answers the variables kept under a variablesReference.
func (d *debugger) variables(args map[string]any) (map[string]any, error) {
	ref := kernel.IntArg(args, "variablesReference")
	d.mu.Lock()
	f := d.refs[ref]
	d.mu.Unlock()
	if f == nil {
		return nil, fmt.Errorf("no variables under reference %d: the program has moved on since they were shown", ref)
	}
	return map[string]any{"variables": d.listed(f())}, nil
}

// inspectVariables answers the session's variables (JupyterLab's
// variables panel while no cell is stopped).
func (d *debugger) inspectVariables(map[string]any) (map[string]any, error) {
	return map[string]any{"variables": d.listed(d.globals())}, nil
}

func (d *debugger) scopes(args map[string]any) (map[string]any, error) {
	id := kernel.IntArg(args, "frameId")
	d.mu.Lock()
	f, ok := d.frames[id]
	d.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no frame %d: ask for the stack trace again", id)
	}
	locals := d.ref(func() []dapVariable { return frameLocals(f) })
	if f.name == "<cell>" {
		// JupyterLab shows the first scope: at a cell's top level, as at
		// a Python module's, its locals are the session's variables (the
		// frame's own, a loop's say, over those of the same name).
		locals = d.ref(func() []dapVariable { return merged(frameLocals(f), d.globals()) })
	}
	globals := d.ref(d.globals)
	return map[string]any{"scopes": []map[string]any{
		{"name": "Locals", "variablesReference": locals, "expensive": false},
		{"name": "Globals", "variablesReference": globals, "expensive": false},
	}}, nil
}

// ref keeps list under a new variablesReference.
func (d *debugger) ref(list func() []dapVariable) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.nextID++
	d.refs[d.nextID] = list
	return d.nextID
}

// frameLocals returns the variables of a stopped frame, the planner's own
// left out.
func frameLocals(f *debugFrame) []dapVariable {
	if f.frame == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []dapVariable
	for _, sc := range f.frame.Scopes() {
		for _, v := range sc.Variables() {
			if v.Name == "_" || strings.HasPrefix(v.Name, "_gt") || seen[v.Name] || !v.Value.IsValid() {
				continue
			}
			seen[v.Name] = true
			out = append(out, dapVariable{Name: v.Name, v: v.Value})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// merged returns the variables of a and those of b that no variable of a
// shadows, sorted by name.
func merged(a, b []dapVariable) []dapVariable {
	seen := map[string]bool{}
	out := append([]dapVariable(nil), a...)
	for _, v := range a {
		seen[v.Name] = true
	}
	for _, v := range b {
		if !seen[v.Name] {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// userNames returns the names of the session and of the running cell that
// the interpreter has under other names (see plan.Decl.Interp), by those.
func (d *debugger) userNames() map[string]string {
	users := map[string]string{}
	for _, name := range d.s.plan.Names() {
		if yn := d.s.plan.InterpName(name); yn != name {
			users[yn] = name
		}
	}
	if c := d.s.cur.Load(); c != nil && c.p != nil {
		for _, decl := range c.p.Decls {
			if (decl.Kind == plan.DeclVar || decl.Kind == plan.DeclFunc) && decl.Interp != "" {
				users[decl.Interp] = decl.Name
			}
		}
	}
	return users
}

// interpOnly matches the names the planner gives the cells' names that
// the interpreter has as imports (data_gt3). It is compiled on first use.
var interpOnly = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\pL_][\pL\pN_]*_gt[0-9]+$`) })

// globals returns the session's variables: those cells declared, and those
// the running cell is declaring.
func (d *debugger) globals() []dapVariable {
	users := d.userNames()
	var out []dapVariable
	for name, v := range d.s.yi.Globals() {
		if strings.HasPrefix(name, "_") || !v.IsValid() {
			continue // the planner's
		}
		if user, ok := users[name]; ok {
			name = user
		} else if interpOnly().MatchString(name) {
			continue // a name the planner gave, no longer the session's
		}
		switch d.s.plan.Lookup(name).(type) {
		case *types.Var:
		case nil:
			if v.Kind() == reflect.Func {
				continue // a function the running cell declares
			}
		default:
			continue
		}
		out = append(out, dapVariable{Name: name, v: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// listed fills in the values, types and children of vars.
func (d *debugger) listed(vars []dapVariable) []dapVariable {
	out := make([]dapVariable, len(vars))
	for i, v := range vars {
		out[i] = d.describe(v.Name, v.v)
	}
	return out
}

// maxChildren bounds the elements a variable shows.
const maxChildren = 100

// describe formats a value for the variables panel: a tensor by its shape,
// dtype and device; structs, slices, maps and pointers expand.
func (d *debugger) describe(name string, v reflect.Value) dapVariable {
	v = deref(v)
	out := dapVariable{Name: name, EvaluateName: name, v: v}
	if !v.IsValid() {
		out.Value, out.Type = "nil", "nil"
		return out
	}
	out.Type = v.Type().String()
	if v.CanInterface() {
		if t, ok := v.Interface().(*tensor.Tensor); ok && t != nil {
			out.Type = "*tensor.Tensor"
			out.Value = tensorSummary(t)
			out.VariablesReference = d.ref(func() []dapVariable {
				return []dapVariable{
					{Name: "shape", v: reflect.ValueOf(t.Shape())},
					{Name: "dtype", v: reflect.ValueOf(t.DType().String())},
					{Name: "device", v: reflect.ValueOf(t.Device().String())},
				}
			})
			return out
		}
	}
	out.Value = short(v)
	switch v.Kind() {
	case reflect.Struct:
		if v.NumField() > 0 {
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				for i := 0; i < v.NumField() && i < maxChildren; i++ {
					c = append(c, dapVariable{Name: v.Type().Field(i).Name, v: v.Field(i)})
				}
				return c
			})
		}
	case reflect.Slice, reflect.Array:
		if v.Len() > 0 {
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				for i := 0; i < v.Len() && i < maxChildren; i++ {
					c = append(c, dapVariable{Name: strconv.Itoa(i), v: v.Index(i)})
				}
				return c
			})
		}
	case reflect.Map:
		if v.Len() > 0 {
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				it := v.MapRange()
				for it.Next() && len(c) < maxChildren {
					c = append(c, dapVariable{Name: short(it.Key()), v: it.Value()})
				}
				sort.Slice(c, func(i, j int) bool { return c[i].Name < c[j].Name })
				return c
			})
		}
	case reflect.Pointer:
		if !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			e := v.Elem()
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				for i := 0; i < e.NumField() && i < maxChildren; i++ {
					c = append(c, dapVariable{Name: e.Type().Field(i).Name, v: e.Field(i)})
				}
				return c
			})
		}
	}
	return out
}

// deref unwraps interfaces.
func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// short formats v in at most 200 bytes.
func short(v reflect.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "<" + v.Type().String() + ">"
		}
	}()
	switch {
	case v.Kind() == reflect.Func:
		if v.IsNil() {
			return "nil"
		}
		return v.Type().String()
	case v.Kind() == reflect.String:
		s = strconv.Quote(v.String())
	case v.CanInterface():
		s = fmt.Sprintf("%v", v.Interface())
	default:
		s = fmt.Sprintf("%v", v)
	}
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

// lookup finds a variable by name: in the frame frameID when given, else
// among the session's variables.
func (d *debugger) lookup(name string, frameID int) (reflect.Value, bool) {
	d.mu.Lock()
	f := d.frames[frameID]
	d.mu.Unlock()
	if f != nil {
		for _, v := range frameLocals(f) {
			if v.Name == name {
				return v.v, true
			}
		}
	}
	for _, v := range d.globals() {
		if v.Name == name {
			return v.v, true
		}
	}
	return reflect.Value{}, false
}

// evaluate answers the value of a variable by name: yaegi cannot evaluate
// an expression in a stopped frame.
func (d *debugger) evaluate(args map[string]any) (map[string]any, error) {
	expr, _ := args["expression"].(string)
	expr = strings.TrimSpace(expr)
	if !token.IsIdentifier(expr) {
		return nil, fmt.Errorf("the gotensor debugger cannot evaluate expressions (yaegi evaluates nothing in a stopped frame): give a variable's name, or look in the variables panel")
	}
	v, ok := d.lookup(expr, kernel.IntArg(args, "frameId"))
	if !ok {
		return nil, fmt.Errorf("no variable %s in the frame or the session", expr)
	}
	dv := d.describe(expr, v)
	return map[string]any{"result": dv.Value, "type": dv.Type, "variablesReference": dv.VariablesReference}, nil
}
