// An untyped constant shifted by a variable count takes the type of its
// context: var u uint = 1 << i makes the 1 a uint, Flags(1 << i) a
// Flags, m & (1 << i) the type of m; at the top level, in functions,
// closures, loops, goroutines, deferred calls and String methods.
package main

import (
	"fmt"
	"time"
)

type Flags uint8

type Mask uint32

func (m Mask) String() string {
	i := 3
	return fmt.Sprintf("mask(%d,%d)", uint32(m), uint32(m&(1<<i)))
}

type Perm uint16

func (p Perm) Has(bit int) bool { return p&(1<<bit) != 0 }

func bits(n int) []uint64 {
	var out []uint64
	for i := 0; i < n; i++ {
		out = append(out, 1<<(i*7))
	}
	return out
}

func set(f Flags, i int) Flags { return f | 1<<i }

func main() {
	i := 3
	var u uint = 1 << i
	var f Flags = 1 << i
	var u8 uint8 = 1 << i
	m := Mask(1<<i) | 1
	fmt.Println(u, f, u8, m)
	var x Flags
	x |= 1 << i
	fmt.Println(x, x&(1<<i) != 0, Flags(1)<<i, set(x, 1))
	fmt.Println(Mask(9), Perm(5).Has(2), Perm(5).Has(1))
	var u64 uint64 = 1 << (i + 60)
	fmt.Println(u64, bits(4))
	var d time.Duration = 1 << i
	fmt.Println(d, time.Duration(1<<i)*time.Millisecond)
	done := make(chan uint32)
	go func() {
		var v uint32
		for k := range 4 {
			v |= 1 << (k * 2)
		}
		done <- v
	}()
	fmt.Println(<-done)
	func() {
		defer fmt.Println("deferred", Mask(1<<i), uint16(1)<<i)
		show := func(k int) Mask { return 1 << k }
		fmt.Println(show(4), []Flags{1 << i, 2 << i}, map[string]uint{"k": 1 << i})
	}()
	var any1 any = Flags(1 << i)
	fmt.Printf("%T %v %d\n", any1, any1, ^uint8(0)>>i)
}
