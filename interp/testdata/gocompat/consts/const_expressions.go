// Constants computed from constants, typed and untyped, big and shifted,
// used in array types and functions.
package main

import "fmt"

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
)

const Width = 4

const Area = Width * Width

type Row [Width]int

const ratio = 1.0 / 3

func describe() string {
	var r Row
	return fmt.Sprint(len(r), Area, MB/KB, GB>>20, ratio*3 == 1)
}

func main() {
	fmt.Println(describe())
	fmt.Printf("%.4f %T\n", ratio, Area)
}
