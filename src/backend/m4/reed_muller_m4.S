@ The peak search of RM(1,7) decoding on the Cortex-M4 (spec §5.5; reed_muller_m4.cpp), straight
@ from the transform's stored layout: word k = 16c + i (c < 4, i < 16) holds F[32c + i] in its
@ low half and F[32c + 16 + i] in its high half (signed 16-bit values, |F| <= 128 * 5).
@ Each half is a lane of the M4's SIMD32 instructions, and the lanes are searched side by side in
@ word order, which is increasing q within each lane (32c + i, and 32c + 16 + i):
@   |v| = SEL(-v, v) after SSUB16 0 - v (GE where v <= 0);
@   USUB16 best - |v| sets GE where best >= |v|, and three SELs keep the lane's best |v|, its
@   value (for the sign) and its word index there, or take this word's: a strictly larger |v|
@   replaces, so each lane keeps the first index of its largest |F| (code::rm_peak's rule).
@ SEL picks by the GE flags in a single cycle, so the instructions, their timing and the addresses
@ do not depend on the values. The two lanes' winners are then ordered by the key
@ (|v| << 8) | ((127 - q) << 1) | (v > 0), by |v| and then by the smaller q (the sign never
@ decides: the two q differ), with CMP and an IT-predicated MOV. If every value is 0, both lanes
@ keep word 0 and q = 0 beats q = 16: byte 0, as portable.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ PEAK_WORD: one word of two values at r0 (advanced by 4). r1 best |v|, r2 the values there, r3
@ their word indices (per lane), r4 this word's index in both lanes, r5 0x00010001, r6 zero.
.macro PEAK_WORD
  ldr r7, [r0], #4
  ssub16 r8, r6, r7                 @ -v; GE where v <= 0
  sel r8, r8, r7                    @ |v|
  usub16 r12, r1, r8                @ GE where best >= |v|: keep
  sel r1, r1, r8
  sel r2, r2, r7
  sel r3, r3, r4
  add r4, r4, r5                    @ no carry crosses the lanes (index < 64)
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

@ uint32_t hqc_m4_rm_peak(const uint32_t w[64])
@ The decoded byte: bits 0..6 the index q of the peak, bit 7 its sign (1 if F[q] > 0), from the
@ 128 values of w in the layout above. Cycle model: 9 estimated cycles per word (LDR 2, seven
@ single-cycle ALU), about 0.65k per block.
  .global hqc_m4_rm_peak
  .type hqc_m4_rm_peak, %function
  .thumb_func
hqc_m4_rm_peak:
  push {r4-r8, lr}
  movs r1, #0
  movs r2, #0
  movs r3, #0
  movs r4, #0
  mov r5, #0x00010001
  movs r6, #0
  movs lr, #8
1:
  .rept 8
  PEAK_WORD
  .endr
  subs lr, lr, #1
  bne 1b
  uxth r4, r3                       @ the low lane: word index, |v|, v
  uxth r5, r1
  sxth r6, r2
  LANE_KEY r0, r4, r5, r6, 0
  lsr r4, r3, #16                   @ the high lane
  lsr r5, r1, #16
  asr r6, r2, #16
  LANE_KEY r7, r4, r5, r6, 16
  cmp r0, r7
  it lo
  movlo r0, r7
  and r1, r0, #1                    @ the sign
  lsr r0, r0, #1
  and r0, r0, #127
  rsb r0, r0, #127                  @ q = 127 - ((key >> 1) & 127)
  orr r0, r0, r1, lsl #7
  pop {r4-r8, pc}
  .size hqc_m4_rm_peak, . - hqc_m4_rm_peak
