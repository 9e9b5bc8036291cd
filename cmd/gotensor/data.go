package main

import (
	"fmt"
	"io"

	"github.com/gotensor/gotensor/tensorlib/data"
)

// dataSets maps the names `gotensor data` takes to their fetch functions.
var dataSets = map[string]func(dir string) error{
	"mnist":         data.FetchMNIST,
	"fashion-mnist": data.FetchFashionMNIST,
	"fortunes":      data.FetchFortunes,
}

// runData fetches a data set into --dir, else into the directory that
// data.LoadMNIST("") and data.LoadFashionMNIST("") read.
func runData(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("data", "mnist|fashion-mnist|fortunes [--dir D]", stderr)
	dir := fs.String("dir", "", "the `directory` to write to (default: $GOTENSOR_DATA/NAME, else ~/.cache/gotensor/NAME)")
	var name string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:] // the name may come before the flags
	}
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	fetch, ok := dataSets[name]
	if !ok {
		fmt.Fprintf(stderr, "gotensor data: unknown data set %q: use mnist, fashion-mnist or fortunes\n", name)
		return 2
	}
	target := *dir
	if target == "" {
		d, err := data.DefaultDir(name)
		if err != nil {
			fmt.Fprintf(stderr, "gotensor data: %v\n", err)
			return 1
		}
		target = d
	}
	if err := fetch(target); err != nil {
		fmt.Fprintf(stderr, "gotensor data: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s is in %s\n", name, target)
	return 0
}
