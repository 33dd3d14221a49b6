//go:build go1.23 && !go1.27

#include "textflag.h"

// func fpCallers(pcs *uintptr, max int, avoidLo, avoidHi uintptr) (n int, ok bool)
//
// As fpwalk_amd64.s: R29 is the frame pointer, the saved return address
// (LR) one word above it, g in R28 (g).
TEXT ·fpCallers(SB),NOSPLIT|NOFRAME,$0-41
	MOVD	pcs+0(FP), R0
	MOVD	max+8(FP), R1
	MOVD	avoidLo+16(FP), R8
	MOVD	avoidHi+24(FP), R9
	MOVD	0(g), R2	// g.stack.lo
	MOVD	8(g), R3	// g.stack.hi
	MOVD	R29, R4
	MOVD	$0, R5
loop:
	CMP	R1, R5
	BGE	good
	TST	$7, R4
	BNE	bad
	CMP	R2, R4
	BLO	bad
	ADD	$16, R4, R6
	CMP	R3, R6
	BHI	bad
	MOVD	8(R4), R7
	CMP	R8, R7
	BLO	keep
	CMP	R9, R7
	BLO	bad
keep:
	MOVD	R7, (R0)(R5<<3)
	ADD	$1, R5
	MOVD	0(R4), R7
	CBZ	R7, good
	CMP	R4, R7
	BLS	bad
	MOVD	R7, R4
	B	loop
good:
	MOVD	R5, n+32(FP)
	MOVD	$1, R6
	MOVB	R6, ok+40(FP)
	RET
bad:
	MOVD	R5, n+32(FP)
	MOVB	ZR, ok+40(FP)
	RET
