// A value of a cell's type inside an any, handed on to compiled code
// that looks at it (log/slog): the planner cannot see the type, the cell
// warns when the call runs.
//
// gocompat: want-error "gets a Temp, a type declared in a cell, inside an interface"
package main

import (
	"fmt"
	"log/slog"
	"os"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

var logger = slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
	ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	},
}))

func logf(msg string, args ...any) { logger.Info(msg, args...) }

func main() {
	var v any = Temp(3)
	logger.Info("one", "v", v)
	logf("two", "n", 2, "v", Temp(4))
}
