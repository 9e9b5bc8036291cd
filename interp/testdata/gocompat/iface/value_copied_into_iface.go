// A value stored in an interface with methods is a copy: later changes to
// the variable do not show through the interface, whether the interface
// is declared here or compiled (fmt.Stringer), at the top level and in a
// function, assigned, appended, put in a map or a slice literal.
package main

import "fmt"

type Valuer interface{ Value() int }

type Counter struct{ N int }

func (c Counter) Value() int { return c.N }

type Temp float64

func (t Temp) Value() int     { return int(t) }
func (t Temp) String() string { return fmt.Sprint(float64(t)) }

type Pair [2]int

func (p Pair) Value() int { return p[0] + p[1] }

func inFunction() {
	c := Counter{2}
	var v Valuer = c
	vs := []Valuer{c}
	vs = append(vs, c)
	m := map[string]Valuer{"a": c}
	c.N = 50
	m["b"] = c
	c.N = 60
	fmt.Println(v.Value(), vs[0].Value(), vs[1].Value(), m["a"].Value(), m["b"].Value(), c.Value())
}

func main() {
	c := Counter{1}
	var v Valuer = c
	vs := []Valuer{c}
	vs = append(vs, c)
	m := map[string]Valuer{"a": c}
	var a any = c
	c.N = 99
	fmt.Println(v.Value(), vs[0].Value(), vs[1].Value(), m["a"].Value(), a.(Counter).N)
	inFunction()
	t := Temp(3)
	var tv Valuer = t
	var ts fmt.Stringer = t
	t = 7
	fmt.Println(tv.Value(), ts, t)
	p := Pair{1, 2}
	var pv Valuer = p
	p[0] = 10
	fmt.Println(pv.Value(), p.Value())
	var cs []Valuer
	for _, x := range []Counter{{1}, {2}} {
		cs = append(cs, x)
	}
	cc := Counter{5}
	cs = append(cs, &cc)
	cc.N = 6
	fmt.Println(cs[0].Value(), cs[1].Value(), cs[2].Value())
}
