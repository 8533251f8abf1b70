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

// The CPU's feature leaves, for CPU (cpu.go): CPUID with AX and CX
// given, and XGETBV of register 0 (which state the OS saves: without it
// AVX and AVX-512 registers cannot be used even where CPUID offers them).

// func cpuid(ax, cx uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL ax+0(FP), AX
	MOVL cx+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() (a, d uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	BYTE $0x0f; BYTE $0x01; BYTE $0xd0 // XGETBV
	MOVL AX, a+0(FP)
	MOVL DX, d+4(FP)
	RET
