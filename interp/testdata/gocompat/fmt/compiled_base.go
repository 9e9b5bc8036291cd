// A cell's type declared on a compiled named type with methods (type Ticks
// time.Duration) has none of them: fmt prints its underlying value, alone
// and nested.
package main

import (
	"fmt"
	"html/template"
	"net"
	"time"
)

type Ticks time.Duration

type Wait struct {
	Name string
	T    Ticks
	D    time.Duration
}

type Moment time.Month

// Tag is declared on a compiled string type.
type Tag template.HTML

// Stamp is declared on a compiled struct type with a String method.
type Stamp time.Time

// Net is declared on a compiled struct whose fields' types have String
// methods, which fmt calls.
type Net net.IPNet

type Log struct {
	At  Stamp
	Msg string
}

func main() {
	fmt.Println(Ticks(1.5e9))
	fmt.Printf("%v %d %x %8v|\n", Ticks(2e9), Ticks(3), Ticks(255), Ticks(7))
	w := Wait{"w", Ticks(1e9), time.Second}
	fmt.Println(w, []Ticks{1, 2}, map[Ticks]Moment{2: 3, 1: 12})
	fmt.Printf("%+v %v\n", w, &w)
	fmt.Println(Moment(4), []any{time.Duration(5)})
	s := fmt.Sprint(Ticks(6), " ", time.Duration(6))
	fmt.Println(s)
	at := Stamp(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC))
	fmt.Println(at, []Stamp{at})
	fmt.Printf("%+v %v\n", at, Log{at, "m"})
	fmt.Println(time.Time(at).Year())
	fmt.Println(Net{}, []Net{{IP: net.IPv4(1, 2, 3, 4)}})
	fmt.Print(Tag("a"), Tag("b"), 1, 2, "\n")
	fmt.Printf("%q %v\n", Tag("<"), []Tag{"x"})
}
