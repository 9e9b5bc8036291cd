package display

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLivePlotThrottle(t *testing.T) {
	r := record(t)
	l := NewLivePlot("loss")
	if n := len(r.all()); n != 0 {
		t.Fatalf("%d displays before the first point, want 0", n)
	}
	l.Add("train", 0)
	d := r.all()
	if len(d) != 1 || d[0].id == "" || d[0].update {
		t.Fatalf("after the first Add: %+v, want one new display with an id", d)
	}
	id := d[0].id
	if _, ok := d[0].b.Data["image/png"]; !ok {
		t.Fatalf("first display has no image/png: %v", keys(d[0].b))
	}

	// Add as fast as possible for 600 ms: at most 4 redraws a second, and
	// each Add cheap.
	// Add in bursts of 100 with a millisecond's pause (a fast training
	// loop) for 600 ms: at most 4 redraws a second, and each Add cheap.
	adds := 1
	var inAdd time.Duration
	start := time.Now()
	for time.Since(start) < 600*time.Millisecond {
		t0 := time.Now()
		for i := 0; i < 100; i++ {
			l.Add("train", 1/float64(adds))
			adds++
		}
		inAdd += time.Since(t0)
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	perAdd := inAdd / time.Duration(adds-1)
	during := len(r.all())
	maxDraws := 1 + int(elapsed/liveInterval) + 1
	if during > maxDraws {
		t.Errorf("%d displays in %v, want at most %d (4 a second)", during, elapsed, maxDraws)
	}
	t.Logf("%d Adds in %v: %v each, %d redraws", adds, elapsed, perAdd, during)

	l.Done()
	d = r.all()
	// Throttled updates while adding depend on the machine's speed (a
	// redraw that takes long stretches the interval); the first display and
	// the final one do not.
	if len(d) < 2 {
		t.Errorf("%d displays, want the first and the final one", len(d))
	}
	for i, p := range d[1:] {
		if p.id != id || !p.update {
			t.Errorf("display %d: id %q update %v, want an update of %q", i+1, p.id, p.update, id)
		}
	}
	if s := l.Series(); len(s) != 1 || s[0].Name != "train" || len(s[0].Y) != adds || s[0].X[adds-1] != float64(adds-1) {
		t.Errorf("series: %d series, want 1 named train with %d points", len(s), adds)
	}
	n := len(d)
	l.Done()
	time.Sleep(2 * liveInterval)
	if got := len(r.all()); got != n {
		t.Errorf("second Done and waiting published %d more displays, want 0", got-n)
	}
}

func TestLivePlotTrailingRedraw(t *testing.T) {
	r := record(t)
	l := NewLivePlot("acc").SetLabels("epoch", "accuracy")
	l.AddXY("test", 1, 0.9)
	l.AddXY("test", 2, 0.95)
	l.AddXY("train", 2, 0.97)
	// No Done: the last points still show, one interval later.
	if !l.v.settle(5 * time.Second) {
		t.Fatal("live plot still redrawing after 5s")
	}
	d := r.all()
	if len(d) < 2 || len(d) > 3 {
		t.Fatalf("%d displays, want the first and one or two trailing updates", len(d))
	}
	for _, p := range d[1:] {
		if !p.update || p.id != d[0].id {
			t.Errorf("display id %q update %v, want an update of %q", p.id, p.update, d[0].id)
		}
	}
	n := len(d)
	l.Done()
	if len(r.all()) != n {
		t.Errorf("Done redrew an up-to-date plot")
	}
	p := l.Plot()
	if p.Title.Text != "acc" || p.X.Label.Text != "epoch" || p.Y.Label.Text != "accuracy" {
		t.Errorf("plot title %q labels %q %q", p.Title.Text, p.X.Label.Text, p.Y.Label.Text)
	}
	s := l.Series()
	if len(s) != 2 || s[0].Name != "test" || s[1].Name != "train" || s[0].X[1] != 2 {
		t.Errorf("series %+v", s)
	}
	// As a cell's value: a static image of the current state.
	if _, ok := Render(l).Data["image/png"]; !ok {
		t.Errorf("Render(LivePlot) has no image/png")
	}
	other := NewLivePlot("other")
	other.Add("a", 1)
	if d := r.all(); d[len(d)-1].id == d[0].id {
		t.Errorf("two live plots share the display id %q", d[0].id)
	}
}

// failing is a publisher whose Display panics, as a broken connection
// might.
type failing struct{ calls int }

func (f *failing) Display(Bundle, string, bool) { f.calls++; panic("publisher is gone") }
func (f *failing) ClearOutput(bool)             {}

func TestLiveFailingPublisher(t *testing.T) {
	f := &failing{}
	restore := SetPublisher(f)
	l := NewLivePlot("loss")
	p := NewProgress(10)
	for i := 0; i < 5; i++ {
		l.Add("train", float64(i))
		p.Add(1)
	}
	l.Done()
	p.Done()
	p.Done()
	restore()
	if f.calls < 4 {
		t.Errorf("failing publisher called %d times, want at least 4 (two first shows, two Done)", f.calls)
	}
	// Both still work once publishing works again.
	r := record(t)
	l.Add("train", 5)
	p.Add(1)
	l.Done()
	p.Done()
	d := r.all()
	if len(d) != 2 || !d[0].update || !d[1].update {
		t.Errorf("after recovery: %d displays, want 2 updates", len(d))
	}
}

func TestLiveConcurrent(t *testing.T) {
	record(t)
	l := NewLivePlot("loss")
	p := NewProgress(4000)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				l.Add(string(rune('a'+g)), float64(i))
				p.Add(1)
			}
		}()
	}
	wg.Wait()
	l.Done()
	p.Done()
	total := 0
	for _, s := range l.Series() {
		total += len(s.Y)
	}
	if total != 4000 || !strings.Contains(p.String(), "4000/4000") {
		t.Errorf("%d points, progress %q; want 4000 of each", total, p.String())
	}
}

func TestProgressText(t *testing.T) {
	for i, c := range []struct {
		s    progressState
		want string
	}{
		{progressState{n: 50, total: 100, elapsed: 4 * time.Second},
			"[##########..........] 50/100 12.5 it/s 00:04<00:04"},
		{progressState{n: 100, total: 100, elapsed: 8 * time.Second, done: true},
			"[####################] 100/100 12.5 it/s 00:08"},
		{progressState{n: 0, total: 100},
			"[....................] 0/100 ? it/s 00:00<?"},
		{progressState{n: 30, elapsed: 3 * time.Second, desc: "epoch 1"},
			"epoch 1 30 10.0 it/s 00:03"},
		{progressState{n: 1, total: 3, elapsed: 4 * time.Second},
			"[######..............] 1/3 4.00 s/it 00:04<00:08"},
		{progressState{n: 12345, total: 100000, elapsed: 3725 * time.Second},
			"[##..................] 12345/100000 3.31 it/s 1:02:05<7:20:49"},
		{progressState{n: 150, total: 100, elapsed: time.Second},
			"[####################] 150/100 150 it/s 00:01"},
	} {
		if got := c.s.text(); got != c.want {
			t.Errorf("%d: %q\nwant %q", i, got, c.want)
		}
	}
}

func TestProgressHTML(t *testing.T) {
	s := progressState{n: 50, total: 100, elapsed: 4 * time.Second, desc: "train <1>"}
	root := parseXHTML(t, s.html())
	if len(root.children) != 1 || root.children[0].attrs["class"] != "gt-progress" {
		t.Fatalf("progress HTML %q", s.html())
	}
	text := root.allText()
	for _, want := range []string{"train <1>", "50%", "50/100 · 12.5 it/s · 00:04 < 00:04"} {
		if !strings.Contains(text, want) {
			t.Errorf("progress text %q lacks %q", text, want)
		}
	}
	found := false
	for _, d := range root.find("div") {
		if strings.Contains(d.attrs["style"], "width:50.0%") {
			found = true
		}
	}
	if !found {
		t.Errorf("no bar of width 50%% in %q", s.html())
	}
	s.done, s.n = true, 100
	if !strings.Contains(s.html(), "--jp-success-color1") {
		t.Errorf("finished bar is not in the success colour")
	}
}

func TestProgressLive(t *testing.T) {
	r := record(t)
	p := NewProgress(100000)
	d := r.all()
	if len(d) != 1 || d[0].id == "" || d[0].update {
		t.Fatalf("NewProgress published %+v, want one new display with an id", d)
	}
	if got := d[0].b.Data["text/plain"]; got != "[....................] 0/100000 ? it/s 00:00<?" {
		t.Errorf("first text %q", got)
	}
	start := time.Now()
	for i := 0; i < 100000; i++ {
		p.Add(1)
	}
	elapsed := time.Since(start)
	t.Logf("Progress.Add: %v each", elapsed/100000)
	p.Done()
	d = r.all()
	if max := 2 + int(elapsed/liveInterval) + 1; len(d) > max {
		t.Errorf("%d displays in %v, want at most %d", len(d), elapsed, max)
	}
	last := d[len(d)-1]
	text := last.b.Data["text/plain"].(string)
	if !last.update || last.id != d[0].id || !strings.HasPrefix(text, "[####################] 100000/100000 ") || strings.Contains(text, "<") {
		t.Errorf("final display %q update %v", text, last.update)
	}
	n := len(d)
	p.Done()
	if len(r.all()) != n {
		t.Errorf("second Done published again")
	}
	p.Set(5)
	if got := p.String(); !strings.Contains(got, " 5/100000 ") {
		t.Errorf("after Set(5): %q", got)
	}
	if got := Render(p).Data["text/plain"].(string); !strings.HasPrefix(got, "[....................] 5/100000 ") {
		t.Errorf("Render(Progress) %q, want its text form", got)
	}
}

// settle waits until v has no change left to draw, and tells whether it
// did within timeout.
func (v *live) settle(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		v.mu.Lock()
		idle := !v.dirty && !v.busy && v.timer == nil
		v.mu.Unlock()
		if idle {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestDrawPending checks that the changes a throttled redraw has not drawn
// yet are drawn by DrawPending, at once, as an update of the same output:
// what a cell that ends without Done leaves in a saved notebook.
func TestDrawPending(t *testing.T) {
	// No throttled redraw comes before DrawPending, however slow the
	// machine.
	defer func(old time.Duration) { liveInterval = old }(liveInterval)
	liveInterval = time.Hour
	r := record(t)
	l := NewLivePlot("loss")
	p := NewProgress(10)
	l.Add("train", 3)
	p.Add(1)
	// Within the throttle interval: not drawn.
	l.Add("train", 2)
	l.Add("train", 1)
	p.Add(9)
	before := len(r.all())
	DrawPending()
	d := r.all()[before:]
	if len(d) != 2 {
		t.Fatalf("DrawPending published %d outputs, want the plot's and the bar's updates", len(d))
	}
	for _, o := range d {
		switch {
		case !o.update:
			t.Errorf("DrawPending published a new output %+v, want an update", o)
		case o.id == l.v.id:
			if fmt.Sprint(o.b.Data["image/png"]) != fmt.Sprint(l.Bundle().Data["image/png"]) {
				t.Error("the plot's update is not its final state (3 points)")
			}
		case o.id == p.v.id:
			if txt := fmt.Sprint(o.b.Data["text/plain"]); !strings.Contains(txt, "10/10") {
				t.Errorf("the bar's update is %q, want its final count 10/10", txt)
			}
		default:
			t.Errorf("DrawPending published output %q, want the plot's or the bar's", o.id)
		}
	}
	if n := len(r.all()); n != before+2 {
		t.Errorf("%d outputs after DrawPending", n)
	}
	DrawPending() // nothing left to draw
	if n := len(r.all()); n != before+2 {
		t.Errorf("a second DrawPending published %d more", n-before-2)
	}
}

// BenchmarkLivePlotAdd measures adding a point to a live plot between
// redraws: what a training loop pays (well under a microsecond).
func BenchmarkLivePlotAdd(b *testing.B) {
	record(b)
	l := NewLivePlot("loss")
	for i := 0; b.Loop(); i++ {
		l.Add("train", float64(i))
	}
	l.Done()
}

// BenchmarkProgressAdd measures advancing a progress bar between redraws.
func BenchmarkProgressAdd(b *testing.B) {
	record(b)
	p := NewProgress(1 << 30)
	for b.Loop() {
		p.Add(1)
	}
	p.Done()
}
