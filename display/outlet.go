package display

import (
	"sync"

	"github.com/gotensor/gotensor/internal/goroutine"
)

// An Outlet is where one notebook session's outputs go: its Publisher,
// the live outputs (LivePlot, Progress) changed there and not yet drawn,
// and the size of its plots. A session makes one Outlet and binds it to
// each goroutine that runs its code (the cells, the goroutines they
// start, widgets' callbacks); display functions called on a bound
// goroutine publish to its Outlet, so two sessions in one process never
// show into each other's cells. A goroutine without an Outlet of its own
// uses the process's, whose Publisher SetPublisher installs: what a Go
// program or test uses.
type Outlet struct {
	mu   sync.RWMutex
	pub  Publisher
	w, h int // the plots' size, 0 for PlotWidth×PlotHeight

	pending liveSet // live outputs changed here and not yet drawn
}

// NewOutlet returns an Outlet that publishes to p (nil discards).
func NewOutlet(p Publisher) *Outlet { return &Outlet{pub: p} }

// processOutlet is the Outlet of goroutines without one of their own.
var processOutlet Outlet

// bound holds the Outlet of each goroutine that has one.
var bound goroutine.Local[*Outlet]

// Bind makes o the calling goroutine's Outlet until unbind is called,
// which gives the goroutine back the Outlet it had before (or none).
//
//	defer outlet.Bind()()
func (o *Outlet) Bind() (unbind func()) { return bound.Set(o) }

// DrawPending draws now, in the caller, every live output (LivePlot,
// Progress) changed through o since its last drawing, which its throttled
// redraw would otherwise draw up to a quarter of a second later. The
// notebook kernel calls it when a cell ends, before the cell's reply, so
// that what Jupyter saves (jupyter nbconvert --execute, gotensor run)
// shows every live output's final state even when the cell did not call
// Done. Later changes are drawn live again.
func (o *Outlet) DrawPending() {
	for v := range o.pending.take() {
		v.draw()
	}
}

// SetPlotSize sets the size, in CSS pixels, at which Plot, PlotSVG and
// Show draw a *plot.Plot from now on. In a notebook it sets the size for
// the session's plots, not another session's; outside one, it sets the
// process's, PlotWidth and PlotHeight.
//
//	display.SetPlotSize(800, 400)
func SetPlotSize(width, height int) {
	o := currentOutlet()
	if o == &processOutlet {
		PlotWidth, PlotHeight = width, height
		return
	}
	o.mu.Lock()
	o.w, o.h = width, height
	o.mu.Unlock()
}

// plotSize returns the size at which the calling goroutine's plots are
// drawn.
func plotSize() (width, height int) {
	o := currentOutlet()
	if o != &processOutlet {
		o.mu.RLock()
		w, h := o.w, o.h
		o.mu.RUnlock()
		if w > 0 && h > 0 {
			return w, h
		}
	}
	return PlotWidth, PlotHeight
}

// currentOutlet returns the calling goroutine's Outlet, or the process's.
func currentOutlet() *Outlet {
	if o, ok := bound.Get(); ok && o != nil {
		return o
	}
	return &processOutlet
}

// publisher returns o's Publisher, or nil.
func (o *Outlet) publisher() Publisher {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.pub
}

// currentPublisher returns the calling goroutine's Publisher, or nil.
func currentPublisher() Publisher { return currentOutlet().publisher() }

// SetPublisher installs p as the process's receiver of published outputs,
// used by goroutines that have no Outlet of their own (a Go program, a
// test), and returns a function that restores the previous one. A nil p
// discards outputs. A notebook session binds an Outlet instead.
func SetPublisher(p Publisher) (restore func()) {
	o := &processOutlet
	o.mu.Lock()
	old := o.pub
	o.pub = p
	o.mu.Unlock()
	return func() {
		o.mu.Lock()
		o.pub = old
		o.mu.Unlock()
	}
}

// DrawPending is Outlet.DrawPending for the calling goroutine's Outlet,
// or for the process's when it has none.
func DrawPending() { currentOutlet().DrawPending() }
