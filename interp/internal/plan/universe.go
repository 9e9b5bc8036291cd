package plan

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Symbols is a symbol table in the form yaegi's interp.Exports and yaegi's
// extractor use: "import/path/pkgname" → exported name → value. Functions
// are stored as function values, variables as addressable values
// (reflect.ValueOf(&pkg.V).Elem()), untyped constants as constant.Value,
// typed constants as plain values and types as nil pointers
// (reflect.ValueOf((*pkg.T)(nil))). Names that start with "_" are yaegi's
// interface wrappers and are not part of the package.
type Symbols = map[string]map[string]reflect.Value

// Universe is a types.Importer over symbol tables: the type information of
// exactly the compiled packages the interpreter can call, with no Go
// toolchain needed at run time. Packages are built from reflection the
// first time they are imported; a named type keeps one identity however it
// is reached. A Universe is safe for concurrent use.
type Universe struct {
	mu sync.Mutex
	// tmu guards tables and names, which Add changes while lookups read
	// them.
	tmu    sync.RWMutex
	tables map[string]map[string]reflect.Value // import path → symbols
	names  map[string]string                   // import path → package name
	pkgs   map[string]*types.Package
	filled map[string]bool
	cache  map[reflect.Type]types.Type
	// building holds the generic instances being converted, true once
	// one is found to refer to itself.
	building map[reflect.Type]bool
	sources  map[string][]string
	whole    map[string]bool // packages without tables whose source is all generic (wholeSource)
	generics map[string]bool // packages whose source generics are in
	// withBodies holds the packages' sources checked with their bodies
	// (see bodies).
	withBodies map[string]*source

	// SourceNote, when set, is added to the compile errors of cells
	// that use what the packages built from source lack: what Source
	// is missing (see StdSource).
	SourceNote string

	// Source, when set, gives the Go source files of a package (their
	// contents), or nil. A package the tables do not hold is built from
	// its source entirely: the packages the interpreter runs from source
	// (yaegi's cmp, maps and slices). For a package the tables hold, the
	// source adds what symbol tables cannot hold: its generic functions
	// and types, with the unexported declarations they use, type-checked
	// into the package built from reflection. See GOROOTSource.
	Source func(path string) []string
}

// NewUniverse returns a Universe over the given tables. When several tables
// hold the same package, their symbols are merged and later tables win.
func NewUniverse(tables ...Symbols) *Universe {
	u := &Universe{
		tables: map[string]map[string]reflect.Value{},
		names:  map[string]string{},
		pkgs:   map[string]*types.Package{},
		filled: map[string]bool{},
		cache:  map[reflect.Type]types.Type{},

		building: map[reflect.Type]bool{},
		sources:  map[string][]string{},
		whole:    map[string]bool{},
		generics: map[string]bool{},

		withBodies: map[string]*source{},
	}
	u.add(tables)
	return u
}

// Add adds tables to the universe, as the interpreter is given them later
// (a module's package loaded while the session runs). A package imported
// before keeps the objects it had.
func (u *Universe) Add(tables ...Symbols) {
	u.tmu.Lock()
	defer u.tmu.Unlock()
	u.add(tables)
}

func (u *Universe) add(tables []Symbols) {
	for _, t := range tables {
		for key, syms := range t {
			i := strings.LastIndex(key, "/")
			if i < 0 {
				continue
			}
			p, name := key[:i], key[i+1:]
			m := u.tables[p]
			if m == nil {
				m = map[string]reflect.Value{}
				u.tables[p] = m
			}
			for k, v := range syms {
				m[k] = v
			}
			u.names[p] = name
		}
	}
}

// Has reports whether the tables (or the sources) hold package path.
func (u *Universe) Has(path string) bool {
	if path == "unsafe" {
		return true
	}
	if _, ok := u.table(path); ok {
		return true
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.wholeSource(path) != nil
}

// wholeSource returns the source of a package the tables do not hold,
// when a package can be built from it: when its exported code is all
// generic (slices, maps, cmp, iter), since the interpreter runs the
// instances of generic code (see mono) but cannot import a package's
// other code from source (plugin.Open). u.mu is held.
func (u *Universe) wholeSource(path string) []string {
	src := u.sourceOf(path)
	if src == nil {
		return nil
	}
	ok, seen := u.whole[path]
	if !seen {
		ok = onlyGeneric(src)
		u.whole[path] = ok
	}
	if !ok {
		return nil
	}
	return src
}

// table returns the symbols of package path.
func (u *Universe) table(path string) (map[string]reflect.Value, bool) {
	u.tmu.RLock()
	defer u.tmu.RUnlock()
	t, ok := u.tables[path]
	return t, ok
}

// sourceOf returns the source files of path, once per package.
func (u *Universe) sourceOf(path string) []string {
	if u.Source == nil {
		return nil
	}
	if src, ok := u.sources[path]; ok {
		return src
	}
	src := u.Source(path)
	u.sources[path] = src
	return src
}

// Paths returns the import paths of the tables' packages, sorted.
func (u *Universe) Paths() []string {
	u.tmu.RLock()
	defer u.tmu.RUnlock()
	var ps []string
	for p := range u.tables {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// Name returns the package name of import path p as the tables give it,
// or the last element of the path.
func (u *Universe) Name(p string) string {
	u.tmu.RLock()
	n, ok := u.names[p]
	u.tmu.RUnlock()
	if ok {
		return n
	}
	return defaultName(p)
}

// defaultName guesses a package's name from its import path: its last
// element, skipping a major version suffix ("math/rand/v2" → "rand").
func defaultName(p string) string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		if d := path.Dir(p); d != "." {
			base = path.Base(d)
		}
	}
	return strings.NewReplacer("-", "_", ".", "_").Replace(base)
}

// Import implements types.Importer.
func (u *Universe) Import(p string) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.importLocked(p, true)
}

// importLocked imports package p, with the generic declarations of its
// source when generics is set; u.mu is held.
func (u *Universe) importLocked(p string, generics bool) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	syms, ok := u.table(p)
	var src []string
	switch {
	case !ok:
		src = u.wholeSource(p)
	case generics:
		src = u.sourceOf(p)
	}
	if !ok && src == nil {
		return nil, fmt.Errorf("package %s is not available in this session (no compiled symbols for it)", p)
	}
	pkg := u.pkg(p)
	if u.filled[p] {
		if ok && generics && !u.generics[p] && src != nil {
			u.generics[p] = true
			if err := u.fromSource(pkg, src); err != nil {
				return nil, fmt.Errorf("package %s: %w", p, err)
			}
		}
		return pkg, nil
	}
	u.filled[p] = true
	u.generics[p] = generics
	names := make([]string, 0, len(syms))
	for name := range syms {
		if !strings.HasPrefix(name, "_") && token.IsExported(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	scope := pkg.Scope()
	for _, name := range names {
		if obj := u.object(pkg, name, syms[name]); obj != nil {
			scope.Insert(obj)
		}
	}
	u.unexportedMethods(syms)
	if src != nil {
		if err := u.fromSource(pkg, src); err != nil {
			return nil, fmt.Errorf("package %s: %w", p, err)
		}
	}
	pkg.MarkComplete()
	return pkg, nil
}

// unexportedMethods gives the package's types the unexported methods
// reflection does not show, where an interface of the package needs them
// (testing.TB's private, go/ast.Expr's exprNode): reflect tells which
// types implement the interface.
func (u *Universe) unexportedMethods(syms map[string]reflect.Value) {
	var ifaces, others []reflect.Type
	for name, v := range syms {
		if strings.HasPrefix(name, "_") || !v.IsValid() || v.Kind() != reflect.Pointer || !v.IsNil() || v.CanAddr() {
			continue
		}
		t := v.Type().Elem()
		if t.Kind() != reflect.Interface {
			others = append(others, t)
			continue
		}
		for i := 0; i < t.NumMethod(); i++ {
			if t.Method(i).PkgPath != "" {
				ifaces = append(ifaces, t)
				break
			}
		}
	}
	for _, it := range ifaces {
		for _, t := range others {
			named, ok := u.typeOf(t).(*types.Named)
			if !ok {
				continue
			}
			var recv types.Type
			switch {
			case t.Implements(it):
				recv = named
			case reflect.PointerTo(t).Implements(it):
				recv = types.NewPointer(named)
			default:
				continue
			}
			for i := 0; i < it.NumMethod(); i++ {
				m := it.Method(i)
				if m.PkgPath == "" {
					continue
				}
				pkg := u.pkg(m.PkgPath)
				if obj, _, _ := types.LookupFieldOrMethod(named, true, pkg, m.Name); obj != nil {
					continue
				}
				rv := types.NewParam(token.NoPos, pkg, "", recv)
				named.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, u.signature(rv, m.Type, 0)))
			}
		}
	}
}

// pkg returns the one *types.Package of import path p, making it if
// needed (its scope is filled by Import).
func (u *Universe) pkg(p string) *types.Package {
	if pkg, ok := u.pkgs[p]; ok {
		return pkg
	}
	pkg := types.NewPackage(p, u.Name(p))
	u.pkgs[p] = pkg
	return pkg
}

// object converts one symbol of package pkg.
func (u *Universe) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	if !v.IsValid() {
		return nil
	}
	if c, ok := v.Interface().(constant.Value); ok && !v.CanAddr() {
		return types.NewConst(token.NoPos, pkg, name, untypedOf(c), c)
	}
	t := v.Type()
	switch {
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, u.typeOf(t))
	case t.Kind() == reflect.Pointer && v.IsNil():
		typ := u.typeOf(t.Elem())
		if n, ok := typ.(*types.Named); ok && n.Obj().Pkg() == pkg && n.Obj().Name() == name {
			return n.Obj()
		}
		// Declared in this package under another name: an alias
		// (os.FileInfo = fs.FileInfo).
		obj := types.NewTypeName(token.NoPos, pkg, name, nil)
		types.NewAlias(obj, typ)
		return obj
	case t.Kind() == reflect.Func:
		return types.NewFunc(token.NoPos, pkg, name, u.typeOf(t).(*types.Signature))
	}
	if c := constOf(v); c != nil {
		return types.NewConst(token.NoPos, pkg, name, u.typeOf(t), c)
	}
	return types.NewVar(token.NoPos, pkg, name, u.typeOf(t))
}

// untypedOf returns the untyped basic type of constant c.
func untypedOf(c constant.Value) types.Type {
	switch c.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.UntypedInt]
}

// constOf returns the constant value of a typed constant's value, or nil
// when v is not of a basic kind.
func constOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c))))
	case reflect.String:
		return constant.MakeString(v.String())
	}
	return nil
}

var (
	errorType = reflect.TypeFor[error]()
	anyType   = types.Universe.Lookup("any").Type()
)

// basicKinds maps reflect kinds to go/types basic types.
var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

// TypeOf returns the go/types type of a reflect type, as the packages of
// this universe declare it.
func (u *Universe) TypeOf(t reflect.Type) types.Type {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.typeOf(t)
}

func (u *Universe) typeOf(t reflect.Type) types.Type {
	if typ, ok := u.cache[t]; ok {
		if _, ok := u.building[t]; ok {
			u.building[t] = true // t refers to itself
		}
		return typ
	}
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Kind() == reflect.UnsafePointer && t.PkgPath() == "unsafe" {
		return types.Typ[types.UnsafePointer] // not a named type of a package "unsafe"
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return u.named(t)
	}
	if t.Kind() == reflect.Interface && t.NumMethod() == 0 {
		return anyType
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && t.Elem().PkgPath() == "" {
		typ := types.NewSlice(types.Universe.Lookup("byte").Type())
		u.cache[t] = typ
		return typ
	}
	typ := u.structure(t)
	u.cache[t] = typ
	return typ
}

// named converts a named reflect type, with its methods.
func (u *Universe) named(t reflect.Type) types.Type {
	name := t.Name()
	pkg := u.pkg(t.PkgPath())
	obj := types.NewTypeName(token.NoPos, pkg, name, nil)
	n := types.NewNamed(obj, nil, nil)
	u.cache[t] = n
	instance := strings.Contains(name, "[") && t.NumMethod() == 0 && reflect.PointerTo(t).NumMethod() == 0
	if instance {
		u.building[t] = false
	}
	n.SetUnderlying(u.structure(t))
	if instance {
		recursive := u.building[t]
		delete(u.building, t)
		if !recursive {
			// An instance of a generic type without methods
			// (iter.Seq[string]): its underlying type is all the
			// checker needs, and it stays assignable to the same
			// instance made from the generic declaration.
			u.cache[t] = n.Underlying()
			return n.Underlying()
		}
	}
	if t.Kind() == reflect.Interface {
		return n
	}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		recv := types.Type(n)
		if _, ok := t.MethodByName(m.Name); !ok || t.Kind() == reflect.Pointer {
			recv = types.NewPointer(n)
		}
		rv := types.NewParam(token.NoPos, pkg, "", recv)
		sig := u.signature(rv, m.Type, 1)
		n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, sig))
	}
	return n
}

// structure converts the structure of t, ignoring its name: a basic type,
// or a type literal whose parts are converted with typeOf.
func (u *Universe) structure(t reflect.Type) types.Type {
	if b, ok := basicKinds[t.Kind()]; ok {
		return types.Typ[b]
	}
	switch t.Kind() {
	case reflect.Pointer:
		return types.NewPointer(u.typeOf(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(u.typeOf(t.Elem()))
	case reflect.Array:
		return types.NewArray(u.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(u.typeOf(t.Key()), u.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, u.typeOf(t.Elem()))
	case reflect.Func:
		return u.signature(nil, t, 0)
	case reflect.Struct:
		return u.structOf(t)
	case reflect.Interface:
		return u.interfaceOf(t)
	}
	panic(fmt.Sprintf("plan: cannot convert reflect type %v", t))
}

// signature converts a function type, skipping its first skip inputs (a
// method's receiver).
func (u *Universe) signature(recv *types.Var, t reflect.Type, skip int) *types.Signature {
	var params, results []*types.Var
	for i := skip; i < t.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", u.typeOf(t.In(i))))
	}
	for i := 0; i < t.NumOut(); i++ {
		results = append(results, types.NewParam(token.NoPos, nil, "", u.typeOf(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
}

// structOf converts a struct type, unexported fields included (with their
// package), so that comparability, assignability and field access are
// what the compiler says.
func (u *Universe) structOf(t reflect.Type) *types.Struct {
	fields := make([]*types.Var, t.NumField())
	tags := make([]string, t.NumField())
	for i := range fields {
		f := t.Field(i)
		var pkg *types.Package
		if f.PkgPath != "" {
			pkg = u.pkg(f.PkgPath)
		}
		fields[i] = types.NewField(token.NoPos, pkg, f.Name, u.typeOf(f.Type), f.Anonymous)
		tags[i] = string(f.Tag)
	}
	return types.NewStruct(fields, tags)
}

// interfaceOf converts an interface type; reflect lists its methods, the
// embedded interfaces' included, unexported ones with their package.
func (u *Universe) interfaceOf(t reflect.Type) *types.Interface {
	methods := make([]*types.Func, t.NumMethod())
	for i := range methods {
		m := t.Method(i)
		var pkg *types.Package
		if m.PkgPath != "" {
			pkg = u.pkg(m.PkgPath)
		}
		methods[i] = types.NewFunc(token.NoPos, pkg, m.Name, u.signature(nil, m.Type, 0))
	}
	return types.NewInterfaceType(methods, nil).Complete()
}

// onlyGeneric reports whether the exported functions and types of a
// package's source are all generic (type parameters, or constraint
// interfaces), with no exported variables: a package such as slices,
// maps, cmp or iter, whose every use becomes instance code. A package
// with other exported code (plugin.Open) needs compiled symbols.
func onlyGeneric(src []string) bool {
	fset := token.NewFileSet()
	for _, text := range src {
		f, err := parser.ParseFile(fset, "", text, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() && d.Type.TypeParams == nil {
					return false
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						if !sp.Name.IsExported() || sp.TypeParams != nil {
							continue
						}
						if _, isIface := sp.Type.(*ast.InterfaceType); !isIface {
							return false
						}
					case *ast.ValueSpec:
						if d.Tok == token.VAR {
							for _, n := range sp.Names {
								if n.IsExported() {
									return false
								}
							}
						}
					}
				}
			}
		}
	}
	return true
}
