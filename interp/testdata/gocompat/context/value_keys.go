// context.WithValue keys of a cell's types (issue 30, family 8): a key of
// a cell's named type finds only a key of the same type and value, not a
// plain value of the underlying type; a struct key not an anonymous
// struct of the same fields; keys held in interfaces, and in functions,
// closures and goroutines too.
package main

import (
	"context"
	"fmt"
)

type ctxKey string

type reqKey struct{ name string }

type idKey int

type otherKey string

func get(ctx context.Context) {
	fmt.Println(ctx.Value(ctxKey("run")), ctx.Value("run"), ctx.Value(idKey(1)), ctx.Value(1), ctx.Value(otherKey("run")))
	fmt.Println(ctx.Value(reqKey{"a"}), ctx.Value(struct{ name string }{"a"}), ctx.Value(reqKey{"b"}))
}

func withUser(ctx context.Context, user string) context.Context {
	return context.WithValue(ctx, ctxKey("user"), user)
}

func lookup(ctx context.Context, k any) any { return ctx.Value(k) }

func main() {
	ctx := context.WithValue(context.Background(), ctxKey("run"), "r1")
	ctx = context.WithValue(ctx, idKey(1), "id1")
	ctx = context.WithValue(ctx, reqKey{"a"}, "req")
	get(ctx)
	fmt.Println(ctx.Value(ctxKey("run")), ctx.Value("run"), ctx.Value(idKey(1)), ctx.Value(1))
	fmt.Println(ctx.Value(reqKey{"a"}), ctx.Value(struct{ name string }{"a"}))
	plain := context.WithValue(context.Background(), "run", "plain")
	fmt.Println(plain.Value(ctxKey("run")), plain.Value("run"))
	var k any = ctxKey("run")
	fmt.Println(ctx.Value(k), lookup(ctx, ctxKey("run")), lookup(ctx, "run"), lookup(ctx, reqKey{"a"}))
	u := withUser(ctx, "ann")
	fmt.Println(u.Value(ctxKey("user")), u.Value("user"), lookup(u, ctxKey("user")))
	keys := []any{ctxKey("run"), "run", idKey(1), reqKey{"a"}}
	for _, key := range keys {
		fmt.Print(ctx.Value(key), " ")
	}
	fmt.Println()
	done := make(chan any)
	go func() { done <- ctx.Value(ctxKey("run")) }()
	fmt.Println(<-done)
	func() {
		c := context.WithValue(ctx, otherKey("run"), "other")
		fmt.Println(c.Value(ctxKey("run")), c.Value(otherKey("run")), c.Value("run"))
	}()
}
