package autograd

// An Error reports misuse of the autograd engine, such as Backward through
// a graph that was already freed. The engine panics with an *Error.
type Error struct {
	Msg string // what went wrong and how to fix it
}

func (e *Error) Error() string { return "autograd: " + e.Msg }

// errFreed is the message of a Backward through a released graph.
const errFreed = "Backward through a graph that was already freed; the first Backward releases the graph " +
	"(its saved inputs and closures) to reclaim memory. Run the forward pass again to build a new graph " +
	"before calling Backward, or pass retain to keep the graph for a second Backward"
