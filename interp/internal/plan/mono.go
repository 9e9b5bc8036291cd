package plan

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// The monomorphizer. yaegi's own generics mis-infer and fail on the
// standard library's generic code, and its symbol tables cannot hold a
// generic function at all, so the interpreter never sees a type
// parameter: for every instance a cell uses (slices.Sort[[]int, int], a
// cell's Map[int, string], atomic.Pointer[T]), the planner writes a plain
// copy of the declaration with the type arguments in place of the type
// parameters, under a name of its own (slicesꞏSortꞏslice_intꞏint), and
// the cell calls that. Transitively: the generic functions and types an
// instance uses are instantiated with their own type arguments, the
// unexported declarations of the standard-library package it uses are
// copied (slicesꞏpdqsortOrderedꞏint, slicesꞏxorshift), and its exported
// non-generic names are called through an import of the compiled package
// (atomic.LoadPointer). Instances are remembered by the session: a later
// cell reuses them.
//
// The copies are written in the names the cell's check uses (the cell's
// own types by name, packages by imports the plan adds) and checked
// with the cell, as if the user had written them there, so that every
// rewrite the planner makes for the interpreter (range over a function,
// the interrupt checks, fmt and a cell's String methods) applies to them
// with their concrete types.
//
// Names of instances are letters yaegi and Go accept: ꞏ is U+A78F, a
// letter that looks like the middle dot of the Go toolchain's symbol
// names.

const (
	// sep separates the parts of an instance's name.
	sep = "ꞏ"
	// maxInstances bounds the instances one cell may make: generic code
	// that instantiates itself with ever larger types never ends.
	maxInstances = 2000
	// instFileName starts the file names the check gives instance code.
	instFileName = "gtinst"
)

// limits holds generic functions that cannot run in the interpreter, with
// what to do instead.
var limits = map[string]string{
	"iter.Pull":  "iter.Pull needs the Go runtime's coroutines, which the interpreter lacks: collect the sequence with slices.Collect, or run it in a goroutine that sends its values on a channel",
	"iter.Pull2": "iter.Pull2 needs the Go runtime's coroutines, which the interpreter lacks: range over the sequence, or run it in a goroutine that sends its pairs on a channel",
}

// compiledInstance returns the name of the runtime's compiled instance of
// generic obj with type arguments targs, when it has one: a function of
// slices on an unnamed slice of int, int64, float64 or string
// (cellrt's InstSlicesSort_int). Cells call it instead of instance code:
// slices.Sort of 100,000 ints takes 7 ms compiled, 5 s interpreted.
func (s *Session) compiledInstance(obj types.Object, targs []types.Type) (string, bool) {
	if obj.Pkg() == nil || obj.Pkg().Path() != "slices" || len(targs) != 2 {
		return "", false
	}
	sl, ok := types.Unalias(targs[0]).(*types.Slice)
	if !ok || !types.Identical(sl.Elem(), targs[1]) {
		return "", false
	}
	e, ok := types.Unalias(targs[1]).(*types.Basic)
	if !ok {
		return "", false
	}
	name := "InstSlices" + obj.Name() + "_" + types.Typ[e.Kind()].Name()
	if !s.u.inTable(s.cfg.RuntimePath, name) {
		return "", false
	}
	return rtName + "." + name, true
}

// runtimeImpls holds the functions of packages' sources that have no Go
// body (the Go runtime implements them) and that the session's runtime
// package does instead: package path and name → the runtime's name.
var runtimeImpls = map[string]string{
	"maps.clone": "CloneMap",
}

// mono instantiates the generic code one cell uses.
type mono struct {
	s *Session
	c *cell // the cell, as checked before its instances were added
	// cellSrc is the cell's own source, for its generic declarations.
	cellSrc *source
	insts   []*instance // in the order they were made
	byKey   map[string]*instance
	names   map[string]bool
	// hidden holds the imports the instances use (path → name), those
	// the session has and those the plan adds.
	hidden map[string]string
	// runtime reports that instance code calls the runtime (its
	// compiled instances, see Session.compiledInstance, or runtimeImpls).
	runtime bool
	errs    ErrorList
	// ordered caches decls.
	ordered []*instDecl
}

// decls returns the declarations of the plan's instances in the order the
// check and the interpreter get them: types, constants, variables,
// methods, then functions; what an instance uses before it (an instance
// is made before what it uses). yaegi gets other orders wrong in one
// file: it does not see a method declared later from a function body
// that takes its method value (fmt.Sprint(x) of a type with a String
// method).
func (m *mono) decls() []*instDecl {
	if m.ordered != nil {
		return m.ordered
	}
	var groups [5][]*instDecl
	for k := len(m.insts) - 1; k >= 0; k-- {
		inst := m.insts[k]
		for _, d := range inst.decls {
			i := 4
			switch {
			case d.tok == token.TYPE:
				i = 0
			case d.tok == token.CONST:
				i = 1
			case d.tok == token.VAR:
				i = 2
			case d.method:
				i = 3
			}
			groups[i] = append(groups[i], d)
		}
	}
	m.ordered = []*instDecl{}
	for _, g := range groups {
		m.ordered = append(m.ordered, g...)
	}
	return m.ordered
}

// An instance is one generic declaration instantiated with type
// arguments, or one declaration of a standard-library package copied for
// the instances that use it.
type instance struct {
	key  string // what it is, whatever it is called (see Session.instKey)
	name string // its name in the interpreter
	desc string // for messages: slices.Sort[[]int, int]
	// goName is the name Go gives an instance of a generic type, for %T:
	// main.Stack[int].
	goName string
	decls  []*instDecl
}

// An instDecl is one declaration of an instance: a function, a type, a
// method, a constant or a variable.
type instDecl struct {
	inst *instance
	text string      // Go source, in the names of the cell's check
	tok  token.Token // token.TYPE, CONST, VAR or FUNC
	// method marks a method declaration.
	method bool
	cell   int // the cell it comes from, -1 for a package's source
	line   int // its line there (a cell's) or in its file
	col    int
	file   string // the package file's name, for a package's source
}

// newMono returns the monomorphizer of a checked cell.
func newMono(s *Session, c *cell) *mono {
	return &mono{s: s, c: c, byKey: map[string]*instance{}, names: map[string]bool{}, hidden: map[string]string{}}
}

// run instantiates what the cell uses: every instance of a generic
// function or type in its code (outside its own generic declarations),
// and every instance in the types of its expressions and objects
// (slices.Values(xs) is an iter.Seq[int]). It returns the errors.
func (m *mono) run() error {
	c := m.c
	inGeneric := c.genericSpans()
	var ids []*ast.Ident
	for id := range c.info.Instances {
		if !inGeneric(id.Pos()) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Pos() < ids[j].Pos() })
	for _, id := range ids {
		inst := c.info.Instances[id]
		obj := c.info.Uses[id]
		if obj == nil {
			continue
		}
		targs := typeList(inst.TypeArgs)
		if anyTypeParam(targs) {
			continue
		}
		m.instance(obj, targs)
	}
	// min and max of values: instances of the prelude's _gtMin and
	// _gtMax.
	ast.Inspect(c.file, func(n ast.Node) bool {
		if n != nil && inGeneric(n.Pos()) {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			m.minMax(c.info, call, nil)
		}
		return true
	})
	// The instances in the types of expressions and objects, by where
	// they are first met (so that names do not depend on map order).
	type found struct {
		pos token.Pos
		t   *types.Named
	}
	var list []found
	seen := map[types.Type]bool{}
	add := func(pos token.Pos, t types.Type) {
		if _, basic := t.(*types.Basic); basic || inGeneric(pos) {
			return
		}
		instancesIn(t, seen, func(n *types.Named) { list = append(list, found{pos, n}) })
	}
	for e, tv := range c.info.Types {
		if tv.Type != nil {
			add(e.Pos(), tv.Type)
		}
	}
	for id, obj := range c.info.Defs {
		if obj != nil {
			add(id.Pos(), obj.Type())
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].pos < list[j].pos })
	for _, x := range list {
		if !hasTypeParam(x.t) {
			m.instance(x.t.Origin().Obj(), typeList(x.t.TypeArgs()))
		}
	}
	if len(m.errs) > 0 {
		return m.errs
	}
	return nil
}

// minMax makes the instance of the prelude's _gtMin or _gtMax that call
// needs when it is a call of the builtin min or max whose value is not a
// constant (the planner's rewrite calls it, see gen.builtin); sub gives
// the type arguments of generic code.
func (m *mono) minMax(info *types.Info, call *ast.CallExpr, sub substitution) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return
	}
	b, ok := info.Uses[id].(*types.Builtin)
	if !ok || b.Name() != "min" && b.Name() != "max" {
		return
	}
	tv := info.Types[call]
	if tv.Value != nil || tv.Type == nil {
		return
	}
	t := sub.apply(tv.Type)
	e, ok := m.s.entries[minMaxFunc(b.Name(), t)]
	if !ok {
		return
	}
	if !hasTypeParam(t) {
		m.instance(e.obj, []types.Type{t})
	}
}

// genericSpans returns a function that reports whether a position is in
// one of the cell's generic declarations: generic functions and types,
// and the methods of generic types.
func (c *cell) genericSpans() func(token.Pos) bool {
	var spans [][2]token.Pos
	for _, fd := range c.funcs {
		if fd.Type.TypeParams != nil {
			spans = append(spans, [2]token.Pos{fd.Pos(), fd.End()})
		}
	}
	for _, md := range c.methods {
		if _, generic := recvBase(md.Recv.List[0].Type); generic {
			spans = append(spans, [2]token.Pos{md.Pos(), md.End()})
		}
	}
	for _, ts := range c.types {
		if ts.TypeParams != nil {
			spans = append(spans, [2]token.Pos{ts.Pos(), ts.End()})
		}
	}
	return func(p token.Pos) bool {
		for _, s := range spans {
			if p >= s[0] && p < s[1] {
				return true
			}
		}
		return false
	}
}

func typeList(l *types.TypeList) []types.Type {
	out := make([]types.Type, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

func anyTypeParam(ts []types.Type) bool {
	for _, t := range ts {
		if hasTypeParam(t) {
			return true
		}
	}
	return false
}

// fail records an error of the cell: desc cannot be instantiated.
func (m *mono) fail(desc, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, e := range m.errs {
		if e.Msg == msg {
			return
		}
	}
	if desc != "" {
		msg = "cannot instantiate " + desc + ": " + msg
	}
	m.errs = append(m.errs, Error{Cell: m.c.n, Msg: msg})
}

// lookup returns the name of the instance with the given key, made by
// this plan or by an earlier cell.
func (m *mono) lookup(key string) (string, bool) {
	if inst, ok := m.byKey[key]; ok {
		return inst.name, true
	}
	name, ok := m.s.instances[key]
	return name, ok
}

// add registers a new instance, before its declarations are written, so
// that recursive uses find it.
func (m *mono) add(inst *instance, base string) {
	inst.name = m.freshName(base)
	m.names[inst.name] = true
	m.byKey[inst.key] = inst
	m.insts = append(m.insts, inst)
}

// freshName returns base, or base with a number, whichever no instance of
// the session or the plan has.
func (m *mono) freshName(base string) string {
	name := base
	for i := 2; m.names[name] || m.s.instNames[name]; i++ {
		name = base + sep + strconv.Itoa(i)
	}
	return name
}

// describe returns how messages name an instance: slices.Sort[[]int, int].
func describe(obj types.Object, targs []types.Type) string {
	q := func(p *types.Package) string {
		if p.Path() == cellPath {
			return ""
		}
		return p.Name()
	}
	name := obj.Name()
	if obj.Pkg() != nil && obj.Pkg().Path() != cellPath {
		name = obj.Pkg().Name() + "." + name
	}
	if len(targs) == 0 {
		return name
	}
	args := make([]string, len(targs))
	for i, t := range targs {
		args[i] = types.TypeString(t, q)
	}
	return name + "[" + strings.Join(args, ", ") + "]"
}

// origin finds the declaration a generic object comes from: a cell's, or
// its package's source with bodies. It returns the source, the
// declaration, and the object as that source declares it.
func (m *mono) origin(obj types.Object) (*source, ast.Node, types.Object, error) {
	if obj.Pkg() == nil {
		return nil, nil, nil, fmt.Errorf("%s has no declaration", obj.Name())
	}
	if obj.Pkg().Path() == cellPath {
		src := m.s.generics[obj]
		if obj.Pkg() == m.c.pkg {
			src = m.cellSource()
		}
		if src == nil || src.decls[obj] == nil {
			return nil, nil, nil, fmt.Errorf("its declaration is not in this session any more")
		}
		return src, src.decls[obj], obj, nil
	}
	src, err := m.s.u.bodies(obj.Pkg().Path())
	if err != nil {
		return nil, nil, nil, err
	}
	o := src.pkg.Scope().Lookup(obj.Name())
	if o == nil || src.decls[o] == nil {
		return nil, nil, nil, fmt.Errorf("the source of package %s does not declare %s", src.path, obj.Name())
	}
	return src, src.decls[o], o, nil
}

// cellSource returns the cell's own source, with its generic
// declarations.
func (m *mono) cellSource() *source {
	if m.cellSrc == nil {
		m.cellSrc = m.c.source()
	}
	return m.cellSrc
}

// source returns the cell's check source as a source of its generic
// declarations.
func (c *cell) source() *source {
	src := &source{path: cellPath, cell: c.n, fset: c.fset, texts: map[*token.File]string{c.tf: c.text},
		info: c.info, pkg: c.pkg, decls: map[types.Object]ast.Node{}, methods: map[string][]*ast.FuncDecl{}}
	for _, fd := range c.funcs {
		if fd.Type.TypeParams != nil {
			src.indexDecl(fd)
		}
	}
	for _, ts := range c.types {
		if obj := c.info.Defs[ts.Name]; obj != nil && ts.TypeParams != nil {
			src.decls[obj] = ts
		}
	}
	for _, md := range c.methods {
		if base, generic := recvBase(md.Recv.List[0].Type); generic {
			src.methods[base] = append(src.methods[base], md)
		}
	}
	return src
}

// instance returns the name of the instance of the generic function or
// type obj with the type arguments targs, making it (and what it uses)
// when the session has none; false when it cannot be made (the error is
// recorded).
func (m *mono) instance(obj types.Object, targs []types.Type) (string, bool) {
	if name, ok := m.s.compiledInstance(obj, targs); ok {
		m.runtime = true
		return name, true
	}
	key := m.s.instKey(obj, targs)
	if name, ok := m.lookup(key); ok {
		return name, true
	}
	desc := describe(obj, targs)
	if obj.Pkg() != nil {
		if msg, ok := limits[obj.Pkg().Path()+"."+obj.Name()]; ok {
			m.fail("", "%s", msg)
			return "", false
		}
	}
	if len(m.insts) >= maxInstances {
		m.fail(desc, "more than %d instances: does generic code instantiate itself with ever larger types?", maxInstances)
		return "", false
	}
	src, node, orig, err := m.origin(obj)
	if err != nil {
		m.fail(desc, "%v", err)
		return "", false
	}
	if msg := src.errorIn(node); msg != "" {
		m.fail(desc, "its source does not type-check here (%s)", msg)
		return "", false
	}
	var tparams *types.TypeParamList
	switch o := orig.(type) {
	case *types.Func:
		tparams = o.Type().(*types.Signature).TypeParams()
	case *types.TypeName:
		if n, ok := o.Type().(*types.Named); ok {
			tparams = n.TypeParams()
		}
	}
	if tparams.Len() != len(targs) {
		m.fail(desc, "generic aliases are not supported")
		return "", false
	}
	sub := substitution{}
	for i, t := range targs {
		sub[tparams.At(i)] = t
	}
	inst := &instance{key: key, desc: desc}
	base := obj.Name()
	if src.path != cellPath {
		base = src.name + sep + base
	}
	for _, t := range targs {
		base += sep + mangle(t)
	}
	m.add(inst, base)
	switch node := node.(type) {
	case *ast.FuncDecl:
		text, ok := m.substitute(inst, src, node, sub, map[ast.Node]string{node.Name: inst.name})
		if !ok {
			return "", false
		}
		m.decl(inst, src, node, token.FUNC, text)
	case *ast.TypeSpec:
		if t, err := types.Instantiate(nil, obj.Type(), targs, false); err == nil {
			inst.goName = goTypeName(t)
		}
		text, ok := m.substitute(inst, src, node, sub, map[ast.Node]string{node.Name: inst.name})
		if !ok {
			return "", false
		}
		m.decl(inst, src, node, token.TYPE, "type "+text)
		for _, md := range src.methods[node.Name.Name] {
			if !m.method(inst, src, md, targs) {
				return "", false
			}
		}
	default:
		m.fail(desc, "unexpected declaration %T", node)
		return "", false
	}
	return inst.name, true
}

// method writes the instance of a method of a generic type.
func (m *mono) method(inst *instance, src *source, md *ast.FuncDecl, targs []types.Type) bool {
	fn, ok := src.info.Defs[md.Name].(*types.Func)
	if !ok {
		m.fail(inst.desc, "method %s has no type", md.Name.Name)
		return false
	}
	if msg := src.errorIn(md); msg != "" {
		m.fail(inst.desc, "the source of method %s does not type-check here (%s)", md.Name.Name, msg)
		return false
	}
	rtp := fn.Type().(*types.Signature).RecvTypeParams()
	if rtp.Len() != len(targs) {
		m.fail(inst.desc, "method %s has %d type parameters", md.Name.Name, rtp.Len())
		return false
	}
	sub := substitution{}
	for i, t := range targs {
		sub[rtp.At(i)] = t
	}
	recv := ast.Unparen(md.Recv.List[0].Type)
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = ast.Unparen(star.X)
	}
	text, ok := m.substitute(inst, src, md, sub, map[ast.Node]string{recv: inst.name})
	if !ok {
		return false
	}
	m.decl(inst, src, md, token.FUNC, text)
	return true
}

// decl adds a declaration to an instance, with its position.
func (m *mono) decl(inst *instance, src *source, n ast.Node, tok token.Token, text string) {
	p := src.fset.Position(n.Pos())
	d := &instDecl{inst: inst, text: text, tok: tok, cell: src.cell, line: p.Line, col: p.Column}
	if fd, ok := n.(*ast.FuncDecl); ok && fd.Recv != nil {
		d.method = true
	}
	if src.path != cellPath {
		d.cell, d.file = -1, p.Filename
	}
	inst.decls = append(inst.decls, d)
}

// helper returns the name of the copy of a non-generic package-level
// declaration of a package's source (an unexported function, type,
// constant or variable its generic code uses), making it once per
// session.
func (m *mono) helper(src *source, obj types.Object) (string, bool) {
	key := src.path + "." + obj.Name()
	if name, ok := m.lookup(key); ok {
		return name, true
	}
	desc := src.name + "." + obj.Name()
	if msg, ok := limits[key]; ok {
		m.fail("", "%s", msg)
		return "", false
	}
	if impl, ok := runtimeImpls[key]; ok {
		m.runtime = true
		return rtName + "." + impl, true
	}
	node := src.decls[obj]
	if node == nil {
		m.fail(desc, "it has no declaration in the package's source")
		return "", false
	}
	if msg := src.errorIn(node); msg != "" {
		m.fail(desc, "its source does not type-check here (%s)", msg)
		return "", false
	}
	inst := &instance{key: key, desc: desc}
	m.add(inst, src.name+sep+obj.Name())
	switch o := obj.(type) {
	case *types.Const:
		text := "const " + inst.name
		if b, ok := o.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
			t, ok := m.typeSrc(inst, o.Type())
			if !ok {
				return "", false
			}
			text += " " + t
		}
		v, ok := constSrc(o.Val())
		if !ok {
			m.fail(desc, "its value %s cannot be written", o.Val())
			return "", false
		}
		m.decl(inst, src, node, token.CONST, text+" = "+v)
	case *types.TypeName:
		ts := node.(*ast.TypeSpec)
		text, ok := m.substitute(inst, src, ts, nil, map[ast.Node]string{ts.Name: inst.name})
		if !ok {
			return "", false
		}
		m.decl(inst, src, ts, token.TYPE, "type "+text)
		for _, md := range src.methods[obj.Name()] {
			text, ok := m.substitute(inst, src, md, nil, nil)
			if !ok {
				return "", false
			}
			m.decl(inst, src, md, token.FUNC, text)
		}
	case *types.Func:
		fd := node.(*ast.FuncDecl)
		if fd.Body == nil {
			m.fail(desc, "it has no Go body (the runtime or assembly implements it), so the interpreter cannot run it")
			return "", false
		}
		text, ok := m.substitute(inst, src, fd, nil, map[ast.Node]string{fd.Name: inst.name})
		if !ok {
			return "", false
		}
		m.decl(inst, src, fd, token.FUNC, text)
	case *types.Var:
		vs := node.(*ast.ValueSpec)
		text := "var " + inst.name
		t, ok := m.typeSrc(inst, o.Type())
		if !ok {
			return "", false
		}
		text += " " + t
		for i, n := range vs.Names {
			if n.Name == obj.Name() && len(vs.Values) == len(vs.Names) {
				v, ok := m.substitute(inst, src, vs.Values[i], nil, nil)
				if !ok {
					return "", false
				}
				text += " = " + v
			}
		}
		m.decl(inst, src, vs, token.VAR, text)
	default:
		m.fail(desc, "unexpected %T", obj)
		return "", false
	}
	return inst.name, true
}

// constSrc returns Go source for an exact constant value.
func constSrc(v constant.Value) (string, bool) {
	switch v.Kind() {
	case constant.Bool:
		return strconv.FormatBool(constant.BoolVal(v)), true
	case constant.String:
		return strconv.Quote(constant.StringVal(v)), true
	case constant.Int:
		return v.ExactString(), true
	case constant.Float:
		num, den := constant.Num(v), constant.Denom(v)
		if den.ExactString() == "1" {
			return num.ExactString() + ".0", true
		}
		return "(" + num.ExactString() + ".0 / " + den.ExactString() + ")", true
	}
	return "", false
}

// hiddenName returns the name instance code uses for package path: an
// import the plan adds (or an earlier plan added), never a cell's own.
func (m *mono) hiddenName(path string) string {
	if name, ok := m.hidden[path]; ok {
		return name
	}
	name, ok := m.s.hidden[path]
	if !ok {
		n := 1 + len(m.s.hidden)
		for _, p := range m.hidden {
			if _, had := m.s.hidden[p]; !had {
				n++
			}
		}
		name = "_gtp_" + m.s.u.Name(path) + strconv.Itoa(n)
	}
	m.hidden[path] = name
	return name
}

// newHidden returns the imports instance code uses that the session does
// not have yet: path → name.
func (m *mono) newHidden() map[string]string {
	out := map[string]string{}
	for p, n := range m.hidden {
		if _, ok := m.s.hidden[p]; !ok {
			out[p] = n
		}
	}
	return out
}

// qualified returns the source, in the check's names, of name of package
// pkg used in generic code: through an import of the compiled package
// when its table has the name, else a copy from the package's source.
func (m *mono) qualified(inst *instance, pkg *types.Package, name string) (string, bool) {
	path := pkg.Path()
	if path == "unsafe" || m.s.u.inTable(path, name) {
		return m.hiddenName(path) + "." + name, true
	}
	src, err := m.s.u.bodies(path)
	if err == nil {
		if o := src.pkg.Scope().Lookup(name); o != nil {
			return m.helper(src, o)
		}
	}
	m.fail(inst.desc, "it uses %s.%s, which the interpreter does not have", pkg.Name(), name)
	return "", false
}

// typeSrc returns the source of type t in the check's names.
func (m *mono) typeSrc(inst *instance, t types.Type) (string, bool) {
	src, ok := typeSource(monoNamer{m}, t)
	if !ok {
		m.fail(inst.desc, "the interpreter cannot name type %s%s", types.TypeString(t, nil), m.unnamedWhy(t))
	}
	return src, ok
}

// unnamedWhy explains why a type argument has no name generated code can
// use, or "".
func (m *mono) unnamedWhy(t types.Type) string {
	why := ""
	walkType(t, nil, func(t types.Type) bool {
		n, ok := t.(*types.Named)
		if !ok || why != "" {
			return why == ""
		}
		obj := n.Obj()
		if obj.Pkg() == nil || obj.Pkg().Path() != cellPath {
			return true
		}
		switch {
		case localType(obj):
			why = " (" + obj.Name() + " is declared inside a function: declare it at the top of a cell)"
		case obj.Pkg() != m.c.pkg && !m.s.isEntry(obj) && m.s.generated[obj.Name()] != types.Object(obj):
			why = " (a later cell declared " + obj.Name() + " again: generic code is instantiated only with the current " + obj.Name() + ")"
		}
		return why == ""
	})
	return why
}

// hoist returns the name of the package-level copy of a type the cell
// declares in a function, which generic code is instantiated with
// (Go by Example's sorting-by-functions declares Person in main): the
// cell's code uses the copy instead (see gen.hoisted). A type declared in
// a generic function, or in an earlier cell, cannot be.
func (m *mono) hoist(obj *types.TypeName) (string, bool) {
	if obj.Pkg() != m.c.pkg || m.c.genericSpans()(obj.Pos()) || m.c.cellOffset(m.c.tf.Offset(obj.Pos())) < 0 {
		return obj.Name(), false
	}
	key := m.s.objKey(obj)
	if name, ok := m.lookup(key); ok {
		return name, true
	}
	inst := &instance{key: key, desc: obj.Name(), goName: goTypeName(obj.Type())}
	m.add(inst, obj.Name()+sep+"local")
	t, ok := typeSource(monoNamer{m}, obj.Type().Underlying())
	if !ok {
		m.fail("", "the interpreter cannot name type %s%s", obj.Name(), m.unnamedWhy(obj.Type().Underlying()))
		return obj.Name(), false
	}
	p := m.c.fset.Position(obj.Pos())
	inst.decls = append(inst.decls, &instDecl{inst: inst, text: "type " + inst.name + " " + t, tok: token.TYPE, cell: m.c.n, line: p.Line, col: p.Column})
	return inst.name, true
}

// monoNamer names types in the check's names for instance code: the
// cell's and the session's types by name, packages by the plan's
// imports, instances and unexported types of packages by the names of
// their copies.
type monoNamer struct{ m *mono }

func (n monoNamer) qualify(pkg *types.Package) (string, bool) {
	if pkg.Path() != "unsafe" && !n.m.s.u.InTables(pkg.Path()) {
		return pkg.Name(), false
	}
	return n.m.hiddenName(pkg.Path()), true
}

func (n monoNamer) typeName(obj *types.TypeName) (string, bool) {
	if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return n.m.hoist(obj) // declared in a function
	}
	if obj.Pkg() == n.m.c.pkg {
		return obj.Name(), true // the cell's own
	}
	if o, ok := n.m.s.generated[obj.Name()]; ok && o == obj {
		return obj.Name(), true
	}
	return obj.Name(), n.m.s.isEntry(obj) && !n.m.c.declared[obj.Name()]
}

func (n monoNamer) instance(t *types.Named) (string, bool) {
	return n.m.instance(t.Origin().Obj(), typeList(t.TypeArgs()))
}

func (n monoNamer) unexported(obj *types.TypeName) (string, bool) {
	src, err := n.m.s.u.bodies(obj.Pkg().Path())
	if err != nil {
		return obj.Name(), false
	}
	o := src.pkg.Scope().Lookup(obj.Name())
	if o == nil {
		return obj.Name(), false
	}
	return n.m.helper(src, o)
}

// mangle returns a short identifier for a type, for the names of
// instances; the session makes names unique.
func mangle(t types.Type) string {
	var b strings.Builder
	var w func(t types.Type)
	w = func(t types.Type) {
		if b.Len() > 48 {
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.Basic:
			b.WriteString(t.Name())
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() != nil && obj.Pkg().Path() != cellPath {
				b.WriteString(obj.Pkg().Name() + "_")
			}
			b.WriteString(obj.Name())
			if args := t.TypeArgs(); args != nil {
				for i := 0; i < args.Len(); i++ {
					b.WriteString(sep)
					w(args.At(i))
				}
			}
		case *types.Pointer:
			b.WriteString("ptr_")
			w(t.Elem())
		case *types.Slice:
			b.WriteString("slice_")
			w(t.Elem())
		case *types.Array:
			b.WriteString("arr" + strconv.FormatInt(t.Len(), 10) + "_")
			w(t.Elem())
		case *types.Map:
			b.WriteString("map_")
			w(t.Key())
			b.WriteString("_")
			w(t.Elem())
		case *types.Chan:
			b.WriteString("chan_")
			w(t.Elem())
		case *types.Signature:
			b.WriteString("func")
		case *types.Struct:
			b.WriteString("struct")
		case *types.Interface:
			if t.Empty() {
				b.WriteString("any")
			} else {
				b.WriteString("iface")
			}
		default:
			b.WriteString("T")
		}
	}
	w(t)
	s := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return r
		}
		return '_'
	}, b.String())
	if r := []rune(s); len(r) > 48 {
		s = string(r[:48])
	}
	return s
}

// substitute returns the text of node, a declaration (or expression) of
// src, for an instance: the type parameters of sub replaced by their
// arguments and the type parameter lists dropped; the nodes of replace
// replaced by their text (the declared name, a method's receiver type);
// generic functions and types it uses replaced by their instances; the
// package-level names of a package's source replaced by an import of the
// compiled package or a copy; local names that a type argument's source
// would be shadowed by renamed. Lines stay where they are.
func (m *mono) substitute(inst *instance, src *source, node ast.Node, sub substitution, replace map[ast.Node]string) (string, bool) {
	info := src.info
	text := src.text(node)
	base := src.fset.File(node.Pos()).Offset(node.Pos())
	off := func(p token.Pos) int { return src.fset.File(p).Offset(p) - base }
	var eds edits
	edit := func(n ast.Node, t string) { eds.replaceLines(text, off(n.Pos()), off(n.End()), t) }
	ok := true
	// The sources of the type arguments, and the names they use.
	args := map[*types.TypeParam]string{}
	conflicts := map[string]bool{}
	// In the type parameters' order, so that the first argument the
	// interpreter cannot name is the one an error names, every run.
	tps := slices.SortedFunc(maps.Keys(sub), func(a, b *types.TypeParam) int { return a.Index() - b.Index() })
	for _, tp := range tps {
		t := sub[tp]
		s, good := m.typeSrc(inst, t)
		if !good {
			return "", false
		}
		args[tp] = s
		for name := range identNames(s) {
			conflicts[name] = true
		}
	}
	skip := map[ast.Node]bool{}
	switch n := node.(type) {
	case *ast.FuncDecl:
		if n.Type.TypeParams != nil {
			skip[n.Type.TypeParams] = true
		}
	case *ast.TypeSpec:
		if n.TypeParams != nil {
			skip[n.TypeParams] = true
		}
	}
	local := func(obj types.Object) bool {
		return obj != nil && obj.Pos() >= node.Pos() && obj.Pos() < node.End() && obj.Parent() != nil &&
			obj.Parent() != src.pkg.Scope() && obj.Parent() != types.Universe
	}
	var stack []ast.Node
	ast.Inspect(node, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if !ok {
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if text, has := replace[n]; has {
			edit(n, text)
			return false
		}
		if skip[n] {
			// A type parameter list: dropped, its lines kept.
			edit(n, strings.Repeat("\n", strings.Count(src.text(n), "\n")))
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			m.minMax(info, n, sub)
		case *ast.IndexExpr, *ast.IndexListExpr:
			var x ast.Expr
			if ix, isIndex := n.(*ast.IndexExpr); isIndex {
				x = ix.X
			} else {
				x = n.(*ast.IndexListExpr).X
			}
			if id := nameOf(x); id != nil {
				if in, has := info.Instances[id]; has {
					name, good := m.instanceUse(inst, info.Uses[id], in, sub)
					if !good {
						ok = false
						return false
					}
					edit(n, name)
					return false
				}
			}
		case *ast.StructType:
			// yaegi cannot declare a struct with two blank fields
			// (atomic.Pointer's): they get names of their own.
			for _, f := range n.Fields.List {
				for _, name := range f.Names {
					if name.Name == "_" {
						edit(name, "_gtblank"+strconv.Itoa(len(eds.list)))
					}
				}
			}
		case *ast.SelectorExpr:
			x, isIdent := n.X.(*ast.Ident)
			if !isIdent {
				break
			}
			pn, isPkg := info.Uses[x].(*types.PkgName)
			if !isPkg {
				break
			}
			var name string
			good := true
			if in, has := info.Instances[n.Sel]; has {
				name, good = m.instanceUse(inst, info.Uses[n.Sel], in, sub)
			} else {
				name, good = m.qualified(inst, pn.Imported(), n.Sel.Name)
			}
			if !good {
				ok = false
				return false
			}
			edit(n, name)
			return false
		case *ast.Ident:
			text, good := m.ident(inst, src, n, parent, sub, args, conflicts, local)
			if !good {
				ok = false
			} else if text != "" {
				edit(n, text)
			}
			return false
		}
		stack = append(stack, n)
		return true
	})
	if !ok {
		return "", false
	}
	return eds.render(text, 0, len(text)), true
}

// nameOf returns the identifier an expression names: x or pkg.x.
func nameOf(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// instanceUse returns the name of the instance that a use of generic obj
// in generic code denotes, its type arguments substituted.
func (m *mono) instanceUse(inst *instance, obj types.Object, in types.Instance, sub substitution) (string, bool) {
	if obj == nil {
		m.fail(inst.desc, "a generic name without an object")
		return "", false
	}
	targs := typeList(in.TypeArgs)
	for i, t := range targs {
		targs[i] = sub.apply(t)
	}
	if anyTypeParam(targs) {
		m.fail(inst.desc, "%s is used with type parameters that have no arguments", obj.Name())
		return "", false
	}
	return m.instance(obj, targs)
}

// ident returns the replacement of an identifier of generic code, or "".
func (m *mono) ident(inst *instance, src *source, id *ast.Ident, parent ast.Node, sub substitution,
	args map[*types.TypeParam]string, conflicts map[string]bool, local func(types.Object) bool) (string, bool) {
	info := src.info
	if obj := info.Uses[id]; obj != nil {
		if tn, isType := obj.(*types.TypeName); isType {
			if tp, isParam := tn.Type().(*types.TypeParam); isParam {
				text, has := args[tp]
				if !has {
					m.fail(inst.desc, "type parameter %s has no argument", tp)
					return "", false
				}
				if needsParens(text, id, parent) {
					text = "(" + text + ")"
				}
				return text, true
			}
		}
		if in, has := info.Instances[id]; has {
			return m.instanceUse(inst, obj, in, sub)
		}
		if v, isVar := obj.(*types.Var); isVar && v.IsField() && v.Embedded() {
			// An embedded instance of a generic type is a field named
			// like the instance.
			t := sub.apply(v.Type())
			if p, isPtr := t.(*types.Pointer); isPtr {
				t = p.Elem()
			}
			if n, isNamed := types.Unalias(t).(*types.Named); isNamed && n.TypeArgs().Len() > 0 {
				return m.instance(n.Origin().Obj(), typeList(n.TypeArgs()))
			}
		}
		if src.path != cellPath && obj.Parent() == src.pkg.Scope() {
			if obj.Exported() && m.s.u.inTable(src.path, obj.Name()) {
				return m.hiddenName(src.path) + "." + obj.Name(), true
			}
			return m.helper(src, obj)
		}
		if local(obj) && conflicts[obj.Name()] {
			return obj.Name() + sep, true
		}
		return "", true
	}
	if obj := info.Defs[id]; local(obj) && conflicts[obj.Name()] {
		return obj.Name() + sep, true
	}
	return "", true
}

// needsParens reports whether the source of a type argument needs
// parentheses where it replaces type parameter id: a conversion
// (*int)(x), a method expression, a channel's element.
func needsParens(text string, id *ast.Ident, parent ast.Node) bool {
	if token.IsIdentifier(strings.ReplaceAll(text, ".", "")) {
		return false
	}
	switch p := parent.(type) {
	case *ast.CallExpr:
		return p.Fun == ast.Expr(id)
	case *ast.SelectorExpr:
		return p.X == ast.Expr(id)
	case *ast.ChanType:
		return strings.HasPrefix(text, "<-")
	}
	return false
}
