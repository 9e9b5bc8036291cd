package cuda

import (
	"fmt"
	"sync"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// DeviceInfo describes a CUDA device.
type DeviceInfo struct {
	Index        int    // the ordinal: tensor.CUDA(Index)
	Name         string // e.g. "NVIDIA A100-SXM4-40GB"
	Memory       int64  // total memory in bytes
	Major, Minor int    // compute capability
	Emulated     bool   // the CPU emulator (UseEmulator), not a GPU
}

func (d DeviceInfo) String() string {
	s := fmt.Sprintf("cuda:%d %s, compute %d.%d, %s", d.Index, d.Name, d.Major, d.Minor, backend.ByteSize(d.Memory))
	if d.Emulated {
		s += " (emulated)"
	}
	return s
}

// ConvLibrary says how tensor.Conv2d runs on CUDA devices: with cuDNN
// (its version and path) when libcudnn.so.9 or .8 is on the loader's
// path, or at the path GOTENSOR_CUDNN names; otherwise with gotensor's
// im2col kernel and cuBLAS's GEMM, and why (none found, GOTENSOR_CUDNN=0,
// or the error loading the library GOTENSOR_CUDNN names). Set
// GOTENSOR_CUDNN before the first CUDA tensor is made.
func ConvLibrary() string {
	devices.Lock()
	p := devices.provider
	devices.Unlock()
	if p == nil {
		return "no CUDA devices"
	}
	return p.convLibrary()
}

// Devices returns the CUDA devices this process can use: the GPUs in a
// build with -tags cuda, the emulated devices after UseEmulator, none
// otherwise.
func Devices() []DeviceInfo {
	devices.Lock()
	p := devices.provider
	devices.Unlock()
	if p == nil {
		return nil
	}
	n, err := p.count()
	if err != nil {
		return nil
	}
	var out []DeviceInfo
	for i := 0; i < n; i++ {
		pr, err := p.props(i)
		if err != nil {
			continue
		}
		out = append(out, DeviceInfo{Index: i, Name: pr.Name, Memory: pr.TotalMem,
			Major: pr.Major, Minor: pr.Minor, Emulated: pr.Emulated})
	}
	return out
}

// Stats is the memory use of one device, as the caching allocator sees it.
type Stats struct {
	Device    int   // the device ordinal
	Allocated int64 // bytes held by live tensors
	Cached    int64 // bytes freed by tensors and kept for reuse
	Peak      int64 // the highest Allocated since the device was opened or ResetPeak
	Total     int64 // the device's memory
}

func (s Stats) String() string {
	return fmt.Sprintf("cuda:%d: %s allocated, %s cached, peak %s, of %s", s.Device,
		backend.ByteSize(s.Allocated), backend.ByteSize(s.Cached), backend.ByteSize(s.Peak), backend.ByteSize(s.Total))
}

// MemoryStats returns the memory use of every device opened so far.
func MemoryStats() []Stats {
	var out []Stats
	for _, d := range openDevices() {
		a, c, p := d.alloc.stats()
		out = append(out, Stats{Device: d.index, Allocated: a, Cached: c, Peak: p, Total: d.props.TotalMem})
	}
	return out
}

// ResetPeak resets the peaks of every open device, as
// ResetPeakMemoryStats does for one.
func ResetPeak() {
	for _, d := range openDevices() {
		d.alloc.resetPeaks()
	}
}

// EmptyCache returns the memory cached by the allocator of every open
// device to the driver, so other processes can use it. Tensors are not
// affected.
func EmptyCache() {
	for _, d := range openDevices() {
		d.do(d.alloc.emptyCache)
	}
}

var registerOnce sync.Once

// register makes tensor.CUDA(i) use this package's backend.
func register() {
	registerOnce.Do(func() {
		backend.Register("cuda", func(i int) (backend.Backend, error) {
			d, err := getDevice(i)
			if err != nil {
				return nil, err
			}
			b := &deviceBackend{dev: d}
			if c, ok := d.drv.(driver.Convolver); ok {
				return &convBackend{deviceBackend: b, conv: c}, nil
			}
			return b, nil
		})
	})
}

// setProvider installs p as the source of devices and registers the
// backend. It fails once a device has been opened from another provider.
func setProvider(p provider) error {
	devices.Lock()
	defer devices.Unlock()
	if len(devices.open) > 0 && devices.provider != p {
		return fmt.Errorf("cuda: devices are already open; choose the emulator before using any CUDA device")
	}
	devices.provider = p
	register()
	return nil
}
