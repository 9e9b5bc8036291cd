// Compiled functions that read a cell's values as Go does take them
// without a warning: sort.Slice swaps elements, reflect.DeepEqual
// compares them, a context key is only compared, encoding/binary writes
// fields in order.
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"reflect"
	"sort"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

type key int

type Header struct {
	Magic uint16
	Size  uint32
}

func (h Header) String() string { return fmt.Sprint("header ", h.Size) }

func main() {
	ts := []Temp{3, 1, 2}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	fmt.Println(ts)
	fmt.Println(reflect.DeepEqual(ts, []Temp{1, 2, 3}))
	ctx := context.WithValue(context.Background(), key(1), "one")
	fmt.Println(ctx.Value(key(1)), ctx.Value(key(2)))
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, Header{0xCAFE, 7})
	fmt.Println(buf.Bytes())
}
