package tensor

import (
	"fmt"
	"sync"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// A Device names where a tensor's storage lives: CPU, or an accelerator
// such as CUDA(0). Devices are comparable values.
type Device struct {
	kind  string
	index int
}

// CPU is the host device. Every build has it, and creation functions put
// new tensors there.
var CPU = Device{}

// Kind returns the device's backend name: "cpu", "cuda", ...
func (d Device) Kind() string {
	if d.kind == "" {
		return "cpu"
	}
	return d.kind
}

// Index returns the device's ordinal among devices of its kind.
func (d Device) Index() int { return d.index }

// String returns "cpu" for the CPU and kind:index for other devices
// ("cuda:0"), as PyTorch prints them.
func (d Device) String() string {
	if d.Kind() == "cpu" {
		return "cpu"
	}
	return fmt.Sprintf("%s:%d", d.kind, d.index)
}

// An engine is an open device: the backend that serves it, and its name.
// Every tensor points to the engine of its device.
type engine struct {
	backend.Backend
	device Device
}

// cpuEngine serves the CPU.
var cpuEngine = &engine{Backend: cpu.Backend{}, device: CPU}

// engines holds the devices opened so far.
var engines struct {
	sync.RWMutex
	open map[Device]*engine
}

// Backends returns the device kinds this process can use: "cpu" first,
// then those registered by a backend package ("cuda" once package cuda
// provides devices).
func Backends() []string { return append([]string{"cpu"}, backend.Kinds()...) }

// BLAS names the matrix-multiply library behind MatMul on the CPU:
// "openblas (Haswell)", with the CPU kernel OpenBLAS picked for this
// machine, or "gonum" when OpenBLAS is not installed (Debian:
// libopenblas0-pthread), when the build has no cgo, or when the
// environment variable GOTENSOR_BLAS=gonum was set before the first
// product.
//
//	tensor.BLAS() // "openblas (Haswell)"
func BLAS() string { return cpu.BLAS() }

// NewDevice returns the device of a registered kind with the given index,
// opening its backend on first use. It panics with a *DeviceError when the
// kind is not registered or the device cannot be opened.
func NewDevice(kind string, index int) Device { return newDevice("NewDevice", kind, index) }

func newDevice(op, kind string, index int) Device {
	if kind == "cpu" || kind == "" {
		return CPU
	}
	d := Device{kind: kind, index: index}
	engineOf(op, d)
	return d
}

// CUDA returns the i-th CUDA device. It panics with a *DeviceError when
// this build has no CUDA devices (build with -tags cuda on a machine with
// a GPU, or call cuda.UseEmulator) or when device i cannot be opened.
func CUDA(i int) Device { return newDevice("CUDA", "cuda", i) }

// DefaultDevice returns CUDA(0) when this build has a CUDA backend and a
// usable GPU, and CPU otherwise.
func DefaultDevice() Device {
	if _, ok := backend.Lookup("cuda"); !ok {
		return CPU
	}
	d := Device{kind: "cuda"}
	if _, err := openEngine(d); err != nil {
		return CPU
	}
	return d
}

func openEngine(d Device) (*engine, error) {
	if d.Kind() == "cpu" {
		return cpuEngine, nil
	}
	engines.RLock()
	e, ok := engines.open[d]
	engines.RUnlock()
	if ok {
		return e, nil
	}
	f, registered := backend.Lookup(d.kind)
	if !registered {
		if d.kind == "cuda" {
			return nil, &DeviceError{Devices: []Device{d},
				Msg: "this build has no CUDA support",
				Fix: "build gotensor with -tags cuda on a machine with the CUDA driver, call cuda.UseEmulator(cuda.EmulatorConfig{}) for an emulated GPU, or use tensor.CPU (tensor.DefaultDevice() picks what is available)"}
		}
		return nil, &DeviceError{Devices: []Device{d},
			Msg: fmt.Sprintf("no backend registered for device kind %q (have %v)", d.kind, Backends()),
			Fix: "import the package that registers it"}
	}
	b, err := f(d.index)
	if err != nil {
		return nil, &DeviceError{Devices: []Device{d}, Msg: fmt.Sprintf("cannot open %v: %v", d, err)}
	}
	engines.Lock()
	defer engines.Unlock()
	if prev, ok := engines.open[d]; ok {
		return prev, nil
	}
	if engines.open == nil {
		engines.open = map[Device]*engine{}
	}
	e = &engine{Backend: b, device: d}
	engines.open[d] = e
	return e, nil
}

// engineOf returns d's engine or panics with a DeviceError naming op.
func engineOf(op string, d Device) *engine {
	e, err := openEngine(d)
	if err != nil {
		err := err.(*DeviceError)
		err.Op = op
		panic(err)
	}
	return e
}
