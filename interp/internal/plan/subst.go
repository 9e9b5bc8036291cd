package plan

import "go/types"

// A substitution maps the type parameters of a generic declaration to
// type arguments.
type substitution map[*types.TypeParam]types.Type

// apply returns t with the type parameters of s replaced by their
// arguments. A generic type's instance whose arguments change is
// instantiated again, so that the result is what go/types would have
// given for the concrete code.
func (s substitution) apply(t types.Type) types.Type {
	if len(s) == 0 || t == nil {
		return t
	}
	switch t := t.(type) {
	case *types.TypeParam:
		if a, ok := s[t]; ok {
			return a
		}
		return t
	case *types.Basic:
		return t
	case *types.Alias:
		if args := t.TypeArgs(); args != nil && args.Len() > 0 {
			return s.apply(types.Unalias(t))
		}
		if u := s.apply(types.Unalias(t)); u != types.Unalias(t) {
			return u
		}
		return t
	case *types.Named:
		args := t.TypeArgs()
		if args == nil || args.Len() == 0 {
			return t
		}
		list := make([]types.Type, args.Len())
		changed := false
		for i := range list {
			list[i] = s.apply(args.At(i))
			changed = changed || list[i] != args.At(i)
		}
		if !changed {
			return t
		}
		inst, err := types.Instantiate(nil, t.Origin(), list, false)
		if err != nil {
			return t
		}
		return inst
	case *types.Pointer:
		if e := s.apply(t.Elem()); e != t.Elem() {
			return types.NewPointer(e)
		}
		return t
	case *types.Slice:
		if e := s.apply(t.Elem()); e != t.Elem() {
			return types.NewSlice(e)
		}
		return t
	case *types.Array:
		if e := s.apply(t.Elem()); e != t.Elem() {
			return types.NewArray(e, t.Len())
		}
		return t
	case *types.Map:
		k, e := s.apply(t.Key()), s.apply(t.Elem())
		if k != t.Key() || e != t.Elem() {
			return types.NewMap(k, e)
		}
		return t
	case *types.Chan:
		if e := s.apply(t.Elem()); e != t.Elem() {
			return types.NewChan(t.Dir(), e)
		}
		return t
	case *types.Tuple:
		if t == nil {
			return t
		}
		vars, changed := s.vars(t)
		if !changed {
			return t
		}
		return types.NewTuple(vars...)
	case *types.Signature:
		params, pc := s.vars(t.Params())
		results, rc := s.vars(t.Results())
		if !pc && !rc {
			return t
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.Variadic())
	case *types.Struct:
		fields := make([]*types.Var, t.NumFields())
		tags := make([]string, t.NumFields())
		changed := false
		for i := range fields {
			f := t.Field(i)
			ft := s.apply(f.Type())
			changed = changed || ft != f.Type()
			fields[i] = types.NewField(f.Pos(), f.Pkg(), f.Name(), ft, f.Embedded())
			tags[i] = t.Tag(i)
		}
		if !changed {
			return t
		}
		return types.NewStruct(fields, tags)
	case *types.Interface:
		changed := false
		methods := make([]*types.Func, t.NumExplicitMethods())
		for i := range methods {
			m := t.ExplicitMethod(i)
			sig := s.apply(m.Type()).(*types.Signature)
			changed = changed || sig != m.Type()
			methods[i] = types.NewFunc(m.Pos(), m.Pkg(), m.Name(), sig)
		}
		embeddeds := make([]types.Type, t.NumEmbeddeds())
		for i := range embeddeds {
			embeddeds[i] = s.apply(t.EmbeddedType(i))
			changed = changed || embeddeds[i] != t.EmbeddedType(i)
		}
		if !changed {
			return t
		}
		return types.NewInterfaceType(methods, embeddeds).Complete()
	case *types.Union:
		terms := make([]*types.Term, t.Len())
		changed := false
		for i := range terms {
			tt := s.apply(t.Term(i).Type())
			changed = changed || tt != t.Term(i).Type()
			terms[i] = types.NewTerm(t.Term(i).Tilde(), tt)
		}
		if !changed {
			return t
		}
		return types.NewUnion(terms)
	}
	return t
}

// vars substitutes the types of a tuple's variables.
func (s substitution) vars(t *types.Tuple) ([]*types.Var, bool) {
	if t == nil {
		return nil, false
	}
	vars := make([]*types.Var, t.Len())
	changed := false
	for i := range vars {
		v := t.At(i)
		vt := s.apply(v.Type())
		changed = changed || vt != v.Type()
		vars[i] = types.NewParam(v.Pos(), v.Pkg(), v.Name(), vt)
	}
	return vars, changed
}

// walkType calls visit on t and, while visit returns true, on the types
// t is made of: elements, keys, parameters and results, fields, methods,
// union terms, and the type arguments of an instance (not the underlying
// types of named types). Each type is visited once, and not at all when
// seen (which may be nil) holds it.
func walkType(t types.Type, seen map[types.Type]bool, visit func(types.Type) bool) {
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	var w func(t types.Type)
	w = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !visit(t) {
			return
		}
		switch t := t.(type) {
		case *types.Alias:
			w(types.Unalias(t))
		case *types.Named:
			for i := 0; i < t.TypeArgs().Len(); i++ {
				w(t.TypeArgs().At(i))
			}
		case *types.Pointer:
			w(t.Elem())
		case *types.Slice:
			w(t.Elem())
		case *types.Array:
			w(t.Elem())
		case *types.Map:
			w(t.Key())
			w(t.Elem())
		case *types.Chan:
			w(t.Elem())
		case *types.Tuple:
			for i := 0; t != nil && i < t.Len(); i++ {
				w(t.At(i).Type())
			}
		case *types.Signature:
			w(t.Params())
			w(t.Results())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				w(t.Field(i).Type())
			}
		case *types.Interface:
			for i := 0; i < t.NumExplicitMethods(); i++ {
				w(t.ExplicitMethod(i).Type())
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				w(t.EmbeddedType(i))
			}
		case *types.Union:
			for i := 0; i < t.Len(); i++ {
				w(t.Term(i).Type())
			}
		}
	}
	w(t)
}

// hasTypeParam reports whether t involves a type parameter (or a generic
// type or function not instantiated): it is not a type the interpreter
// can be given.
func hasTypeParam(t types.Type) bool {
	found := false
	walkType(t, nil, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Named:
			found = found || t.TypeParams().Len() > 0 && t.TypeArgs().Len() == 0
		case *types.Signature:
			found = found || t.TypeParams().Len() > 0
		}
		return !found
	})
	return found
}

// instancesIn calls f for every instance of a generic type that t
// involves, unless seen holds it.
func instancesIn(t types.Type, seen map[types.Type]bool, f func(*types.Named)) {
	walkType(t, seen, func(t types.Type) bool {
		if n, ok := t.(*types.Named); ok && n.TypeArgs().Len() > 0 {
			f(n)
		}
		return true
	})
}
