// A Vec with value methods and a String method, shapes sorted by area
// through sort.Interface, type switches on them, a Matrix with a String
// method printed with several verbs.
package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

type Vec struct{ X, Y float64 }

func (v Vec) Add(o Vec) Vec       { return Vec{v.X + o.X, v.Y + o.Y} }
func (v Vec) Scale(k float64) Vec { return Vec{v.X * k, v.Y * k} }
func (v Vec) Len() float64        { return math.Hypot(v.X, v.Y) }
func (v Vec) String() string {
	return "(" + strconv.FormatFloat(v.X, 'g', -1, 64) + "," + strconv.FormatFloat(v.Y, 'g', -1, 64) + ")"
}

type Shape interface {
	Area() float64
	Perimeter() float64
}

type Rect struct{ W, H float64 }
type Circle struct{ R float64 }

func (r Rect) Area() float64        { return r.W * r.H }
func (r Rect) Perimeter() float64   { return 2 * (r.W + r.H) }
func (c Circle) Area() float64      { return math.Pi * c.R * c.R }
func (c Circle) Perimeter() float64 { return 2 * math.Pi * c.R }

type ByArea []Shape

func (a ByArea) Len() int           { return len(a) }
func (a ByArea) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a ByArea) Less(i, j int) bool { return a[i].Area() < a[j].Area() }

type Matrix [][]float64

func (m Matrix) String() string {
	var b strings.Builder
	for _, row := range m {
		b.WriteString(fmt.Sprint(row))
	}
	return b.String()
}

func main() {
	v := Vec{3, 4}
	fmt.Println(v, v.Len(), v.Add(Vec{1, 1}).Scale(2))
	shapes := []Shape{Rect{3, 4}, Circle{1}, Rect{1, 1}}
	sort.Sort(ByArea(shapes))
	for _, s := range shapes {
		fmt.Printf("%T %.2f\n", s, s.Area())
	}
	total := 0.0
	for _, s := range shapes {
		switch s := s.(type) {
		case Rect:
			total += s.W
		case Circle:
			total += s.R
		}
	}
	fmt.Println(total)
	m := Matrix{{1, 2}, {3, 4}}
	fmt.Println(m)
	fmt.Printf("%v|%s|%+v\n", m, m, v)
	pts := map[string]Vec{"a": {1, 2}}
	fmt.Println(pts)
	var sh Shape = Circle{2}
	if c, ok := sh.(Circle); ok {
		fmt.Printf("%.3f\n", c.Perimeter())
	}
	vs := []Vec{{1, 1}, {2, 2}}
	var sum Vec
	for _, x := range vs {
		sum = sum.Add(x)
	}
	fmt.Println(sum, vs)
}
