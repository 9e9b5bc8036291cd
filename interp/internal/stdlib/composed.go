package stdlib

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"reflect"
)

// Composed wrappers. When a cell hands a value of its own type to compiled
// code that wants an interface, yaegi wraps it in the interface's wrapper
// (_io_Reader for io.Reader), which has that interface's methods only. The
// standard library often looks for a second interface behind the first
// (io.Copy for io.WriterTo, net/http for http.Hijacker): MapTypes lists,
// under the plain wrapper, these wrappers with both sets of methods, which
// yaegi picks when the cell's type has them all.
func init() {
	MapTypes[reflect.ValueOf((*_io_Reader)(nil))] = []reflect.Type{reflect.TypeFor[readerWriterTo]()}
	MapTypes[reflect.ValueOf((*_io_Writer)(nil))] = []reflect.Type{reflect.TypeFor[writerReaderFrom]()}
	MapTypes[reflect.ValueOf((*_net_http_ResponseWriter)(nil))] = []reflect.Type{reflect.TypeFor[responseWriterHijacker]()}
}

// readerWriterTo is an io.Reader that is also an io.WriterTo.
type readerWriterTo struct {
	IValue   any
	WRead    func(p []byte) (int, error)
	WWriteTo func(w io.Writer) (int64, error)
}

func (w readerWriterTo) Read(p []byte) (int, error)           { return w.WRead(p) }
func (w readerWriterTo) WriteTo(dst io.Writer) (int64, error) { return w.WWriteTo(dst) }

// writerReaderFrom is an io.Writer that is also an io.ReaderFrom.
type writerReaderFrom struct {
	IValue    any
	WWrite    func(p []byte) (int, error)
	WReadFrom func(r io.Reader) (int64, error)
}

func (w writerReaderFrom) Write(p []byte) (int, error)           { return w.WWrite(p) }
func (w writerReaderFrom) ReadFrom(src io.Reader) (int64, error) { return w.WReadFrom(src) }

// responseWriterHijacker is an http.ResponseWriter that is also an
// http.Hijacker.
type responseWriterHijacker struct {
	IValue       any
	WHeader      func() http.Header
	WWrite       func(p []byte) (int, error)
	WWriteHeader func(statusCode int)
	WHijack      func() (net.Conn, *bufio.ReadWriter, error)
}

func (w responseWriterHijacker) Header() http.Header         { return w.WHeader() }
func (w responseWriterHijacker) Write(p []byte) (int, error) { return w.WWrite(p) }
func (w responseWriterHijacker) WriteHeader(statusCode int)  { w.WWriteHeader(statusCode) }
func (w responseWriterHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.WHijack()
}
