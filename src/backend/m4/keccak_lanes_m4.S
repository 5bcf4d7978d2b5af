@ The sponges' lane conversions for the m4 Keccak-f[1600], whose state stays in the
@ bit-interleaved form between permutations (keccak_m4.S): a 64-bit lane as its even bits (word
@ 2i) and its odd bits (word 2i + 1). Interleaving permutes the six index bits of a lane's bits
@ by five exchanges of the word bit with the bit positions 16, 8, 4, 2, 1 (sym::interleave_lane):
@ the exchange at 16 is two PKH instructions (the half-words change places), the others a delta
@ swap of four instructions each, t = (y ^ (x >> s)) & m, y ^= t, x ^= t << s, with masks that
@ are Thumb-2 immediates. Deinterleaving runs the same exchanges in the reverse order. LDR and STR
@ take any alignment on the M4 (the sponges' inputs and outputs are byte strings); the state is
@ word-aligned (a uint64_t array). No branch or address depends on the data.
#include "backend/m4/word_loop_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text


@ LANE_IN: one lane of hqc_m4_keccak_xor_lanes_interleaved, x = r3 (low word), y = r4 (high word);
@ r5, r6 the state words.
.macro LANE_IN
  ldr r3, [r1], #4
  ldr r4, [r1], #4
  pkhbt r5, r3, r4, lsl #16         @ x: low half-words of both
  pkhtb r4, r4, r3, asr #16         @ y: high half-words of both
  DELTA_SWAP r5, r4, 8, 0x00FF00FF, r12
  DELTA_SWAP r5, r4, 4, 0x0F0F0F0F, r12
  DELTA_SWAP r5, r4, 2, 0x33333333, r12
  DELTA_SWAP r5, r4, 1, 0x55555555, r12
  ldrd r3, r6, [r0]
  eor r3, r3, r5                    @ even bits
  eor r6, r6, r4                    @ odd bits
  strd r3, r6, [r0], #8
.endm

@ void hqc_m4_keccak_xor_lanes_interleaved(uint32_t* words, const uint8_t* in, size_t n)
@ words[2i], words[2i + 1] ^= the interleaved form of the little-endian lane at in + 8i, i < n
@ (n >= 1; backend::KeccakXorLanesInterleavedFn).
  .global hqc_m4_keccak_xor_lanes_interleaved
  .section .text.hqc_m4_keccak_xor_lanes_interleaved, "ax", %progbits
  .type hqc_m4_keccak_xor_lanes_interleaved, %function
  .p2align 2
  .thumb_func
hqc_m4_keccak_xor_lanes_interleaved:
  push {r4-r6, lr}
  WORDS_BY_TWO r2, "LANE_IN", "LANE_IN"
  pop {r4-r6, pc}
  .size hqc_m4_keccak_xor_lanes_interleaved, . - hqc_m4_keccak_xor_lanes_interleaved

@ LANE_OUT: one lane of hqc_m4_keccak_read_lanes_interleaved: the even and odd words into r3, r4,
@ the exchanges in reverse, x = r3 (low word) and y = r4 (high word) out.
.macro LANE_OUT
  ldrd r3, r4, [r1], #8
  DELTA_SWAP r3, r4, 1, 0x55555555, r12
  DELTA_SWAP r3, r4, 2, 0x33333333, r12
  DELTA_SWAP r3, r4, 4, 0x0F0F0F0F, r12
  DELTA_SWAP r3, r4, 8, 0x00FF00FF, r12
  pkhbt r5, r3, r4, lsl #16
  pkhtb r4, r4, r3, asr #16
  str r5, [r0], #4
  str r4, [r0], #4
.endm

@ void hqc_m4_keccak_read_lanes_interleaved(uint8_t* out, const uint32_t* words, size_t n)
@ out + 8i = the little-endian lane whose interleaved form is words[2i], words[2i + 1], i < n
@ (n >= 1; backend::KeccakReadLanesInterleavedFn).
  .global hqc_m4_keccak_read_lanes_interleaved
  .section .text.hqc_m4_keccak_read_lanes_interleaved, "ax", %progbits
  .type hqc_m4_keccak_read_lanes_interleaved, %function
  .p2align 2
  .thumb_func
hqc_m4_keccak_read_lanes_interleaved:
  push {r4-r5, lr}
  WORDS_BY_TWO r2, "LANE_OUT", "LANE_OUT"
  pop {r4-r5, pc}
  .size hqc_m4_keccak_read_lanes_interleaved, . - hqc_m4_keccak_read_lanes_interleaved
