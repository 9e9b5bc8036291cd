// A value of a compiled type (time.Duration, image.Point, fmt.Stringer)
// or of an interface declared here, stored in an interface with methods (a
// compiled one, fmt.Stringer, or one declared here), is a copy: changing
// the variable afterwards does not show through the interface. Stored
// directly, in a slice (literal and append), a map (literal and
// assignment), a channel, a struct field, given as an argument and
// returned; at the top of main, in a function, a closure, a loop body, a
// goroutine and a deferred call. A nil fmt.Stringer stored in a Shower
// is a nil Shower.
package main

import (
	"fmt"
	"image"
	"sync"
	"time"
)

type Shower interface{ String() string }

type Vec struct{ A int }

func (v Vec) String() string { return fmt.Sprintf("V%d", v.A) }

type holder struct {
	s Shower
	f fmt.Stringer
}

var kept []Shower

func keep(s Shower) { kept = append(kept, s) }

var keptS []fmt.Stringer

func keepS(s fmt.Stringer) { keptS = append(keptS, s) }

var g = 3 * time.Second

func getShower() Shower { return g }

var gp = image.Pt(3, 3)

func getStringer() fmt.Stringer { return gp }

var gi Shower = Vec{3}

func getIface() fmt.Stringer { return gi }

func durations() {
	x := 4 * time.Millisecond
	var v Shower = x
	var f fmt.Stringer = x
	s := []Shower{x}
	s = append(s, x)
	m := map[string]Shower{"k": x}
	m["j"] = x
	ch := make(chan Shower, 1)
	ch <- x
	h := holder{s: x, f: x}
	keep(x)
	x += time.Second
	fmt.Println("durations", x, v, f, s, m["k"], m["j"], <-ch, h.s, h.f, kept[len(kept)-1])
}

func points() {
	x := image.Pt(1, 2)
	var v Shower = x
	s := []fmt.Stringer{x}
	m := map[string]Shower{}
	m["k"] = x
	ch := make(chan fmt.Stringer, 1)
	ch <- x
	h := holder{x, x}
	keepS(x)
	x.X += 10
	fmt.Println("points", x, v, s[0], m["k"], <-ch, h.s, h.f, keptS[len(keptS)-1])
}

func ifaces() {
	x := Shower(Vec{1})
	var v fmt.Stringer = x
	s := []fmt.Stringer{x}
	m := map[string]fmt.Stringer{"k": x}
	ch := make(chan fmt.Stringer, 1)
	ch <- x
	h := holder{f: x}
	keepS(x)
	x = Vec{x.(Vec).A + 10}
	fmt.Println("ifaces", x, v, s[0], m["k"], <-ch, h.f, keptS[len(keptS)-1])
}

func main() {
	x := 2 * time.Millisecond
	var v Shower = x
	p := image.Pt(5, 6)
	ps := []Shower{p}
	i := Shower(Vec{7})
	var iv fmt.Stringer = i
	x *= 3
	p.Y = 60
	i = Vec{70}
	fmt.Println("top", x, v, p, ps[0], i, iv)

	var f fmt.Stringer = time.Second
	var fv Shower = f
	var none fmt.Stringer
	var nv Shower = none
	f = time.Hour
	fmt.Println("compiled interface", f, fv, nv == nil)

	durations()
	points()
	ifaces()

	r := getShower()
	rp := getStringer()
	ri := getIface()
	g, gp, gi = time.Hour, image.Pt(9, 9), Vec{9}
	fmt.Println("returned", r, rp, ri)

	func() {
		d := 5 * time.Second
		ch := make(chan Shower, 2)
		ch <- d
		m := map[int]fmt.Stringer{1: Shower(Vec{5})}
		e := Shower(Vec{6})
		m[2] = e
		d, e = time.Minute, Vec{60}
		fmt.Println("closure", d, <-ch, m[1], m[2], e)
	}()

	var ds []Shower
	var qs []fmt.Stringer
	var es []fmt.Stringer
	for k := 0; k < 3; k++ {
		d := time.Duration(k) * time.Second
		ds = append(ds, d)
		ds = append(ds, time.Duration(k)+time.Millisecond)
		q := image.Pt(k, k)
		qs = append(qs, Shower(q))
		e := Shower(Vec{k})
		es = append(es, e)
		d, q, e = 0, image.Point{}, Vec{-1}
	}
	fmt.Println("loop", ds, qs, es)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		d := time.Millisecond
		p := image.Pt(2, 2)
		e := Shower(Vec{2})
		h := holder{d, e}
		s := []Shower{p}
		d, p, e = time.Hour, image.Pt(0, 0), Vec{20}
		fmt.Println("goroutine", d, p, e, h.s, h.f, s[0])
	}()
	wg.Wait()

	func() {
		defer func() {
			d := 7 * time.Millisecond
			e := Shower(Vec{8})
			var dv Shower = d
			var ev fmt.Stringer = e
			keep(d)
			keepS(e)
			d, e = time.Hour, Vec{80}
			fmt.Println("deferred", d, e, dv, ev, kept[len(kept)-1], keptS[len(keptS)-1])
		}()
	}()
}
