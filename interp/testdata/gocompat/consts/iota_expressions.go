// Typed constants whose values are expressions of iota, repeated down a
// block, alone, and inside a function: yaegi gave them values that
// compared unequal to their type's values (a Status 2 was not == Busy).
package main

import "fmt"

type Status int

const (
	Idle Status = iota + 1
	Busy
	Done
)

type Size uint8

const Small Size = iota + 3

const (
	KB Size = 1 << (iota + 1)
	MB
)

func (s Status) String() string { return [...]string{"?", "idle", "busy", "done"}[s] }

func main() {
	var s Status = 2
	var any1 any = Busy
	fmt.Println(s == Busy, Busy == 2, Done-Idle, any1 == Busy, any1 == any(Status(2)), s)
	switch s {
	case Idle:
		fmt.Println("idle")
	case Busy:
		fmt.Println("busy")
	}
	var z Size = 3
	fmt.Println(z == Small, KB, MB, MB == 4)
	const (
		a Size = iota * 10
		b
	)
	var t Size = 10
	fmt.Println(t == b, a == 0)
	m := map[Status]string{Busy: "b"}
	fmt.Println(m[s], len(m))
}
