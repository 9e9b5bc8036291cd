// json's omitzero option (Go 1.24) on cell structs: a cell's IsZero
// methods, zero structs, and fields of views.
package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type Money struct{ cents int64 }

func (m Money) IsZero() bool { return m.cents == 0 }

type Span struct{ From, To int }

type Order struct {
	ID      int       `json:"id,omitzero"`
	Price   Money     `json:"price,omitzero"`
	When    time.Time `json:"when,omitzero"`
	Span    Span      `json:"span,omitzero"`
	Tags    []string  `json:"tags,omitzero"`
	Any     any       `json:"any,omitzero"`
	note    string
	Ptr     *Span `json:"ptr,omitzero"`
	Counted int   `json:"n,omitempty,omitzero"`
}

func main() {
	b, err := json.Marshal(Order{})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Order{ID: 1, Price: Money{5}, Span: Span{0, 1}, Tags: []string{}, Any: 0, Ptr: &Span{}, note: "x"})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]Order{{When: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}})
	fmt.Println(string(b), err)
}
