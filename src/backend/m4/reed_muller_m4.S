@ The peak search of RM(1,7) decoding on the Cortex-M4 (spec §5.5; reed_muller_m4.cpp), straight
@ from the transform's stored layout: word k = 16c + i (c < 4, i < 16) holds F[32c + i] in its
@ low half and F[32c + 16 + i] in its high half (signed 16-bit values). Each value v at index q
@ gets the key (|v| << 8) | ((127 - q) << 1) | (v > 0), which orders by |v| and then by the
@ smaller q (code::rm_peak's rule: the first index of a maximal |F| wins); the sign bit never
@ decides, because no two keys share q. The largest key is kept by CMP and an IT-predicated MOV,
@ which executes whatever its condition (a single-cycle ALU instruction either way, no memory
@ access), so the instructions, their timing and the addresses do not depend on the values.
@ If every value is 0, index 0's key (254 << 0, sign 0) is the largest: byte 0, as portable.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ KEY dst, v, qpart: dst = (|v| << 8) | qpart | (v > 0); clobbers r12.
.macro KEY dst, v, qpart
  eor \dst, \v, \v, asr #31
  sub \dst, \dst, \v, asr #31       @ |v| (below 2^15)
  rsb r12, \v, #0                   @ bit 31 set iff v > 0
  orr \dst, \qpart, \dst, lsl #8
  orr \dst, \dst, r12, lsr #31
.endm

@ PEAK_WORD: the two values of the word at r0 (advanced by 4), r2 = (127 - q) << 1 of its low
@ half (q - 16 below for the high half, 32 less), r2 stepped to the next word.
.macro PEAK_WORD
  ldr r3, [r0], #4
  sxth r4, r3
  asr r5, r3, #16
  KEY r6, r4, r2
  cmp r1, r6
  it lo
  movlo r1, r6
  sub r7, r2, #32
  KEY r6, r5, r7
  cmp r1, r6
  it lo
  movlo r1, r6
  sub r2, r2, #2
.endm

@ uint32_t hqc_m4_rm_peak(const uint32_t w[64])
@ The decoded byte: bits 0..6 the index q of the peak, bit 7 its sign (1 if F[q] > 0), from the
@ 128 values of w in the layout above. Four groups of sixteen words; within a group q = 32c + i
@ (low halves) and 32c + 16 + i (high halves), so qpart falls by 2 per word and by 32 more
@ between groups. Cycle model: 24 estimated cycles per word, about 1.6k per block.
  .global hqc_m4_rm_peak
  .type hqc_m4_rm_peak, %function
  .thumb_func
hqc_m4_rm_peak:
  push {r4-r8, lr}
  movs r1, #0                       @ the largest key so far
  movs r2, #254                     @ (127 - 0) << 1
  movs r8, #4
1:
  movs lr, #4
2:
  .rept 4
  PEAK_WORD
  .endr
  subs lr, lr, #1
  bne 2b
  sub r2, r2, #32                   @ the next group starts 32 indices further
  subs r8, r8, #1
  bne 1b
  lsr r0, r1, #1
  and r0, r0, #127
  rsb r0, r0, #127                  @ q = 127 - ((key >> 1) & 127)
  and r1, r1, #1
  orr r0, r0, r1, lsl #7            @ | sign << 7
  pop {r4-r8, pc}
  .size hqc_m4_rm_peak, . - hqc_m4_rm_peak
