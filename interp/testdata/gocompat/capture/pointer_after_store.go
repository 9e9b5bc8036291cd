// A pointer to a variable sees what is stored in the variable later:
// a struct's composite literal (cfg = Config{...}), a value received
// from a channel, one of several values assigned at once; in main, in
// functions, closures, loops, goroutines and deferred calls, and for a
// package-level variable.
package main

import "fmt"

type Config struct {
	Name string
	N    int
}

type Point struct{ X, Y int }

var global Config

func reset(p *Config) { *p = Config{"reset", 0} }

func watch() func() Config {
	var c Config
	p := &c
	c = Config{Name: "watched", N: 1}
	c.N++
	return func() Config { return *p }
}

func main() {
	cfg := Config{"a", 1}
	p := &cfg
	cfg = Config{"b", 2}
	fmt.Println(*p, p.Name)
	g := &global
	global = Config{N: 7}
	fmt.Println(*g)
	reset(&global)
	fmt.Println(global, watch()())

	ch := make(chan Point, 3)
	ch <- Point{1, 2}
	ch <- Point{3, 4}
	ch <- Point{5, 6}
	var pt Point
	pp := &pt
	pt = <-ch
	fmt.Println(*pp)
	var ok bool
	pt, ok = <-ch
	fmt.Println(*pp, ok)
	n, m := 0, Point{}
	pn, pm := &n, &m
	n, m = 4, Point{9, 9}
	fmt.Println(*pn, *pm)
	m = <-ch
	fmt.Println(*pm)

	ints := make(chan int, 1)
	ints <- 42
	x := 0
	px := &x
	x = <-ints
	fmt.Println(*px)

	var seen []*Point
	for i := range 3 {
		q := Point{i, i}
		seen = append(seen, &q)
		q = Point{i * 10, i * 100}
	}
	for _, s := range seen {
		fmt.Print(*s, " ")
	}
	fmt.Println()

	done := make(chan Config)
	go func() {
		c := Config{"go", 1}
		pc := &c
		c = Config{"go", 2}
		done <- *pc
	}()
	fmt.Println(<-done)

	func() {
		d := Config{"defer", 1}
		defer func(p *Config) { fmt.Println("deferred", *p) }(&d)
		d = Config{"defer", 2}
	}()
}
