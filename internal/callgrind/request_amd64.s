#include "textflag.h"

// Valgrind's client request on amd64, as valgrind.h's
// VALGRIND_DO_CLIENT_REQUEST emits it and as the Go runtime's own
// valgrind_amd64.s does: AX points at the request and its five
// arguments, DX holds the default result, the four rotations of DI (by
// 128 bits in all: DI is unchanged) are the preamble Valgrind looks for,
// and XCHGQ BX, BX asks. Outside Valgrind the sequence does nothing and
// DX keeps the default, 0.

// func clientRequest(req, a1, a2, a3, a4, a5 uintptr) uintptr
TEXT ·clientRequest(SB), NOSPLIT, $0-56
	LEAQ req+0(FP), AX
	XORL DX, DX
	ROLQ $3, DI; ROLQ $13, DI
	ROLQ $61, DI; ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+48(FP)
	RET
