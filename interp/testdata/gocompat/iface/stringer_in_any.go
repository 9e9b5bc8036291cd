// Values of cell types with String methods inside interfaces: a []any
// printed whole, a map of any, an any returned by a function, and an
// interpreted function that asserts fmt.Stringer.
package main

import (
	"fmt"
	"strings"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

type Pt struct{ X, Y int }

func (p *Pt) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func label(v any) string {
	if s, ok := v.(fmt.Stringer); ok {
		return "S" + s.String()
	}
	return fmt.Sprintf("V%v", v)
}

func pick(i int) any {
	k := i * 2
	_ = k
	if i == 0 {
		return Temp(1.5)
	}
	return &Pt{i, k}
}

func join(vals ...any) string {
	var parts []string
	for _, v := range vals {
		parts = append(parts, fmt.Sprint(v))
	}
	return strings.Join(parts, "|")
}

func main() {
	a, b := pick(0), pick(1)
	fmt.Println(a, b)
	fmt.Println(label(a), label(b), label(3))
	fmt.Println(join(a, b, "s"))
	vals := []any{a, Temp(2), 7}
	fmt.Println(vals...)
	fmt.Printf("%v %s\n", vals, a)
	fmt.Println(fmt.Sprint(vals...))
}
