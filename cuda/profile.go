package cuda

import (
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// profiling is set between StartProfile and StopProfile.
var profiling atomic.Bool

// profile holds the times recorded while profiling.
var profile struct {
	sync.Mutex
	byName map[string]*ProfileEntry
}

// A ProfileEntry is the time one kernel (or cuBLAS GEMM, or cuDNN
// convolution) took while profiling, summed over its calls.
type ProfileEntry struct {
	Name  string        // the kernel's name, "gemm M×N×K" or "cudnn <kind>"
	Calls int           // how many times it ran
	Time  time.Duration // the device time of all its calls (see StartProfile)
}

// A Profile is what StopProfile returns: one entry per kernel, the most
// time first.
type Profile []ProfileEntry

// StartProfile makes every kernel launch, GEMM and cuDNN convolution on
// CUDA devices wait for the device before and after it and records its
// time by name, until StopProfile. It answers "which kernels does this
// training step spend its time in": each call then costs a round trip to
// the device (some microseconds), so the step runs slower than usual and
// the times of very short kernels include that round trip. Entries from
// an earlier profile are dropped.
func StartProfile() {
	profile.Lock()
	profile.byName = map[string]*ProfileEntry{}
	profile.Unlock()
	profiling.Store(true)
}

// StopProfile ends profiling and returns what was recorded, the kernel
// that took the most time first.
func StopProfile() Profile {
	profiling.Store(false)
	profile.Lock()
	defer profile.Unlock()
	var p Profile
	for _, e := range profile.byName {
		p = append(p, *e)
	}
	sort.Slice(p, func(i, j int) bool {
		if p[i].Time != p[j].Time {
			return p[i].Time > p[j].Time
		}
		return p[i].Name < p[j].Name
	})
	return p
}

// Total returns the time of all entries.
func (p Profile) Total() time.Duration {
	var t time.Duration
	for _, e := range p {
		t += e.Time
	}
	return t
}

// WriteTable writes the top entries of p as a table (at most top rows; all
// when top is 0), each with its share of the total.
func (p Profile) WriteTable(w io.Writer, top int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	total := p.Total()
	fmt.Fprintf(tw, "kernel\tcalls\tms\tµs/call\tshare\t\n")
	for i, e := range p {
		if top > 0 && i == top {
			break
		}
		share := 0.0
		if total > 0 {
			share = float64(e.Time) / float64(total)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.1f\t%.1f%%\t\n", e.Name, e.Calls,
			e.Time.Seconds()*1e3, e.Time.Seconds()*1e6/float64(max(e.Calls, 1)), 100*share)
	}
	fmt.Fprintf(tw, "all %d kernels\t\t%.3f\t\t\t\n", len(p), total.Seconds()*1e3)
	tw.Flush()
}

// timed runs f, which launches work called name on d; while profiling
// it waits for the device before and after f and records the time
// between. Inside do only.
func (d *device) timed(name string, f func()) {
	if !profiling.Load() {
		f()
		return
	}
	if err := d.drv.Synchronize(); err != nil {
		d.fail(err, "waiting for the device before "+name)
	}
	start := time.Now()
	f()
	if err := d.drv.Synchronize(); err != nil {
		d.fail(err, "waiting for "+name)
	}
	elapsed := time.Since(start)
	profile.Lock()
	e := profile.byName[name]
	if e == nil {
		e = &ProfileEntry{Name: name}
		if profile.byName == nil {
			profile.byName = map[string]*ProfileEntry{}
		}
		profile.byName[name] = e
	}
	e.Calls++
	e.Time += elapsed
	profile.Unlock()
}
