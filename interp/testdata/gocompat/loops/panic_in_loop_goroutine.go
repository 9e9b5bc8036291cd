// A goroutine of a loop panics with its iteration's value: the program
// ends with the panic's status.
package main

import "fmt"

func main() {
	done := make(chan int)
	for i := 0; i < 3; i++ {
		go func() {
			if i == 2 {
				defer func() { done <- i }()
			}
		}()
	}
	v := <-done
	fmt.Println("got", v)
	panic(fmt.Sprint("stop at ", v))
}
