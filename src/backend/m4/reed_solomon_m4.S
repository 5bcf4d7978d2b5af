@ The Horner evaluations of Reed-Solomon decoding on the Cortex-M4 (spec §5.6;
@ reed_solomon_m4.cpp): four GF(2^8) elements per word (byte lanes), each lane multiplied by a
@ public constant of that lane and then added to a secret coefficient, once per coefficient. A
@ product by the public word X is the XOR over the bits b of the secret factor of (bit b of each
@ lane as a lane mask) AND (x^b X), with the eight multiples x^b X a table in flash; the mask of
@ bit b is one AND with a shifted operand (the lanes' low bits 0x01010101 in a register) and one
@ RSB (v * 255 = (v << 8) - v). Here the loop runs over the coefficients for one word at a time,
@ so that the word's eight multiples stay in registers (r4-r11) for all of them, instead of being
@ loaded again for every coefficient. The instructions, their number and the addresses depend on
@ the lengths only (public); the coefficients and the values are only computed with.
#include "backend/m4/word_loop_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ HORNER_STEP in, out: out = in * X + c * 0x01010101 for the next coefficient c (read at r0,
@ which moves down one byte), with r2 = 0x01010101 and X's multiples in r4-r11; lr is scratch.
.macro HORNER_STEP in, out
  ldrb lr, [r0], #-1
  mul \out, lr, r2                  @ c in every lane
  and lr, r2, \in
  rsb lr, lr, lr, lsl #8
  and lr, lr, r4
  eor \out, \out, lr
  .irp b, 1, 2, 3, 4, 5, 6, 7
  and lr, r2, \in, lsr #\b
  rsb lr, lr, lr, lsl #8
  .if \b == 1
  and lr, lr, r5
  .elseif \b == 2
  and lr, lr, r6
  .elseif \b == 3
  and lr, lr, r7
  .elseif \b == 4
  and lr, lr, r8
  .elseif \b == 5
  and lr, lr, r9
  .elseif \b == 6
  and lr, lr, r10
  .else
  and lr, lr, r11
  .endif
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
  .type hqc_m4_rs_horner, %function
  .p2align 2
  .thumb_func
hqc_m4_rs_horner:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ count
  sub sp, #20
  stm sp, {r0-r4}
  mov r2, #0x01010101
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
