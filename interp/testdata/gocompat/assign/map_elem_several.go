// An assignment of several values to a map's element stores it: a
// comma-ok type assertion, map index or receive (m[k], ok = v.(string),
// Go's fixedbugs/bug343), a call of several results (m[k], err =
// strconv.Atoi(s)), a parallel assignment of interface values, with the
// element first or second, in an if's or switch's initial statement and
// a select's case; keys given by calls are evaluated before the values,
// as in Go. At the top level, in a function, a closure, a loop body, a
// goroutine and a deferred call.
package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type Item struct {
	Name string
	N    int
}

// getArgs is Go's test/fixedbugs/bug343.go.
func getArgs(data map[string]interface{}, keys ...string) map[string]string {
	ret := map[string]string{}
	var ok bool
	for _, k := range keys {
		ret[k], ok = data[k].(string)
		if !ok {
		}
	}
	return ret
}

// show prints a map's entries in key order.
func show(label string, m any) {
	var parts []string
	switch m := m.(type) {
	case map[string]string:
		for k, v := range m {
			parts = append(parts, k+"="+v)
		}
	case map[string]int:
		for k, v := range m {
			parts = append(parts, k+"="+strconv.Itoa(v))
		}
	case map[string]any:
		for k, v := range m {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	case map[string]bool:
		for k, v := range m {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	sort.Strings(parts)
	fmt.Println(label+":", strings.Join(parts, " "))
}

var calls []string

// key returns k and notes that it was called.
func key(k string) string {
	calls = append(calls, "key "+k)
	return k
}

// next returns n and notes that it was called.
func next(n int) (int, bool) {
	calls = append(calls, "next")
	return n, true
}

// stores assigns elements every way, and prints the maps.
func stores(label string) {
	var v any = "str"
	var item any = Item{"it", 3}
	other := map[string]int{"a": 1, "b": 2}
	ch := make(chan int, 3)
	ch <- 7
	ch <- 8
	ch <- 9
	ms := map[string]string{}
	mi := map[string]int{}
	ma := map[string]any{}
	mb := map[string]bool{}
	var ok bool
	var err error
	ms["assert"], ok = v.(string)
	mi["index"], ok = other["b"]
	mi["recv"], ok = <-ch
	mi["atoi"], err = strconv.Atoi("42")
	ma["item"], ok = item.(Item)
	ma["pair"], mb["second"] = any(Item{"p", 1}), true
	var s string
	s, mb["ok"] = v.(string)
	if mi["if"], ok = <-ch; ok {
		mi["if"]++
	}
	switch ms["switch"], ok = v.(string); {
	case ok:
		ms["switch"] += "!"
	}
	select {
	case mi["select"], ok = <-ch:
	}
	calls = nil
	mi[key("k")], ok = next(5)
	fmt.Println(label+" calls:", calls, s, ok, err)
	show(label+" ms", ms)
	show(label+" mi", mi)
	show(label+" ma", ma)
	show(label+" mb", mb)
}

func main() {
	x := getArgs(map[string]interface{}{"x": "y", "n": 1}, "x", "n")
	fmt.Println("bug343:", x["x"], len(x), x["n"] == "")

	stores("function")
	func() { stores("closure") }()
	done := make(chan bool)
	go func() {
		stores("goroutine")
		done <- true
	}()
	<-done
	func() {
		defer stores("deferred")
	}()

	// At the top level and in a loop body.
	var v any = "top"
	counts := map[string]int{"a": 1}
	seen := map[string]bool{}
	ms := map[string]string{}
	var ok bool
	var err error
	ms["v"], ok = v.(string)
	for i, k := range []string{"a", "b"} {
		counts[k+"!"], seen[k] = counts[k]
		ms[k], ok = v.(string)
		counts[strconv.Itoa(i)], err = strconv.Atoi(strconv.Itoa(i * 10))
	}
	fmt.Println("top:", ok, err)
	show("top ms", ms)
	show("top counts", counts)
	show("top seen", seen)
}
