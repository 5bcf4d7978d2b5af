@ The Horner evaluations of Reed-Solomon decoding on the Cortex-M4 (spec §5.6;
@ reed_solomon_m4.cpp): four GF(2^8) elements per word (byte lanes), each lane multiplied by a
@ public constant of that lane and then added to a secret coefficient, once per coefficient. A
@ product by the public word X is the XOR over the bits b of the secret factor of x^b X in the
@ lanes whose bit b is set, with the eight multiples x^b X a table in flash; the lanes are
@ chosen by UADD8 and SEL (HORNER_STEP). Here the loop runs over the coefficients for one word at a time,
@ so that the word's eight multiples stay in registers (r4-r11) for all of them, instead of being
@ loaded again for every coefficient. The instructions, their number and the addresses depend on
@ the lengths only (public); the coefficients and the values are only computed with.
#include "backend/m4/word_loop_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ HORNER_STEP in, out: out = in * X + c * 0x01010101 for the next coefficient c (read at r0,
@ which moves down one byte), with r2 = 0 and X's multiples x^b X in r(4 + b); lr is scratch and
@ in is used up. Bit b of every lane of in, from bit 7 down, selects x^b X: UADD8 doubles each
@ lane of in (no carry crosses a lane) and sets the lane's GE flag exactly where its top bit
@ carried out, and SEL then takes x^b X in those lanes and zero in the others: three
@ single-cycle instructions a bit, against four for a mask built by AND and RSB.
.macro HORNER_STEP in, out
  ldrb lr, [r0], #-1
  orr \out, lr, lr, lsl #8
  orr \out, \out, \out, lsl #16      @ c in every lane
  .irp mb, r11, r10, r9, r8, r7, r6, r5, r4
  uadd8 \in, \in, \in               @ GE: bit b of each lane, b = 7 .. 0
  sel lr, \mb, r2                   @ x^b X in those lanes
  eor \out, \out, lr
  .endr
.endm

@ void hqc_m4_rs_horner(uint32_t* acc, const uint32_t* mult, size_t words, const uint8_t* coef_top,
@                       size_t count)
@ For each word k < words (words >= 1, count >= 1): acc[k] = the Horner evaluation, from zero, over
@ the count coefficients coef_top[0], coef_top[-1], ..., coef_top[1 - count] (each in every lane),
@ of the lanes' public points, whose multiples are mult[8k .. 8k + 8) (reed_solomon_m4.cpp's
@ Multiples): acc = acc * X_k + c for each coefficient in that order. Argument 5 on the stack
@ (AAPCS).
@ Frame: [sp] acc, mult, words left, coef_top, count.
  .global hqc_m4_rs_horner
  .section .text.hqc_m4_rs_horner, "ax", %progbits
  .type hqc_m4_rs_horner, %function
  .p2align 2
  .thumb_func
hqc_m4_rs_horner:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ count
  sub sp, #20
  stm sp, {r0-r4}
  movs r2, #0
.Lrs_horner_word:
  ldr r0, [sp, #4]
  ldm r0!, {r4-r11}                 @ X_k's multiples
  str r0, [sp, #4]
  ldr r0, [sp, #12]                 @ the first coefficient
  ldr r1, [sp, #16]
  movs r3, #0
  WORDS_BY_TWO r1, "HORNER_STEP r3, r12", "HORNER_STEP r12, r3"
  ldr r1, [sp, #16]
  tst r1, #1                        @ an odd count ends in r12 (count is public)
  it ne
  movne r3, r12
  ldr r0, [sp]
  str r3, [r0], #4
  str r0, [sp]
  ldr r1, [sp, #8]
  subs r1, r1, #1
  str r1, [sp, #8]
  bne .Lrs_horner_word
  add sp, #20
  pop {r4-r11, pc}
  .size hqc_m4_rs_horner, . - hqc_m4_rs_horner
