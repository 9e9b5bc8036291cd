package kernel

import (
	"context"
	"errors"
	"strings"
	"time"
)

// fakeInterp is an Interpreter whose cells are lines of commands:
//
//	print TEXT     stdout gets TEXT and a newline
//	eprint TEXT    stderr gets TEXT and a newline
//	value TEXT     the cell's value is TEXT
//	fail TEXT      the cell fails with a FakeError
//	goerror TEXT   the cell fails with a plain error
//	panic          the interpreter panics
//	block          wait until interrupted (at most 5 s)
//	sleep          wait 200 ms
//	display ID     display "shown", then update it to "updated" (ID may be -)
//	clear          clear_output with wait
//	input PROMPT   the cell's value is the line read from the front end
//	page TEXT      the pager shows TEXT
type fakeInterp struct{}

func (fakeInterp) Execute(ctx context.Context, code string, out Output) (*Bundle, error) {
	var result *Bundle
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			out.Stream("stdout", arg+"\n")
		case "eprint":
			out.Stream("stderr", arg+"\n")
		case "value":
			b := text(arg)
			b.Data["text/html"] = "<b>" + arg + "</b>"
			b.Metadata = map[string]any{"text/html": map[string]any{"isolated": true}}
			result = &b
		case "fail":
			return nil, &Error{Name: "FakeError", Value: arg, Traceback: []string{"cell line 1", "FakeError: " + arg}}
		case "goerror":
			return nil, errors.New(arg)
		case "panic":
			panic("fake interpreter exploded")
		case "block":
			select {
			case <-ctx.Done():
				return nil, &Error{Name: "Interrupted", Value: "interrupted by the user"}
			case <-time.After(5 * time.Second):
				return nil, errors.New("block: never interrupted")
			}
		case "sleep":
			time.Sleep(200 * time.Millisecond)
		case "display":
			id := arg
			if id == "-" {
				id = ""
			}
			out.Display(text("shown"), id, false)
			out.Display(text("updated"), id, true)
		case "clear":
			out.ClearOutput(true)
		case "page":
			out.(Pager).Page(text(arg))
		case "input":
			v, err := out.Input(arg, false)
			if err != nil {
				return nil, &Error{Name: "InputError", Value: err.Error()}
			}
			b := text(v)
			result = &b
		case "":
		default:
			return nil, &Error{Name: "CompileError", Value: "unknown command " + cmd}
		}
	}
	return result, nil
}

func (fakeInterp) Complete(code string, cursor int) Completion {
	if !strings.HasSuffix(code[:cursor], "fmt.Pr") {
		return Completion{Start: cursor, End: cursor}
	}
	return Completion{Matches: []string{"Printf", "Println"}, Start: cursor - 2, End: cursor}
}

func (fakeInterp) Inspect(code string, cursor, detail int) Inspection {
	if !strings.Contains(code, "Println") {
		return Inspection{}
	}
	return Inspection{Found: true, Data: text("func Println(a ...any) (n int, err error)")}
}

func (fakeInterp) IsComplete(code string) Completeness {
	switch {
	case strings.HasSuffix(code, "{"):
		return Completeness{Status: "incomplete", Indent: "\t"}
	case strings.HasSuffix(code, ")"):
		return Completeness{Status: "invalid"}
	case code == "":
		return Completeness{}
	}
	return Completeness{Status: "complete"}
}

// text returns a bundle holding only plain text.
func text(s string) Bundle { return Bundle{Data: map[string]any{"text/plain": s}} }
