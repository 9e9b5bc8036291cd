package display

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOutletsApart runs two goroutines side by side, each bound to an
// Outlet of its own as two notebook sessions' cells are, and checks that
// what each publishes (a table, a live plot, a progress bar, a plot of
// its own size) reaches its own Outlet only, and that DrawPending on one
// draws that one's live outputs only.
func TestOutletsApart(t *testing.T) {
	defer func(old time.Duration) { liveInterval = old }(liveInterval)
	liveInterval = time.Hour // nothing is redrawn but by DrawPending
	process := record(t)
	recs := [2]*recorder{{}, {}}
	outlets := [2]*Outlet{NewOutlet(recs[0]), NewOutlet(recs[1])}
	lives := [2]*LivePlot{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer outlets[i].Bind()()
			SetPlotSize(100*(i+1), 50*(i+1))
			HTML(fmt.Sprintf("<b>session %d</b>", i))
			lives[i] = NewLivePlot("loss")
			for step := range 20 {
				lives[i].Add("train", float64(10*i+step))
			}
			Plot(LinePlot("p", Series{Name: "s", Y: []float64{1, 2}}))
		}()
	}
	wg.Wait()
	for i, r := range recs {
		d := r.all()
		if len(d) != 3 {
			t.Fatalf("outlet %d received %d outputs, want 3 (HTML, the live plot's first drawing, the plot)", i, len(d))
		}
		if got, want := d[0].b.Data["text/html"], fmt.Sprintf("<b>session %d</b>", i); got != want {
			t.Errorf("outlet %d: first output %v, want %q", i, got, want)
		}
		if d[1].id != lives[i].v.id {
			t.Errorf("outlet %d: second output has id %q, want its own live plot's %q", i, d[1].id, lives[i].v.id)
		}
		if w := d[2].b.Metadata["image/png"].(map[string]any)["width"]; fmt.Sprint(w) != fmt.Sprint(100*(i+1)) {
			t.Errorf("outlet %d: plot width %v, want %d, its own SetPlotSize", i, w, 100*(i+1))
		}
	}
	if n := len(process.all()); n != 0 {
		t.Errorf("the process's publisher received %d outputs of bound goroutines", n)
	}
	if PlotWidth != 600 || PlotHeight != 360 {
		t.Errorf("a bound SetPlotSize changed the process's size to %d×%d", PlotWidth, PlotHeight)
	}

	// DrawPending on outlet 0 draws its live plot's last state there, and
	// nothing of outlet 1's.
	outlets[0].DrawPending()
	d0, d1 := recs[0].all(), recs[1].all()
	if len(d0) != 4 || !d0[3].update || d0[3].id != lives[0].v.id {
		t.Fatalf("outlet 0 after its DrawPending: %d outputs, want its live plot's update as the 4th", len(d0))
	}
	if len(d1) != 3 {
		t.Errorf("outlet 0's DrawPending published %d outputs to outlet 1", len(d1)-3)
	}
	// The process's DrawPending draws neither.
	DrawPending()
	if len(recs[0].all()) != 4 || len(recs[1].all()) != 3 {
		t.Error("the process's DrawPending drew a bound goroutine's live plot")
	}
	outlets[1].DrawPending()
	if d1 = recs[1].all(); len(d1) != 4 || !strings.HasPrefix(d1[3].id, "gotensor-") || d1[3].id != lives[1].v.id {
		t.Errorf("outlet 1 after its DrawPending: %d outputs, want its live plot's update as the 4th", len(d1))
	}
}
