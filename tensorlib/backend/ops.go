package backend

// UnaryOp names an elementwise op of one operand for Backend.Unary.
type UnaryOp int

// The unary ops. Float-only ops (from OpSqrt on) receive Float32 or Float64
// storage; OpNeg, OpAbs and OpReLU also receive Int64.
const (
	OpNeg UnaryOp = iota
	OpAbs
	OpReLU
	OpSqrt
	OpExp
	OpLog
	OpSin
	OpCos
	OpTanh
	OpSigmoid
	OpGELU
	OpErf
)

var unaryNames = [...]string{"Neg", "Abs", "ReLU", "Sqrt", "Exp", "Log", "Sin", "Cos", "Tanh", "Sigmoid", "GELU", "Erf"}

// String returns the op's name as the tensor method that runs it: "Neg",
// "ReLU". It is for messages; a backend that needs names of its own
// (kernel names) keeps its own table.
func (op UnaryOp) String() string { return unaryNames[op] }

// BinaryOp names an elementwise op of two operands for Backend.Binary and
// Backend.BinaryScalar.
type BinaryOp int

// The binary ops. Operands are Float32, Float64 or Int64 (OpDiv receives
// floats only: the front end promotes integer division to Float32).
const (
	OpAdd BinaryOp = iota
	OpSub
	OpMul
	OpDiv
	OpPow
	OpMaximum
	OpMinimum
)

var binaryNames = [...]string{"Add", "Sub", "Mul", "Div", "Pow", "Maximum", "Minimum"}

// String returns the op's name as the tensor method that runs it.
func (op BinaryOp) String() string { return binaryNames[op] }

// CompareOp names a comparison for Backend.Compare.
type CompareOp int

// The comparisons; each yields Bool.
const (
	OpEq CompareOp = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
)

var compareNames = [...]string{"Eq", "Ne", "Lt", "Le", "Gt", "Ge"}

// String returns the op's name as the tensor method that runs it.
func (op CompareOp) String() string { return compareNames[op] }

// ReduceOp names a reduction for Backend.Reduce and Backend.ArgReduce.
type ReduceOp int

// The reductions. OpSum of Int64 yields Int64; OpMax and OpMin keep the
// dtype; OpArgmax and OpArgmin (ArgReduce only) yield Int64 indices.
const (
	OpSum ReduceOp = iota
	OpMax
	OpMin
	OpArgmax
	OpArgmin
)

var reduceNames = [...]string{"Sum", "Max", "Min", "Argmax", "Argmin"}

// String returns the op's name as the tensor method that runs it.
func (op ReduceOp) String() string { return reduceNames[op] }

// Distribution names the law of Backend.Random.
type Distribution int

// The distributions Random draws from.
const (
	Uniform    Distribution = iota // uniform on [a, b)
	Normal                         // normal with mean a and standard deviation b
	IntUniform                     // integers uniform on [a, b)
)
