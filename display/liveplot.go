package display

import "gonum.org/v1/plot"

// A LivePlot is a line plot that redraws in place, in one output, as points
// are added: a loss curve that grows while a model trains. It appears with
// its first point, in the cell that adds it. Redraws are throttled to at
// most 4 a second and run off the caller's goroutine, so adding a point
// costs well under a microsecond of the training loop's time however often
// it is called. Done draws the final state.
//
// Points with NaN or infinite values are kept but not drawn; long series
// are drawn as LinePlot draws them. A LivePlot is safe for concurrent use.
//
//	curve := display.NewLivePlot("loss")
//	for step := 0; step < 1000; step++ {
//		curve.Add("train", loss.Item())
//	}
//	curve.Done()
type LivePlot struct {
	v      live
	title  string
	xLabel string
	yLabel string
	names  []string // series, in order of first appearance
	series map[string]*liveSeries
}

type liveSeries struct{ x, y []float64 }

// NewLivePlot returns an empty live plot titled title. Nothing is shown
// until the first Add or AddXY.
//
//	curve := display.NewLivePlot("loss")
func NewLivePlot(title string) *LivePlot {
	l := &LivePlot{title: title, series: map[string]*liveSeries{}}
	l.v.init(l.snapshot)
	return l
}

// Add appends y to the named series at x = the number of points the series
// already has (0, 1, 2, ...), and redraws the plot soon. Use AddXY to place
// points of series added at different rates (a test loss once an epoch) on
// a shared x axis.
//
//	curve.Add("train", loss.Item())
func (l *LivePlot) Add(series string, y float64) {
	l.v.mu.Lock()
	s := l.seriesLocked(series)
	s.x = append(s.x, float64(len(s.y)))
	s.y = append(s.y, y)
	j := l.v.changedLocked()
	l.v.mu.Unlock()
	if j != nil {
		l.v.run(j)
	}
}

// AddXY appends the point (x, y) to the named series and redraws the plot
// soon.
//
//	curve.AddXY("test", float64(step), testLoss)
func (l *LivePlot) AddXY(series string, x, y float64) {
	l.v.mu.Lock()
	s := l.seriesLocked(series)
	s.x = append(s.x, x)
	s.y = append(s.y, y)
	j := l.v.changedLocked()
	l.v.mu.Unlock()
	if j != nil {
		l.v.run(j)
	}
}

func (l *LivePlot) seriesLocked(name string) *liveSeries {
	s := l.series[name]
	if s == nil {
		s = &liveSeries{}
		l.series[name] = s
		l.names = append(l.names, name)
	}
	return s
}

// SetLabels sets the axis labels (for example "step" and "loss") and returns
// l. They show from the next redraw.
//
//	curve := display.NewLivePlot("loss").SetLabels("step", "cross-entropy")
func (l *LivePlot) SetLabels(x, y string) *LivePlot {
	l.v.mu.Lock()
	l.xLabel, l.yLabel = x, y
	l.v.mu.Unlock()
	return l
}

// Done redraws the plot with every point added, in the caller, and stops
// pending redraws. It does nothing when the plot is up to date, so calling
// it twice is harmless; a plot never finished (its cell interrupted) still
// shows its points as of the last throttled redraw. Adding points after
// Done resumes live updates.
func (l *LivePlot) Done() { l.v.finish() }

// Series returns copies of the plot's series, in order of first
// appearance.
func (l *LivePlot) Series() []Series {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	out := make([]Series, len(l.names))
	for i, name := range l.names {
		s := l.series[name]
		out[i] = Series{Name: name, X: append([]float64(nil), s.x...), Y: append([]float64(nil), s.y...)}
	}
	return out
}

// Plot returns the plot as it stands, a LinePlot of its series, to
// customise or save.
func (l *LivePlot) Plot() *plot.Plot { return l.plotOf(l.view()) }

// Bundle renders the plot as it stands, so a LivePlot as a cell's last
// value shows its current state (a static image, not updated later).
func (l *LivePlot) Bundle() Bundle { return PlotBundle(l.Plot()) }

// liveView is what a redraw of a LivePlot needs: slice headers of its
// series, which later appends never modify.
type liveView struct {
	title, xLabel, yLabel string
	series                []Series
}

func (l *LivePlot) view() liveView {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	return l.viewLocked()
}

func (l *LivePlot) viewLocked() liveView {
	v := liveView{title: l.title, xLabel: l.xLabel, yLabel: l.yLabel, series: make([]Series, len(l.names))}
	for i, name := range l.names {
		s := l.series[name]
		v.series[i] = Series{Name: name, X: s.x[:len(s.x):len(s.x)], Y: s.y[:len(s.y):len(s.y)]}
	}
	return v
}

func (l *LivePlot) plotOf(v liveView) *plot.Plot {
	p := LinePlot(v.title, v.series...)
	p.X.Label.Text, p.Y.Label.Text = v.xLabel, v.yLabel
	return p
}

// snapshot is the live machinery's hook, called with the lock held.
func (l *LivePlot) snapshot() func() Bundle {
	v := l.viewLocked()
	return func() Bundle { return PlotBundle(l.plotOf(v)) }
}
