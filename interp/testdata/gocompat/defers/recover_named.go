// A deferred call of a named function that recovers stops the panic, with
// and without arguments; a method value binds a copy of its receiver.
package main

import (
	"errors"
	"fmt"
)

func handle(tag string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %v", tag, r)
	}
}

func quiet() {
	if r := recover(); r != nil {
		fmt.Println("recovered", r)
	}
}

func risky(n int) (err error) {
	defer handle("risky", &err)
	if n < 0 {
		panic("negative")
	}
	return nil
}

func noisy() {
	defer quiet()
	panic(errors.New("boom"))
}

type Counter struct{ n int }

func (c Counter) Value() int { return c.n }
func (c *Counter) Inc()      { c.n++ }

func main() {
	fmt.Println(risky(1), risky(-1))
	noisy()
	c := Counter{1}
	v := c.Value
	inc := c.Inc
	inc()
	c.Inc()
	fmt.Println(v(), c.Value(), c.n)
	p := &c
	pv := p.Value
	p.n = 10
	fmt.Println(pv(), p.Value())
}
