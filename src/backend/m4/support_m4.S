@ Support expansion on the Cortex-M4 (spec §4.4) without conditional execution: ramps and their
@ second difference. For a position in 32-bit word q with bit mask m (m = 1 << (p & 31)), let
@ r(i) = max(0, q + 1 - i) for every output word i (a ramp that reaches 0 after word q). Then
@ r(i) - 2 r(i+1) + r(i+2) is 1 at i = q and 0 everywhere else, so with
@ R(i) = sum over positions of r(i) * m (mod 2^32) the output word is
@ out[i] = R(i) - 2 R(i+1) + R(i+2) (mod 2^32) = sum of the masks of the positions in word i,
@ which is their OR when the positions are distinct (backend.cpp removes repeats first).
@ A pass of hqc_m4_support_or_ramps adds the ramps of six positions to R over every word; the
@ caller takes the second difference once at the end. Every word is read and written once per
@ pass and the same instructions run whatever the positions: no branch, no IT, and no address
@ depends on a position.
@
@ Per word, two positions A, B (lanes of one register) cost three single-cycle instructions:
@   uqsub16 c, c, ones     c holds the two ramps (16-bit lanes: r_A | r_B << 16); the
@                          saturating subtract moves both one word on and keeps them at 0
@                          after their word
@   smlad acc, c, L, acc   acc += r_A * L.lo + r_B * L.hi (signed 16 x 16 products)
@   mla acc, c, Z, acc     acc += (r_A + 2^16 r_B) * Z (mod 2^32)
@ so r_A's coefficient is L.lo + Z and r_B's is L.hi + 2^16 Z (mod 2^32). backend.cpp chooses
@ L and Z with L.lo + Z = m_A and L.hi + 2^16 Z = m_B (mod 2^32), which has a solution for any
@ 32-bit m_A, m_B: the 16-bit lanes alone could not reach bits 16..31, the 32-bit MLA alone
@ could not tell the two lanes apart. The sums wrap mod 2^32 by design (SMLAD then sets the
@ sticky Q flag, which nothing here or in the library reads).
@ Cycle model (scripts/m4-cycles.py, Cortex-M4 TRM): UQSUB16, SMLAD and MLA 1 cycle each, LDM
@ and STM of two words 3 each, so sixteen words of one pass are 8 * (3 + 18 + 3) + CMP 1 +
@ BNE 3 = 196 cycles: 12.25 per word, about 2.04 per position and word. There is no IT, so the
@ estimate does not depend on whether the core folds IT instructions (the model charges them 1).
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ One word of the pass into register \acc: the three pairs are r4..r6, r7..r9, r10..r12
@ (c, L, Z each); r2 holds 0x00010001. \first: the word starts from 0 (SMUAD, no accumulate).
.macro RAMP_WORD acc, first
  uqsub16 r4, r4, r2
  .if \first
  smuad \acc, r4, r5
  .else
  smlad \acc, r4, r5, \acc
  .endif
  mla \acc, r4, r6, \acc
  uqsub16 r7, r7, r2
  smlad \acc, r7, r8, \acc
  mla \acc, r7, r9, \acc
  uqsub16 r10, r10, r2
  smlad \acc, r10, r11, \acc
  mla \acc, r10, r12, \acc
.endm

@ Two words: loaded (or, for the first pass, started from 0), the ramps added, stored, r0
@ advanced by 8.
.macro RAMP_TWO first
  .if \first == 0
  ldm r0, {r3, lr}
  .endif
  RAMP_WORD r3, \first
  RAMP_WORD lr, \first
  stm r0!, {r3, lr}
.endm

@ void hqc_m4_support_or_ramps(uint32_t* acc, const uint32_t* end, const uint32_t arg[9],
@                              uint32_t first)
@ For g = 0..2, with c = arg[3g], L = arg[3g+1], Z = arg[3g+2]: for every word acc[i] of
@ acc[0 .. end - acc), first c = c -sat (1, 1) in each 16-bit lane, then
@ acc[i] += c.lo * L.lo + c.hi * L.hi + c * Z (mod 2^32); if first is nonzero (public: the
@ first pass), acc[i] is set to that sum instead, so the buffer needs no clearing. A lane that
@ starts at q + 2 thus contributes the ramp max(0, q + 1 - i); a lane that starts at 0 nothing.
@ (end - acc) is a positive multiple of 16 words (sixteen per iteration; four in the first pass,
@ which runs once per call, to keep the code at about 1 KB).
  .global hqc_m4_support_or_ramps
  .type hqc_m4_support_or_ramps, %function
  .thumb_func
hqc_m4_support_or_ramps:
  push {r4-r11, lr}
  ldm r2, {r4-r12}
  mov r2, #0x00010001
  cmp r3, #0
  bne.w 2f                      @ first is public
1:
  RAMP_TWO 0
  RAMP_TWO 0
  RAMP_TWO 0
  RAMP_TWO 0
  RAMP_TWO 0
  RAMP_TWO 0
  RAMP_TWO 0
  RAMP_TWO 0
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
2:
  RAMP_TWO 1
  RAMP_TWO 1
  cmp r0, r1
  bne 2b
  pop {r4-r11, pc}
  .size hqc_m4_support_or_ramps, . - hqc_m4_support_or_ramps

@ void hqc_m4_support_or_sweep(uint32_t* acc, uint32_t* end)
@ The second difference in place: acc[i] = R(i) - 2 R(i+1) + R(i+2) (mod 2^32) for every word
@ of acc[0 .. end - acc), R being the values before the call and 0 at and beyond end. From the
@ top down, four words per iteration; r8, r9 hold R(i+1), R(i+2) of the four being written.
@ (end - acc) is a positive multiple of 4 words. No data-dependent branch or address.
  .global hqc_m4_support_or_sweep
  .type hqc_m4_support_or_sweep, %function
  .thumb_func
hqc_m4_support_or_sweep:
  push {r4-r9}
  movs r8, #0
  movs r9, #0
3:
  ldmdb r1!, {r4-r7}            @ R(j) .. R(j+3), j = (r1 - acc) / 4
  add r9, r9, r7
  sub r9, r9, r8, lsl #1        @ word j+3: R(j+3) - 2 R(j+4) + R(j+5)
  add r8, r8, r6
  sub r8, r8, r7, lsl #1        @ word j+2
  add r7, r7, r5
  sub r7, r7, r6, lsl #1        @ word j+1
  add r6, r6, r4
  sub r6, r6, r5, lsl #1        @ word j
  stm r1, {r6-r9}
  mov r8, r4                    @ R(j), R(j+1) for the four words below
  mov r9, r5
  cmp r1, r0
  bne 3b
  pop {r4-r9}
  bx lr
  .size hqc_m4_support_or_sweep, . - hqc_m4_support_or_sweep

@ void hqc_m4_support_or_fresh6(uint32_t fresh[3], const uint32_t packed[3], const uint32_t* pos,
@                               uint32_t count)
@ Repeats for the ramps above (a sum is an OR only for distinct positions). packed[g] holds two
@ positions, one per 16-bit lane (every position is below n < 2^16). fresh[g] gets 0xFFFF in a
@ lane whose position differs from every pos[0 .. count), 0 in a lane that equals one of them.
@ count is public and even (how many positions earlier passes took, a multiple of 6); the
@ positions only meet EOR, USUB16 (0 - x sets a lane's GE bits iff x is 0 there) and SEL (which
@ takes that lane of 0 - x = 0): no branch or address depends on them. Two earlier positions per
@ iteration: 27 estimated cycles for twelve comparisons.
  .global hqc_m4_support_or_fresh6
  .type hqc_m4_support_or_fresh6, %function
  .thumb_func
hqc_m4_support_or_fresh6:
  push {r0, r4-r9, lr}
  ldm r1, {r4-r6}
  mov r7, #-1
  mov r8, #-1
  mov r9, #-1
  mov r0, #0
  cbz r3, 2f
1:
  ldm r2!, {r1, lr}             @ two earlier positions
  subs r3, r3, #2
  pkhbt r1, r1, r1, lsl #16     @ each in both lanes
  pkhbt lr, lr, lr, lsl #16
  eor r12, r4, r1
  usub16 r12, r0, r12
  sel r7, r12, r7
  eor r12, r5, r1
  usub16 r12, r0, r12
  sel r8, r12, r8
  eor r12, r6, r1
  usub16 r12, r0, r12
  sel r9, r12, r9
  eor r12, r4, lr
  usub16 r12, r0, r12
  sel r7, r12, r7
  eor r12, r5, lr
  usub16 r12, r0, r12
  sel r8, r12, r8
  eor r12, r6, lr
  usub16 r12, r0, r12
  sel r9, r12, r9
  bne 1b
2:
  pop {r0}
  stm r0, {r7-r9}
  pop {r4-r9, pc}
  .size hqc_m4_support_or_fresh6, . - hqc_m4_support_or_fresh6

@ Support expansion by routing (support_route_m4.hpp): one range of one level of a routing
@ network. A slot is two words, (mask m, offset d), d shifted so that this level's bit is bit 31;
@ slot j keeps its item unless bit 31 of its d is set, and takes the item (n, e) of slot j - s if
@ bit 31 of e is set, at most one of the two being non-empty; the new d is shifted left by one:
@   m = (m & ~go) | (n & come), d = ((d & ~go) | (e & come)) << 1
@ with go = d ASR 31 and come = e ASR 31 as shifted operands: seven single-cycle instructions.
.macro ROUTE_STEP m, d, n, e
  bic \m, \m, \d, asr #31
  bic \d, \d, \d, asr #31
  and \n, \n, \e, asr #31
  and \e, \e, \e, asr #31
  orr \m, \m, \n
  orr \d, \d, \e
  lsl \d, \d, #1
.endm

@ Two slots: the pair below r0 from the pair below r2 (r2 = r0 - 8 s). Both pairs are loaded
@ before the store, so for s = 1, where the source pair overlaps the destination pair, the step
@ reads the old slot. Cycle model: LDMDB/STMDB of four words 5 each, 14 ALU: 29 per two slots.
.macro ROUTE_TWO
  ldmdb r0, {r4-r7}
  ldmdb r2!, {r8-r11}
  ROUTE_STEP r4, r5, r8, r9
  ROUTE_STEP r6, r7, r10, r11
  stmdb r0!, {r4-r7}
.endm

@ void hqc_m4_route_pass(uint32_t* top, const uint32_t* bottom, uint32_t s_bytes)
@ The steps of one level for the slots between bottom and top (pointers to slot words; top -
@ bottom a positive multiple of 32 bytes, four slots), from the top slot down, each from the
@ slot s_bytes = 8 s below (bottom - s_bytes is still within the array). Every slot is read
@ before it is written, and slot j's source j - s is read before slot j - s is written, so in
@ place every step sees the level's old values. No branch or address depends on the data.
  .global hqc_m4_route_pass
  .type hqc_m4_route_pass, %function
  .thumb_func
hqc_m4_route_pass:
  push {r4-r11, lr}
  sub r2, r0, r2
1:
  ROUTE_TWO
  ROUTE_TWO
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_route_pass, . - hqc_m4_route_pass

@ void hqc_m4_route_last(uint32_t* top, const uint32_t* bottom, uint32_t* out_top)
@ The last level (s = 1) for the slots between bottom and top (top - bottom a positive multiple
@ of 32 bytes; bottom at least two slots above the array's start): from the top down, slot j's
@ new mask (m_j & ~go_j) | (m_(j-1) & come_(j-1)) goes to the output word below out_top, and
@ the slot is cleared (its offset is not needed after the last level). Slots j - 2, j - 1 and j
@ are loaded by one LDMDB; slot j - 2, not yet cleared, is loaded again as the top of the next
@ pair. Cycle model: LDMDB of six words 7, six ALU, STMDB of the two output words 3 and of the
@ four zero words 5: 21 per two slots.
.macro ROUTE_LAST_TWO
  ldmdb r0, {r4-r9}             @ slots j - 2, j - 1, j
  bic r8, r8, r9, asr #31
  and r9, r6, r7, asr #31
  orr r9, r8, r9                @ word j
  bic r8, r6, r7, asr #31
  and r4, r4, r5, asr #31
  orr r8, r8, r4                @ word j - 1
  stmdb r2!, {r8, r9}
  stmdb r0!, {r10, r11, r12, lr}
.endm

  .global hqc_m4_route_last
  .type hqc_m4_route_last, %function
  .thumb_func
hqc_m4_route_last:
  push {r4-r11, lr}
  movs r10, #0
  movs r11, #0
  mov r12, #0
  mov lr, #0
1:
  ROUTE_LAST_TWO
  ROUTE_LAST_TWO
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_route_last, . - hqc_m4_route_last
