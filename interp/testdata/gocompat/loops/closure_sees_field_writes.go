// A closure made in a loop over a struct or array variable of its
// iteration sees what the body writes to it after the closure was made
// through a field, an element or a method with a pointer receiver
// (x.X += 10, a[0]++, c.Inc()): the closure captures the variable, not a
// copy. In three-clause and range loops, for variables the body declares
// and the loop's own, of a compiled struct (image.Point) and a cell's;
// at the top level, in a function, a closure, a goroutine and a deferred
// call, and kept for later, deferred, run in goroutines and called by
// compiled code.
package main

import (
	"fmt"
	"image"
	"sort"
	"strings"
	"sync"
)

type Counter struct {
	Name string
	N    int
}

func (c *Counter) Inc() { c.N++ }

func (c Counter) String() string { return fmt.Sprintf("%s=%d", c.Name, c.N) }

// run calls each closure and joins what they return.
func run(fs []func() string) string {
	var out []string
	for _, f := range fs {
		out = append(out, f())
	}
	return strings.Join(out, ";")
}

// points keeps closures over a compiled struct declared in the body.
func points() string {
	var fs []func() string
	for i := 0; i < 3; i++ {
		x := image.Pt(i, -i)
		fs = append(fs, func() string { return x.String() })
		x.X += 10
	}
	return run(fs)
}

// counters keeps closures over a cell's struct changed by a method.
func counters() string {
	var fs []func() string
	for i, name := range []string{"a", "b", "c"} {
		c := Counter{name, i}
		fs = append(fs, func() string { return c.String() })
		c.Inc()
		c.N *= 10
	}
	return run(fs)
}

// ranged keeps closures over the range loop's own variables.
func ranged() string {
	var fs []func() string
	for i, p := range []image.Point{{1, 1}, {2, 2}} {
		fs = append(fs, func() string { return fmt.Sprint(i, p) })
		p.Y = 100 + i
	}
	return run(fs)
}

// arrays keeps closures over an array the body changes by element.
func arrays() string {
	var fs []func() string
	for i := 0; i < 3; i++ {
		a := [2]int{i, i}
		fs = append(fs, func() string { return fmt.Sprint(a) })
		a[1] += 5
	}
	return run(fs)
}

// deferred defers closures over a struct the body changes after.
func deferred() (out string) {
	for i := 0; i < 3; i++ {
		c := Counter{fmt.Sprint("d", i), i}
		defer func() { out += c.String() + ";" }()
		c.N += 100
	}
	return "deferred:"
}

// concurrent runs goroutines over a struct the body changes before
// they start.
func concurrent() string {
	var wg sync.WaitGroup
	out := make([]string, 3)
	for i := 0; i < 3; i++ {
		x := image.Pt(i, i)
		x.Y *= 7
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = x.String()
		}()
	}
	wg.Wait()
	return strings.Join(out, ";")
}

// compiledCallers hands closures to compiled code after the body
// changed the struct.
func compiledCallers() string {
	var out []string
	for i := 0; i < 3; i++ {
		x := image.Pt(1, i)
		x.X -= 2 * (i % 2)
		ys := []int{3, 1, 2}
		sort.Slice(ys, func(a, b int) bool { return ys[a]*x.X < ys[b]*x.X })
		out = append(out, fmt.Sprint(ys))
	}
	return strings.Join(out, ";")
}

func main() {
	fmt.Println("points:", points())
	fmt.Println("counters:", counters())
	fmt.Println("ranged:", ranged())
	fmt.Println("arrays:", arrays())
	fmt.Println(deferred())
	fmt.Println("goroutines:", concurrent())
	fmt.Println("compiled:", compiledCallers())

	// The same at the top level of main.
	var fs []func() string
	for i := 0; i < 3; i++ {
		x := image.Pt(i, -i)
		fs = append(fs, func() string { return x.String() })
		x.X += 10
	}
	for i, name := range []string{"x", "y"} {
		c := Counter{name, i}
		fs = append(fs, func() string { return c.String() })
		c.Inc()
	}
	fmt.Println("top:", run(fs))

	// In a closure, and in a closure a goroutine runs.
	inner := func() string {
		var gs []func() string
		for i := 0; i < 2; i++ {
			c := Counter{"in", i}
			gs = append(gs, func() string { return c.String() })
			c.N += 50
		}
		return run(gs)
	}
	fmt.Println("closure:", inner())
	done := make(chan string)
	go func() { done <- inner() }()
	fmt.Println("goroutine:", <-done)
	func() {
		defer func() { fmt.Println("in defer:", inner(), points()) }()
	}()
}
