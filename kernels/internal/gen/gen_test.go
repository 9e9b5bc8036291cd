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

func TestSplitOp(t *testing.T) {
	for _, c := range []struct{ k, op, key string }{
		{"add_f32", "add", "f32"},
		{"relu_backward_bool", "relu_backward", "bool"},
		{"cast_i64_bf16", "cast", "i64_bf16"},
		{"flash_fwd_d64_bf16_f32", "flash_fwd_d64", "bf16_f32"},
		{"layer_norm_warp4_f16", "layer_norm_warp4", "f16"},
		{"copy_rows_b16", "", ""},
		{"f32", "", ""},
	} {
		op, key, ok := splitOp(c.k)
		if op != c.op || key != c.key || ok != (c.op != "") {
			t.Errorf("splitOp(%q) = %q, %q, %v; want %q, %q", c.k, op, key, ok, c.op, c.key)
		}
	}
}
