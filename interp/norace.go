package interp

// storeInt32 and storeInt write the prelude's variables (_gtStop,
// _gtLimit ...) that interpreted code reads while a cell runs, without
// synchronization: yaegi reads a global through reflect, with a plain
// load, which compiled code cannot make atomic. The store is one the race
// detector does not see (go:norace), so that `go test -race` checks the
// rest of a running cell. An aligned int32 or int store is a single
// machine store on every platform Go supports, so the interpreted read
// sees the old value or the new one; nothing else is synchronized through
// these variables (the interrupter keeps its own state in atomics).

//go:norace
func storeInt32(p *int32, v int32) { *p = v }

//go:norace
func storeInt(p *int, v int) { *p = v }
