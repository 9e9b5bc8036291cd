package display

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// liveInterval is the shortest time between two redraws of a live output:
// at most 4 redraws a second, however often it changes. A redraw that takes
// long (a plot of many series on a busy machine) stretches the interval to
// liveCostFactor times its duration, so drawing never takes more than a
// third of a core.
var liveInterval = 250 * time.Millisecond

const liveCostFactor = 3

// live is the machinery shared by LivePlot and Progress: one output with a
// display id, shown on its first change and redrawn in place, throttled, on
// later ones.
//
// A change costs a lock and a timer check. The first change draws and
// publishes at once, in the caller. Later changes mark the output dirty and
// arm a timer that redraws it liveInterval after the previous redraw, on
// the timer's goroutine, so a loop that changes the output thousands of
// times a second never waits for drawing. finish stops the timer, waits for
// a redraw in flight and draws the final state.
//
// The owner's state is guarded by mu. snapshot, called with mu held,
// copies what a redraw needs and returns the function that draws it, which
// runs without the lock.
type live struct {
	mu       sync.Mutex
	snapshot func() func() Bundle

	idle  sync.Cond // signalled when busy clears
	pub   Publisher // where redraws go: the publisher of the latest change
	id    string    // the display id, set when first shown
	shown bool
	dirty bool // changed since the last redraw began
	busy  bool // a redraw is in flight
	timer *time.Timer
	last  time.Time     // when the last redraw began
	cost  time.Duration // how long the last redraw took
}

func (v *live) init(snapshot func() func() Bundle) {
	v.snapshot = snapshot
	v.idle.L = &v.mu
}

var displayIDs atomic.Int64

// newDisplayID returns a display id unique to this process and unlikely
// to clash with another kernel's.
func newDisplayID() string {
	return "gotensor-" + strconv.FormatInt(processStamp, 36) + "-" + strconv.FormatInt(displayIDs.Add(1), 10)
}

var processStamp = time.Now().UnixNano()

// changed records a change the caller made under v.mu, which it holds;
// it returns the job to run, after unlocking, when the change must be drawn
// at once (the first one), or nil.
func (v *live) changedLocked() *liveJob {
	v.dirty = true
	o := currentOutlet()
	if p := o.publisher(); p != nil {
		v.pub = p
	}
	if !v.shown {
		v.shown = true
		v.id = newDisplayID()
		return v.beginLocked(false)
	}
	o.pending.add(v)
	v.scheduleLocked()
	return nil
}

// A liveSet is a set of live outputs, safe for concurrent use.
type liveSet struct {
	mu  sync.Mutex
	set map[*live]bool
}

func (s *liveSet) add(v *live) {
	s.mu.Lock()
	if s.set == nil {
		s.set = map[*live]bool{}
	}
	s.set[v] = true
	s.mu.Unlock()
}

// take empties the set and returns what it held.
func (s *liveSet) take() map[*live]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	vs := s.set
	s.set = nil
	return vs
}

// liveJob is one redraw: the drawing function and where its result goes.
type liveJob struct {
	draw   func() Bundle
	pub    Publisher
	id     string
	update bool
}

// beginLocked waits for a redraw in flight and starts a new one.
func (v *live) beginLocked(update bool) *liveJob {
	for v.busy {
		v.idle.Wait()
	}
	v.busy = true
	v.dirty = false
	v.last = time.Now()
	return &liveJob{draw: v.snapshot(), pub: v.pub, id: v.id, update: update}
}

// run draws and publishes j, without v.mu. A panic while drawing or
// publishing (a failing publisher) is dropped: the live output stays usable.
func (v *live) run(j *liveJob) {
	start := time.Now()
	defer func() {
		recover()
		v.mu.Lock()
		v.cost = time.Since(start)
		v.busy = false
		v.idle.Broadcast()
		v.scheduleLocked()
		v.mu.Unlock()
	}()
	b := j.draw()
	if j.pub != nil {
		j.pub.Display(b, j.id, j.update)
	}
}

// scheduleLocked arms the redraw timer when a change awaits drawing.
func (v *live) scheduleLocked() {
	if !v.dirty || v.busy || v.timer != nil || !v.shown {
		return
	}
	wait := max(0, max(liveInterval, liveCostFactor*v.cost)-time.Since(v.last))
	v.timer = time.AfterFunc(wait, v.fire)
}

// fire is the timer's redraw.
func (v *live) fire() {
	v.mu.Lock()
	v.timer = nil
	if !v.dirty || v.busy {
		v.mu.Unlock()
		return
	}
	j := v.beginLocked(true)
	v.mu.Unlock()
	v.run(j)
}

// finishLocked stops the timer and, when there are changes not yet drawn
// (or nothing was ever shown), returns the job that draws the final state;
// it returns nil when the output is up to date, so finishing twice is
// harmless.
func (v *live) finishLocked() *liveJob {
	for v.busy {
		v.idle.Wait()
	}
	if v.timer != nil {
		v.timer.Stop()
		v.timer = nil
	}
	if p := currentPublisher(); p != nil {
		v.pub = p
	}
	if !v.shown {
		v.shown = true
		v.id = newDisplayID()
		return v.beginLocked(false)
	}
	if !v.dirty {
		return nil
	}
	return v.beginLocked(true)
}

// draw draws the changes not yet drawn in the caller, if any, without
// stopping live updates.
func (v *live) draw() {
	v.mu.Lock()
	for v.busy {
		v.idle.Wait()
	}
	var j *liveJob
	if v.dirty && v.shown {
		if v.timer != nil {
			v.timer.Stop()
			v.timer = nil
		}
		j = v.beginLocked(true)
	}
	v.mu.Unlock()
	if j != nil {
		v.run(j)
	}
}

// finish draws the final state in the caller, when needed.
func (v *live) finish() {
	v.mu.Lock()
	j := v.finishLocked()
	v.mu.Unlock()
	if j != nil {
		v.run(j)
	}
	// run may have re-armed the timer for changes made meanwhile; they are
	// drawn by it.
}
