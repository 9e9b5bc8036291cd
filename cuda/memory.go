package cuda

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Memory you can see, as torch.cuda names it. Two amounts matter: what
// live tensors hold (MemoryAllocated: each storage's bytes rounded up to
// 512, as PyTorch counts), and what the process holds from the driver
// (MemoryReserved: the allocator's blocks in use, which are size buckets
// a little larger than the tensors in them, plus the cache of freed
// blocks kept for reuse). A device not opened yet holds nothing.

// openedDevice returns device i when tensors have used it, or nil.
func openedDevice(i int) *device {
	devices.Lock()
	defer devices.Unlock()
	return devices.open[i]
}

// allocStat returns f of device i's allocator, under its lock, or 0 when
// the device is not open.
func allocStat(device int, f func(a *allocator) int64) int64 {
	d := openedDevice(device)
	if d == nil {
		return 0
	}
	d.alloc.mu.Lock()
	defer d.alloc.mu.Unlock()
	return f(d.alloc)
}

// MemoryAllocated returns the bytes that live tensors hold on device i
// (torch.cuda.memory_allocated): each storage's bytes rounded up to 512.
// Tensors dropped but not yet collected count until the garbage collector
// finalizes them; Free gives their memory back at once.
func MemoryAllocated(device int) int64 {
	return allocStat(device, func(a *allocator) int64 { return a.tensors })
}

// MaxMemoryAllocated returns the highest MemoryAllocated of device i
// since it was opened or since ResetPeakMemoryStats
// (torch.cuda.max_memory_allocated): the peak a training step needs.
//
//	cuda.ResetPeakMemoryStats(0)
//	step()
//	fmt.Println(backend.ByteSize(cuda.MaxMemoryAllocated(0)))
func MaxMemoryAllocated(device int) int64 {
	return allocStat(device, func(a *allocator) int64 { return a.peakTens })
}

// MemoryReserved returns the bytes the process holds from the driver on
// device i (torch.cuda.memory_reserved): blocks in use and cached.
// EmptyCache gives the cached ones back.
func MemoryReserved(device int) int64 {
	return allocStat(device, func(a *allocator) int64 { return a.total })
}

// MaxMemoryReserved returns the highest MemoryReserved of device i since
// it was opened or since ResetPeakMemoryStats
// (torch.cuda.max_memory_reserved).
func MaxMemoryReserved(device int) int64 {
	return allocStat(device, func(a *allocator) int64 { return a.peakTotal })
}

// ResetPeakMemoryStats sets device i's peaks (MaxMemoryAllocated,
// MaxMemoryReserved, and Stats.Peak) to the current amounts
// (torch.cuda.reset_peak_memory_stats).
func ResetPeakMemoryStats(device int) {
	if d := openedDevice(device); d != nil {
		d.alloc.resetPeaks()
	}
}

func (a *allocator) resetPeaks() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.peak, a.peakTens, a.peakTotal = a.allocated, a.tensors, a.total
}

// MemorySummary returns a table of device i's memory (as
// torch.cuda.memory_summary, smaller): what tensors hold and the peak,
// the allocator's blocks, the cache and what is reserved from the driver,
// the count of live tensors and of allocations, and the groups of live
// tensors that hold the most. The notebook's %gpu shows it.
func MemorySummary(device int) string {
	var b strings.Builder
	var info *DeviceInfo
	for _, d := range Devices() {
		if d.Index == device {
			info = &d
		}
	}
	if info == nil {
		fmt.Fprintf(&b, "cuda:%d: no such device (this process has %d)\n", device, len(Devices()))
		return b.String()
	}
	fmt.Fprintln(&b, *info)
	d := openedDevice(device)
	if d == nil {
		b.WriteString("  not used yet\n")
		return b.String()
	}
	a := d.alloc
	a.mu.Lock()
	tensors, peakTens, blocks, peak, cached, total, peakTotal := a.tensors, a.peakTens, a.allocated, a.peak, a.cached, a.total, a.peakTotal
	nLive, c := len(a.live), a.counts
	a.mu.Unlock()
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	sz := backend.ByteSize
	fmt.Fprintf(tw, "  \tcurrent\tpeak\n")
	fmt.Fprintf(tw, "  allocated by tensors\t%s\t%s\tMemoryAllocated, MaxMemoryAllocated\n", sz(tensors), sz(peakTens))
	fmt.Fprintf(tw, "  blocks in use\t%s\t%s\tsize buckets holding them\n", sz(blocks), sz(peak))
	fmt.Fprintf(tw, "  cached free blocks\t%s\t\tkept for reuse; EmptyCache returns them\n", sz(cached))
	fmt.Fprintf(tw, "  reserved from the driver\t%s\t%s\tMemoryReserved, MaxMemoryReserved\n", sz(total), sz(peakTotal))
	fmt.Fprintf(tw, "  device memory\t%s\n", sz(info.Memory))
	tw.Flush()
	fmt.Fprintf(&b, "  %d live tensors; %d allocations, %d from the cache, %d from the driver; %d cache flushes; %d out of memory\n",
		nLive, c.mallocs, c.fromCache, c.driverAllocs, c.cacheFlushes, c.ooms)
	if groups := a.largest(maxHolders); len(groups) > 0 {
		b.WriteString("  largest live tensors:\n")
		for _, g := range groups {
			fmt.Fprintf(&b, "    %s, %s in all\n", g, sz(g.Bytes))
		}
	}
	return b.String()
}
