// Everyday enums and errors of a cell's non-struct types: an error type
// Code int through errors.As, errors.Is and a type switch, a Suit with a
// String method in fields, map keys and interfaces, sort.Sort of a Hand.
package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Suit int

const (
	Spades Suit = iota
	Hearts
)

func (s Suit) String() string { return [...]string{"♠", "♥"}[s] }

type Card struct {
	Rank int
	Suit Suit
}

type Hand []Card

func (h Hand) Len() int           { return len(h) }
func (h Hand) Less(i, j int) bool { return h[i].Rank < h[j].Rank }
func (h Hand) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }

func find(n int) error {
	if n < 0 {
		return Code(n)
	}
	return nil
}

func main() {
	err := find(-2)
	var c Code
	fmt.Println(errors.As(err, &c), c, err)
	switch e := err.(type) {
	case Code:
		fmt.Println("code", int(e))
	default:
		fmt.Println("other")
	}
	w := fmt.Errorf("wrap: %w", err)
	fmt.Println(errors.Is(w, Code(-2)), w)
	h := Hand{{3, Hearts}, {1, Spades}, {2, Hearts}}
	sort.Sort(h)
	fmt.Println(h)
	var parts []string
	for _, c := range h {
		parts = append(parts, fmt.Sprint(c.Suit))
	}
	fmt.Println(strings.Join(parts, ","))
	m := map[Suit]int{Spades: 1, Hearts: 2}
	fmt.Println(m)
	var anyS any = Hearts
	if s, ok := anyS.(fmt.Stringer); ok {
		fmt.Println("stringer", s)
	}
	fmt.Printf("%v %d %s %q\n", Hearts, Hearts, Hearts, Hearts)
}
