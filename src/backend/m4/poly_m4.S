@ The linear passes of the Cortex-M4 polynomial product (ring_mul_m4.cpp) over 32-bit words: four
@ words per LDM/STM where the streams allow it, then one at a time. Lengths and addresses are
@ public (they depend on the operand size only); no branch or address depends on the data.
#include "backend/m4/word_loop_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ void hqc_m4_xor3(uint32_t* dst, const uint32_t* x, const uint32_t* y, size_t len)
@ dst[i] = x[i] ^ y[i] for i < len (dst may be x or y): blocks of four words (LDM, LDM, four EORs,
@ STM), two an iteration (WORDS_BY_FOURS: about 5.3 estimated cycles a word against 5.8 with
@ one), then one word at a time.
.macro XOR3_FOUR
  ldm r1!, {r4-r7}
  ldm r2!, {r8-r10, r12}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r12
  stm r0!, {r4-r7}
.endm
.macro XOR3_ONE
  ldr r4, [r1], #4
  ldr r5, [r2], #4
  eor r4, r4, r5
  str r4, [r0], #4
.endm
  .global hqc_m4_xor3
  .section .text.hqc_m4_xor3, "ax", %progbits
  .type hqc_m4_xor3, %function
  .p2align 2
  .thumb_func
hqc_m4_xor3:
  push {r4-r10, lr}
  WORDS_BY_FOURS r3, "XOR3_FOUR", "XOR3_ONE"
  pop {r4-r10, pc}
  .size hqc_m4_xor3, . - hqc_m4_xor3

@ void hqc_m4_xor_into(uint32_t* dst, const uint32_t* src, size_t len)
@ dst[i] ^= src[i] for i < len: blocks of four words, two an iteration (WORDS_BY_FOURS: about 5.3
@ estimated cycles a word against 5.9 with one), then one word at a time.
.macro XOR_INTO_FOUR
  ldm r1!, {r4-r7}
  ldm r0, {r8-r10, r12}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r12
  stm r0!, {r4-r7}
.endm
.macro XOR_INTO_ONE
  ldr r4, [r1], #4
  ldr r5, [r0]
  eor r4, r4, r5
  str r4, [r0], #4
.endm
  .global hqc_m4_xor_into
  .section .text.hqc_m4_xor_into, "ax", %progbits
  .type hqc_m4_xor_into, %function
  .p2align 2
  .thumb_func
hqc_m4_xor_into:
  push {r4-r10, lr}
  WORDS_BY_FOURS r2, "XOR_INTO_FOUR", "XOR_INTO_ONE"
  pop {r4-r10, pc}
  .size hqc_m4_xor_into, . - hqc_m4_xor_into

@ void hqc_m4_xor_into_four(uint32_t* const dst[4], const uint32_t* src, size_t quads)
@ dst[j][i] ^= src[i] for j < 4 and i < 4 quads (quads >= 1): each four words of src loaded once
@ for the four destinations (fafft_m4.cpp, add_low_terms: the terms of M with one shift), about
@ 4.1 estimated cycles a word and destination against 5.3 for hqc_m4_xor_into. Each destination's
@ four words are read, XORed and written before the next destination's are read, so destinations
@ may overlap.
.macro XOR_QUAD_INTO d
  ldm \d, {r8-r11}
  eor r8, r8, r4
  eor r9, r9, r5
  eor r10, r10, r6
  eor r11, r11, r7
  stm \d!, {r8-r11}
.endm
  .global hqc_m4_xor_into_four
  .section .text.hqc_m4_xor_into_four, "ax", %progbits
  .type hqc_m4_xor_into_four, %function
  .p2align 2
  .thumb_func
hqc_m4_xor_into_four:
  push {r4-r11, lr}
  mov r12, r1
  mov lr, r2
  ldm r0, {r0-r3}
1:
  ldm r12!, {r4-r7}
  XOR_QUAD_INTO r0
  XOR_QUAD_INTO r1
  XOR_QUAD_INTO r2
  XOR_QUAD_INTO r3
  subs lr, lr, #1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_xor_into_four, . - hqc_m4_xor_into_four

@ void hqc_m4_xor_into_two(uint32_t* dst0, uint32_t* dst1, const uint32_t* src, size_t quads)
@ The same for two destinations (about 4.6 estimated cycles a word and destination).
  .global hqc_m4_xor_into_two
  .section .text.hqc_m4_xor_into_two, "ax", %progbits
  .type hqc_m4_xor_into_two, %function
  .p2align 2
  .thumb_func
hqc_m4_xor_into_two:
  push {r4-r11, lr}
1:
  ldm r2!, {r4-r7}
  XOR_QUAD_INTO r0
  XOR_QUAD_INTO r1
  subs r3, r3, #1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_xor_into_two, . - hqc_m4_xor_into_two

@ void hqc_m4_kara_mid(uint32_t* out, const uint32_t* z1, size_t lo), lo >= 1
@ The Karatsuba middle term in one pass: with z0 = (L0, L1) = out[0, 2lo) and z2's words C, D at
@ out[2lo, 3lo) and out[3lo, 4lo), for i < lo: L1[i] ^= z1[i] ^ L0[i] ^ C[i] and
@ C[i] ^= z1[lo + i] ^ L1[i] ^ D[i], from the values before the pass (iteration i writes only
@ words that no later iteration reads).
  .global hqc_m4_kara_mid
  .section .text.hqc_m4_kara_mid, "ax", %progbits
  .type hqc_m4_kara_mid, %function
  .p2align 2
  .thumb_func
hqc_m4_kara_mid:
  push {r4-r9, r11, lr}
  lsls r3, r2, #2                   @ lo in bytes
  add r11, r0, r3, lsl #1           @ C
1:
  ldr r4, [r0, r3]                  @ L1[i]
  ldr r5, [r11]                     @ C[i]
  ldr r6, [r11, r3]                 @ D[i]
  ldr r7, [r1, r3]                  @ z1[lo + i]
  ldr r8, [r1], #4                  @ z1[i]
  ldr r9, [r0]                      @ L0[i]
  eor r4, r4, r5                    @ L1 + C
  eor r5, r4, r7
  eor r5, r5, r6                    @ new C
  eor r4, r4, r8
  eor r4, r4, r9                    @ new L1
  str r4, [r0, r3]
  str r5, [r11], #4
  adds r0, r0, #4
  subs r2, r2, #1
  bne 1b
  pop {r4-r9, r11, pc}
  .size hqc_m4_kara_mid, . - hqc_m4_kara_mid

@ FOLD r: the routine hqc_m4_fold_<r>,
@ void hqc_m4_fold_<r>(uint32_t* o, const uint32_t* lo, const uint32_t* hi, size_t quads),
@ the reduction of a product modulo x^n - 1 with n = 32 q + r (backend.cpp, mul_into): for
@ i < 4 quads, o[i] = lo[i] + (hi[i - 1] >> r) + (hi[i] << (32 - r)), where hi points at word
@ q + 1 of the product and lo at word 0 (bit n + j onto bit j). Four words per LDM/STM, the last
@ high word carried in a register to the next four; quads >= 1.
.macro FOLD r
  .global hqc_m4_fold_\r
  .type hqc_m4_fold_\r, %function
  .p2align 2
  .thumb_func
hqc_m4_fold_\r:
  push {r4-r11}
  ldr r12, [r2, #-4]                @ hi[-1], word q of the product
1:
  ldm r2!, {r4-r7}
  ldm r1!, {r8-r11}
  eor r8, r8, r12, lsr #\r
  eor r8, r8, r4, lsl #(32 - \r)
  eor r9, r9, r4, lsr #\r
  eor r9, r9, r5, lsl #(32 - \r)
  eor r10, r10, r5, lsr #\r
  eor r10, r10, r6, lsl #(32 - \r)
  eor r11, r11, r6, lsr #\r
  eor r11, r11, r7, lsl #(32 - \r)
  mov r12, r7
  stm r0!, {r8-r11}
  subs r3, r3, #1
  bne 1b
  pop {r4-r11}
  bx lr
  .size hqc_m4_fold_\r, . - hqc_m4_fold_\r
.endm

@ The levels' n mod 32: 17669 and 57637 give 5, 35851 gives 11.
FOLD 5
FOLD 11

@ void hqc_m4_poly_mul_copy(uint32_t* dst, const uint32_t* src, size_t len)
@ dst[i] = src[i] for i < len (the buffers do not overlap): eight words per LDM/STM pair (about 2.8
@ estimated cycles a word, against 3.5 with four), then one at a time.
  .global hqc_m4_poly_mul_copy
  .section .text.hqc_m4_poly_mul_copy, "ax", %progbits
  .type hqc_m4_poly_mul_copy, %function
  .p2align 2
  .thumb_func
hqc_m4_poly_mul_copy:
  push {r4-r9, lr}
  subs r2, r2, #8
  blo 2f
1:
  ldm r1!, {r3-r9, r12}
  stm r0!, {r3-r9, r12}
  subs r2, r2, #8
  bhs 1b
2:
  adds r2, r2, #8
  beq 4f
3:
  ldr r3, [r1], #4
  str r3, [r0], #4
  subs r2, r2, #1
  bne 3b
4:
  pop {r4-r9, pc}
  .size hqc_m4_poly_mul_copy, . - hqc_m4_poly_mul_copy

@ void hqc_m4_poly_mul_zero(uint32_t* dst, size_t len)
@ dst[i] = 0 for i < len: eight words per STM, two STMs per iteration (about 1.4 estimated cycles a
@ word, against 1.75 with one; it also wipes the product's buffers and zeroes the support
@ expansion's scratch, thousands of words), then one STM of eight and one word at a time. Fewer
@ than eight words (most of the ring product's calls: the tops of evaluations and padded
@ operands) one at a time without the frame and the eight zero registers.
  .global hqc_m4_poly_mul_zero
  .section .text.hqc_m4_poly_mul_zero, "ax", %progbits
  .type hqc_m4_poly_mul_zero, %function
  .p2align 2
  .thumb_func
hqc_m4_poly_mul_zero:
  cmp r1, #8
  bhs 6f
  movs r2, #0
  cbz r1, 7f
8:
  str r2, [r0], #4
  subs r1, r1, #1
  bne 8b
7:
  bx lr
6:
  push {r4-r7, lr}
  movs r2, #0
  movs r3, #0
  movs r4, #0
  movs r5, #0
  movs r6, #0
  movs r7, #0
  mov r12, #0
  mov lr, #0
  subs r1, r1, #16
  blo 5f
1:
  stm r0!, {r2-r7, r12, lr}
  stm r0!, {r2-r7, r12, lr}
  subs r1, r1, #16
  bhs 1b
5:
  adds r1, r1, #8                   @ len mod 16 - 8
  blo 2f
  stm r0!, {r2-r7, r12, lr}
  subs r1, r1, #8
2:
  adds r1, r1, #8
  beq 4f
3:
  str r2, [r0], #4
  subs r1, r1, #1
  bne 3b
4:
  pop {r4-r7, pc}
  .size hqc_m4_poly_mul_zero, . - hqc_m4_poly_mul_zero

@ PASS1_WORD back, half: one word of Toom-3's first interpolation pass, at t = x^32 (back = 16,
@ half = 0: hqc_m4_toom_pass1) or at t = x^16 (back = 8, half = 1: hqc_m4_toom3h_pass1), four per
@ iteration, then one at a time (each word's loads pipeline behind the previous word's stores, and
@ the loop's branch is paid once per four words).
.macro PASS1_WORD back, half
  ldr r7, [r3], #4                  @ c0[i]
  ldr r9, [r4, #-\back]             @ s = c4[i - back / 4]
  ldr r8, [r4], #4                  @ c4[i]
  ldr r10, [r0]                     @ w1[i]
  ldr r11, [r1]                     @ wt[i]
  ldr r12, [r2]                     @ wu[i]
  eor r8, r8, r7                    @ x
  eor r10, r10, r8
  eor r7, r7, r9
  eor r11, r11, r7
  eor r12, r12, r8
  eor r12, r12, r9
  .if \half
  eor r12, r12, r6, lsr #16         @ u
  eor r6, r12, r12, lsl #16         @ q = u + (u << 16)
  .else
  eor r6, r6, r12                   @ q
  .endif
  str r10, [r0], #4
  str r11, [r1], #4
  str r6, [r2], #4
.endm

@ PASS1_FOUR back, half: four steps, the loop's block (its decrement and branch paid once per four).
.macro PASS1_FOUR back, half
  PASS1_WORD \back, \half
  PASS1_WORD \back, \half
  PASS1_WORD \back, \half
  PASS1_WORD \back, \half
.endm

@ PASS1 name, back, half: the routine `name` of PASS1_WORD back, half (its contract below).
.macro PASS1 name, back, half
  .global \name
  .section .text.\name, "ax", %progbits
  .type \name, %function
  .p2align 2
  .thumb_func
\name:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ c4
  ldr r5, [sp, #40]                 @ len
  ldr r6, [sp, #44]                 @ q
  WORDS_BY_BLOCKS r5, 4, "PASS1_FOUR \back, \half", "PASS1_WORD \back, \half"
  mov r0, r6
  pop {r4-r11, pc}
  .size \name, . - \name
.endm

@ uint32_t hqc_m4_toom_pass1(uint32_t* w1, uint32_t* wt, uint32_t* wu, const uint32_t* c0,
@                            const uint32_t* c4, size_t len, uint32_t q)
@ The body of Toom-3's first interpolation pass (ring_mul_m4.cpp, toom3), len >= 1 words where
@ every term exists: with x = c0[i] + c4[i] and s = c4[i - 4] (c4 - 4 words is readable; the
@ caller clears those four words when it starts at word 0, where t^4 c4 has none),
@ w1[i] += x, wt[i] += c0[i] + s, q += wu[i] + x + s, wu[i] = q (the division by t + 1 as a
@ running XOR). Returns the last q. Arguments 5 to 7 on the stack (AAPCS).
PASS1 hqc_m4_toom_pass1, 16, 0

@ PASS2_WORD mode: one step j of hqc_m4_toom_pass2 (two per iteration, the second's loads
@ pipelining behind the first's stores), with
@ r5 = q and r6 = v_prev carried: v = wu[j] + vt[j], c1 = w1[j] + v, q += vt[j] + c1 + v_prev
@ (now c3[j - 1]), c2[j - 1] = v_prev + q, v_prev = v. The coefficients go straight into the
@ product: out[m + j] += c1 (r3 = out + m + j), and with r11 = out + 2m + j - 1 and r12 = 4m
@ bytes, c2[j - 1] into out[2m + j - 1] and c3[j - 1] into out[3m + j - 1]: stored (mode 0, j <= m:
@ nothing is there yet), added (mode 1: c3[j - 1 - m] and c4 are there), or c2 added and c3, zero
@ above m + rem words, left out (mode 2). out[m + j]'s new value waits in r10 for the step's last
@ run, so that a step's memory accesses come in two runs.
.macro PASS2_WORD mode
  ldr r7, [r2], #4                  @ wu[j]
  ldr r8, [r1], #4                  @ vt[j]
  ldr r9, [r0], #4                  @ w1[j]
  ldr r10, [r3]                     @ out[m + j]
  eor r7, r7, r8                    @ v
  eor r9, r9, r7                    @ c1
  eor r10, r10, r9                  @ out[m + j] + c1, stored with the step's last run
  eor r8, r8, r9                    @ vt[j] + c1
  eor r5, r5, r8
  eor r5, r5, r6                    @ q = c3[j - 1]
  eor r9, r6, r5                    @ c2[j - 1]
  mov r6, r7                        @ v_prev = v
  str r10, [r3], #4
  .if \mode == 0
  str r5, [r11, r12]
  .elseif \mode == 1
  ldr r8, [r11]
  ldr r7, [r11, r12]
  eor r9, r9, r8
  eor r7, r7, r5
  str r7, [r11, r12]
  .else
  ldr r8, [r11]
  eor r9, r9, r8
  .endif
  str r9, [r11], #4
.endm

@ void hqc_m4_toom_pass2(const uint32_t* w1, const uint32_t* vt, const uint32_t* wu, uint32_t* out,
@                        size_t m, uint32_t ctl[4])
@ The body of Toom-3's second interpolation pass (ring_mul_m4.cpp, toom3_interpolate), steps
@ 1 <= j < 2m, each adding its coefficients into out = c0 + y^4 c4 (PASS2_WORD): m steps of
@ mode 0, then ctl[2] (>= 1) of mode 1 and ctl[3] (>= 0) of mode 2. The pointers are those of
@ word 1 of w1, vt and wu; ctl[0, 2) = {q, v_prev} in and out. Arguments 5 and 6 on the stack
@ (AAPCS).
  .global hqc_m4_toom_pass2
  .section .text.hqc_m4_toom_pass2, "ax", %progbits
  .type hqc_m4_toom_pass2, %function
  .p2align 2
  .thumb_func
hqc_m4_toom_pass2:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ m: the steps of mode 0
  ldr lr, [sp, #40]                 @ ctl
  lsl r12, r4, #2                   @ 4m bytes
  add r11, r3, r12, lsl #1          @ out + 2m (c2[0])
  add r3, r3, r12
  add r3, r3, #4                    @ out + m + 1
  ldrd r5, r6, [lr]                 @ q, v_prev
  WORDS_BY_TWO r4, "PASS2_WORD 0", "PASS2_WORD 0"
  ldr r4, [lr, #8]
  WORDS_BY_TWO r4, "PASS2_WORD 1", "PASS2_WORD 1"
  ldr r4, [lr, #12]
  cmp r4, #0
  beq 9f
  WORDS_BY_TWO r4, "PASS2_WORD 2", "PASS2_WORD 2"
9:
  strd r5, r6, [lr]
  pop {r4-r11, pc}
  .size hqc_m4_toom_pass2, . - hqc_m4_toom_pass2

@ EVAL3_WORD half, x1p, x1c, x2p, x2c: one word i of hqc_m4_toom3_eval3 (half = 0, t = x^32) or
@ hqc_m4_toom3h_eval3 (half = 1, t = x^16). x1[i - 1] is in \x1p and x1[i] is loaded into \x1c
@ (consecutive steps trade them); at x^16, x2[i - 1] is in \x2p and x2[i] is loaded
@ into \x2c likewise, at x^32 x2[i - 2] is loaded into r10 (\x2p = \x2c = r9). With s = x1[i] +
@ x2[i]: e1[i] = x0[i] + s, et[i] = x0[i] + x1[i - 1] + x2[i - 2] (x^32) or x0[i] + (x1[i] << 16)
@ + (x1[i - 1] >> 16) + x2[i - 1] (x^16), eu[i] = et[i] + s.
.macro EVAL3_WORD half, x1p, x1c, x2p, x2c
  ldr \x1c, [r4], #4                @ x1[i]
  ldr \x2c, [r5], #4                @ x2[i]
  .if \half == 0
  ldr r10, [r5, #-12]               @ x2[i - 2]
  .endif
  ldr r8, [r3], #4                  @ x0[i]
  eor r11, \x1c, \x2c               @ s
  .if \half
  eor lr, r8, \x1c, lsl #16
  eor lr, lr, \x1p, lsr #16
  eor lr, lr, \x2p                  @ et[i]
  .else
  eor lr, r8, \x1p
  eor lr, lr, r10                   @ et[i]
  .endif
  eor r8, r8, r11                   @ e1[i]
  eor r11, lr, r11                  @ eu[i]
  str r8, [r0], #4
  str lr, [r1], #4
  str r11, [r2], #4
.endm

@ EVAL3_FOUR half, x2a, x2b: four words, the registers of the previous words trading places twice
@ (x1 in r6, r7; x2 in \x2a, \x2b at x^16, r9 alone at x^32). EVAL3_ONE: one word, the previous
@ words then moved back to r6 and \x2a, the block's entry registers.
.macro EVAL3_FOUR half, x2a, x2b
  EVAL3_WORD \half, r6, r7, \x2a, \x2b
  EVAL3_WORD \half, r7, r6, \x2b, \x2a
  EVAL3_WORD \half, r6, r7, \x2a, \x2b
  EVAL3_WORD \half, r7, r6, \x2b, \x2a
.endm
.macro EVAL3_ONE half, x2a, x2b
  EVAL3_WORD \half, r6, r7, \x2a, \x2b
  mov r6, r7
  .if \half
  mov \x2a, \x2b
  .endif
.endm

@ EVAL3H_TAIL_WORD: one word rem <= i < m of hqc_m4_toom3h_eval3, where x2 has no word:
@ s = x1[i], and x2[i - 1] (r9) is x2[rem - 1] at i = rem and zero after.
.macro EVAL3H_TAIL_WORD
  ldr r7, [r4], #4                  @ x1[i]
  ldr r8, [r3], #4                  @ x0[i]
  eor lr, r8, r7, lsl #16
  eor lr, lr, r6, lsr #16
  eor lr, lr, r9                    @ et[i]
  movs r9, #0
  eor r8, r8, r7                    @ e1[i]
  eor r11, lr, r7                   @ eu[i]
  str r8, [r0], #4
  str lr, [r1], #4
  str r11, [r2], #4
  mov r6, r7
.endm

@ EVAL3 name, half: the routine of EVAL3_WORD,
@ void name(uint32_t* e1, uint32_t* et, uint32_t* eu, const uint32_t* x0, size_t m, size_t len):
@ len >= 1 words i from the first, i0, where x0, x1 = x0 + m and x2 = x0 + 2m all have a term
@ (i < rem, the length of x2); the pointers are those of word i0. At x^32, i0 >= 2 (x1[i0 - 1] and
@ x2[i0 - 2] are read); at x^16, i0 = 0, where x(t) has no x1[-1] and x2[-1] terms: their
@ registers start at zero, and len = rem: the routine goes on to the words rem <= i < m
@ (EVAL3H_TAIL_WORD) and to word m of et and eu, x1[m - 1] >> 16 + x2[m - 1] (the latter where
@ rem = m), so that it writes all of e1 (m words), et and eu (m + 1). Arguments 5 and 6 on the
@ stack (AAPCS).
.macro EVAL3 name, half
  .global \name
  .section .text.\name, "ax", %progbits
  .type \name, %function
  .p2align 2
  .thumb_func
\name:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ m
  ldr r12, [sp, #40]                @ len
  add r4, r3, r4, lsl #2            @ x1 + i0
  sub r5, r4, r3
  add r5, r4, r5                    @ x2 + i0
  .if \half
  movs r6, #0                       @ x1[-1] and x2[-1]: none
  movs r9, #0
  WORDS_BY_BLOCKS r12, 4, "EVAL3_FOUR 1, r9, r10", "EVAL3_ONE 1, r9, r10"
  ldr r12, [sp, #36]                @ m
  ldr r7, [sp, #40]                 @ rem
  subs r12, r12, r7                 @ the words rem <= i < m
  beq 5f
4:
  EVAL3H_TAIL_WORD
  subs r12, r12, #1
  bne 4b
5:
  lsr lr, r6, #16                   @ word m: x1[m - 1] >> 16, and x2[m - 1] (r9, zero unless rem = m)
  eor lr, lr, r9
  str lr, [r1]
  str lr, [r2]
  .else
  ldr r6, [r4, #-4]                 @ x1[i0 - 1]
  WORDS_BY_BLOCKS r12, 4, "EVAL3_FOUR 0, r9, r9", "EVAL3_ONE 0, r9, r9"
  .endif
  pop {r4-r11, pc}
  .size \name, . - \name
.endm

@ void hqc_m4_toom3_eval3(uint32_t* e1, uint32_t* et, uint32_t* eu, const uint32_t* x0, size_t m,
@                         size_t len), t = x^32: the words of x(1), x(t) and x(t + 1) in one pass
@ (ring_mul_m4.cpp, toom3_evaluate), reading each part's word once.
EVAL3 hqc_m4_toom3_eval3, 0

@ void hqc_m4_toom3h_eval3(...): the same at t = x^16, from word 0 to the end (len = rem).
EVAL3 hqc_m4_toom3h_eval3, 1

@ The passes of Toom-3 at t = x^16 (ring_mul_m4.cpp, toom3_half_interpolate), over the words
@ where every term exists (the edge words are in C++). A shift by t is a half-word shift, EOR with
@ a shifted operand; a division by t + 1 is the running XOR q[i] = u + (u << 16),
@ u = r[i] + (q[i - 1] >> 16).

@ uint32_t hqc_m4_toom3h_pass1(uint32_t* w1, uint32_t* wt, uint32_t* wu, const uint32_t* c0,
@                              const uint32_t* c4, size_t len, uint32_t q)
@ The body of the first interpolation pass at t = x^16 (toom3_half_interpolate), len >= 1 words
@ where every term exists: with x = c0[i] + c4[i] and s = c4[i - 2] (t^4 = x^64; c4 - 2 words is
@ readable, cleared by the caller when it starts at word 0), w1[i] += x, wt[i] += c0[i] + s, and
@ wu[i] = q = u + (u << 16) with u = wu[i] + x + s + (q >> 16) (the division by t + 1). Returns
@ the last q. Arguments 5 to 7 on the stack (AAPCS).
PASS1 hqc_m4_toom3h_pass1, 8, 1

@ PASS2H_STEP wraw, v, y, wraw', v', y', mode: one step j of the second pass at t = x^16, from the
@ state (\wraw = wt[j + 1], \v = v[j], \y = y[j], r8 = q) to (\wraw', \v', \y'): the
@ look-ahead to word j + 1 (vt, v, c1 and y), then x[j] = (y[j] >> 16) + (y[j + 1] << 16),
@ c3[j] = q = u + (u << 16) with u = x[j] + v[j] + (q >> 16), c2[j] = v[j] + c3[j]. The
@ coefficients go straight into the product: out[m + j + 1] += c1[j + 1] (r3), and with
@ lr = out + 2m + j and s0 = 4m bytes, c2[j] into out[2m + j] and c3[j] into out[3m + j]: stored
@ (mode 0, j < m: nothing is there yet), added (mode 1: c3[j - m] and c4 are there), or c2 added
@ and c3, zero from m + rem words on, left out (mode 2). The step's old state registers are its
@ temporaries once read. out[m + j + 1]'s new value waits in r9 for the step's last run (its stores,
@ and the loads of modes 1 and 2), so that a step's memory accesses come in two runs.
.macro PASS2H_STEP wraw, v, y, wraw2, v2, y2, mode
  ldr \wraw2, [r1], #4              @ wt[j + 2]
  ldr \v2, [r2], #4                 @ wu[j + 1]
  ldr \y2, [r0], #4                 @ w1[j + 1]
  ldr r9, [r3]                      @ out[m + j + 1]
  lsr r12, \wraw, #16
  orr r12, r12, \wraw2, lsl #16     @ vt[j + 1]
  eor \v2, \v2, r12                 @ v[j + 1]
  eor \y2, \y2, \v2                 @ c1[j + 1]
  eor r9, r9, \y2                   @ out[m + j + 1] + c1[j + 1], stored with the step's last run
  eor \y2, \y2, r12                 @ y[j + 1]
  lsr r12, \y, #16
  orr r12, r12, \y2, lsl #16        @ x[j]
  eor r12, r12, \v
  eor r12, r12, r8, lsr #16         @ u
  eor r8, r12, r12, lsl #16         @ q = c3[j]
  eor r12, r8, \v                   @ c2[j]
  .if \mode == 0
  vmov \wraw, s0
  str r9, [r3], #4
  str r8, [lr, \wraw]
  .elseif \mode == 1
  vmov \wraw, s0
  str r9, [r3], #4
  ldr \v, [lr, \wraw]
  ldr \y, [lr]
  eor \v, \v, r8
  eor r12, r12, \y
  str \v, [lr, \wraw]
  .else
  str r9, [r3], #4
  ldr \y, [lr]
  eor r12, r12, \y
  .endif
  str r12, [lr], #4
.endm

@ PASS2H_RUN mode: steps[mode] steps (any count, public) of PASS2H_STEP mode, two an iteration
@ (the state registers trading places) while two are left, the loop ending when wu's pointer
@ reaches the pairs' end ([sp]); an odd last step is followed by three MOVs that bring the state
@ back to r4, r6, r7. steps is in s1; the count is kept at [sp, #4].
.macro PASS2H_RUN mode
  vmov r12, s1
  ldr r9, [r12, #4 * \mode]         @ steps[mode]
  str r9, [sp, #4]
  bic r12, r9, #1
  add r12, r2, r12, lsl #2          @ wu's pointer after the pairs
  str r12, [sp]
  cmp r2, r12
  beq 2f                            @ fewer than two steps
1:
  PASS2H_STEP r4, r6, r7, r5, r10, r11, \mode
  PASS2H_STEP r5, r10, r11, r4, r6, r7, \mode
  ldr r12, [sp]
  cmp r2, r12
  bne 1b
2:
  ldr r9, [sp, #4]
  tst r9, #1
  beq 3f
  PASS2H_STEP r4, r6, r7, r5, r10, r11, \mode
  mov r4, r5
  mov r6, r10
  mov r7, r11
3:
.endm

@ void hqc_m4_toom3h_pass2(const uint32_t* w1, const uint32_t* wt, const uint32_t* wu,
@                          uint32_t* out, size_t m, const uint32_t steps[3], uint32_t state[4])
@ The second interpolation pass at t = x^16 (toom3_half_interpolate): steps[0] steps j of
@ PASS2H_STEP mode 0 from j0, then steps[1] of mode 1 and steps[2] of mode 2 (each count >= 0),
@ each step needing word j + 1 of w1 (c1 has 2m words) and word j + 2 of wt. The pointers are
@ w1 + j0 + 1, wt + j0 + 2, wu + j0 + 1 and out + j0; state = {wt[j0 + 1], v[j0], y[j0], q} in
@ and out (the next step's), with vt = wt / t, v = wu + vt, c1 = w1 + v, y = vt + c1, as the C++
@ step (toom3_half_interpolate). s0 = 4m bytes, s1 = steps, s2 = state. Arguments 5 to 7 on the
@ stack (AAPCS).
  .global hqc_m4_toom3h_pass2
  .section .text.hqc_m4_toom3h_pass2, "ax", %progbits
  .type hqc_m4_toom3h_pass2, %function
  .p2align 2
  .thumb_func
hqc_m4_toom3h_pass2:
  push {r4-r11, lr}
  ldr r12, [sp, #36]                @ m
  lsl r12, r12, #2                  @ 4m bytes
  vmov s0, r12
  add lr, r3, r12, lsl #1           @ out + j0 + 2m
  add r3, r3, r12
  add r3, r3, #4                    @ out + j0 + m + 1
  ldr r9, [sp, #40]                 @ steps
  ldr r12, [sp, #44]                @ state
  vmov s1, s2, r9, r12
  ldm r12, {r4, r6, r7, r8}
  sub sp, #8                        @ [sp]: the pairs' end; [sp, #4]: the run's count
  PASS2H_RUN 0
  PASS2H_RUN 1
  PASS2H_RUN 2
  add sp, #8
  vmov r12, s2
  stm r12, {r4, r6, r7, r8}
  pop {r4-r11, pc}
  .size hqc_m4_toom3h_pass2, . - hqc_m4_toom3h_pass2

@ void hqc_m4_xor4(uint32_t* dst, const uint32_t* x, const uint32_t* y, const uint32_t* z, size_t len)
@ dst[i] = x[i] ^ y[i] ^ z[i] for i < len, in one pass (three streams in, one out). dst may be x
@ (dst[i] ^= y[i] ^ z[i]); z may lie ahead of dst in the same buffer (z >= dst): every block's
@ loads come before its store, and a later block reads only z words above the ones stored.
@ Argument 5 on the stack (AAPCS). Blocks of four words, two an iteration, as hqc_m4_xor3.
.macro XOR4_FOUR
  ldm r1!, {r4-r7}
  ldm r2!, {r8-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  ldm r3!, {r8-r11}
  eor r4, r4, r8
  eor r5, r5, r9
  eor r6, r6, r10
  eor r7, r7, r11
  stm r0!, {r4-r7}
.endm
.macro XOR4_ONE
  ldr r4, [r1], #4
  ldr r5, [r2], #4
  ldr r6, [r3], #4
  eor r4, r4, r5
  eor r4, r4, r6
  str r4, [r0], #4
.endm
  .global hqc_m4_xor4
  .section .text.hqc_m4_xor4, "ax", %progbits
  .type hqc_m4_xor4, %function
  .p2align 2
  .thumb_func
hqc_m4_xor4:
  push {r4-r11}
  ldr r12, [sp, #32]                @ len
  WORDS_BY_FOURS r12, "XOR4_FOUR", "XOR4_ONE"
  pop {r4-r11}
  bx lr
  .size hqc_m4_xor4, . - hqc_m4_xor4

@ void hqc_m4_karatsuba3_interp(uint32_t* out, const uint32_t* p01, const uint32_t* p02,
@                          const uint32_t* p12, size_t k), k >= 1
@ The interpolation of ring_mul_m4.cpp's three-way Karatsuba in one pass. out holds the k-word
@ blocks B0 .. B5 = P0, P1, P2 (2k words each); p01, p02, p12 the products of the sums (their
@ low and high halves Pl = p[0, k), Ph = p[k, 2k)). With X = B0 + B1 + B2, Y = B3 + B4 + B5 and
@ W = X + Y, for every i < k (word i of each block, from the values before the pass; iteration i
@ reads and writes word i of the blocks only):
@   B1 = X + P01l, B2 = W + B5 + P01h + P02l, B3 = W + B0 + P02h + P12l, B4 = Y + P12h,
@ which is out + y (P01 + P0 + P1) + y^2 (P02 + P0 + P2) + y^3 (P12 + P1 + P2), y = x^(32k).
@ Argument 5 on the stack (AAPCS).
  .global hqc_m4_karatsuba3_interp
  .section .text.hqc_m4_karatsuba3_interp, "ax", %progbits
  .type hqc_m4_karatsuba3_interp, %function
  .p2align 2
  .thumb_func
hqc_m4_karatsuba3_interp:
  push {r4-r11, lr}
  ldr lr, [sp, #36]                 @ k
  mov r12, r3                       @ p12
  mov r3, r2                        @ p02
  mov r2, r1                        @ p01
  lsl r4, lr, #2                    @ k in bytes
  add r1, r0, r4, lsl #1
  add r1, r1, r4                    @ B3 = out + 3k
1:
  ldr r5, [r0]                      @ B0
  ldr r6, [r0, r4]                  @ B1
  ldr r7, [r0, r4, lsl #1]          @ B2
  ldr r9, [r1, r4, lsl #1]          @ B5
  eor r8, r5, r6
  eor r8, r8, r7                    @ X
  ldr r6, [r1]                      @ B3
  ldr r7, [r1, r4]                  @ B4
  eor r10, r6, r7
  eor r10, r10, r9                  @ Y
  eor r11, r8, r10                  @ W
  ldr r6, [r2, r4]                  @ P01h
  ldr r7, [r2], #4                  @ P01l
  eor r8, r8, r7                    @ new B1
  eor r9, r9, r11
  eor r9, r9, r6
  ldr r6, [r3, r4]                  @ P02h
  ldr r7, [r3], #4                  @ P02l
  eor r9, r9, r7                    @ new B2
  eor r5, r5, r11
  eor r5, r5, r6
  ldr r6, [r12, r4]                 @ P12h
  ldr r7, [r12], #4                 @ P12l
  eor r5, r5, r7                    @ new B3
  eor r10, r10, r6                  @ new B4
  str r8, [r0, r4]
  str r9, [r0, r4, lsl #1]
  str r5, [r1]
  str r10, [r1, r4]
  adds r0, r0, #4
  adds r1, r1, #4
  subs lr, lr, #1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_karatsuba3_interp, . - hqc_m4_karatsuba3_interp
