@ The samplers' duplicate test on the Cortex-M4 (spec §4.2, §4.3): is r among count positions?
@ Positions and r are below 2^16 (positions of a vector, n < 2^16), so two positions share a word
@ as its halves, which the M4's SIMD32 instructions compare at once:
@   x = (p_i | p_(i+1) << 16) ^ (r | r << 16): a half is zero iff its position equals r;
@   USUB16 x - 0x00010001 sets the GE flags of a half iff it is not zero;
@   SEL acc, acc, x keeps acc's half where it is not, and takes the zero half of x where it is.
@ acc starts all ones, so it stays all ones iff no position equals r. SEL selects by the flags in a
@ single cycle without a branch or a memory access. The loops run over all count positions
@ whatever they hold: count is public (the number of positions drawn so far, or the fixed length
@ of the fix-up), the positions and r are secret and are only compared.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ WORD x: compares the two positions of x (clobbered) with r2 into the halves of r3 (lr scratch).
.macro WORD x
  eor \x, \x, r2
  usub16 lr, \x, r12
  sel r3, r3, \x
.endm

@ PAIR lo, hi: the same for the positions in lo and hi (lo clobbered), packed into lo first.
.macro PAIR lo, hi
  orr \lo, \lo, \hi, lsl #16
  WORD \lo
.endm

@ The bodies of EQ_SCAN below: hqc_m4_eq_mask's units are positions (PAIRS8, PAIRS4, PAIR1: a
@ position alone goes into both halves); the samplers' routines below, which keep their positions
@ two to a word, scan words of two (WORDS8, WORDS4, WORD1): sixteen positions per LDM, about 2.3
@ estimated cycles a position with the loop.
.macro PAIRS8
  PAIR r4, r5
  PAIR r6, r7
  PAIR r8, r9
  PAIR r10, r11
.endm
.macro PAIRS4
  PAIR r4, r5
  PAIR r6, r7
.endm
.macro PAIR1
  mov r5, r4
  PAIR r4, r5
.endm
.macro WORDS8
  WORD r4
  WORD r5
  WORD r6
  WORD r7
  WORD r8
  WORD r9
  WORD r10
  WORD r11
.endm
.macro WORDS4
  WORD r4
  WORD r5
  WORD r6
  WORD r7
.endm
.macro WORD1
  WORD r4
.endm

@ EQ_SCAN body8, body4, body1: r1 units from r0 (a unit is one word loaded), eight per LDM
@ (body8 on r4-r11), then four (body4 on r4-r7), then one at a time (body1 on r4). The count is
@ public; only the values compared are secret.
.macro EQ_SCAN body8, body4, body1
  subs r1, r1, #8
  bcc 2f                            @ fewer than eight
1:
  ldm r0!, {r4-r11}
  \body8
  subs r1, r1, #8
  bcs 1b
2:
  adds r1, r1, #8                   @ 0 .. 7 left
  cmp r1, #4
  blo 3f
  ldm r0!, {r4-r7}
  \body4
  subs r1, r1, #4
3:
  cbz r1, 5f                        @ 0 .. 3 left
4:
  ldr r4, [r0], #4
  \body1
  subs r1, r1, #1
  bne 4b
5:
.endm

@ EQ_SETUP: r (in r2) in both halves of r2, 0x00010001 in r12, acc (r3) all ones: EQ_SCAN's state.
.macro EQ_SETUP
  pkhbt r2, r2, r2, lsl #16         @ r in both halves
  mov r12, #0x00010001
  mov r3, #0xFFFFFFFF
.endm

@ UNSET_HALVES p, n, tmp: the n >= 1 words from \p (advanced past them) all ones, every half of
@ the samplers' packed positions unset (0xFFFF, which no position equals). Clobbers \n, \tmp.
.macro UNSET_HALVES p, n, tmp
  mov \tmp, #0xFFFFFFFF
1:
  str \tmp, [\p], #4
  subs \n, \n, #1
  bne 1b
.endm

@ EQ_FOUND dst: dst = all ones if a half of acc (r3) was cleared (r was found), else zero
@ (clobbers r0, r1).
.macro EQ_FOUND dst
  adds r0, r3, #1                   @ zero iff no half was cleared
  rsb r1, r0, #0
  orr r0, r0, r1
  asr \dst, r0, #31
.endm

@ uint32_t hqc_m4_eq_mask(const uint32_t* pos, size_t count, uint32_t r)
@ 0xFFFFFFFF if pos[i] == r for some i < count, else 0 (positions and r below 2^16). Eight
@ positions per LDM (about 3.6 estimated cycles a position with the loop), then four, then one
@ at a time (the position in both halves).
  .global hqc_m4_eq_mask
  .section .text.hqc_m4_eq_mask, "ax", %progbits
  .type hqc_m4_eq_mask, %function
  .thumb_func
hqc_m4_eq_mask:
  push {r4-r11, lr}
  EQ_SETUP
  EQ_SCAN PAIRS8, PAIRS4, PAIR1
  EQ_FOUND r0
  pop {r4-r11, pc}
  .size hqc_m4_eq_mask, . - hqc_m4_eq_mask


@ void hqc_m4_enc_fixup(uint32_t* pos, uint32_t* packed, uint32_t w)
@ The encryption sampler's fix-up (spec §4.3; sampling::enc_positions_with): for i = w - 2 down
@ to 0, pos[i] becomes i if it equals one of the final pos[i + 1 .. w). packed ((w + 1) / 2 words
@ of scratch, which this fills) holds the final positions two to a word as they settle: half j is
@ pos[j], 0xFFFF until it is set, which no position equals (n < 2^16 - 1). Each test is
@ EQ_SCAN of the words from (i + 1) / 2 on, inline: the loop keeps its own
@ state in s0-s3 (a VMOV is one cycle a register) instead of a call and a return for each
@ position. w >= 1. The counts and addresses depend on w and i only; pos[i] is selected by masks.
  .global hqc_m4_enc_fixup
  .section .text.hqc_m4_enc_fixup, "ax", %progbits
  .type hqc_m4_enc_fixup, %function
  .thumb_func
hqc_m4_enc_fixup:
  push {r4-r11, lr}
  adds r3, r2, #1
  lsrs r3, r3, #1                   @ (w + 1) / 2 words
  vmov s0, s1, r0, r1               @ pos, packed
  vmov s2, r3
  UNSET_HALVES r1, r3, r4
  vmov r1, s1
  subs r5, r2, #1                   @ i = w - 1
  ldr r4, [r0, r5, lsl #2]
  strh r4, [r1, r5, lsl #1]         @ pos[w - 1] is final
11:
  cmp r5, #0
  beq 12f
  subs r5, r5, #1                   @ the next i, from w - 2 down to 0
  vmov s3, r5
  ldr r2, [r0, r5, lsl #2]          @ r = pos[i]
  adds r5, r5, #1
  lsrs r5, r5, #1                   @ the first word that may hold a final position: (i + 1) / 2
  vmov r6, s2
  add r0, r1, r5, lsl #2
  sub r1, r6, r5
  EQ_SETUP
  EQ_SCAN WORDS8, WORDS4, WORD1
  EQ_FOUND r3                       @ found: all ones iff r is among them
  vmov r0, r1, s0, s1
  vmov r5, s3
  uxth r2, r2
  bic r2, r2, r3
  and r4, r5, r3
  orr r2, r2, r4                    @ found ? i : r
  str r2, [r0, r5, lsl #2]
  strh r2, [r1, r5, lsl #1]         @ pos[i] is final
  b 11b
12:
  pop {r4-r11, pc}
  .size hqc_m4_enc_fixup, . - hqc_m4_enc_fixup

@ uint32_t hqc_m4_keygen_accept(uint32_t* pos, uint32_t* packed, uint32_t count,
@                               const uint32_t* drawn, uint32_t groups)
@ One refill of the key-generation sampler (spec §4.2; sampling::keygen_accept_with): for each of
@ the groups (>= 1) draws in turn, its position drawn[i] (all ones if the draw is at or above the
@ rejection threshold) is appended to pos[count ..] unless it is rejected or already among
@ pos[0 .. count). Returns the new count (count + groups <= the weight). packed ((count + groups +
@ 1) / 2 words of scratch, which this fills) holds pos[0 .. count) two to a word, 0xFFFF in a half
@ not yet set, for the duplicate tests (EQ_SCAN over (count + 1) / 2 words, inline; the loop's
@ state in s0-s4). The one branch per draw is on its acceptance, the sampler's accept pattern,
@ which the spec makes public (§8: its timing depends only on the long-term seed); a draw taken
@ and one above the threshold are rejected by the same path, so why a draw was rejected stays
@ secret, as the positions do (only compared and stored). Argument 5 on the stack (AAPCS).
  .global hqc_m4_keygen_accept
  .section .text.hqc_m4_keygen_accept, "ax", %progbits
  .type hqc_m4_keygen_accept, %function
  .thumb_func
hqc_m4_keygen_accept:
  push {r4-r11, lr}
  ldr r4, [sp, #36]                 @ groups
  vmov s0, s1, r0, r1               @ pos, packed
  vmov s2, s3, r2, r3               @ count, drawn
  vmov s4, r4                       @ the draws left
  add r5, r2, r4
  adds r5, r5, #1
  lsrs r5, r5, #1                   @ (count + groups + 1) / 2 words
  mov r7, r1
  UNSET_HALVES r7, r5, r6
  cbz r2, 20f
  movs r5, #0
31:
  ldr r6, [r0, r5, lsl #2]
  strh r6, [r1, r5, lsl #1]         @ the positions drawn before this refill
  adds r5, r5, #1
  cmp r5, r2
  bne 31b
20:                                 @ the next draw
  vmov r5, s4
  cmp r5, #0
  beq 29f
  subs r5, r5, #1
  vmov s4, r5
  vmov r6, s3
  ldr r2, [r6], #4                  @ its position (all ones if rejected)
  vmov s3, r6
  vmov r5, s2                       @ count
  adds r1, r5, #1
  lsrs r1, r1, #1                   @ the words that hold pos[0 .. count)
  vmov r0, s1
  EQ_SETUP
  EQ_SCAN WORDS8, WORDS4, WORD1
  @ One branch, on the draw's acceptance (public, spec §8): rejected if taken or at or above the
  @ threshold, the same path for both, so that which of the two stays secret.
  adds r0, r3, #1                   @ nonzero iff a half was cleared (taken)
  cmn r2, #1                        @ Z iff r is all ones (at or above the threshold)
  it eq
  moveq r0, #1                      @ IT-predicated: one cycle whatever the condition
  cmp r0, #0
  bne 20b                           @ rejected
  vmov r0, r1, s0, s1
  vmov r5, s2
  uxth r2, r2
  str r2, [r0, r5, lsl #2]          @ pos[count] = r
  strh r2, [r1, r5, lsl #1]
  adds r5, r5, #1
  vmov s2, r5
  b 20b
29:
  vmov r0, s2
  pop {r4-r11, pc}
  .size hqc_m4_keygen_accept, . - hqc_m4_keygen_accept
