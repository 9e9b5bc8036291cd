package tensor

import (
	"fmt"
	"sort"
	"sync"
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

// A BackendFactory opens the backend for one device of its kind. It is
// called once per device, the first time the device is used, and returns an
// error when the device cannot be used (no such ordinal, driver failure).
type BackendFactory func(index int) (Backend, error)

var registry struct {
	sync.RWMutex
	factories map[string]BackendFactory
	open      map[Device]Backend
}

func init() {
	registry.factories = map[string]BackendFactory{}
	registry.open = map[Device]Backend{CPU: cpuBackendInstance}
}

// RegisterBackend makes devices of the given kind available, the way
// database/sql drivers register themselves: the CUDA backend calls
// RegisterBackend("cuda", ...) from its package init under the cuda build
// tag. It panics if kind is "cpu", empty, or already registered.
func RegisterBackend(kind string, f BackendFactory) {
	registry.Lock()
	defer registry.Unlock()
	if kind == "" || kind == "cpu" || f == nil {
		panic("tensor: RegisterBackend: kind must be a non-empty name other than \"cpu\" and the factory non-nil")
	}
	if _, dup := registry.factories[kind]; dup {
		panic("tensor: RegisterBackend: backend " + kind + " registered twice")
	}
	registry.factories[kind] = f
}

// Backends returns the registered device kinds, "cpu" first.
func Backends() []string {
	registry.RLock()
	defer registry.RUnlock()
	var ks []string
	for k := range registry.factories {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return append([]string{"cpu"}, ks...)
}

// NewDevice returns the device of a registered kind with the given index,
// opening its backend on first use. It panics with a *DeviceError when the
// kind is not registered or the device cannot be opened.
func NewDevice(kind string, index int) Device { return newDevice("NewDevice", kind, index) }

func newDevice(op, kind string, index int) Device {
	if kind == "cpu" || kind == "" {
		return CPU
	}
	d := Device{kind: kind, index: index}
	backendOf(op, d)
	return d
}

// CUDA returns the i-th CUDA device. It panics with a *DeviceError when
// this build has no CUDA backend (build with -tags cuda on a machine with a
// GPU) or when device i cannot be opened.
func CUDA(i int) Device { return newDevice("CUDA", "cuda", i) }

// DefaultDevice returns CUDA(0) when this build has a CUDA backend and a
// usable GPU, and CPU otherwise.
func DefaultDevice() Device {
	registry.RLock()
	_, ok := registry.factories["cuda"]
	registry.RUnlock()
	if !ok {
		return CPU
	}
	d := Device{kind: "cuda"}
	if _, err := openBackend(d); err != nil {
		return CPU
	}
	return d
}

func openBackend(d Device) (Backend, error) {
	registry.RLock()
	b, ok := registry.open[d]
	f, registered := registry.factories[d.kind]
	registry.RUnlock()
	if ok {
		return b, nil
	}
	if !registered {
		if d.kind == "cuda" {
			return nil, &DeviceError{Devices: []Device{d},
				Msg: "this build has no CUDA support",
				Fix: "build gotensor with -tags cuda on a machine with the CUDA driver, or use tensor.CPU (tensor.DefaultDevice() picks what is available)"}
		}
		return nil, &DeviceError{Devices: []Device{d},
			Msg: fmt.Sprintf("no backend registered for device kind %q (have %v)", d.kind, Backends()),
			Fix: "import the package that registers it"}
	}
	b, err := f(d.index)
	if err != nil {
		return nil, &DeviceError{Devices: []Device{d}, Msg: fmt.Sprintf("cannot open %v: %v", d, err)}
	}
	registry.Lock()
	if prev, ok := registry.open[d]; ok {
		b = prev
	} else {
		registry.open[d] = b
	}
	registry.Unlock()
	return b, nil
}

// backendOf returns d's backend or panics with a DeviceError naming op.
func backendOf(op string, d Device) Backend {
	if d.kind == "" || d.kind == "cpu" {
		return cpuBackendInstance
	}
	b, err := openBackend(d)
	if err != nil {
		e := err.(*DeviceError)
		e.Op = op
		panic(e)
	}
	return b
}
