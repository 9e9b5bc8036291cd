// A recovered run-time panic is a runtime.Error and an error of Go's
// type: an index or slice expression out of range, a nil pointer
// dereference, a nil function called, a failed type assertion, a
// division by zero; errors.As and errors.Is find it inside an error that
// wraps it with %w. The texts of bounds errors are compared up to the
// index and length, which the interpreter does not know.
package main

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
)

type Node struct {
	Val  int
	Next *Node
}

type Temp float64

type Box struct{ N int }

func (b *Box) Inc() { b.N++ }

type Shape interface{ Area() float64 }

func catch(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

func describe(r any) string {
	_, isRT := r.(runtime.Error)
	err, isErr := r.(error)
	s := fmt.Sprintf("%T rt=%v err=%v", r, isRT, isErr)
	if isErr {
		msg, _, _ := strings.Cut(err.Error(), " [")
		w := fmt.Errorf("step: %w", err)
		var re runtime.Error
		s += fmt.Sprintf(" %q as=%v is=%v", msg, errors.As(w, &re), errors.Is(w, err))
	}
	return s
}

func (n *Node) Sum() int { return n.Val + n.Next.Sum() }

func main() {
	var s []int
	i := 5
	var head *Node
	var temps map[string]Temp
	var sh Shape
	var fn func() int
	arr := [3]Temp{}
	str := "abc"
	cases := []func(){
		func() { _ = s[i] },
		func() { _ = s[1:i] },
		func() { _ = arr[i] },
		func() { _ = str[i] },
		func() { _ = str[i:] },
		func() { fmt.Println(head.Val) },
		func() { head.Val = 1 },
		func() { (&Node{Val: 1}).Sum() },
		func() { temps["x"] = 1 },
		func() { _ = sh.Area() },
		func() { fn() },
		func() { var any1 any = "one"; _ = any1.(int) },
		func() { var any1 any = &Box{}; _ = any1.(Box) },
		func() { var any1 any = Temp(2); _ = any1.(Box) },
		func() { z := 0; fmt.Println(1 / z) },
		func() { _ = make([]Temp, i-10) },
	}
	for k, f := range cases {
		fmt.Println(k, describe(catch(f)))
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { fmt.Println("goroutine", describe(recover())) }()
		_ = s[i]
	}()
	wg.Wait()
	func() {
		defer func() {
			r := recover()
			err := fmt.Errorf("load: %w", r.(error))
			var re runtime.Error
			fmt.Println("deferred", errors.As(err, &re), re != nil)
		}()
		for j := 0; j < 3; j++ {
			_ = arr[j*2]
		}
	}()
}
