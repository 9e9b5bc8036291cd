package cuda

import (
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
)

// device is one open CUDA device: its driver, its loaded modules and its
// memory. One goroutine at a time drives it (do), on an OS thread where the
// driver is bound.
type device struct {
	index int
	props driver.Props

	mu sync.Mutex // held by do
	// Owned by the holder of mu.
	drv   driver.Driver
	mods  map[string]driver.Module
	funcs map[string]driver.Function
	alloc *allocator

	errRec *storage    // the index-error record of report_index
	args   driver.Args // reused by launches
}

// openDevice opens the driver on the calling goroutine's thread.
func openDevice(index int, open func() (driver.Driver, error)) (*device, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	drv, err := open()
	if err != nil {
		return nil, err
	}
	d := &device{index: index, drv: drv, props: drv.Props(),
		mods: map[string]driver.Module{}, funcs: map[string]driver.Function{}}
	d.alloc = newAllocator(index, drv)
	return d, nil
}

// do runs f with the device to itself, on the calling goroutine locked to
// its OS thread with the driver bound there. Calling on the caller's own
// goroutine (rather than handing f to a device goroutine) saves two thread
// switches per op. A panic in f reaches the caller, so typed errors
// (*tensor.IndexError, *OutOfMemoryError) reach the user. f must not call
// do.
func (d *device) do(f func()) {
	d.mu.Lock()
	runtime.LockOSThread()
	defer func() {
		runtime.UnlockOSThread()
		d.mu.Unlock()
	}()
	if err := d.drv.Bind(); err != nil {
		d.fail(err, "making the device's context current")
	}
	f()
}

// function returns kernel k, loading its module on first use. Inside do
// only.
func (d *device) function(k kernels.Kernel) driver.Function {
	name := string(k)
	if f, ok := d.funcs[name]; ok {
		return f
	}
	mod, ok := kernels.ModuleOf(k)
	if !ok {
		panic(fmt.Sprintf("cuda: no kernel %s in package kernels", name))
	}
	m, ok := d.mods[mod]
	if !ok {
		var err error
		if m, err = d.drv.LoadModule(mod, kernels.PTX(mod)); err != nil {
			panic(&DriverError{Device: d.index, Op: "loading kernel module " + mod, Err: err, Fix: fixModule})
		}
		d.mods[mod] = m
	}
	f, err := m.Function(name)
	if err != nil {
		panic(&DriverError{Device: d.index, Op: "finding kernel " + name, Err: err, Fix: fixModule})
	}
	d.funcs[name] = f
	return f
}

// launch runs kernel k on grid×block threads. Inside do only.
func (d *device) launch(k kernels.Kernel, grid, block int, args *driver.Args) {
	if grid <= 0 {
		return
	}
	name := string(k)
	f := d.function(k)
	d.timed(name, func() {
		if err := d.drv.Launch(f, driver.Dim3{grid, 1, 1}, driver.Dim3{block, 1, 1}, 0, args); err != nil {
			d.fail(err, fmt.Sprintf("launching %s (grid %d, block %d)", name, grid, block))
		}
	})
}

// Launch configuration.
const (
	elemThreads = 256 // block size of elementwise (grid-stride) kernels
	blocksPerSM = 32  // grid-stride kernels use at most this many blocks per SM
)

// gridFor returns the number of blocks of threads each for n elements,
// capped so that a grid-stride loop covers the rest.
func (d *device) gridFor(n int64, threads int) int {
	if n <= 0 {
		return 0
	}
	g := (n + int64(threads) - 1) / int64(threads)
	limit := int64(max(1, d.props.MultiProcessors) * blocksPerSM)
	return int(min(g, limit))
}

// elementwise launches a grid-stride kernel over n elements.
func (d *device) elementwise(name kernels.Kernel, n int64, args *driver.Args) {
	d.launch(name, d.gridFor(n, elemThreads), elemThreads, args)
}

// vecElems is how many elements a thread of the elementwise kernels'
// fast path takes at a time (four floats, kernels/elementwise.cuh).
const vecElems = 4

// elementwiseVec launches a grid-stride kernel over n elements with the
// fast path of kernels/elementwise.cuh: a thread for each vecElems
// elements.
func (d *device) elementwiseVec(name kernels.Kernel, n int64, args *driver.Args) {
	d.launch(name, d.gridFor((n+vecElems-1)/vecElems, elemThreads), elemThreads, args)
}

// reduceThreads is the block size of shared-memory reductions: the
// kernels' REDUCE_THREADS on a GPU, fewer on the emulator, where each
// thread of a synchronizing block is a coroutine (two warps, so that the
// combining across warps runs there too).
func (d *device) reduceThreads() int {
	if d.props.Emulated {
		return 64
	}
	return 256
}

// newArgs returns the device's argument buffer, emptied. Device goroutine
// only.
func (d *device) newArgs() *driver.Args {
	d.args.Reset()
	return &d.args
}

// sync waits for the device. Inside do only.
func (d *device) sync() {
	if err := d.drv.Synchronize(); err != nil {
		d.fail(err, "waiting for the device")
	}
}

// devices holds the open devices and where new ones come from.
var devices struct {
	sync.Mutex
	provider provider
	open     map[int]*device
}

// A provider enumerates and opens devices: the GPUs (with -tags cuda) or
// emulated ones (UseEmulator).
type provider interface {
	count() (int, error)
	props(index int) (driver.Props, error)
	open(index int) (driver.Driver, error)
	// convLibrary says how the devices convolve (see ConvLibrary).
	convLibrary() string
}

// getDevice returns device i, opening it on first use.
func getDevice(i int) (*device, error) {
	devices.Lock()
	defer devices.Unlock()
	if d, ok := devices.open[i]; ok {
		return d, nil
	}
	p := devices.provider
	if p == nil {
		return nil, fmt.Errorf("cuda: no CUDA devices in this build (build with -tags cuda, or call cuda.UseEmulator)")
	}
	n, err := p.count()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= n {
		return nil, fmt.Errorf("cuda: no device %d: this machine has %d (cuda:0 to cuda:%d)", i, n, n-1)
	}
	d, err := openDevice(i, func() (driver.Driver, error) { return p.open(i) })
	if err != nil {
		return nil, err
	}
	if devices.open == nil {
		devices.open = map[int]*device{}
	}
	devices.open[i] = d
	return d, nil
}

// openDevices returns the devices opened so far, by index.
func openDevices() []*device {
	devices.Lock()
	defer devices.Unlock()
	ds := make([]*device, 0, len(devices.open))
	for _, d := range devices.open {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].index < ds[j].index })
	return ds
}
