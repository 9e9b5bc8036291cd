// A type switch with a case of an interface declared in a cell.
package main

import "fmt"

type Shape interface{ Area() float64 }

type Named interface {
	Shape
	Name() string
}

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }
func (s Sq) Name() string  { return "square" }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

func kind(v any) string {
	switch x := v.(type) {
	case Named:
		return fmt.Sprintf("named %s %.0f", x.Name(), x.Area())
	case Shape:
		return fmt.Sprintf("shape %.0f", x.Area())
	case fmt.Stringer:
		return "stringer " + x.String()
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("other %v", x)
	}
}

func main() {
	for _, v := range []any{Sq{2}, Rect{2, 3}, 4, nil} {
		fmt.Println(kind(v))
	}
}
