package widgets_test

import (
	"fmt"

	"github.com/gotensor/gotensor/widgets"
)

// Outside a notebook a widget holds its value and runs its callbacks on
// SetValue; a notebook session also shows it and takes the user's changes.
func ExampleIntSlider() {
	epochs := widgets.NewIntSlider("epochs", 1, 10, 3)
	epochs.OnChange(func(v int) { fmt.Println("epochs now", v) })
	epochs.SetValue(5)
	epochs.SetValue(50) // kept within the range
	fmt.Println(epochs.Value(), epochs)
	// Output:
	// epochs now 5
	// epochs now 10
	// 10 IntSlider(value=10, description="epochs", min=1, max=10)
}

// A log slider's track is in decades: from 1e-5 to 1e-1, a learning rate.
func ExampleNewFloatLogSlider() {
	lr := widgets.NewFloatLogSlider("learning rate", 1e-5, 1e-1, 1e-3)
	fmt.Println(lr.Value())
	lr.SetValue(0.5)
	fmt.Println(lr.Value())
	// Output:
	// 0.001
	// 0.1
}

// Interact calls the function with its controls' values, and again when
// one changes.
func ExampleInteract() {
	n := widgets.NewIntSlider("n", 0, 10, 3)
	it := widgets.Interact(func(n int, scale float64) {
		fmt.Println("n*scale =", float64(n)*scale)
	}, n, 0.5)
	it.Update()
	n.SetValue(4)
	// Output:
	// n*scale = 1.5
	// n*scale = 2
}
