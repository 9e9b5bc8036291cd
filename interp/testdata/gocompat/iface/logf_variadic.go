// A logging helper with ...any called from a function with a cell type.
package main

import (
	"fmt"
	"strings"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("<%.1fC>", float64(t)) }

var log strings.Builder

func logf(format string, args ...any) {
	log.WriteString(fmt.Sprintf(format, args...))
	log.WriteString("\n")
}

func work() {
	k := 1
	t := Temp(3)
	logf("k=%d t=%v", k, t)
	vals := []any{Temp(1), "x", 3}
	logf("%s", fmt.Sprint(vals...))
	logf("%v", vals)
}

func main() {
	work()
	fmt.Print(log.String())
}
