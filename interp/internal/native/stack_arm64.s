#include "textflag.h"

// func stackUsed() uintptr
TEXT ·stackUsed(SB),NOSPLIT,$0-8
	MOVD	8(g), R0	// g.stack.hi
	MOVD	RSP, R1
	SUB	R1, R0, R0
	MOVD	R0, ret+0(FP)
	RET
