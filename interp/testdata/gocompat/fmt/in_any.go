// Composites of a cell's struct types with nested fmt methods inside an
// any, %T of a composite of a cell's types, and a nested nil pointer to a
// cell's type with %#v.
package main

import (
	"fmt"
	"log"
	"os"
)

type Level int

func (l Level) String() string { return [...]string{"L", "M", "H"}[l] }

type Entry struct {
	N string
	L Level
	p *Entry
}

type Entries []Entry

type Index map[string]Entry

func main() {
	var x any = Entries{{"a", 1, nil}}
	var y any = []Entry{{"b", 2, nil}}
	var z any = Index{"k": {"c", 0, nil}}
	fmt.Println(x, y, z)
	fmt.Printf("%v|%+v|%s\n", []any{x, z}, x, y)
	fmt.Printf("%T %T %T\n", []Level{}, map[Level]Entry{}, &Entry{})
	fmt.Printf("%#v\n", Entry{"d", 2, nil})
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	log.Println([]Entry{{"e", 1, nil}})
	log.Printf("%+v", map[Level]Level{1: 2})
	err := fmt.Errorf("bad %v", Entries{{"f", 0, nil}})
	fmt.Println(err)
}

type Pt struct{ X, y int }

func (p Pt) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.y) }

func init() {
	fmt.Printf("%#v %v %+v\n", []Pt{{1, 2}}, map[string]Pt{"o": {}}, [1]Pt{{3, 4}})
}
