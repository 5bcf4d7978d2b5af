@ The linear passes of the Cortex-M4 Toom-4 step (ring_mul_m4.cpp, toom4): its evaluations and
@ the interpolation's passes A to D, one word per step, every stream read and written once per
@ pass with post-indexed single loads and stores (which pipeline on the M4: a run of n costs about
@ n + 1 cycles), the running quotients and the words up to five below kept in registers. Lengths
@ and addresses are public (they depend on the operand size only); no branch or address depends
@ on the data. Passes B, C and D take two words per iteration (the registers of the values
@ carried from one word to the next trade places between them) over an even length, 2m + 6; A1,
@ which carries nothing, four; the steps order their loads and stores into runs, so that all but
@ the first access of a run pipeline.
#include "backend/m4/word_loop_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ EVAL_WORD a, b1, b2, c1, c2, c3: one word j of hqc_m4_toom4_eval2, with \a = p1[j - 1],
@ \b1 = p2[j - 1], \b2 = p2[j - 2], \c1 = p3[j - 1], \c2 = p3[j - 2], \c3 = p3[j - 3] on entry.
@ Each part's new word is loaded into the register of its oldest word, which is dead by then:
@ \a becomes p1[j], \b2 p2[j], \c3 p3[j], so the roles rotate from one word to the next (period
@ 2 for p2, 3 for p3; the loop is unrolled six times).
.macro EVAL_WORD a, b1, b2, c1, c2, c3
  ldr r12, [r2], #4                 @ p0[j]
  eor r12, r12, \a
  eor r12, r12, \b2
  eor r12, r12, \c3                 @ e1[j]
  ldr \a, [r3], #4                  @ p1[j]
  ldr \b2, [r4], #4                 @ p2[j]
  ldr \c3, [r5], #4                 @ p3[j]
  str r12, [r0], #4
  eor r12, r12, \a
  eor r12, r12, \b2
  eor r12, r12, \c3
  eor r12, r12, \c1
  eor r12, r12, \c2                 @ e2[j]
  str r12, [r1], #4
.endm

@ The six rotations of EVAL_WORD's registers: r6 = p1; r7, r8 = p2; r9, r10, r11 = p3.
.macro EVAL_SIX
  EVAL_WORD r6, r7, r8, r9, r10, r11
  EVAL_WORD r6, r8, r7, r11, r9, r10
  EVAL_WORD r6, r7, r8, r10, r11, r9
  EVAL_WORD r6, r8, r7, r9, r10, r11
  EVAL_WORD r6, r7, r8, r11, r9, r10
  EVAL_WORD r6, r8, r7, r10, r11, r9
.endm

@ EVAL_ROTATION: the older words of p2 and p3 into the registers of EVAL_SIX's entry rotation
@ (r7, r8 = p2[j - 1], p2[j - 2]; r9, r10, r11 = p3[j - 1], p3[j - 2], p3[j - 3]), from the
@ pointers at word j. EVAL_ONE: one word in that rotation, which it then restores.
.macro EVAL_ROTATION
  ldr r7, [r4, #-4]
  ldr r8, [r4, #-8]
  ldr r9, [r5, #-4]
  ldr r10, [r5, #-8]
  ldr r11, [r5, #-12]
.endm
.macro EVAL_ONE
  EVAL_WORD r6, r7, r8, r9, r10, r11
  EVAL_ROTATION
.endm

@ void hqc_m4_toom4_eval2(uint32_t* e1, uint32_t* e2, const uint32_t* p0, const uint32_t* p1,
@                         const uint32_t* p2, const uint32_t* p3, size_t m)
@ For j < m + 3: e1[j] = p0[j] + p1[j - 1] + p2[j - 2] + p3[j - 3] and
@ e2[j] = e1[j] + p1[j] + p2[j] + p3[j] + p3[j - 1] + p3[j - 2] (the words of A(t) and A(t + 1),
@ or with the parts reversed of t^3 A(1/t) and (t + 1)^3 A(1/(t + 1))), each part of m >= 6
@ words, a term being zero where its part has no word. Arguments 5 to 7 on the stack (AAPCS).
@ Words 0 .. m - 1 in blocks of six, then one at a time (each by a six-word block's first step
@ after the registers are brought to its entry rotation: the tail words reload the older words,
@ which exist from word 6 on); the words below 0 start as zero registers. Words m .. m + 2, where
@ only the older words are left, from the registers.
  .global hqc_m4_toom4_eval2
  .section .text.hqc_m4_toom4_eval2, "ax", %progbits
  .type hqc_m4_toom4_eval2, %function
  .p2align 2
  .thumb_func
hqc_m4_toom4_eval2:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ p2
  ldr r5, [sp, #40]                 @ p3
  ldr lr, [sp, #44]                 @ m
  movs r6, #0                       @ p1[-1], p2[-1], p2[-2], p3[-1], p3[-2], p3[-3]: none
  movs r7, #0
  movs r8, #0
  movs r9, #0
  movs r10, #0
  movs r11, #0
  WORDS_BY_BLOCKS lr, 6, "EVAL_SIX", "EVAL_ONE"
  @ Words m, m + 1, m + 2 from r6 = p1[m - 1], r7, r8 = p2[m - 1], p2[m - 2], r9, r10, r11 =
  @ p3[m - 1], p3[m - 2], p3[m - 3] (the entry rotation).
  eor r12, r6, r8
  eor r12, r12, r11                 @ e1[m]
  eor lr, r12, r9
  eor lr, lr, r10                   @ e2[m]
  eor r6, r7, r10                   @ e1[m + 1]
  eor r8, r6, r9                    @ e2[m + 1]
  str r12, [r0], #4
  str r6, [r0], #4
  str r9, [r0]                      @ e1[m + 2] = e2[m + 2] = p3[m - 1]
  str lr, [r1], #4
  str r8, [r1], #4
  str r9, [r1]
  pop {r4-r11, pc}
  .size hqc_m4_toom4_eval2, . - hqc_m4_toom4_eval2

@ A1_WORD: one word of hqc_m4_toom4_pass_a1.
.macro A1_WORD
  ldr r7, [r3, #-24]                @ c0[i - 6]
  ldr r6, [r3], #4                  @ c0[i]
  ldr r9, [r4, #-24]                @ c6[i - 6]
  ldr r8, [r4], #4                  @ c6[i]
  ldr r10, [r0]
  ldr r11, [r1]
  ldr r12, [r2]
  eor r10, r10, r6
  eor r10, r10, r8
  eor r11, r11, r6
  eor r11, r11, r9
  eor r12, r12, r7
  eor r12, r12, r8
  str r10, [r0], #4
  str r11, [r1], #4
  str r12, [r2], #4
.endm

@ Four words an iteration: the loop's decrement and branch are paid once per four.
.macro A1_FOUR
  A1_WORD
  A1_WORD
  A1_WORD
  A1_WORD
.endm

@ void hqc_m4_toom4_pass_a1(uint32_t* w1, uint32_t* wt, uint32_t* wr, const uint32_t* c0,
@                          const uint32_t* c6, size_t len)
@ For i < len: w1[i] += c0[i] + c6[i] (P1), wt[i] += c0[i] + c6[i - 6] (P2), wr[i] += c0[i - 6] +
@ c6[i] (P4); c0 - 6 and c6 - 6 words are readable (zero there). len >= 1. Arguments 5 and 6 on the
@ stack. Words in blocks of four, then one at a time.
  .global hqc_m4_toom4_pass_a1
  .section .text.hqc_m4_toom4_pass_a1, "ax", %progbits
  .type hqc_m4_toom4_pass_a1, %function
  .p2align 2
  .thumb_func
hqc_m4_toom4_pass_a1:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ c6
  ldr r5, [sp, #40]                 @ len
  WORDS_BY_BLOCKS r5, 4, "A1_FOUR", "A1_WORD"
  pop {r4-r11, pc}
  .size hqc_m4_toom4_pass_a1, . - hqc_m4_toom4_pass_a1

@ A2_WORD x, y, a, b, c, d: one word i of hqc_m4_toom4_pass_a2, from the identity
@ (t + 1)^6 / (t + 1) = (t + 1)^5 = t^5 + t^4 + t + 1 over GF(2): the running XORs take
@ wu[i] + c0[i] (r4) and ws[i] + c6[i] (r5) only, and the words of (t + 1)^5 c6 and (t + 1)^5 c0
@ are added to the quotients as they are stored. On entry \a = c0[i - 1], \b = c0[i - 5],
@ \c = c6[i - 1], \d = c6[i - 5]; \x, \y are free and receive c0[i], c6[i]; c6[i - 4] goes into \c
@ and c0[i - 4] into \a once they are dead. For word i + 1: a = \x, b = \a, c = \y, d = \c (and
@ \b, \d are free): A2_THREE rotates the registers over three words. r12 and lr are the two
@ outputs' temporaries, so that a word's memory accesses come in two runs: four loads, then two
@ loads and two stores that run into the next word's loads.
.macro A2_WORD x, y, a, b, c, d
  ldr \x, [r2], #4                  @ c0[i]
  ldr \y, [r3], #4                  @ c6[i]
  ldr r12, [r0]                     @ wu[i]
  ldr lr, [r1]                      @ ws[i]
  eor r4, r4, r12
  eor r4, r4, \x                    @ qu
  eor r5, r5, lr
  eor r5, r5, \y                    @ qs
  eor r12, r4, \y
  eor r12, r12, \c
  eor r12, r12, \d
  eor lr, r5, \x
  eor lr, lr, \a
  eor lr, lr, \b
  ldr \c, [r3, #-20]                @ c6[i - 4]
  ldr \a, [r2, #-20]                @ c0[i - 4]
  eor r12, r12, \c
  eor lr, lr, \a
  str r12, [r0], #4                 @ Ru[i] = qu + c6[i] + c6[i - 1] + c6[i - 4] + c6[i - 5]
  str lr, [r1], #4                  @ Rs[i] = qs + c0[i] + c0[i - 1] + c0[i - 4] + c0[i - 5]
.endm

@ A2_ROTATION: c0[i - 1], c0[i - 5], c6[i - 1], c6[i - 5] into r8 .. r11, A2_THREE's entry
@ rotation, from the pointers at word i. A2_ONE: one word in that rotation, which it then restores.
.macro A2_ROTATION
  ldr r8, [r2, #-4]
  ldr r9, [r2, #-20]
  ldr r10, [r3, #-4]
  ldr r11, [r3, #-20]
.endm
.macro A2_ONE
  A2_WORD r6, r7, r8, r9, r10, r11
  A2_ROTATION
.endm

.macro A2_THREE
  A2_WORD r6, r7, r8, r9, r10, r11
  A2_WORD r9, r11, r6, r8, r7, r10
  A2_WORD r8, r10, r9, r6, r11, r7
.endm

@ void hqc_m4_toom4_pass_a2(uint32_t* wu, uint32_t* ws, const uint32_t* c0, const uint32_t* c6,
@                          size_t len)
@ The divisions by t + 1 of Ru and Rs, for i < len (c0 - 6 and c6 - 6 words readable, zero):
@   Ru = (wu + c0 + (t + 1)^6 c6) / (t + 1) = RX(wu + c0) + (t + 1)^5 c6 into wu,
@   Rs = (ws + (t + 1)^6 c0 + c6) / (t + 1) = RX(ws + c6) + (t + 1)^5 c0 into ws,
@ RX being the running XOR from 0 (the division of a power series by t + 1: linear, and exact
@ for (t + 1)^6 c). len >= 1. Argument 5 on the stack. Words in blocks of three, then one at a
@ time (the carried words reloaded for the next); the count waits in s0 (caller-saved) while the
@ words use lr.
  .global hqc_m4_toom4_pass_a2
  .section .text.hqc_m4_toom4_pass_a2, "ax", %progbits
  .type hqc_m4_toom4_pass_a2, %function
  .p2align 2
  .thumb_func
hqc_m4_toom4_pass_a2:
  push {r4-r11, lr}
  ldr lr, [sp, #36]                 @ len
  movs r4, #0
  movs r5, #0
  A2_ROTATION
  WORDS_BY_BLOCKS lr, 3, "A2_THREE", "A2_ONE", "vmov s0, lr", "vmov lr, s0"
  pop {r4-r11, pc}
  .size hqc_m4_toom4_pass_a2, . - hqc_m4_toom4_pass_a2

@ B_WORD p, pn, e1, e2: one word of hqc_m4_toom4_pass_b. \p holds P1[i], \pn receives P1[i + 1];
@ \e1, \e2 hold E[i - 1], E[i - 2], and E[i] replaces E[i - 2] in \e2. r6, r7: the quotients of
@ R2 and R4. The loads and stores come in two runs a word (each word's last two stores run into
@ the next word's three loads), so that all but the first of each run pipeline.
.macro B_WORD p, pn, e1, e2
  ldr \pn, [r0, #4]!                @ P1[i + 1] (r0 advances to word i + 1)
  ldr r12, [r1]                     @ Rt[i]
  ldr lr, [r2, #4]                  @ Ru[i + 1]
  eor r6, r6, r12
  eor r6, r6, \p                    @ R2[i]
  eor lr, lr, \pn                   @ R3[i]
  eor r12, lr, r6                   @ S23[i]
  eor \e2, \e2, \e1
  eor \e2, \e2, r12                  @ E[i - 2] + E[i - 1] + S23[i]
  str lr, [r2], #4                  @ wu[i] = R3[i]
  str r12, [r1], #4                 @ rt[i] = S23[i]
  ldr lr, [r3]                      @ Rr[i]
  ldr r12, [r4, #4]                 @ Rs[i + 1]
  eor r7, r7, lr
  eor r7, r7, \p                    @ R4[i]
  eor r12, r12, \pn                 @ R5[i]
  eor \e2, \e2, r7
  eor \e2, \e2, r12                  @ E[i] (+ S45[i] = R4[i] + R5[i])
  str r12, [r4], #4                 @ ws[i] = R5[i]
  str \e2, [r3], #4                 @ rr[i] = E[i]
.endm

@ void hqc_m4_toom4_pass_b(uint32_t* w1, uint32_t* rt, uint32_t* wu, uint32_t* rr, uint32_t* ws,
@                         size_t len)
@ For i < len, with P1 = w1, Rt = rt, Ru = wu, Rr = rr, Rs = ws (words up to len readable):
@   R2 = (Rt + P1) / (t + 1), R4 = (Rr + P1) / (t + 1) (running XORs),
@   R3[i] = Ru[i + 1] + P1[i + 1], R5[i] = Rs[i + 1] + P1[i + 1] (division by t) into wu[i], ws[i],
@   S23 = R2 + R3 into rt[i], E = (S23 + R4 + R5) / (t^2 + t + 1) into rr[i]
@ (E[i] = S23[i] + S45[i] + E[i - 1] + E[i - 2]). w1 is only read. len even, >= 2. Arguments 5 and 6
@ on the stack.
  .global hqc_m4_toom4_pass_b
  .section .text.hqc_m4_toom4_pass_b, "ax", %progbits
  .type hqc_m4_toom4_pass_b, %function
  .p2align 2
  .thumb_func
hqc_m4_toom4_pass_b:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ ws
  ldr r5, [sp, #40]                 @ len
  movs r6, #0
  movs r7, #0
  movs r8, #0                       @ E[-1]
  movs r9, #0                       @ E[-2]
  ldr r10, [r0]                     @ P1[0]
  WORDS_BY_TWO r5, "B_WORD r10, r11, r8, r9", "B_WORD r11, r10, r9, r8", 0
  pop {r4-r11, pc}
  .size hqc_m4_toom4_pass_b, . - hqc_m4_toom4_pass_b

@ C_WORD f1, f2, ep1, ep2: one word of hqc_m4_toom4_pass_c. r6 = g (G[i], then G[i + 1] = F[i]);
@ \f1, \f2 hold d4[i - 1], d4[i - 2] (d4[i] replaces \f2); \ep1, \ep2 hold E[i - 1], E[i - 2]
@ (E[i] replaces \ep2 once F[i] has read it). The loads and stores come in two runs a word (the
@ three stores of a word run into the next word's two loads).
.macro C_WORD f1, f2, ep1, ep2
  ldr r11, [r0, #4]!                @ R3[i + 1] (r0 advances)
  ldr r12, [r1, #4]                 @ R5[i + 1]
  eor r6, r6, r11
  eor r6, r6, r12
  eor r6, r6, \ep2                  @ F[i] = G[i + 1]
  str r6, [r1], #4                  @ ws[i] = F[i]
  ldr \ep2, [r2]                    @ E[i]
  ldr r11, [r3]                     @ P1[i]
  ldr r12, [r4]                     @ S23[i]
  eor r11, r11, \ep2
  eor r11, r11, r6                  @ d2[i]
  eor r12, r12, r11
  eor r12, r12, \f1
  eor \f2, \f2, r12                 @ d4[i]
  eor lr, \ep2, \f2                 @ d0[i]
  str r11, [r3], #4                 @ w1[i] = d2[i]
  str \f2, [r4], #4                 @ rt[i] = d4[i]
  str lr, [r2], #4                  @ rr[i] = d0[i]
.endm

@ void hqc_m4_toom4_pass_c(const uint32_t* wu, uint32_t* ws, uint32_t* rr, uint32_t* w1,
@                         uint32_t* rt, size_t len)
@ For i < len, with R3 = wu, R5 = ws, E = rr, P1 = w1, S23 = rt (words up to len readable):
@   G = (R3 + R5 + t^3 E) / (t + 1) (running XOR), F[i] = G[i + 1] into ws[i];
@   d2 = P1 + E + F into w1[i]; d4 = (S23 + d2) / (t^2 + t + 1) into rt[i]; d0 = E + d4 into rr[i].
@ wu is only read. len even, >= 2. Arguments 5 and 6 on the stack.
  .global hqc_m4_toom4_pass_c
  .section .text.hqc_m4_toom4_pass_c, "ax", %progbits
  .type hqc_m4_toom4_pass_c, %function
  .p2align 2
  .thumb_func
hqc_m4_toom4_pass_c:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ rt
  ldr r5, [sp, #40]                 @ len
  ldr r6, [r0]
  ldr r7, [r1]
  eor r6, r6, r7                    @ G[0] = R3[0] + R5[0]
  movs r7, #0                       @ d4[-1]
  movs r8, #0                       @ d4[-2]
  movs r9, #0                       @ E[-1]
  movs r10, #0                      @ E[-2]
  WORDS_BY_TWO r5, "C_WORD r7, r8, r9, r10", "C_WORD r8, r7, r10, r9", 0
  pop {r4-r11, pc}
  .size hqc_m4_toom4_pass_c, . - hqc_m4_toom4_pass_c

@ D_WORD dp1, dp2: one word of hqc_m4_toom4_pass_d. r6 = h; \dp1, \dp2 hold d4[i - 1], d4[i - 2]
@ (d4[i] replaces \dp2). F[i] is loaded with the first run, into r9, so that d4[i]'s load and the
@ two stores run together.
.macro D_WORD dp1, dp2
  ldr r11, [r0, #4]                 @ R3[i + 1]
  ldr r12, [r1], #4                 @ d2[i]
  ldr lr, [r3, #4]                  @ F[i + 1]
  ldr r9, [r3]                      @ F[i]
  eor r6, r6, r11
  eor r6, r6, r12
  eor r6, r6, \dp2
  eor r6, r6, lr                    @ d3[i] = H[i + 1]
  eor r9, r9, r6                    @ d1[i] = F[i] + d3[i]
  ldr \dp2, [r2], #4                @ d4[i]
  str r6, [r0], #4                  @ wu[i] = d3[i]
  str r9, [r3], #4                  @ ws[i] = d1[i]
.endm

@ void hqc_m4_toom4_pass_d(uint32_t* wu, const uint32_t* w1, const uint32_t* rt, uint32_t* ws,
@                         size_t len)
@ For i < len, with R3 = wu, d2 = w1, d4 = rt, F = ws (words up to len readable):
@   H = (R3 + t d2 + t^3 d4 + F) / (t + 1) (running XOR), d3[i] = H[i + 1] into wu[i],
@   d1 = F + d3 into ws[i]. len even, >= 2. Argument 5 on the stack.
  .global hqc_m4_toom4_pass_d
  .section .text.hqc_m4_toom4_pass_d, "ax", %progbits
  .type hqc_m4_toom4_pass_d, %function
  .p2align 2
  .thumb_func
hqc_m4_toom4_pass_d:
  push {r4-r11, lr}
  ldr r5, [sp, #36]                 @ len
  ldr r6, [r0]
  ldr r7, [r3]
  eor r6, r6, r7                    @ H[0] = R3[0] + F[0]
  movs r7, #0                       @ d4[-1]
  movs r8, #0                       @ d4[-2]
  WORDS_BY_TWO r5, "D_WORD r7, r8", "D_WORD r8, r7", 0
  pop {r4-r11, pc}
  .size hqc_m4_toom4_pass_d, . - hqc_m4_toom4_pass_d
