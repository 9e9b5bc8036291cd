package goroutine

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// traceID is the goroutine's number as runtime.Stack prints it, parsed
// independently of stackID.
func traceID(t *testing.T) uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := bytes.Fields(buf)
	id, err := strconv.ParseUint(string(f[1]), 10, 64)
	if err != nil {
		t.Fatalf("stack trace %q: %v", buf, err)
	}
	return id
}

func TestID(t *testing.T) {
	if !fast {
		t.Log("the runtime's layout is not the one goid knows: ID reads stack traces")
	}
	seen := map[uint64]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, want := ID(), traceID(t)
			mu.Lock()
			defer mu.Unlock()
			if id != want {
				t.Errorf("ID() = %d, the stack trace says goroutine %d", id, want)
			}
			if seen[id] {
				t.Errorf("two running goroutines have ID %d", id)
			}
			seen[id] = true
		}()
	}
	wg.Wait()
	if id, want := ID(), traceID(t); id != want {
		t.Errorf("ID() = %d, the stack trace says goroutine %d", id, want)
	}
}

func TestLocal(t *testing.T) {
	var l Local[string]
	if v, ok := l.Get(); ok || v != "" {
		t.Fatalf("empty Local: Get() = %q, %v; want \"\", false", v, ok)
	}
	outer := l.Set("outer")
	inner := l.Set("inner")
	if v, _ := l.Get(); v != "inner" {
		t.Errorf("nested Set: Get() = %q, want inner", v)
	}
	other := make(chan bool)
	go func() {
		_, ok := l.Get()
		other <- ok
	}()
	if <-other {
		t.Errorf("a new goroutine sees the value of the goroutine that started it")
	}
	inner()
	if v, _ := l.Get(); v != "outer" {
		t.Errorf("after the inner restore: Get() = %q, want outer", v)
	}
	outer()
	if v, ok := l.Get(); ok {
		t.Errorf("after both restores: Get() = %q, true; want none", v)
	}
	if m := l.m.Load(); m != nil {
		t.Errorf("after both restores %d goroutines have a value, want none", len(*m))
	}
}

func TestLocalGoroutines(t *testing.T) {
	var l Local[int]
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer l.Set(i)()
			for range 100 {
				if v, ok := l.Get(); !ok || v != i {
					t.Errorf("goroutine %d: Get() = %d, %v", i, v, ok)
					return
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	if m := l.m.Load(); m != nil {
		t.Errorf("%d goroutines still have a value, want none", len(*m))
	}
}

func BenchmarkLocalGetEmpty(b *testing.B) {
	var l Local[int]
	for b.Loop() {
		l.Get()
	}
}

func BenchmarkLocalGetSet(b *testing.B) {
	var l Local[int]
	defer l.Set(1)()
	for b.Loop() {
		l.Get()
	}
}

func BenchmarkID(b *testing.B) {
	for b.Loop() {
		ID()
	}
}
