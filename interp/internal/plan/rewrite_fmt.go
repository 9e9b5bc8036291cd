package plan

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// result hands the cell's last expression, when it has one value, to
// _gt.Result with the display methods of its type (compiled code cannot
// see the methods of a type declared in a cell), or to _gt.Value when it
// has none.
func (g *gen) result(st *ast.ExprStmt) {
	tv, ok := g.c.info.Types[st.X]
	if !ok || tv.IsVoid() || tv.IsType() || tv.Type == nil {
		return
	}
	if _, tuple := tv.Type.(*types.Tuple); tuple {
		return
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return
	}
	t := tv.Type
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	r := &Result{Type: t, Cell: isCellType(t)}
	v := "_gtres"
	args := []string{v, "nil", "nil", "nil", "nil", "nil"}
	if r.Cell {
		ms := displayMethods(t)
		if text := fmtCall(v, v, ms); text != "" {
			args[1] = text
		}
		for i, m := range []string{"HTML", "Markdown", "SVG", "PNG"} {
			if ms[m] {
				args[2+i] = v + "." + m
			}
		}
		for _, m := range []string{"String", "Error", "Format", "GoString", "HTML", "Markdown", "SVG", "PNG"} {
			if ms[m] {
				r.Methods = append(r.Methods, m)
			}
		}
	}
	g.p.Result = r
	g.ed.insert(g.off(st.Pos()), v+" := ")
	if len(r.Methods) == 0 {
		// No display methods: the one-argument form, which the
		// interpreter compiles in half the time.
		g.ed.insertClosing(g.off(st.End()), "; "+rtName+".Value("+v+")")
		return
	}
	g.ed.insertClosing(g.off(st.End()), "; "+rtName+".Result("+strings.Join(args, ", ")+")")
}

// fmtCall returns the call of _gt.Fmt that formats value with the fmt
// methods of ms (of the variable recv), or "" when it has none.
func fmtCall(value, recv string, ms map[string]bool) string {
	if !ms["String"] && !ms["Error"] && !ms["Format"] && !ms["GoString"] {
		return ""
	}
	args := []string{value}
	for _, m := range []string{"String", "Error", "Format", "GoString"} {
		if ms[m] {
			args = append(args, recv+"."+m)
		} else {
			args = append(args, "nil")
		}
	}
	return rtName + ".Fmt(" + strings.Join(args, ", ") + ")"
}

// isCellType reports whether t is a named type declared in a cell, or a
// pointer to one.
func isCellType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && interpretedCell(n.Obj().Pkg())
}

// mentionsCellType reports whether the name of t names a type declared in
// a cell or an instance of a generic type (func([]Metric) error), whose
// names the interpreter's reflect types do not have.
func mentionsCellType(t types.Type) bool {
	found := false
	walkType(t, nil, func(t types.Type) bool {
		found = found || isCellType(t) || isInstance(t)
		return !found
	})
	return found
}

// isInstance reports whether t is an instance of a generic type, or a
// pointer to one: a type of the interpreter's (see mono), whatever
// declared the generic type.
func isInstance(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.TypeArgs().Len() > 0
}

// displayMethods returns the methods of t's method set that fmt or
// display call, with the signatures they need.
func displayMethods(t types.Type) map[string]bool {
	ms := types.NewMethodSet(t)
	out := map[string]bool{}
	for i := 0; i < ms.Len(); i++ {
		f := ms.At(i).Obj().(*types.Func)
		sig := f.Type().(*types.Signature)
		switch f.Name() {
		case "String", "Error", "GoString", "HTML", "Markdown", "SVG":
			out[f.Name()] = isFunc(sig, "", "string")
		case "PNG":
			out[f.Name()] = isFunc(sig, "", "[]byte")
		case "Format":
			out[f.Name()] = isFunc(sig, "fmt.State, rune", "")
		}
	}
	return out
}

// isFunc reports whether sig has the given parameter and result types.
func isFunc(sig *types.Signature, params, results string) bool {
	q := func(p *types.Package) string { return p.Name() }
	list := func(t *types.Tuple) string {
		var s []string
		for i := 0; i < t.Len(); i++ {
			s = append(s, types.TypeString(t.At(i).Type(), q))
		}
		return strings.Join(s, ", ")
	}
	r := strings.NewReplacer("int32", "rune", "uint8", "byte")
	return r.Replace(list(sig.Params())) == params && r.Replace(list(sig.Results())) == results && !sig.Variadic()
}

// fmtArgs fixes the arguments of fmt's and log's printing functions whose
// type a cell declared (or a pointer to one): the interpreter hands
// compiled fmt a value of another type, without methods.
//
//   - A type with String, Error, Format or GoString methods goes through
//     _gt.Fmt with them. A value whose pointer type has the methods goes
//     through it too, without them: fmt does not call them, yaegi's own
//     wrapper would.
//   - A struct formatted with %+v or %#v goes through _gt.Describe with its
//     Go type name and field names (yaegi's struct has other field names
//     and no type name).
//   - An argument formatted only with %T by a format string literal is
//     replaced with its Go type name, formatted with %s (of an interface
//     type: found when the cell runs, see typeArg).
//
// Arguments formatted only with %p are left alone.
func (g *gen) fmtArgs(call *ast.CallExpr, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() || call.Ellipsis.IsValid() {
		if call.Ellipsis.IsValid() {
			g.fmtSpread(call, fn)
		}
		return
	}
	first := sig.Params().Len() - 1
	var verbs map[int][]verb
	var format *ast.BasicLit
	if strings.HasSuffix(fn.Name(), "f") && first >= 1 && first-1 < len(call.Args) {
		if v := g.c.info.Types[call.Args[first-1]].Value; v != nil && v.Kind() == constant.String {
			verbs = argVerbs(constant.StringVal(v))
			format, _ = ast.Unparen(call.Args[first-1]).(*ast.BasicLit)
		}
	}
	newFormat := ""
	if format != nil {
		newFormat = constant.StringVal(g.c.info.Types[format].Value)
	}
	for i := first; i < len(call.Args); i++ {
		a := call.Args[i]
		t := g.c.info.Types[a].Type
		used := []verb{{verb: "v"}} // Print, Println
		if verbs != nil {
			used = verbs[i-first]
		}
		if t != nil && types.IsInterface(t) && len(used) == 1 && used[0].verb == "T" && format != nil {
			g.typeArg(a, &newFormat, used[0].at)
			continue
		}
		if t != nil && len(used) == 1 && used[0].verb == "T" && format != nil && mentionsCellType(t) {
			// %T: the name Go gives the type, as a string.
			v := used[0]
			newFormat = newFormat[:v.at] + "s" + newFormat[v.at+1:]
			name := g.goTypeName(t)
			g.ed.insert(g.off(a.Pos()), "func(any) string { return "+strconv.Quote(name)+" }(")
			g.ed.insertClosing(g.off(a.End()), ")")
			continue
		}
		if printing(fn) && (g.fmtNestArg(a, used) || g.fmtIfaceArg(a, used, false)) {
			continue
		}
		if t == nil || !isCellType(t) && !isInstance(t) {
			continue
		}
		describe := false
		for _, v := range used {
			describe = describe || len(v.verb) > 1 && strings.HasSuffix(v.verb, "v")
		}
		value := "_gtx"
		if d := g.describeCall(t); describe && d != "" {
			value = d
		}
		text := fmtCall(value, "_gtx", displayMethods(t))
		if text == "" {
			if _, isPtr := t.(*types.Pointer); !isPtr && fmtCall(value, "_gtx", displayMethods(types.NewPointer(t))) != "" {
				// The methods are the pointer's: fmt does not call them
				// on a value, but yaegi's wrapper would.
				text = rtName + ".Fmt(" + value + ", nil, nil, nil, nil)"
			} else if value != "_gtx" {
				text = value
			} else {
				continue
			}
		}
		ts, ok := g.typeSrc(t)
		if !ok {
			continue
		}
		g.ed.insert(g.off(a.Pos()), "func(_gtx "+ts+") any { return "+text+" }(")
		g.ed.insertClosing(g.off(a.End()), ")")
	}
	if format != nil && newFormat != constant.StringVal(g.c.info.Types[format].Value) &&
		!strings.Contains(format.Value, "\n") {
		g.ed.replace(g.off(format.Pos()), g.off(format.End()), strconv.Quote(newFormat))
	}
}

// goTypeName returns the name Go's reflection gives t, the instances of
// generic types under their Go names: "main.Stack[int]", not the
// instance's name in the interpreter.
func (g *gen) goTypeName(t types.Type) string {
	name := goTypeName(t)
	if !strings.Contains(name, sep) {
		return name
	}
	return instanceName().ReplaceAllStringFunc(name, func(s string) string {
		n := strings.TrimPrefix(s, "main.")
		if inst := g.c.inst; inst != nil {
			for _, in := range inst.insts {
				if in.name == n && in.goName != "" {
					return in.goName
				}
			}
		}
		if goName, ok := g.s.goNames[n]; ok {
			return goName
		}
		return s
	})
}

// instanceName matches the name of an instance in a type's name. It is
// compiled on first use: its Unicode classes are slow to compile.
var instanceName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`main\.[\pL\pN_]*` + sep + `[\pL\pN_` + sep + `]*`)
})

// goTypeName returns the name Go's reflection gives t: "main.point",
// "main.Pair[string,int]" (no space between type arguments), "func(int,
// ...main.Metric) (*main.Metric, error)" (no parameter names), "struct {
// A int; B main.Inner }", "[]uint8" for []byte.
func goTypeName(t types.Type) string {
	var b strings.Builder
	writeGoType(&b, t)
	return b.String()
}

// writeGoType writes goTypeName(t) to b.
func writeGoType(b *strings.Builder, t types.Type) {
	list := func(ts []types.Type, sep string) {
		for i, t := range ts {
			if i > 0 {
				b.WriteString(sep)
			}
			writeGoType(b, t)
		}
	}
	tuple := func(tu *types.Tuple) []types.Type {
		var ts []types.Type
		for i := range tu.Len() {
			ts = append(ts, tu.At(i).Type())
		}
		return ts
	}
	signature := func(sig *types.Signature) {
		b.WriteString("(")
		params := tuple(sig.Params())
		if sig.Variadic() && len(params) > 0 {
			list(params[:len(params)-1], ", ")
			if len(params) > 1 {
				b.WriteString(", ")
			}
			b.WriteString("...")
			writeGoType(b, params[len(params)-1].(*types.Slice).Elem())
		} else {
			list(params, ", ")
		}
		b.WriteString(")")
		switch results := tuple(sig.Results()); len(results) {
		case 0:
		case 1:
			b.WriteString(" ")
			writeGoType(b, results[0])
		default:
			b.WriteString(" (")
			list(results, ", ")
			b.WriteString(")")
		}
	}
	// members writes "struct {}", or "struct { A int; B string }" with
	// member writing each.
	members := func(kind string, n int, member func(i int)) {
		if n == 0 {
			b.WriteString(kind + " {}")
			return
		}
		b.WriteString(kind + " {")
		for i := range n {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" ")
			member(i)
		}
		b.WriteString(" }")
	}
	switch t := t.(type) {
	case *types.Alias:
		writeGoType(b, types.Unalias(t))
	case *types.Basic:
		switch t.Kind() {
		case types.Uint8:
			b.WriteString("uint8")
		case types.Int32:
			b.WriteString("int32")
		case types.UnsafePointer:
			b.WriteString("unsafe.Pointer")
		default:
			b.WriteString(types.Default(t).(*types.Basic).Name())
		}
	case *types.Named:
		if pkg := t.Obj().Pkg(); pkg != nil {
			if pkg.Path() == cellPath {
				b.WriteString("main.")
			} else {
				b.WriteString(pkg.Name() + ".")
			}
		}
		b.WriteString(t.Obj().Name())
		if args := t.TypeArgs(); args.Len() > 0 {
			b.WriteString("[")
			for i := range args.Len() {
				if i > 0 {
					b.WriteString(",")
				}
				writeGoType(b, args.At(i))
			}
			b.WriteString("]")
		}
	case *types.Pointer:
		b.WriteString("*")
		writeGoType(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		writeGoType(b, t.Elem())
	case *types.Array:
		b.WriteString("[" + strconv.FormatInt(t.Len(), 10) + "]")
		writeGoType(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		writeGoType(b, t.Key())
		b.WriteString("]")
		writeGoType(b, t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendRecv:
			b.WriteString("chan ")
		case types.SendOnly:
			b.WriteString("chan<- ")
		case types.RecvOnly:
			b.WriteString("<-chan ")
		}
		writeGoType(b, t.Elem())
	case *types.Signature:
		b.WriteString("func")
		signature(t)
	case *types.Struct:
		members("struct", t.NumFields(), func(i int) {
			if f := t.Field(i); !f.Embedded() {
				b.WriteString(f.Name() + " ")
			}
			writeGoType(b, t.Field(i).Type())
			if tag := t.Tag(i); tag != "" {
				b.WriteString(" " + strconv.Quote(tag))
			}
		})
	case *types.Interface:
		members("interface", t.NumMethods(), func(i int) {
			b.WriteString(t.Method(i).Name())
			signature(t.Method(i).Type().(*types.Signature))
		})
	default:
		b.WriteString(types.TypeString(t, nil))
	}
}

// describeCall returns the call of _gt.Describe that gives fmt the Go type
// name and field names of a struct type declared in a cell (t, or what t
// points to), or "".
func (g *gen) describeCall(t types.Type) string {
	st, ok := t.Underlying().(*types.Struct)
	if p, isPtr := t.(*types.Pointer); isPtr {
		st, ok = p.Elem().Underlying().(*types.Struct)
	}
	if !ok {
		return ""
	}
	args := []string{"_gtx", strconv.Quote(strings.TrimPrefix(g.goTypeName(t), "*"))}
	if holdsInterface(t, 0) {
		args[0] = rtName + ".FmtFields(_gtx, " + fmtName + ")" // see fmtIfaceArg
	}
	for i := 0; i < st.NumFields(); i++ {
		args = append(args, strconv.Quote(st.Field(i).Name()))
	}
	return rtName + ".Describe(" + strings.Join(args, ", ") + ")"
}

// variadicSlice passes the variadic arguments of a compiled function as a
// slice when one of them is of a type declared in a cell and the
// parameter is an interface with methods: yaegi cannot convert such a
// value to the interface among variadic arguments ("reflect: cannot use
// ... as type nn.Forwarder"), but it can in a slice literal.
func (g *gen) variadicSlice(call *ast.CallExpr, fn *types.Func) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || !sig.Variadic() || call.Ellipsis.IsValid() {
		return
	}
	n := sig.Params().Len() - 1
	slice := sig.Params().At(n).Type().(*types.Slice)
	iface, ok := slice.Elem().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || len(call.Args) <= n {
		return
	}
	cell := false
	for _, a := range call.Args[n:] {
		if t := g.c.info.Types[a].Type; t != nil && isCellType(t) {
			cell = true
		}
	}
	if !cell {
		return
	}
	ts, ok := g.typeSrc(slice)
	if !ok {
		return
	}
	g.ed.insert(g.off(call.Args[n].Pos()), ts+"{")
	g.ed.insertClosing(g.off(call.Args[len(call.Args)-1].End()), "}...")
}

// verb is a verb of a format string with its + and # flags ("+v"), and
// the offset of its letter.
type verb struct {
	verb string
	at   int
}

// argVerbs returns the verbs a format string applies to each argument,
// by index ("*" for a width or precision).
func argVerbs(format string) map[int][]verb {
	out := map[int][]verb{}
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		flags := ""
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			if format[i] == '+' || format[i] == '#' {
				flags += string(format[i])
			}
			i++
		}
		index := func() {
			if i < len(format) && format[i] == '[' {
				j := strings.IndexByte(format[i:], ']')
				if j < 0 {
					return
				}
				if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil {
					arg = n - 1
				}
				i += j + 1
			}
		}
		number := func() {
			index()
			if i < len(format) && format[i] == '*' {
				out[arg] = append(out[arg], verb{"*", i})
				arg++
				i++
				return
			}
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
		}
		number()
		if i < len(format) && format[i] == '.' {
			i++
			number()
		}
		index()
		if i >= len(format) {
			break
		}
		if format[i] == '%' {
			continue
		}
		out[arg] = append(out[arg], verb{flags + string(format[i]), i})
		arg++
	}
	return out
}
