#include "textflag.h"

// func stackUsed() uintptr
TEXT ·stackUsed(SB),NOSPLIT,$0-8
	MOVQ	(TLS), AX	// the goroutine's g
	MOVQ	8(AX), BX	// g.stack.hi
	MOVQ	SP, CX
	SUBQ	CX, BX
	MOVQ	BX, ret+0(FP)
	RET
