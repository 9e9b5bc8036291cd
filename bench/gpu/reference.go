//go:build cuda

package main

import (
	"fmt"
	"runtime"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gorgonia.org/cu"
	cublas "gorgonia.org/cu/blas"
)

// reference runs the direct CUDA calls that gotensor is measured against —
// cuBLAS sgemm and cuMemcpyDtoD — on its own goroutine, locked to an OS
// thread where the device's primary context (the one package cuda uses
// too) is current.
type reference struct {
	work chan func()
	dev  cu.Device
	blas *cublas.Standard

	sms, busBits, memClockKHz int
}

func openReference(ordinal int) (*reference, error) {
	r := &reference{work: make(chan func())}
	errc := make(chan error)
	go func() {
		runtime.LockOSThread()
		err := r.open(ordinal)
		errc <- err
		if err != nil {
			return
		}
		for f := range r.work {
			f()
		}
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return r, nil
}

func (r *reference) open(ordinal int) error {
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return fmt.Errorf("cuda device %d: %v", ordinal, err)
	}
	ctx, err := dev.RetainPrimaryCtx()
	if err != nil {
		return fmt.Errorf("cuda device %d: retaining its context: %v", ordinal, err)
	}
	if err := cu.SetCurrentContext(ctx); err != nil {
		return fmt.Errorf("cuda device %d: %v", ordinal, err)
	}
	r.dev = dev
	for _, a := range []struct {
		attr cu.DeviceAttribute
		dst  *int
	}{
		{cu.MultiprocessorCount, &r.sms},
		{cu.GlobalMemoryBusWidth, &r.busBits},
		{cu.MemoryClockRate, &r.memClockKHz},
	} {
		if *a.dst, err = dev.Attribute(a.attr); err != nil {
			return fmt.Errorf("cuda device %d: attribute %v: %v", ordinal, a.attr, err)
		}
	}
	r.blas = cublas.New()
	return nil
}

// do runs f on the reference's thread and returns its error.
func (r *reference) do(f func() error) error {
	errc := make(chan error)
	r.work <- func() { errc <- f() }
	return <-errc
}

func (r *reference) close() {
	r.do(func() error {
		r.blas.Close()
		return r.dev.ReleasePrimaryCtx()
	})
	close(r.work)
}

// peakBandwidth returns the card's theoretical memory bandwidth in GB/s:
// two transfers per memory clock (DDR) over the bus width.
func (r *reference) peakBandwidth() float64 {
	return 2 * float64(r.memClockKHz) * 1e3 * float64(r.busBits) / 8 / 1e9
}

func (r *reference) sync() {
	if err := r.do(func() error { return cu.Synchronize() }); err != nil {
		panic(fmt.Sprintf("bench/gpu: synchronize: %v", err))
	}
}

// buffer is device memory that the reference allocated.
type buffer struct {
	ptr   cu.DevicePtr
	bytes int64
}

// alloc returns n float32 of device memory holding small random values.
func (r *reference) alloc(n int) (buffer, error) {
	b := buffer{bytes: int64(n) * 4}
	host := make([]float32, n)
	for i := range host {
		host[i] = float32(i%17)/17 - 0.5
	}
	err := r.do(func() error {
		var err error
		if b.ptr, err = cu.MemAlloc(b.bytes); err != nil {
			return fmt.Errorf("allocating %d bytes: %v", b.bytes, err)
		}
		return cu.MemcpyHtoD(b.ptr, unsafe.Pointer(&host[0]), b.bytes)
	})
	return b, err
}

func (r *reference) free(bs ...buffer) {
	r.do(func() error {
		for _, b := range bs {
			cu.MemFree(b.ptr)
		}
		return nil
	})
}

// sgemm queues C = A·B for n×n matrices.
func (r *reference) sgemm(n int, a, b, c buffer) {
	err := r.do(func() error {
		r.blas.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, devSlice(a), n, devSlice(b), n, 0, devSlice(c), n)
		return r.blas.Err()
	})
	if err != nil {
		panic(fmt.Sprintf("bench/gpu: cuBLAS sgemm: %v", err))
	}
}

// memcpy queues a device-to-device copy of src to dst.
func (r *reference) memcpy(dst, src buffer) {
	if err := r.do(func() error { return cu.MemcpyDtoD(dst.ptr, src.ptr, src.bytes) }); err != nil {
		panic(fmt.Sprintf("bench/gpu: memcpy: %v", err))
	}
}

// devSlice dresses device memory as the Go slice that gorgonia.org/cu/blas
// takes (cuBLAS receives &s[0]); Go never reads through it.
func devSlice(b buffer) []float32 {
	p := b.ptr
	return unsafe.Slice((*float32)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), b.bytes/4)
}
