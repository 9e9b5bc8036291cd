package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// bodyName is the function the check source puts a cell's statements in.
const bodyName = "_gtcell"

// cell is one cell being planned: its source, the check source built from
// it, its syntax and, once checked, its types.
type cell struct {
	s      *Session
	n      int
	src    string
	lines  []int // offsets of the cell's line starts
	pieces []piece
	// text is the check source: the cell's pieces, imports first, then
	// declarations, then the statements in the body of func _gtcell,
	// each after a //line comment that gives its position in the cell.
	text     string
	pieceOff []int // where each piece starts in text (-1: dropped)
	fset     *token.FileSet
	tf       *token.File
	file     *ast.File

	imports []*ast.ImportSpec // the cell's own
	types   []*ast.TypeSpec
	consts  []*ast.ValueSpec
	vars    []*ast.ValueSpec // package-level: a pasted program's
	funcs   []*ast.FuncDecl  // functions, main and init included
	methods []*ast.FuncDecl
	body    *ast.FuncDecl // func _gtcell, the statements
	// earlier maps the methods declared on types of earlier cells to
	// the function that stands for them in the check (see asFunction).
	earlier map[*ast.FuncDecl]*ast.FuncDecl
	// declared holds the package-level names the cell declares.
	declared map[string]bool
	// names holds every identifier of the cell: the session's names the
	// checker may look up.
	names map[string]bool

	pkg     *types.Package
	info    *types.Info
	topVars map[string]*types.Var // the variables the statements define at the top
	// placeholders are the package-level variables that stand for
	// topVars in the bodies of the cell's functions (see check).
	placeholders map[string]*types.Var
	// added lists the methods added to earlier types while checking.
	added []*types.Func

	// inst holds the instances of generic code the cell uses that the
	// session lacks (see mono): their declarations are checked with the
	// cell, after its imports, each under a //line comment of its own.
	inst *mono
	// instDecls maps the declarations of instance code in the file to
	// what they are.
	instDecls map[ast.Decl]*instDecl
}

// check type-checks the cell against the session.
//
// The cell's statements are the body of a function, so they mean what
// they mean in a function body: a name defined at the top (x := 1) is a
// local of that body, seen by the statements after it. The cell's
// declarations are package-level: they may refer to each other in any
// order, and the statements see them wherever they are written.
//
// The functions and methods of the cell may use the variables its
// statements define at the top (they become session variables). Such a
// use is undefined at package level, so a second check renames it to a
// package-level placeholder of the variable's type (see placeholders).
//
// A method on a type from an earlier cell is checked as a function whose
// first parameter is the receiver: go/types cannot declare a method on a
// type it did not declare itself. When the cell uses such a method, it is
// added to the type and the cell is checked again.
func (c *cell) check() error {
	c.earlier = map[*ast.FuncDecl]*ast.FuncDecl{}
	var generic ErrorList
	for _, d := range c.file.Decls {
		m, ok := d.(*ast.FuncDecl)
		if !ok || m.Recv == nil || len(m.Recv.List) != 1 {
			continue
		}
		if _, inst := c.instDecls[m]; inst {
			continue
		}
		if name, isGeneric := recvBase(m.Recv.List[0].Type); isGeneric && !c.declared[name] {
			if _, ok := c.s.entries[name]; ok {
				generic = append(generic, c.errorAt(c.fset.Position(m.Name.Pos()),
					fmt.Sprintf("method %s of %s, a generic type of an earlier cell: the methods of a generic type are declared in the cell that declares the type; add %s to that cell and run it again", m.Name.Name, name, m.Name.Name)))
			}
		}
	}
	if len(generic) > 0 {
		return generic
	}
	for i, d := range c.file.Decls {
		if m, ok := d.(*ast.FuncDecl); ok && m.Recv != nil {
			if fn := c.asFunction(m); fn != nil {
				c.earlier[m] = fn
				c.file.Decls[i] = fn
			}
		}
	}
	defer func() {
		for m, fn := range c.earlier {
			for i, d := range c.file.Decls {
				if d == fn {
					c.file.Decls[i] = m
				}
			}
		}
	}()
	var renamed []*ast.Ident
	var errs ErrorList
	for range 4 {
		var err error
		errs, err = c.checkOnce(renamed)
		if err != nil {
			return err
		}
		c.findTopVars()
		again := false
		if r := c.usesOfTopVars(); len(r) != len(renamed) {
			renamed, again = r, true
		}
		if c.keyLiterals(errs) {
			again = true
		}
		if len(c.earlier) > 0 && len(c.added) == 0 && c.needsNewMethods(errs) {
			c.addEarlierMethods()
			again = len(c.added) > 0
		}
		if !again {
			break
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// checkOnce type-checks the cell's file in a fresh package whose scope
// holds the session's names that the cell uses (less those it declares),
// and the
// placeholders of renamed: identifiers in function bodies that stand for
// top-level variables of the statements, renamed for the check only.
func (c *cell) checkOnce(renamed []*ast.Ident) (errs ErrorList, err error) {
	prev := c.pkg
	c.pkg = types.NewPackage(cellPath, "main")
	// Only the names the cell mentions can be looked up: a scope holding
	// those costs what the cell costs, not what the session does.
	scope := c.pkg.Scope()
	for name := range c.names {
		if e, ok := c.s.entries[name]; ok && !c.declared[name] {
			scope.Insert(e.obj)
		} else if obj, ok := c.s.generated[name]; ok {
			scope.Insert(obj) // instance code of an earlier cell
		}
	}
	c.placeholders = map[string]*types.Var{}
	var old []string
	var extra []ast.Decl
	for _, id := range renamed {
		if _, ok := c.placeholders[id.Name]; !ok {
			v := c.topVars[id.Name]
			if d := c.placeholderDecl(id.Name, v.Type(), prev); d != nil {
				extra = append(extra, d)
				c.placeholders[id.Name] = nil // declared by the check
			} else {
				p := types.NewVar(v.Pos(), c.pkg, placeholderPrefix+id.Name, v.Type())
				c.placeholders[id.Name] = p
				scope.Insert(p)
			}
		}
		old = append(old, id.Name)
		id.Name = placeholderPrefix + id.Name
	}
	decls := c.file.Decls
	c.file.Decls = append(decls[:len(decls):len(decls)], extra...)
	// The placeholders' types may name session types the cell does not.
	for _, d := range extra {
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !c.names[id.Name] {
				if e, ok := c.s.entries[id.Name]; ok && !c.declared[id.Name] {
					scope.Insert(e.obj)
				}
			}
			return true
		})
	}
	restore := parenEarlierTypes(decls, scope)
	defer func() {
		restore()
		for i, id := range renamed {
			id.Name = old[i]
		}
		c.file.Decls = decls
		for name, p := range c.placeholders {
			if p == nil {
				c.placeholders[name], _ = c.pkg.Scope().Lookup(placeholderPrefix + name).(*types.Var)
			}
		}
	}()
	c.info = newInfo()
	var list []types.Error
	conf := types.Config{
		Importer: c.s.u,
		Error:    func(err error) { list = append(list, err.(types.Error)) },
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = ErrorList{{Cell: c.n, Msg: fmt.Sprintf("internal error: the type checker failed on this cell (%v); please report it", r)}}
			}
		}()
		types.NewChecker(&conf, c.fset, c.pkg, c.info).Files([]*ast.File{c.file})
	}()
	if err != nil {
		return nil, err
	}
	c.pkg.SetName("")
	return c.filter(list), nil
}
