#include "textflag.h"

// func wirebenchClientRequest(a, b uintptr) uintptr
TEXT ·wirebenchClientRequest(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), AX
	ADDQ b+8(FP), AX
	MOVQ AX, ret+16(FP)
	RET
