package main

// The code the benchmark runs, compiled into the benchmark and, cut out of
// this file's source, as notebook cells: the same text both ways.

import (
	"math/rand"
	"strings"
)

// sumsq is a numeric loop in a function.
func sumsq(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		x := float64(i) * 0.5
		s += x * x
	}
	return s
}

// particle is a point mass.
type particle struct{ x, y, vx, vy float64 }

// newParticles returns n particles in the unit square, seeded.
func newParticles(n int, seed int64) []particle {
	r := rand.New(rand.NewSource(seed))
	ps := make([]particle, n)
	for i := range ps {
		ps[i] = particle{r.Float64(), r.Float64(), r.Float64() - 0.5, r.Float64() - 0.5}
	}
	return ps
}

// step moves the particles by dt under gravity, bouncing off the floor.
func step(ps []particle, dt float64) {
	for i := range ps {
		p := &ps[i]
		p.vy -= 9.81 * dt
		p.x += p.vx * dt
		p.y += p.vy * dt
		if p.y < 0 {
			p.y, p.vy = -p.y, -0.9*p.vy
		}
	}
}

// corpusText returns about n bytes of text made of a small vocabulary,
// seeded.
func corpusText(n int, seed int64) string {
	words := strings.Fields("the a of to and in is it you that he was for on are with as his they be at one have this from or had by hot word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find")
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[r.Intn(len(words))])
		b.WriteByte(' ')
	}
	return b.String()
}

// bigrams counts the pairs of consecutive words of text.
func bigrams(text string) map[string]int {
	m := map[string]int{}
	words := strings.Fields(text)
	for i := 0; i+1 < len(words); i++ {
		m[words[i]+" "+words[i+1]]++
	}
	return m
}
