// print and println write floats in their shortest form (Go 1.26), a nil
// interface as (0x0,0x0), nil references as 0x0, in functions, deferred
// calls and at the top level.
package main

type Celsius float64

func report(t Celsius) {
	var err error
	var p *int
	var s []int
	var m map[string]int
	println("report", t, float32(0.1), 1e21, 2.5e-7, complex(1.5, -2), err, p, s, m, byte(255))
	print("no newline", 3, true, "\n")
}

func main() {
	defer println(42, 1.5, "world", (chan int)(nil), []int(nil), (func())(nil), uint8(7))
	report(21.5)
	for i := 0; i < 2; i++ {
		println(i, float64(i)/4)
	}
}
