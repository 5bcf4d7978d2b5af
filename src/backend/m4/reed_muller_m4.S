@ The last three levels of RM(1,7) decoding's Hadamard transform and the peak search on the
@ Cortex-M4 (spec §5.5; reed_muller_m4.cpp), in one pass over the transform's stored layout: word
@ k = 16c + i (c < 4, i < 16) holds F[32c + i] in its low half and F[32c + 16 + i] in its high half
@ (signed 16-bit values, |F| <= 64 * 5 once F[0]'s bias is taken off).
@ The last levels (word distances 8, 16, 32) join only the eight words j + 8m (m < 8) of each
@ j < 8: they are loaded, transformed in registers and searched there, never stored back.
@ Each half is a lane of the M4's SIMD32 instructions, and the lanes are searched side by side:
@   |v| = SEL(-v, v) after SSUB16 0 - v (GE where v <= 0);
@   key = (|v| << 6) | (63 - k) in each lane (|v| < 1024 and k < 64: the key fits in 16 bits), so
@   that the largest key is the largest |v| at its first word index k, whatever the order the
@   words come in (which is increasing q within each lane: code::rm_peak's rule);
@   USUB16 best - key sets GE where best >= key, and two SELs keep the lane's best key and its
@   value (for the sign) there, or take this word's (the keys of one lane are all distinct).
@ SEL picks by the GE flags in a single cycle, so the instructions, their timing and the addresses
@ do not depend on the values. The two lanes' winners are then ordered by the key
@ (|v| << 8) | ((127 - q) << 1) | (v > 0), by |v| and then by the smaller q (the sign never
@ decides: the two q differ), with CMP and an IT-predicated MOV. If every value is 0, both lanes
@ keep word 0 and q = 0 beats q = 16: byte 0, as portable.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ BF x, y, t: the butterfly (x, y) -> (x + y, x - y) on both halves; the sum goes to t, and x's
@ register is free afterwards.
.macro BF x, y, t
  sadd16 \t, \x, \y
  ssub16 \y, \x, \y
.endm

@ PEAK v: one word of two values in v. r1 the best keys, r2 the values there, r3 (63 - k) in
@ both lanes for this word's index k (\op and \imm move it to the next word's), lr zero,
@ r7 and r12 scratch.
.macro PEAK v, op, imm
  ssub16 r12, lr, \v               @ -v; GE where v <= 0
  sel r12, r12, \v                 @ |v|
  orr r12, r3, r12, lsl #6          @ key: |v| < 1024, so nothing crosses into the high lane
  usub16 r7, r1, r12                @ GE where best >= key: keep
  sel r1, r1, r12
  sel r2, r2, \v
  \op r3, r3, #\imm
.endm

@ LANE_KEY key, k, a, v, qoff: key = (a << 8) | ((127 - q) << 1) | (v > 0) for the word index k
@ of a lane whose q is 32 (k >> 4) + (k & 15) + qoff; a and v are clobbered.
.macro LANE_KEY key, k, a, v, qoff
  and \key, \k, #15
  lsr \k, \k, #4
  orr \key, \key, \k, lsl #5
  rsb \key, \key, #(127 - \qoff)
  lsl \key, \key, #1
  orr \key, \key, \a, lsl #8
  rsb \v, \v, #0                    @ bit 31 set iff v > 0
  orr \key, \key, \v, lsr #31
.endm

@ uint32_t hqc_m4_rm_hadamard_peak(uint32_t w[64])
@ The decoded byte: bits 0..6 the index q of the peak, bit 7 its sign (1 if F[q] > 0), from w,
@ the transform in the layout above but for its last three levels (word distances 8, 16, 32),
@ which this routine applies in registers (w is left as it was, holding no more than before).
@ Cycle model: per group of eight words, 8 loads (9 estimated cycles), 24 butterflies and 7
@ single-cycle instructions a word; about 0.8k per block.
  .global hqc_m4_rm_hadamard_peak
  .section .text.hqc_m4_rm_hadamard_peak, "ax", %progbits
  .type hqc_m4_rm_hadamard_peak, %function
  .thumb_func
hqc_m4_rm_hadamard_peak:
  push {r4-r11, lr}
  vmov s0, r0                       @ the group's first word (s0 is caller-saved)
  movs r1, #0
  movs r2, #0
  mov r3, #0x003F003F               @ 63 - k for k = j + 8m, both lanes
  mov lr, #0
1:
  vmov r0, s0
  ldr r4, [r0, #0]
  ldr r5, [r0, #32]
  ldr r6, [r0, #64]
  ldr r7, [r0, #96]
  ldr r8, [r0, #128]
  ldr r9, [r0, #160]
  ldr r10, [r0, #192]
  ldr r11, [r0, #224]
  adds r0, r0, #4
  vmov s0, r0
  @ word m of the group in L[m]; the free register moves on with each butterfly.
  BF r4, r5, r0                     @ d = 1: L0 = r0, L1 = r5
  BF r6, r7, r4                     @ L2 = r4, L3 = r7
  BF r8, r9, r6                     @ L4 = r6, L5 = r9
  BF r10, r11, r8                   @ L6 = r8, L7 = r11
  BF r0, r4, r10                    @ d = 2: L0 = r10, L2 = r4
  BF r5, r7, r0                     @ L1 = r0, L3 = r7
  BF r6, r8, r5                     @ L4 = r5, L6 = r8
  BF r9, r11, r6                    @ L5 = r6, L7 = r11
  BF r10, r5, r9                    @ d = 4: L0 = r9, L4 = r5
  BF r0, r6, r10                    @ L1 = r10, L5 = r6
  BF r4, r8, r0                     @ L2 = r0, L6 = r8
  BF r7, r11, r4                    @ L3 = r4, L7 = r11; r7 free
  PEAK r9, sub, 0x00080008
  PEAK r10, sub, 0x00080008
  PEAK r0, sub, 0x00080008
  PEAK r4, sub, 0x00080008
  PEAK r5, sub, 0x00080008
  PEAK r6, sub, 0x00080008
  PEAK r8, sub, 0x00080008
  PEAK r11, add, 0x00370037            @ 63 - (j + 1) for the next group
  cmp r3, #0x00370037               @ after the eighth group (j = 7), 63 - 8
  bne 1b
  ubfx r4, r1, #6, #10              @ the low lane: |v|, word index, v
  and r5, r1, #63
  rsb r5, r5, #63
  sxth r6, r2
  LANE_KEY r0, r5, r4, r6, 0
  lsr r4, r1, #22                   @ the high lane
  ubfx r5, r1, #16, #6
  rsb r5, r5, #63
  asr r6, r2, #16
  LANE_KEY r7, r5, r4, r6, 16
  cmp r0, r7
  it lo
  movlo r0, r7
  and r1, r0, #1                    @ the sign
  lsr r0, r0, #1
  and r0, r0, #127
  rsb r0, r0, #127                  @ q = 127 - ((key >> 1) & 127)
  orr r0, r0, r1, lsl #7
  pop {r4-r11, pc}
  .size hqc_m4_rm_hadamard_peak, . - hqc_m4_rm_hadamard_peak
