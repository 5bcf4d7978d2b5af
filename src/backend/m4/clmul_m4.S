@ Carry-less multiplication on the Cortex-M4 (spec §2.2) without a carry-less multiply
@ instruction: 32x32 -> 64 from integer UMULLs on operands split into four bit classes
@ (positions = k mod 4), the method of gf2x_portable.cpp's 32-bit path, with every part, partial
@ product and class sum in registers (CLMUL_CLASSES, clmul_classes_m4.inc, which fafft_m4.S's
@ field products share). There is no branch and no memory access that depends on the operands.
#include "backend/m4/clmul_classes_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ CLMUL32: (lr:r12) = r0 * r4 as binary polynomials. Uses every register but sp and pc:
@ r0-r3 = the classes of a, r4-r7 = the classes of b, r8:r9 = a class sum, r10:r11 = one product.
@ 54 instructions, all single-cycle (estimated 54 cycles, scripts/m4-cycles.py).
.macro CLMUL32
  and r1, r0, #0x22222222
  and r2, r0, #0x44444444
  and r3, r0, #0x88888888
  and r0, r0, #0x11111111
  and r5, r4, #0x22222222
  and r6, r4, #0x44444444
  and r7, r4, #0x88888888
  and r4, r4, #0x11111111
  CLMUL_CLASSES r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11
.endm

@ void hqc_m4_clmul32(uint32_t out[2], const uint32_t a[1], const uint32_t b[1])
@ out = a * b (64-bit product of two 32-bit polynomials): one CLMUL32.
  .global hqc_m4_clmul32
  .section .text.hqc_m4_clmul32, "ax", %progbits
  .type hqc_m4_clmul32, %function
  .p2align 2
  .thumb_func
hqc_m4_clmul32:
  push {r0, r4-r11, lr}
  ldr r0, [r1]
  ldr r4, [r2]
  CLMUL32
  ldr r0, [sp]
  strd r12, lr, [r0]
  add sp, #4
  pop {r4-r11, pc}
  .size hqc_m4_clmul32, . - hqc_m4_clmul32

@ void hqc_m4_clmul64(uint32_t out[4], const uint32_t a[2], const uint32_t b[2])
@ out = a * b (128-bit product of two 64-bit polynomials, little-endian words), by Karatsuba on
@ the 32-bit halves: three CLMUL32.
  .global hqc_m4_clmul64
  .section .text.hqc_m4_clmul64, "ax", %progbits
  .type hqc_m4_clmul64, %function
  .p2align 2
  .thumb_func
hqc_m4_clmul64:
  push {r0-r2, r4-r11, lr}
  sub sp, #16                   @ [sp] = z0, [sp, #8] = z2; out, a, b at sp + 16, 20, 24
  ldr r0, [r1]
  ldr r4, [r2]
  CLMUL32
  strd r12, lr, [sp]            @ z0 = a0 b0
  ldrd r1, r2, [sp, #20]
  ldr r0, [r1, #4]
  ldr r4, [r2, #4]
  CLMUL32
  strd r12, lr, [sp, #8]        @ z2 = a1 b1
  ldrd r1, r2, [sp, #20]
  ldrd r0, r3, [r1]
  ldrd r4, r5, [r2]
  eor r0, r0, r3
  eor r4, r4, r5
  CLMUL32                       @ z1 = (a0 + a1)(b0 + b1)
  ldrd r0, r1, [sp]
  ldrd r2, r3, [sp, #8]
  eor r12, r12, r0
  eor lr, lr, r1
  eor r12, r12, r2
  eor lr, lr, r3                @ z1 + z0 + z2
  ldr r4, [sp, #16]
  eor r1, r1, r12
  eor r2, r2, lr
  stm r4, {r0-r3}               @ z0 + x^32 (z1 + z0 + z2) + x^64 z2
  add sp, #28
  pop {r4-r11, pc}
  .size hqc_m4_clmul64, . - hqc_m4_clmul64

@ MUL128 (macro) and mul128 (local routine around it): (r0, ..., r7) = (r4, ..., r7) * (r8, ...,
@ r11), the 256-bit product of the 128-bit polynomials a = r4-r7 and b = r8-r11 (little-endian
@ words), by Karatsuba on the 64-bit halves and each 64-bit product by Karatsuba on its 32-bit
@ halves: nine CLMUL32, no memory access. The user keeps nothing in core registers across it: it
@ loads the operands, possibly as sums of several blocks, and stores or combines the result
@ itself. MUL128 clobbers r8-r12, lr, s0-s17 and the flags; mul128 also s18, which holds its
@ return address. mul256, the hot user (about 660 calls per HQC-1 product), expands MUL128 in
@ place of its three calls (MUL128_HOT) unless the build optimises for size (-Os): the call, the
@ return and the two VMOVs of the return address cost about 8 estimated cycles a call, some 16k
@ per HQC-1 ring product, against about 3.2 KB of flash per copy. The public entry points save
@ s16-s18 (AAPCS; s16-s19 where an odd number of core registers is pushed, for the 8-byte
@ alignment), and s16-s22 where they reach mul256 (its frame).
@ Operand pair k (a-operand, b-operand) in s(2k), s(2k+1), then product k there: 0: a0 b0,
@ 1: a1 b1, 2: (a0 + a1)(b0 + b1), 3: a2 b2, 4: a3 b3, 5: (a2 + a3)(b2 + b3), 6: (a0 + a2)(b0 + b2),
@ 7: (a1 + a3)(b1 + b3), 8: (a0 + a1 + a2 + a3)(b0 + b1 + b2 + b3). Pair 8, built last, goes
@ straight into its CLMUL32 (product 8 then in s16, s17); product 7, computed last, is combined
@ straight from r12, lr. Staging in FPU registers: a VMOV of two core registers costs 2 cycles,
@ against 3 for LDRD/STRD.
@ The combination uses the refined Karatsuba sums (five XORs for a 64-bit product, ten for the
@ 128-bit one): with z0 = (l0, h0), z2 = (l2, h2), z1 = (l1, h1) and t = h0 + l2, the product
@ z0 + x^32 (z0 + z1 + z2) + x^64 z2 is (l0, t + l0 + l1, t + h1 + h2, h2); with P0 = (p0..p3),
@ P2 = (q0..q3), P1 = (m0..m3) (the products of the low halves, the high halves and the sums),
@ u2 = p2 + q0 and u3 = p3 + q1, P0 + x^64 (P0 + P1 + P2) + x^128 P2 is
@ (p0, p1, u2 + p0 + m0, u3 + p1 + m1, u2 + m2 + q2, u3 + m3 + q3, q2, q3).
.macro PRODUCT sa, sb
  vmov r0, r4, \sa, \sb
  CLMUL32
  vmov \sa, \sb, r12, lr
.endm
.macro MUL128
  vmov s0, s1, r4, r8               @ pair 0
  vmov s2, s3, r5, r9               @ pair 1
  vmov s6, s7, r6, r10              @ pair 3
  vmov s8, s9, r7, r11              @ pair 4
  eor r0, r4, r5
  eor r1, r8, r9
  vmov s4, s5, r0, r1               @ pair 2
  eor r0, r6, r7
  eor r1, r10, r11
  vmov s10, s11, r0, r1             @ pair 5
  eor r4, r4, r6
  eor r8, r8, r10
  vmov s12, s13, r4, r8             @ pair 6
  eor r5, r5, r7
  eor r9, r9, r11
  vmov s14, s15, r5, r9             @ pair 7
  eor r0, r4, r5
  eor r4, r8, r9                    @ pair 8 in r0, r4
  CLMUL32
  vmov s16, s17, r12, lr            @ product 8
  PRODUCT s0, s1
  PRODUCT s2, s3
  PRODUCT s4, s5
  PRODUCT s6, s7
  PRODUCT s8, s9
  PRODUCT s10, s11
  PRODUCT s12, s13
  vmov r0, r4, s14, s15
  CLMUL32                           @ product 7 = (l2, h2) of P1 in r12, lr
  @ P1 from products 6 (l0, h0), 7 (l2, h2) and 8 (l1, h1): m0 = r8, m1 = r10, m2 = r11, m3 = lr.
  vmov r8, r9, s12, s13
  vmov r10, r11, s16, s17
  eor r9, r9, r12                   @ t
  eor r10, r10, r8
  eor r10, r10, r9
  eor r11, r11, lr
  eor r11, r11, r9
  @ P0 from products 0, 1 and 2: p0 = r0, p1 = r1, p2 = r5, p3 = r4.
  vmov r0, r2, s0, s1
  vmov r3, r4, s2, s3
  vmov r1, r5, s4, s5
  eor r2, r2, r3                    @ t
  eor r1, r1, r0
  eor r1, r1, r2
  eor r5, r5, r4
  eor r5, r5, r2
  @ P2 from products 3, 4 and 5: q0 = r2, q1 = r12, q2 = r6, q3 = r7.
  vmov r2, r3, s6, s7
  vmov r12, r7, s8, s9
  vmov r6, r9, s10, s11
  eor r3, r3, r12                   @ t
  eor r12, r6, r2
  eor r12, r12, r3
  eor r9, r9, r7
  eor r6, r9, r3
  @ The 128-bit combination into r0-r7.
  eor r9, r5, r2                    @ u2
  eor r4, r4, r12                   @ u3
  eor r2, r9, r0
  eor r2, r2, r8                    @ c2 = u2 + p0 + m0
  eor r3, r4, r1
  eor r3, r3, r10                   @ c3 = u3 + p1 + m1
  eor r5, r4, lr
  eor r5, r5, r7                    @ c5 = u3 + m3 + q3
  eor r4, r9, r11
  eor r4, r4, r6                    @ c4 = u2 + m2 + q2
.endm

  .section .text.mul128, "ax", %progbits
  .type mul128, %function
  .p2align 2
  .thumb_func
mul128:
  vmov s18, lr
  MUL128
  vmov lr, s18
  bx lr
  .size mul128, . - mul128

@ MUL128_HOT: MUL128 in place, or a call to mul128 where the build optimises for size (GCC
@ defines __OPTIMIZE_SIZE__ for -Os when it preprocesses this file).
.macro MUL128_HOT
#ifdef __OPTIMIZE_SIZE__
  bl mul128
#else
  MUL128
#endif
.endm

@ void hqc_m4_clmul128(uint32_t out[8], const uint32_t a[4], const uint32_t b[4])
@ out = a * b: one mul128 (the four-word leaf of ring_mul_m4.cpp).
  .global hqc_m4_clmul128
  .section .text.hqc_m4_clmul128, "ax", %progbits
  .type hqc_m4_clmul128, %function
  .p2align 2
  .thumb_func
hqc_m4_clmul128:
  push {r0, r4-r11, lr}
  vpush {s16-s19}
  ldm r1, {r4-r7}
  ldm r2, {r8-r11}
  bl mul128
  vpop {s16-s19}
  pop {r12}
  stm r12, {r0-r7}
  pop {r4-r11, pc}
  .size hqc_m4_clmul128, . - hqc_m4_clmul128

@ MID4 oL0, oL1, oC, oD, oZlo, oZhi: four words of a Karatsuba middle term in one pass, with
@ r12 = out and z1 on the stack: L1 += z1lo + L0 + C and C += z1hi + L1 + D (the values before
@ the pass) for the four-word blocks at out + oL0, oL1, oC, oD and sp + oZlo, oZhi (bytes).
.macro MID4 oL0, oL1, oC, oD, oZlo, oZhi
  add r0, r12, #\oC
  ldm r0, {r4-r7}                   @ C
  add r1, r12, #\oL1
  ldm r1, {r8-r11}                  @ L1
  eor r8, r8, r4
  eor r9, r9, r5
  eor r10, r10, r6
  eor r11, r11, r7                  @ T = L1 + C
  add r0, r12, #\oL0
  ldm r0, {r4-r7}                   @ L0
  add lr, sp, #\oZlo
  ldm lr, {r0-r3}                   @ z1lo
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  eor r4, r4, r0
  eor r5, r5, r1
  eor r6, r6, r2
  eor r7, r7, r3
  add r0, r12, #\oL1
  stm r0, {r4-r7}                   @ new L1 = T + L0 + z1lo
  add r0, r12, #\oD
  ldm r0, {r4-r7}                   @ D
  add lr, sp, #\oZhi
  ldm lr, {r0-r3}                   @ z1hi
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  eor r4, r4, r0
  eor r5, r5, r1
  eor r6, r6, r2
  eor r7, r7, r3
  add r0, r12, #\oC
  stm r0, {r4-r7}                   @ new C = T + D + z1hi
.endm

@ mul256 (local; r0 = out[16], r1 = a[8], r2 = b[8]): out = a * b (512-bit product of two 256-bit
@ polynomials), Karatsuba on the 128-bit halves A0, A1 and B0, B1: three mul128 on operands loaded
@ (and summed) in registers, their products combined as they come, with the refined sums: for
@ L = A0 B0, H = A1 B1, M = (A0 + A1)(B0 + B1) and t = L1 + H0, the product
@ L + x^128 (L + M + H) + x^256 H is (L0, L0 + t + M0, H1 + t + M1, H1). L first, into out[0, 8);
@ then H: out[4, 8) = L0 + t, out[8, 12) = H1 + t, out[12, 16) = H1; M last, added to out[4, 12)
@ straight from its registers, so that no product is kept on the stack. a and b are read again
@ for M after out is written: they may not overlap out. Clobbers r0-r12, s0-s22 and the flags.
@ Frame: out, a, b and the return address in s19-s22, not on the stack: a VMOV to or from a core
@ register costs 1 estimated cycle, against 2 for an LDR (3 for LDRD) after the multiplies, whose
@ UMULLs leave nothing to pipeline with (about 7 cycles a call, some 4.6k per HQC-1 product).
  .section .text.mul256, "ax", %progbits
  .type mul256, %function
  .p2align 2
  .thumb_func
mul256:
  vmov s19, s20, r0, r1
  vmov s21, s22, r2, lr
  ldm r1, {r4-r7}
  ldm r2, {r8-r11}
  MUL128_HOT                         @ L0 = r0-r3, L1 = r4-r7
  vmov r12, s19
  stm r12, {r0-r7}                  @ out[0, 8) = L
  vmov r1, r2, s20, s21
  adds r1, r1, #16
  adds r2, r2, #16
  ldm r1, {r4-r7}
  ldm r2, {r8-r11}
  MUL128_HOT                         @ H0 = r0-r3, H1 = r4-r7
  vmov r12, s19
  add lr, r12, #16
  ldm lr, {r8-r11}                  @ L1
  eor r8, r8, r0
  eor r9, r9, r1
  eor r10, r10, r2
  eor r11, r11, r3                  @ t = L1 + H0
  eor r0, r4, r8
  eor r1, r5, r9
  eor r2, r6, r10
  eor r3, r7, r11                   @ H1 + t
  add lr, r12, #32
  stm lr, {r0-r7}                   @ out[8, 12) = H1 + t, out[12, 16) = H1
  ldm r12, {r0-r3}                  @ L0
  eor r0, r0, r8
  eor r1, r1, r9
  eor r2, r2, r10
  eor r3, r3, r11
  add lr, r12, #16
  stm lr, {r0-r3}                   @ out[4, 8) = L0 + t
  vmov r1, r2, s20, s21
  ldm r2, {r4-r11}
  eor r8, r8, r4
  eor r9, r9, r5
  eor r10, r10, r6
  eor r11, r11, r7                  @ B0 + B1
  ldm r1, {r0-r7}
  eor r4, r4, r0
  eor r5, r5, r1
  eor r6, r6, r2
  eor r7, r7, r3                    @ A0 + A1
  MUL128_HOT                         @ M0 = r0-r3, M1 = r4-r7
  vmov r12, s19
  add r12, r12, #16
  ldm r12, {r8-r11}
  eor r8, r8, r0
  eor r9, r9, r1
  eor r10, r10, r2
  eor r11, r11, r3
  stm r12!, {r8-r11}                @ out[4, 8) += M0
  ldm r12, {r8-r11}
  eor r8, r8, r4
  eor r9, r9, r5
  eor r10, r10, r6
  eor r11, r11, r7
  stm r12, {r8-r11}                 @ out[8, 12) += M1
  vmov lr, s22
  bx lr
  .size mul256, . - mul256

@ LEAF name, inner, stop: the public leaf `name` (void name(uint32_t out[], const uint32_t a[],
@ const uint32_t b[]), AAPCS) around the local routine `inner`: saves what the local routines
@ clobber and the ABI preserves, r4-r11 and s16 up to \stop: s18 (mul128's return address; 48
@ bytes in all) or s22 (mul256's frame; 64 bytes), so the stack stays 8-byte aligned.
.macro LEAF name, inner, stop
  .global \name
  .section .text.\name, "ax", %progbits
  .type \name, %function
  .p2align 2
  .thumb_func
\name:
  push {r4-r11, lr}
  vpush {s16-\stop}
  bl \inner
  vpop {s16-\stop}
  pop {r4-r11, pc}
  .size \name, . - \name
.endm

@ void hqc_m4_clmul256(uint32_t out[16], const uint32_t a[8], const uint32_t b[8])
@ out = a * b: one mul256 (the 8-word leaf of ring_mul_m4.cpp).
LEAF hqc_m4_clmul256, mul256, s22

@ SUMH rs, half, blocks: the sums rs[i] + rs[half / 4 + i] of `blocks` four-word blocks (half in
@ bytes) stored from r12 on, four words per LDM/STM (r12 and rs advance; r3 is the high cursor).
.macro SUMH rs, half, blocks
  add r3, \rs, #\half
  .rept \blocks
  ldm \rs!, {r4-r7}
  ldm r3!, {r8-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  stm r12!, {r4-r7}
  .endr
.endm

@ KARA2 name, inner, q: the local routine `name` (r0 = out, r1 = a, r2 = b, each operand 2q bytes):
@ out = a * b by Karatsuba on the q-byte halves, with `inner` (a local routine of the same
@ contract) for the three half products. The sums a0 + a1, b0 + b1 go into out's top half (free
@ until z2 is written there), z1 = their product first onto the stack, then z0 and z2 into out,
@ then the middle term z1 + z0 + z2 in q/16 MID4 passes (L0, L1, C, D at out + 0, q, 2q, 3q
@ bytes, z1's halves at sp + 0, q). Clobbers r0-r12, s0-s22 and the flags.
@ Frame: [sp] z1, [sp, #2q] out, a, b, the return address.
.macro KARA2 name, inner, q
  .section .text.\name, "ax", %progbits
  .type \name, %function
  .p2align 2
  .thumb_func
\name:
  push {r0-r2, lr}
  sub sp, #(2 * \q)
  add r12, r0, #(2 * \q)
  SUMH r1, \q, (\q / 16)
  SUMH r2, \q, (\q / 16)
  mov r0, sp
  ldr r1, [sp, #(2 * \q)]
  add r1, r1, #(2 * \q)              @ a0 + a1 in out's top half
  add r2, r1, #\q                    @ b0 + b1 after it
  bl \inner                          @ z1
  add r3, sp, #(2 * \q)
  ldm r3, {r0-r2}
  bl \inner                          @ z0 = a0 b0 -> out's low half
  add r3, sp, #(2 * \q)
  ldm r3, {r0-r2}
  adds r0, r0, #(2 * \q)
  adds r1, r1, #\q
  adds r2, r2, #\q
  bl \inner                          @ z2 = a1 b1 -> out's top half
  ldr r12, [sp, #(2 * \q)]
  .set .Lkara2_k, 0
  .rept (\q / 16)
  MID4 .Lkara2_k, (\q + .Lkara2_k), (2 * \q + .Lkara2_k), (3 * \q + .Lkara2_k), .Lkara2_k, (\q + .Lkara2_k)
  .set .Lkara2_k, .Lkara2_k + 16
  .endr
  add sp, #(2 * \q + 12)
  pop {pc}
  .size \name, . - \name
.endm

@ clmul512 (local; r0 = out[32], r1 = a[16], r2 = b[16]): the 1024-bit product of two 512-bit
@ polynomials over mul256.
KARA2 clmul512, mul256, 32

@ void hqc_m4_clmul512(uint32_t out[32], const uint32_t a[16], const uint32_t b[16])
@ out = a * b: one clmul512 (the 16-word leaf of ring_mul_m4.cpp).
LEAF hqc_m4_clmul512, clmul512, s22


@ KARA4 (clmul1024, local; r0 = out[64], r1 = a[32], r2 = b[32]): the 2048-bit product by two
@ Karatsuba levels at once over the eight-word quarters (X = x^256): a = A0 + X A1 + X^2 A2 +
@ X^3 A3, the same for b, and nine mul256 products of eight words, two blocks (lo, hi) each:
@   A0 B0 = (a0, a1), A1 B1 = (b0, b1), A2 B2 = (d0, d1), A3 B3 = (e0, e1) straight into out's
@   eight blocks (out = [a0, a1, b0, b1, d0, d1, e0, e1]); on the stack (P) the products of the
@   sums, (A0 + A1)(B0 + B1) = (c0, c1), (A2 + A3)(B2 + B3) = (f0, f1), (A0 + A2)(B0 + B2) =
@   (g0, g1), (A1 + A3)(B1 + B3) = (h0, h1), (A0 + A1 + A2 + A3)(B0 + B1 + B2 + B3) = (k0, k1).
@ With L = A0 + X A1, H = A2 + X A3 and M = L + H, the product is LL + X^2 (LL + HH + MM) + X^4 HH
@ (spec §2.2: GF(2), no carries), and each of LL, HH, MM is one Karatsuba level over X:
@   LL = [a0, u + a0 + c0, u + b1 + c1, b1], u = a1 + b0; HH = [d0, v + d0 + f0, v + e1 + f1, e1],
@   v = d1 + e0; MM = [g0, w + g0 + k0, w + h1 + k1, h1], w = g1 + h0,
@ so that, with T1 = LL2 + d0 and T2 = b1 + HH1, out's blocks become
@   [a0, LL1, T1 + a0 + g0, T2 + LL1 + MM1, T1 + HH2 + MM2, T2 + e1 + h1, HH2, e1]:
@ one pass of 18 loads, 25 XORs and 6 stores for each of the eight word positions (COMB4), where
@ two nested Karatsuba levels (KARA2 over KARA2) pass over every word twice and make four more
@ calls. Clobbers r0-r12, s0-s22 and the flags.
@ Frame: [sp] the sums of a's quarters (A0 + A1, A2 + A3, A0 + A2, A1 + A3, all four: 8 words
@ each), [sp, #160] those of b's, [sp, #320] P (c, f, g, h, k: 16 words each), [sp, #640] out, a,
@ b, the return address.

@ SUM4 rx, dst, j: word j (byte offset) of the five quarter sums of the operand at \rx, stored at
@ sp + dst (five blocks of 32 bytes).
.macro SUM4 rx, dst, j
  ldr r3, [\rx, #\j]
  ldr r4, [\rx, #32 + \j]
  ldr r5, [\rx, #64 + \j]
  ldr r6, [\rx, #96 + \j]
  eor r7, r3, r4                    @ A0 + A1
  eor r8, r5, r6                    @ A2 + A3
  eor r3, r3, r5                    @ A0 + A2
  eor r4, r4, r6                    @ A1 + A3
  eor r9, r7, r8                    @ A0 + A1 + A2 + A3
  str r7, [sp, #\dst + \j]
  str r8, [sp, #\dst + 32 + \j]
  str r3, [sp, #\dst + 64 + \j]
  str r4, [sp, #\dst + 96 + \j]
  str r9, [sp, #\dst + 128 + \j]
.endm

@ KMID hl, lh, x1, l0, x2, h1: one Karatsuba level's middle words of a word position, from the
@ low product (l0, hl), the high one (lh, h1) and the sums' product (x1, x2) in those registers:
@ u = hl + lh (into \hl), x1 = u + l0 + x1, x2 = u + h1 + x2 (the refined sums).
.macro KMID hl, lh, x1, l0, x2, h1
  eor \hl, \hl, \lh
  eor \x1, \x1, \hl
  eor \x1, \x1, \l0
  eor \x2, \x2, \hl
  eor \x2, \x2, \h1
.endm

@ COMB4 j: word j (byte offset) of KARA4's combination, out in r0 and P at sp + 320.
.macro COMB4 j
  ldr r1, [r0, #\j]                 @ a0
  ldr r2, [r0, #32 + \j]            @ a1
  ldr r3, [r0, #64 + \j]            @ b0
  ldr r4, [r0, #96 + \j]            @ b1
  ldr r5, [sp, #320 + \j]           @ c0
  ldr r6, [sp, #352 + \j]           @ c1
  KMID r2, r3, r5, r1, r6, r4        @ LL1 (r5), LL2 (r6)
  ldr r7, [r0, #128 + \j]           @ d0
  ldr r8, [r0, #160 + \j]           @ d1
  ldr r9, [r0, #192 + \j]           @ e0
  ldr r10, [r0, #224 + \j]          @ e1
  ldr r11, [sp, #384 + \j]          @ f0
  ldr r12, [sp, #416 + \j]          @ f1
  KMID r8, r9, r11, r7, r12, r10    @ HH1 (r11), HH2 (r12)
  eor r6, r6, r7                    @ T1
  eor r4, r4, r11                   @ T2
  str r5, [r0, #32 + \j]            @ block 1: LL1
  str r12, [r0, #192 + \j]          @ block 6: HH2
  ldr r2, [sp, #448 + \j]           @ g0
  ldr r3, [sp, #480 + \j]           @ g1
  ldr r7, [sp, #512 + \j]           @ h0
  ldr r8, [sp, #544 + \j]           @ h1
  ldr r9, [sp, #576 + \j]           @ k0
  ldr r11, [sp, #608 + \j]          @ k1
  KMID r3, r7, r9, r2, r11, r8      @ MM1 (r9), MM2 (r11)
  eor r1, r1, r2
  eor r1, r1, r6                    @ block 2: T1 + a0 + g0
  eor r5, r5, r9
  eor r5, r5, r4                    @ block 3: T2 + LL1 + MM1
  eor r6, r6, r12
  eor r6, r6, r11                   @ block 4: T1 + HH2 + MM2
  eor r4, r4, r10
  eor r4, r4, r8                    @ block 5: T2 + e1 + h1
  str r1, [r0, #64 + \j]
  str r5, [r0, #96 + \j]
  str r6, [r0, #128 + \j]
  str r4, [r0, #160 + \j]
.endm

  .section .text.clmul1024, "ax", %progbits
  .type clmul1024, %function
  .p2align 2
  .thumb_func
clmul1024:
  push {r0-r2, lr}
  sub sp, #640
  .set .Lk4j, 0
  .rept 8
  SUM4 r1, 0, .Lk4j
  .set .Lk4j, .Lk4j + 4
  .endr
  .set .Lk4j, 0
  .rept 8
  SUM4 r2, 160, .Lk4j
  .set .Lk4j, .Lk4j + 4
  .endr
  @ The quarters' products into out: A_i B_i at out + 64 i bytes.
  .set .Lk4i, 0
  .rept 4
  ldr r0, [sp, #640]
  ldr r1, [sp, #644]
  ldr r2, [sp, #648]
  .if .Lk4i
  add r0, r0, #(64 * .Lk4i)
  add r1, r1, #(32 * .Lk4i)
  add r2, r2, #(32 * .Lk4i)
  .endif
  bl mul256
  .set .Lk4i, .Lk4i + 1
  .endr
  @ The sums' products into P: sum k of a (sp + 32 k) times that of b (sp + 160 + 32 k) at
  @ sp + 320 + 64 k.
  .set .Lk4i, 0
  .rept 5
  add r0, sp, #(320 + 64 * .Lk4i)
  add r1, sp, #(32 * .Lk4i)
  add r2, sp, #(160 + 32 * .Lk4i)
  bl mul256
  .set .Lk4i, .Lk4i + 1
  .endr
  ldr r0, [sp, #640]
  .set .Lk4j, 0
  .rept 8
  COMB4 .Lk4j
  .set .Lk4j, .Lk4j + 4
  .endr
  add sp, #652
  pop {pc}
  .size clmul1024, . - clmul1024

@ void hqc_m4_clmul1024(uint32_t out[64], const uint32_t a[32], const uint32_t b[32])
@ out = a * b: one clmul1024 (the 32-word leaf of ring_mul_m4.cpp).
LEAF hqc_m4_clmul1024, clmul1024, s22

@ The three-way Karatsuba leaves (12 and 24 words; ring_mul_m4.cpp's kara3 with k = 4 and 8): with
@ a = a0 + y a1 + y^2 a2, y = x^(32k), and the same for b, P0 = a0 b0, P1 = a1 b1, P2 = a2 b2 go
@ straight into out's thirds, Pij = (ai + aj)(bi + bj) onto the stack, then K3W adds the cross
@ terms y (P01 + P0 + P1) + y^2 (P02 + P0 + P2) + y^3 (P12 + P1 + P2) (spec §2.2: the product is
@ P0 + y (P01 + P0 + P1) + y^2 (P02 + P0 + P1 + P2) + y^3 (P12 + P1 + P2) + y^4 P2).
@ K3W kb, po, i: word i (byte offset) of every k-word block (kb = k in bytes) of out = r0, whose
@ blocks B0 .. B5 hold P0, P1, P2, with P01, P02, P12 (2k words each, contiguous) at sp + po: with
@ X = B0 + B1 + B2, Y = B3 + B4 + B5, W = X + Y: B1 = X + P01l, B2 = W + B5 + P01h + P02l,
@ B3 = W + B0 + P02h + P12l, B4 = Y + P12h (from the values before; word i only). Clobbers r1-r12,
@ lr.
.macro K3W kb, po, i
  ldr r5, [r0, #\i]
  ldr r6, [r0, #\kb + \i]
  ldr r7, [r0, #2 * \kb + \i]
  ldr r8, [r0, #3 * \kb + \i]
  ldr r9, [r0, #4 * \kb + \i]
  ldr r10, [r0, #5 * \kb + \i]
  eor r11, r5, r6
  eor r11, r11, r7                  @ X
  eor r12, r8, r9
  eor r12, r12, r10                 @ Y
  eor lr, r11, r12                  @ W
  ldr r1, [sp, #\po + \i]           @ P01l
  ldr r2, [sp, #\po + \kb + \i]     @ P01h
  ldr r3, [sp, #\po + 2 * \kb + \i] @ P02l
  ldr r4, [sp, #\po + 3 * \kb + \i] @ P02h
  ldr r6, [sp, #\po + 4 * \kb + \i] @ P12l
  ldr r7, [sp, #\po + 5 * \kb + \i] @ P12h
  eor r11, r11, r1                  @ B1
  eor r10, r10, lr
  eor r10, r10, r2
  eor r10, r10, r3                  @ B2
  eor r5, r5, lr
  eor r5, r5, r4
  eor r5, r5, r6                    @ B3
  eor r12, r12, r7                  @ B4
  str r11, [r0, #\kb + \i]
  str r10, [r0, #2 * \kb + \i]
  str r5, [r0, #3 * \kb + \i]
  str r12, [r0, #4 * \kb + \i]
.endm

@ clmul384 (local; r0 = out[24], r1 = a[12], r2 = b[12]): out = a * b, three-way Karatsuba on
@ four-word parts: six mul128, their operands loaded and summed in registers. Clobbers r0-r12,
@ s0-s18 and the flags.
@ Frame: [sp] P01, [sp, #32] P02, [sp, #64] P12, [sp, #96] out, a, b, the return address.
  .section .text.clmul384, "ax", %progbits
  .type clmul384, %function
  .p2align 2
  .thumb_func
clmul384:
  push {r0-r2, lr}
  sub sp, #96
  ldm r1, {r4-r7}
  ldm r2, {r8-r11}
  bl mul128
  ldr r12, [sp, #96]
  stm r12, {r0-r7}                  @ P0 -> out[0, 8)
  ldrd r1, r2, [sp, #100]
  add r1, r1, #16
  ldm r1, {r4-r7}
  add r2, r2, #16
  ldm r2, {r8-r11}
  bl mul128
  ldr r12, [sp, #96]
  add r12, r12, #32
  stm r12, {r0-r7}                  @ P1 -> out[8, 16)
  ldrd r1, r2, [sp, #100]
  add r1, r1, #32
  ldm r1, {r4-r7}
  add r2, r2, #32
  ldm r2, {r8-r11}
  bl mul128
  ldr r12, [sp, #96]
  add r12, r12, #64
  stm r12, {r0-r7}                  @ P2 -> out[16, 24)
  ldrd r1, r2, [sp, #100]
  ldm r1, {r4-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11                   @ a0 + a1
  ldm r2, {r0-r3, r8-r11}
  eor r8, r8, r0
  eor r9, r9, r1
  eor r10, r10, r2
  eor r11, r11, r3                  @ b0 + b1
  bl mul128
  stm sp, {r0-r7}                   @ P01
  ldrd r1, r2, [sp, #100]
  ldm r1, {r4-r7}
  add r1, r1, #32
  ldm r1, {r8-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11                   @ a0 + a2
  ldm r2, {r8-r11}
  add r2, r2, #32
  ldm r2, {r0, r1, r3, r12}
  eor r8, r8, r0
  eor r9, r9, r1
  eor r10, r10, r3
  eor r11, r11, r12                 @ b0 + b2
  bl mul128
  add r12, sp, #32
  stm r12, {r0-r7}                  @ P02
  ldrd r1, r2, [sp, #100]
  add r1, r1, #16
  ldm r1, {r4-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11                   @ a1 + a2
  add r2, r2, #16
  ldm r2, {r0-r3, r8-r11}
  eor r8, r8, r0
  eor r9, r9, r1
  eor r10, r10, r2
  eor r11, r11, r3                  @ b1 + b2
  bl mul128
  add r12, sp, #64
  stm r12, {r0-r7}                  @ P12
  ldr r0, [sp, #96]
  K3W 16, 0, 0
  K3W 16, 0, 4
  K3W 16, 0, 8
  K3W 16, 0, 12
  add sp, #108
  pop {pc}
  .size clmul384, . - clmul384

@ void hqc_m4_clmul384(uint32_t out[24], const uint32_t a[12], const uint32_t b[12])
@ out = a * b: one clmul384 (the 12-word leaf of ring_mul_m4.cpp).
LEAF hqc_m4_clmul384, clmul384, s18

@ SUM8 oi, oj: the eight-word sums a[oi, oi + 32) + a[oj, oj + 32) and the same of b (byte
@ offsets) onto [sp, sp + 64), with a, b read from clmul768's frame.
.macro SUM8 oi, oj
  mov r12, sp
  ldr r1, [sp, #260]
  add r2, r1, #\oj
  add r1, r1, #\oi
  .rept 2
  ldm r1!, {r4-r7}
  ldm r2!, {r8-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  stm r12!, {r4-r7}
  .endr
  ldr r1, [sp, #264]
  add r2, r1, #\oj
  add r1, r1, #\oi
  .rept 2
  ldm r1!, {r4-r7}
  ldm r2!, {r8-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  stm r12!, {r4-r7}
  .endr
.endm

@ clmul768 (local; r0 = out[48], r1 = a[24], r2 = b[24]): out = a * b, three-way Karatsuba on
@ eight-word parts: six mul256. Clobbers r0-r12, s0-s22 and the flags.
@ Frame: [sp] the a-sum, [sp, #32] the b-sum, [sp, #64] P01, [sp, #128] P02, [sp, #192] P12,
@ [sp, #256] out, a, b, the return address.
  .section .text.clmul768, "ax", %progbits
  .type clmul768, %function
  .p2align 2
  .thumb_func
clmul768:
  push {r0-r2, lr}
  sub sp, #256
  bl mul256                         @ P0 -> out[0, 16)
  add r3, sp, #256
  ldm r3, {r0-r2}
  adds r0, r0, #64
  adds r1, r1, #32
  adds r2, r2, #32
  bl mul256                         @ P1 -> out[16, 32)
  add r3, sp, #256
  ldm r3, {r0-r2}
  adds r0, r0, #128
  adds r1, r1, #64
  adds r2, r2, #64
  bl mul256                         @ P2 -> out[32, 48)
  SUM8 0, 32
  add r0, sp, #64
  mov r1, sp
  add r2, sp, #32
  bl mul256                         @ P01
  SUM8 0, 64
  add r0, sp, #128
  mov r1, sp
  add r2, sp, #32
  bl mul256                         @ P02
  SUM8 32, 64
  add r0, sp, #192
  mov r1, sp
  add r2, sp, #32
  bl mul256                         @ P12
  ldr r0, [sp, #256]
  K3W 32, 64, 0
  K3W 32, 64, 4
  K3W 32, 64, 8
  K3W 32, 64, 12
  K3W 32, 64, 16
  K3W 32, 64, 20
  K3W 32, 64, 24
  K3W 32, 64, 28
  add sp, #268
  pop {pc}
  .size clmul768, . - clmul768

@ void hqc_m4_clmul768(uint32_t out[48], const uint32_t a[24], const uint32_t b[24])
@ out = a * b: one clmul768 (the 24-word leaf of ring_mul_m4.cpp).
LEAF hqc_m4_clmul768, clmul768, s22


@ clmul2048 (local; r0 = out[128], r1 = a[64], r2 = b[64]): the 4096-bit product over clmul1024.
KARA2 clmul2048, clmul1024, 128

@ void hqc_m4_clmul2048(uint32_t out[128], const uint32_t a[64], const uint32_t b[64])
@ out = a * b: one clmul2048 (the 64-word leaf of ring_mul_m4.cpp).
LEAF hqc_m4_clmul2048, clmul2048, s22
