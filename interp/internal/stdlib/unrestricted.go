package stdlib

import (
	"log"
	"os"
)

// yaegi's extractor names these symbols of os and log by the names of the
// sandboxed versions in yaegi's own table (os.Exit as osExit, which panics
// there). Here they are the originals, as in yaegi's stdlib/unrestricted: the
// session, not the table, decides what os.Exit and log.Fatal do in a cell.
var (
	osExit        = os.Exit
	osFindProcess = os.FindProcess
	logFatal      = log.Fatal
	logFatalf     = log.Fatalf
	logFatalln    = log.Fatalln
	logNew        = log.New
)

type logLogger = log.Logger
