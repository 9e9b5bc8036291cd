package modules

import "strings"

// Kind says why a module or package could not be made importable.
type Kind int

const (
	// Other is a failure the go command or the build reported in its own
	// words (a compile error in the module, a toolchain that cannot be
	// fetched).
	Other Kind = iota
	// Offline: the module proxy cannot be reached and the module cache
	// holds no version that answers the request.
	Offline
	// NotFound: no such module, version or package.
	NotFound
	// Clash: the package needs a version of a module other than the one
	// the kernel is built with or an earlier import loaded.
	Clash
	// Cgo: the package or one of its dependencies calls C, and building
	// the C part failed.
	Cgo
	// Unsupported: this kernel cannot load compiled packages at all (no
	// go command, no cgo, an operating system without Go plugins).
	Unsupported
	// Std: a standard library package the interpreter has no table for.
	Std
	// Command: the path names a command (package main), not a library.
	Command
	// NoAutoget: the import names a package not loaded yet, and autoget
	// is off.
	NoAutoget
)

var kindNames = [...]string{"Other", "Offline", "NotFound", "Clash", "Cgo", "Unsupported", "Std", "Command", "NoAutoget"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "Kind(?)"
	}
	return kindNames[k]
}

// Error is what Get and Import return when a module or package cannot be
// made importable: what was asked, why not, and what to run instead.
type Error struct {
	Kind   Kind
	Query  string // what was asked: "github.com/google/uuid@v1.6.0", an import path
	Reason string // why not, in one sentence
	Fix    string // what to run or change instead
	Detail string // what the go command or the build said, when it says more
}

func (e *Error) Error() string { return e.Query + ": " + e.Explain() }

// Explain is the message without the query: the reason, what to do, and
// what the go command said.
func (e *Error) Explain() string {
	var b strings.Builder
	b.WriteString(e.Reason)
	if e.Fix != "" {
		b.WriteString("\n")
		b.WriteString(e.Fix)
	}
	if e.Detail != "" {
		b.WriteString("\n\n")
		b.WriteString(e.Detail)
	}
	return b.String()
}
