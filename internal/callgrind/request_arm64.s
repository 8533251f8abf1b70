#include "textflag.h"

// Valgrind's client request on arm64, as valgrind.h emits it and as the
// Go runtime's own valgrind_arm64.s does: X4 points at the request and
// its five arguments, X3 holds the default result, the four rotations of
// X12 (by 128 bits in all: X12 is unchanged) are the preamble, and
// ORR X10, X10, X10 asks. Outside Valgrind the sequence does nothing and
// X3 keeps the default, 0.

// func clientRequest(req, a1, a2, a3, a4, a5 uintptr) uintptr
TEXT ·clientRequest(SB), NOSPLIT, $0-56
	MOVD $req+0(FP), R4
	MOVD ZR, R3
	ROR $3, R12; ROR $13, R12
	ROR $51, R12; ROR $61, R12
	ORR R10, R10
	MOVD R3, ret+48(FP)
	RET
