// min and max order -0 before +0, keep NaN, and work on a cell's named
// float type, at the top level, in functions, closures and loops.
package main

import (
	"fmt"
	"math"
)

type Temp float64

func coldest(ts ...Temp) Temp {
	c := ts[0]
	for _, t := range ts[1:] {
		c = min(c, t)
	}
	return c
}

func main() {
	z := 0.0
	nz := math.Copysign(0, -1)
	fmt.Println(min(z, nz), max(z, nz), min(nz, z), max(nz, z))
	fmt.Println(math.Signbit(min(z, nz)), math.Signbit(max(nz, z)), math.Signbit(min(nz, nz)))
	fmt.Println(1/min(z, nz), 1/max(nz, z), 1/max(nz, nz))
	var f32 = float32(nz)
	fmt.Println(math.Signbit(float64(min(f32, 0))), min(1.5, nz, 2), max(-1, nz))
	fmt.Println(min(math.NaN(), 1), max(3, math.NaN()), min(3, 1, 2), max("a", "b"))
	fmt.Println(coldest(Temp(z), Temp(nz), 3), 1/coldest(0, Temp(nz)))
	signs := func(a, b float64) string {
		return fmt.Sprint(math.Signbit(min(a, b)), math.Signbit(max(a, b)))
	}
	for _, p := range [][2]float64{{z, nz}, {nz, z}, {nz, nz}, {z, z}} {
		fmt.Println(signs(p[0], p[1]))
	}
}
