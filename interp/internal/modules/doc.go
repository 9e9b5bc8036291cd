// Package modules makes the packages of any Go module importable in a
// running notebook session: compiled, at native speed, without restarting
// the kernel or losing the session's state.
//
// What it loads is the process's, not a session's: a plugin, once opened,
// stays for the life of the process, and a process holds one version of a
// package, so every session in the process shares the modules any of them
// loaded and their versions.
//
// For `%go get MODULE[@VERSION]` (Loader.Get) and for an import of a package
// that no module of the session provides yet (Loader.Import, "autoget"), a
// Loader
//
//  1. runs `go get` in a work module whose go.mod requires every module the
//     kernel binary links, at the version it links (from the binary's build
//     information), and every module loaded before. The go command takes
//     GOPROXY, GOFLAGS, GOMODCACHE, GONOSUMDB... from the environment, as a
//     person's shell would. When the proxy is out of reach, a query is tried
//     again with the module cache as the only proxy, at the newest version
//     the cache holds the source of: what was fetched once works offline.
//  2. lists the package's dependencies and checks their modules against
//     those versions: a process holds one version of a package, so a module
//     at another version than the kernel's (or an earlier import's) is a
//     Clash error that says which and what to do.
//  3. writes the package's symbol table with yaegi's extract package (the
//     same tables the kernel compiles in for its own library) into a Go
//     plugin of one package, and builds it with `go build -buildmode=plugin`
//     under the kernel's toolchain (GOTOOLCHAIN) and build settings
//     (-trimpath, -tags, -race, CGO_* flags, GOOS, GOARCH, GOAMD64...).
//  4. opens the plugin (plugin.Open) and returns the table, which the session
//     hands to the interpreter (and which a go/types planner reads like any
//     other table).
//
// Plugins are cached in the user's cache directory under a key made of the
// package, the versions of every module it links, the toolchain and the build
// settings, so a second session or a restarted kernel opens them at once.
// The modules a notebook added are written, with their versions, into a
// record file in go.mod syntax (the session's is gotensor.mod beside the
// notebooks); an import takes the version it names.
//
// # Why plugins
//
// The three ways to run a module's code in a session, measured on this
// project's 2-core machine with Go 1.26.8 and yaegi v0.16.1
// (BenchmarkGoGet and BenchmarkModuleCall in package interp):
//
//   - A plugin of yaegi tables (this package). %go get of go-humanize
//     v1.0.1 in a fresh kernel: 2.4 s the first time (go get, table,
//     plugin build), 0.28 s once the plugin is cached (a restarted kernel,
//     another notebook). The very first plugin a machine builds also
//     compiles the standard library for dynamic linking: 28 s, once per
//     toolchain. A call of humanize.Comma costs 107 ns compiled and about
//     560 ns from a cell (yaegi calls compiled functions through
//     reflect.Value.Call); stats.Mean over 1,000 floats costs 0.79 µs
//     compiled and 1.36 µs from a cell.
//   - Interpreting the module's source with yaegi (a GOPATH tree over the
//     module cache): stats.Mean takes 42.5 µs, 54 times the compiled call;
//     and it is not safe. yaegi v0.16.1 cannot import go-humanize v1.0.1
//     ("mismatched types untyped float and untyped float64") nor
//     golang.org/x/text, so nothing that uses it (samber/lo), and it
//     silently gives wrong answers for github.com/google/uuid v1.6.0:
//     uuid.NameSpaceDNS, a package variable set by a function call, is the
//     zero UUID, so NewSHA1 returns 5e7c9a9e-… instead of cfbff0d1-….
//     A wrong value is worse than an error: source interpretation is not
//     used, not even as a fallback.
//   - Rebuilding the kernel with the module and restarting it: relinking
//     the kernel takes about 4 s here, and every variable, function, tensor
//     and GPU buffer of the session is lost.
//
// # What must match
//
// The Go runtime refuses a plugin ("plugin was built with a different
// version of package ...") unless, for every package both hold, the plugin
// and the kernel binary were compiled from the same source with the same
// settings. Measured:
//
//   - the toolchain: the same Go release (GOTOOLCHAIN makes the go command
//     use, or fetch, the kernel's);
//   - -trimpath: a plugin built without it does not load into a kernel built
//     with it, nor the other way round (they disagree on internal/goarch);
//   - the module cache's path, without -trimpath: a kernel built with
//     GOMODCACHE=/tmp/mcX refused a plugin built from /root/go/pkg/mod that
//     links golang.org/x/text, which the kernel links too; plugins that share
//     only the standard library loaded (the compiler records GOROOT's files
//     as $GOROOT/..., so GOROOT's location does not matter). The Loader
//     reads the kernel's module cache from the file names the binary holds
//     and says so before building, rather than after a failed open;
//   - module versions, checked before building (above).
//
// CGO_CFLAGS, GOAMD64 (a v3 plugin in a v1 kernel) and -ldflags="-s -w" on
// the kernel made no difference; the Loader repeats the kernel's anyway,
// since they change compiled code. The kernel must be built with cgo
// (CGO_ENABLED=0 gives "plugin: not implemented") on Linux, macOS or
// FreeBSD, and must link package plugin, which this package does: the
// linker then exports the kernel's symbols, and bin/gotensor grows from 41
// to 51 MB, with the same start-up time. `go build -o bin/gotensor
// ./cmd/gotensor`, as the scripts build it, loads plugins built later on the
// same machine; a kernel built elsewhere loads them when it was built with
// -trimpath or from a module cache at the same path. Building a plugin
// needs a C compiler (gcc).
//
// # What it cannot do
//
// yaegi's extractor leaves out generic functions and types (the Loader
// says which); a package main is a command, not a library; a module that
// needs another version of a module the kernel links cannot join it (rebuild
// the kernel with that version); a loaded package cannot be unloaded, so
// switching versions takes a kernel restart.
//
// The process's loaded packages are shared by every session in it, since
// loaded code cannot be unloaded; a Loader's own state (its work module,
// autoget, the record file) is its session's.
package modules
