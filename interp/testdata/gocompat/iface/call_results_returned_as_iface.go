// A function that returns one call's several results, converting one of
// them to an interface (return os.Open(...) from a function whose results
// are a cell's interface and an error; yaegi's issue-1260), returns a
// value of the interface that holds the call's result: in a function, a
// method, a closure, a recursive function, a goroutine and a deferred
// call.
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

type Sink interface {
	io.Writer
	io.Closer
}

type Reader interface{ Read([]byte) (int, error) }

type Num interface{ Value() int }

type N int

func (n N) Value() int { return int(n) }

func parse(s string) (N, error) {
	i, err := strconv.Atoi(s)
	return N(i), err
}

func openSink(path string) (Sink, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
}

func reader(s string) (Reader, bool) {
	return strings.NewReader(s), true
}

func num(s string) (Num, error) { return parse(s) }

type maker struct{}

func (maker) num(s string) (Num, error) { return parse(s) }

// deep returns parse's results from depth n, recursively.
func deep(n int, s string) (Num, error) {
	if n == 0 {
		return parse(s)
	}
	return deep(n-1, s)
}

func use(tag string, path string) {
	sink, err := openSink(path)
	fmt.Println(tag, sink == nil, err)
	fmt.Fprintln(sink, tag)
	fmt.Println(tag, sink.Close())
	r, ok := reader("abc")
	buf := make([]byte, 3)
	n, _ := r.Read(buf)
	fmt.Println(tag, ok, n, string(buf))
	v, err := num("42")
	fmt.Println(tag, v.Value(), err)
	w, err := maker{}.num("7")
	fmt.Println(tag, w.Value(), err)
	d, err := deep(3, "9")
	fmt.Println(tag, d.Value(), err)
	f := func(s string) (Num, error) { return parse(s) }
	c, err := f("5")
	fmt.Println(tag, c.Value(), err)
}

func main() {
	dir, err := os.MkdirTemp("", "gocompat")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := dir + "/sink.txt"
	use("func", path)
	done := make(chan bool)
	go func() { use("goroutine", path); done <- true }()
	<-done
	func() {
		defer use("deferred", path)
	}()
	for i := range 2 {
		use("loop"+strconv.Itoa(i), path)
	}
	b, _ := os.ReadFile(path)
	fmt.Print(string(b))
}
