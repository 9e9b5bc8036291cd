package cellrt

import (
	"context"
	"testing"
)

// TestContextKey checks that a key of a cell's type finds only a key of
// the same type and value, as context compares Go's keys.
func TestContextKey(t *testing.T) {
	typeOf := func(v any) string {
		if _, ok := v.(struct{ name string }); ok {
			return "main.reqKey"
		}
		return ""
	}
	ctx := context.WithValue(context.Background(), ContextKey("run", "main.ctxKey", nil), "cell")
	ctx = context.WithValue(ctx, ContextKey(struct{ name string }{"a"}, "", typeOf), "struct")
	cases := []struct {
		key  any
		want any
	}{
		{ContextKey("run", "main.ctxKey", nil), "cell"},
		{ContextKey("run", "", typeOf), nil},
		{"run", nil},
		{ContextKey("run", "main.otherKey", nil), nil},
		{ContextKey(struct{ name string }{"a"}, "", typeOf), "struct"},
		{ContextKey(struct{ name string }{"a"}, "main.reqKey", nil), "struct"},
		{ContextKey(struct{ name string }{"b"}, "main.reqKey", nil), nil},
		{ContextKey(nil, "", typeOf), nil},
	}
	for i, c := range cases {
		if got := ctx.Value(c.key); got != c.want {
			t.Errorf("case %d: Value(%v) = %v, want %v", i, c.key, got, c.want)
		}
	}
}
