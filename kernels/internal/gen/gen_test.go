package main

import "testing"

func TestParsePTX(t *testing.T) {
	ptx := `
.func  (.param .b32 func_retval0) helper_sync(
	.param .b32 p0
)
{
	bar.sync 	0;
	ret;
}
.func  (.param .b64 func_retval0) __internal_trig_reduction_slowpathd
(
	.param .b64 a
)
;
.visible .entry plain_f32(
	.param .u64 plain_f32_param_0
)
{
	call.uni (retval0), __internal_trig_reduction_slowpathd, (param0);
	ret;
}
.visible .entry indirect_f32(
	.param .u64 indirect_f32_param_0
)
{
	call.uni (retval0), helper_sync, (param0);
	ret;
}
.visible .entry direct_f32(
	.param .u64 direct_f32_param_0
)
{
	barrier.sync 	0;
	ret;
}
.visible .entry shuffle_f32(
	.param .u64 shuffle_f32_param_0
)
{
	shfl.sync.bfly.b32	%r2|%p1, %r1, 16, 31, -1;
	ret;
}
.visible .entry syncwarp_f32(
	.param .u64 syncwarp_f32_param_0
)
{
	bar.warp.sync 	-1;
	ret;
}
.func  (.param .b64 func_retval0) __internal_trig_reduction_slowpathd(
	.param .b64 a
)
{
	ret;
}
`
	funcs, entries := parsePTX([]byte(ptx))
	if len(entries) != 5 || entries[0] != "plain_f32" || entries[1] != "indirect_f32" || entries[2] != "direct_f32" {
		t.Fatalf("entries = %v", entries)
	}
	for name, want := range map[string]bool{"plain_f32": false, "indirect_f32": true, "direct_f32": true,
		"shuffle_f32": true, "syncwarp_f32": true} {
		if funcs[name].sync != want {
			t.Errorf("%s: sync = %v, want %v", name, funcs[name].sync, want)
		}
	}
}
