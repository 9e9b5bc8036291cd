// log/slog, compiled code, formats a value given as an any with its
// String method; it does not see a cell type's methods, and the cell
// warns at the call.
//
// gocompat: want-error "log/slog's (*Logger).Info, compiled code, gets a Temp: it would not find the method String of Temp"
package main

import (
	"fmt"
	"log/slog"
	"os"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	logger.Info("reading", "temp", Temp(21.5))
	logger.Info("reading", "temp", Temp(21.5).String())
}
