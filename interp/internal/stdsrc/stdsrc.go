// Package stdsrc carries a copy of the Go source of the standard-library
// packages whose generic code cells use (slices, maps, cmp, iter, errors,
// sync, sync/atomic ...), so that a kernel copied to a machine without Go
// instantiates slices.Sort or maps.Keys as one with Go does: the planner
// reads generic code from source at run time (see plan.Universe.Source),
// and symbol tables cannot hold it.
//
// The copy is not part of the repository. The generator writes it, as
// archive/stdsrc.zip (git-ignored), from the source tree of the Go
// toolchain that runs it:
//
//	go generate ./interp/internal/stdsrc
//
// make build and the scripts that build bin/gotensor run it first. A
// build without it embeds only the placeholder archive/README.md, and
// FS reports that the copy is missing.
package stdsrc

import (
	"archive/zip"
	"bytes"
	"embed"
	"io/fs"
	"strings"
)

//go:generate go run ./gen

// ArchiveName is the name of the generated archive in the archive folder.
const ArchiveName = "stdsrc.zip"

// VersionFile is the file of the archive that holds the version of the Go
// toolchain the source was copied from ("go1.26.8").
const VersionFile = "VERSION"

//go:embed archive
var archive embed.FS

// FS returns the embedded source, rooted like $GOROOT/src (slices/sort.go),
// and the version of the Go toolchain it was copied from; it returns nil
// and "" when the kernel was built without generating it.
func FS() (fsys fs.FS, version string) {
	b, err := archive.ReadFile("archive/" + ArchiveName)
	if err != nil {
		return nil, ""
	}
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, ""
	}
	v, err := fs.ReadFile(z, VersionFile)
	if err != nil {
		return nil, ""
	}
	return z, strings.TrimSpace(string(v))
}

// Size returns the size in bytes of the embedded archive, 0 when there is
// none.
func Size() int {
	b, _ := archive.ReadFile("archive/" + ArchiveName)
	return len(b)
}
