package display

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A Progress is a progress bar that updates in place, in one output: the
// count, the rate, the time elapsed and the time left. It shows as soon as
// it is made. Updates are throttled to at most 4 redraws a second and drawn
// off the caller's goroutine, so Add may be called on every iteration of a
// fast loop. Consoles and text front ends get a text form:
//
//	[##########..........] 50/100 12.3 it/s 00:04<00:04
//
// A Progress is safe for concurrent use.
//
//	bar := display.NewProgress(loader.Len())
//	for loader.Next() {
//		// ... one step ...
//		bar.Add(1)
//	}
//	bar.Done()
type Progress struct {
	v     live
	total int
	n     int
	desc  string
	start time.Time
	done  bool
}

// progressWidth is the number of characters in the text form's bar.
const progressWidth = 20

// NewProgress shows a progress bar towards total and returns it. A total
// <= 0 means unknown: the bar then shows only the count and the rate.
//
//	bar := display.NewProgress(60000)
func NewProgress(total int) *Progress {
	p := &Progress{total: total, start: time.Now()}
	p.v.init(p.snapshot)
	p.v.mu.Lock()
	j := p.v.changedLocked()
	p.v.mu.Unlock()
	if j != nil {
		p.v.run(j)
	}
	return p
}

// Add advances the count by n and redraws the bar soon.
//
//	bar.Add(len(batch))
func (p *Progress) Add(n int) { p.change(func() { p.n += n }) }

// Set sets the count to n and redraws the bar soon.
//
//	bar.Set(step)
func (p *Progress) Set(n int) { p.change(func() { p.n = n }) }

// SetDescription sets the text shown before the bar and returns p.
//
//	bar := display.NewProgress(n).SetDescription("epoch 1")
func (p *Progress) SetDescription(s string) *Progress {
	p.change(func() { p.desc = s })
	return p
}

func (p *Progress) change(f func()) {
	p.v.mu.Lock()
	f()
	j := p.v.changedLocked()
	p.v.mu.Unlock()
	if j != nil {
		p.v.run(j)
	}
}

// Done marks the bar finished and redraws it, in the caller, with the final
// count, rate and total time. Calling it again does nothing. A bar never
// finished (its cell interrupted) keeps its state as of the last throttled
// redraw.
func (p *Progress) Done() {
	p.v.mu.Lock()
	if !p.done {
		p.done = true
		p.v.dirty = true
	}
	p.v.mu.Unlock()
	p.v.finish()
}

// String returns the text form of the bar as it stands.
func (p *Progress) String() string {
	p.v.mu.Lock()
	s := p.stateLocked()
	p.v.mu.Unlock()
	return s.text()
}

// Bundle renders the bar as it stands, so a Progress as a cell's last value
// shows its current state.
func (p *Progress) Bundle() Bundle {
	p.v.mu.Lock()
	s := p.stateLocked()
	p.v.mu.Unlock()
	return s.bundle()
}

// snapshot is the live machinery's hook, called with the lock held.
func (p *Progress) snapshot() func() Bundle {
	s := p.stateLocked()
	return s.bundle
}

// progressState is a progress bar at one moment.
type progressState struct {
	desc     string
	n, total int
	elapsed  time.Duration
	done     bool
}

func (p *Progress) stateLocked() progressState {
	return progressState{desc: p.desc, n: p.n, total: p.total, elapsed: time.Since(p.start), done: p.done}
}

func (s progressState) bundle() Bundle {
	return Bundle{Data: map[string]any{"text/plain": s.text(), "text/html": s.html()}}
}

// fraction is the part done, in [0,1], or -1 when the total is unknown.
func (s progressState) fraction() float64 {
	if s.total <= 0 {
		return -1
	}
	return min(1, max(0, float64(s.n)/float64(s.total)))
}

// stats returns the count, rate and times: "50/100", "12.3 it/s", "00:04",
// and the time left ("" when unknown or done).
func (s progressState) stats() (count, rate, elapsed, left string) {
	count = strconv.Itoa(s.n)
	if s.total > 0 {
		count += "/" + strconv.Itoa(s.total)
	}
	secs := s.elapsed.Seconds()
	rate = "? it/s"
	if s.n > 0 && secs > 0 {
		r := float64(s.n) / secs
		rate = formatRate(r)
		if s.total > 0 && !s.done && s.n < s.total {
			left = formatClock(time.Duration(float64(s.total-s.n) / r * float64(time.Second)))
		}
	}
	if s.total > 0 && !s.done && left == "" && s.n < s.total {
		left = "?"
	}
	return count, rate, formatClock(s.elapsed), left
}

// text is the console form: "desc [####......] 50/100 12.3 it/s 00:04<00:04".
func (s progressState) text() string {
	count, rate, elapsed, left := s.stats()
	var parts []string
	if s.desc != "" {
		parts = append(parts, s.desc)
	}
	if f := s.fraction(); f >= 0 {
		full := int(f*progressWidth + 1e-9)
		parts = append(parts, "["+strings.Repeat("#", full)+strings.Repeat(".", progressWidth-full)+"]")
	}
	t := elapsed
	if left != "" {
		t += "<" + left
	}
	parts = append(parts, count, rate, t)
	return strings.Join(parts, " ")
}

// html is the notebook form: a bar in the front end's brand colour (green
// when done) with the same figures beside it, all inline-styled.
func (s progressState) html() string {
	count, rate, elapsed, left := s.stats()
	var b strings.Builder
	b.WriteString(`<div class="gt-progress" style="display:flex;align-items:center;gap:8px;font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,12px);margin:2px 0">`)
	if s.desc != "" {
		b.WriteString(`<span>` + escape(s.desc) + `</span>`)
	}
	if f := s.fraction(); f >= 0 {
		clr := "var(--jp-brand-color1,#2196f3)"
		if s.done {
			clr = "var(--jp-success-color1,#4caf50)"
		}
		fmt.Fprintf(&b, `<div style="flex:0 0 240px;height:12px;border-radius:3px;background:rgba(127,127,127,.25);overflow:hidden">`+
			`<div style="width:%.1f%%;height:100%%;background:%s"></div></div>`, 100*f, clr)
		fmt.Fprintf(&b, `<span>%3.0f%%</span>`, 100*f)
	}
	t := elapsed
	if left != "" {
		t += " &lt; " + left
	}
	b.WriteString(`<span style="opacity:.8">` + escape(count) + ` · ` + escape(rate) + ` · ` + t + `</span></div>`)
	return b.String()
}

// formatRate formats items per second, or seconds per item below one a
// second: "1234 it/s", "12.3 it/s", "2.50 it/s", "4.00 s/it".
func formatRate(r float64) string {
	switch {
	case r >= 100:
		return strconv.FormatFloat(r, 'f', 0, 64) + " it/s"
	case r >= 10:
		return strconv.FormatFloat(r, 'f', 1, 64) + " it/s"
	case r >= 1:
		return strconv.FormatFloat(r, 'f', 2, 64) + " it/s"
	}
	return strconv.FormatFloat(1/r, 'f', 2, 64) + " s/it"
}

// formatClock formats d as "mm:ss", or "h:mm:ss" from an hour.
func formatClock(d time.Duration) string {
	secs := int(d.Round(time.Second) / time.Second)
	if secs < 3600 {
		return fmt.Sprintf("%02d:%02d", secs/60, secs%60)
	}
	return fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
}
