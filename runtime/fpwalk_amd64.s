//go:build go1.23 && !go1.27

#include "textflag.h"

// func fpCallers(pcs *uintptr, max int, avoidLo, avoidHi uintptr) (n int, ok bool)
//
// fpCallers writes the return addresses found by following the frame
// pointers from its caller's frame, innermost first: the first is where
// its caller will return to. It is a leaf without a frame of its own, so
// BP is its caller's frame pointer, and as it calls nothing the stack
// cannot move while it reads it. Every frame pointer must lie in the
// goroutine's stack (g.stack.lo, g.stack.hi: the first two words of g,
// checked by fpCalibrate) and above the previous one; the walk ends at a
// zero frame pointer (the goroutine's first frame) with ok, at max
// addresses with ok, and anywhere else without: a chain that leaves the
// stack (as through a cgo callback), or a return address in
// [avoidLo, avoidHi) (runtime.sigpanic: the function it interrupted may
// have no frame, whose caller the chain would skip).
TEXT ·fpCallers(SB),NOSPLIT|NOFRAME,$0-41
	MOVQ	pcs+0(FP), DI
	MOVQ	max+8(FP), CX
	MOVQ	avoidLo+16(FP), R12
	MOVQ	avoidHi+24(FP), R13
	MOVQ	(TLS), R8
	MOVQ	0(R8), R9	// g.stack.lo
	MOVQ	8(R8), R10	// g.stack.hi
	MOVQ	BP, AX
	XORQ	DX, DX
loop:
	CMPQ	DX, CX
	JGE	good
	TESTQ	$7, AX
	JNZ	bad
	CMPQ	AX, R9
	JB	bad
	LEAQ	16(AX), R11
	CMPQ	R11, R10
	JA	bad
	MOVQ	8(AX), R11
	CMPQ	R11, R12
	JB	keep
	CMPQ	R11, R13
	JB	bad
keep:
	MOVQ	R11, (DI)(DX*8)
	INCQ	DX
	MOVQ	0(AX), R11
	TESTQ	R11, R11
	JZ	good
	CMPQ	R11, AX
	JBE	bad
	MOVQ	R11, AX
	JMP	loop
good:
	MOVQ	DX, n+32(FP)
	MOVB	$1, ok+40(FP)
	RET
bad:
	MOVQ	DX, n+32(FP)
	MOVB	$0, ok+40(FP)
	RET
