@ Support expansion on the Cortex-M4 (spec §4.4): the passes of the sorting and routing networks
@ of support_route_m4.hpp. No branch, loop bound or address depends on the positions.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ Support expansion by routing (support_route_m4.hpp): the passes of its routing networks. A slot
@ is five words, a 128-bit block mask m0..m3 and an offset d, d shifted so that this level's bit is
@ bit 31. Slot j keeps its item unless bit 31 of its d is set, and takes the item (n0..n3, e) of
@ slot j - s if bit 31 of e is set, at most one of the two being non-empty; d then moves on a bit:
@   m = (m & ~go) | (n & come), d = ((d & ~go) | (e & come)) << 1
@ with go = d ASR 31 and come = e ASR 31. Where come is set, slot j is empty or its item goes (no
@ two items ever meet), so m & ~go is zero and the OR is a choice: m = come ? n : m & ~go. The
@ choice is SEL by the GE flags, which UADD8 of come with itself sets in all four bytes exactly
@ when come is all ones (a carry out of every byte); m & ~go is BIC with an ASR #31 operand.
@ One slot: LDMDB of its five words and of its source's five, 6 cycles each, 13 single-cycle ALU
@ instructions, STMDB of five words 6: 31 estimated cycles (scripts/m4-cycles.py).

@ \op (BIC or AND) of the four mask words w0..w3 with \off ASR 31: all ones if bit 31 of the
@ offset \off is set, else zero.
.macro MASK4 op, w0, w1, w2, w3, off
  \op \w0, \w0, \off, asr #31
  \op \w1, \w1, \off, asr #31
  \op \w2, \w2, \off, asr #31
  \op \w3, \w3, \off, asr #31
.endm

@ COME e: the GE flags all set iff bit 31 of e is (r3 clobbered).
.macro COME e
  asr r3, \e, #31
  uadd8 r3, r3, r3
.endm

.macro ROUTE_STEP
  ldmdb r0, {r4-r8}             @ m0..m3, d of slot j
  ldmdb r2!, {r9-r12, lr}       @ n0..n3, e of slot j - s
  COME lr
  MASK4 bic, r4, r5, r6, r7, r8
  bic r8, r8, r8, asr #31
  sel r4, r9, r4
  sel r5, r10, r5
  sel r6, r11, r6
  sel r7, r12, r7
  sel r8, lr, r8
  lsl r8, r8, #1
  stmdb r0!, {r4-r8}
.endm

@ void hqc_m4_route_pass(uint32_t* top, const uint32_t* bottom, uint32_t s_bytes)
@ The steps of one level for the slots between bottom and top (pointers to slot words; top -
@ bottom a positive multiple of two slots, 40 bytes), from the top slot down, each from the slot
@ s_bytes = 20 s below (bottom - s_bytes is still within the array). A slot is read before it is
@ written, and slot j's source j - s before slot j - s is written (for s = 1 both loads of a step
@ precede its store), so in place every step sees the level's old values. No branch or address
@ depends on the data.
  .global hqc_m4_route_pass
  .section .text.hqc_m4_route_pass, "ax", %progbits
  .type hqc_m4_route_pass, %function
  .thumb_func
hqc_m4_route_pass:
  push {r4-r11, lr}
  sub r2, r0, r2
1:
  ROUTE_STEP
  ROUTE_STEP
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_route_pass, . - hqc_m4_route_pass

@ One slot of the last level (s = 1): slots j - 1 and j by one LDMDB of ten words (11 cycles),
@ slot j's new mask (10 ALU: the choice of ROUTE_STEP) stored as the four output words below r2
@ (5): 27 estimated cycles. The offsets are not moved on; the slots are not written.
.macro ROUTE_LAST_STEP
  ldmdb r0, {r4-r12, lr}        @ slot j - 1: r4..r7, d r8; slot j: r9..r12, d lr
  COME r8
  MASK4 bic, r9, r10, r11, r12, lr
  sel r9, r4, r9
  sel r10, r5, r10
  sel r11, r6, r11
  sel r12, r7, r12
  stmdb r2!, {r9-r12}
  sub r0, r0, #20
.endm

@ void hqc_m4_route_last(const uint32_t* top, const uint32_t* bottom, uint32_t* out_top)
@ The last level (s = 1) for the slots between bottom and top (a positive multiple of two slots;
@ bottom at least one slot above the array's start), from the top down: slot j's new mask
@ (m_j & ~go_j) | (m_(j-1) & come_(j-1)) goes to the four output words below out_top. Reads only.
  .global hqc_m4_route_last
  .section .text.hqc_m4_route_last, "ax", %progbits
  .type hqc_m4_route_last, %function
  .thumb_func
hqc_m4_route_last:
  push {r4-r11, lr}
1:
  ROUTE_LAST_STEP
  ROUTE_LAST_STEP
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_route_last, . - hqc_m4_route_last

@ The sort keeps its values two to a word (16-bit halves, value 2k in the low half of word k), so
@ that USUB16 and SEL compare and exchange two values at once wherever a comparator's partner
@ is in the same half of another word.
@ SORT_CE: the two comparators (2k, 2k + d) and (2k + 1, 2k + 1 + d), d even: (a, b) = (min, max)
@ of each half of the words at r11 and r11 + r12 (r12 = 2 d bytes), r11 advanced by 4. USUB16
@ sets GE[1:0] and GE[3:2] exactly where the half of b >= the half of a, and SEL picks each
@ half by them. 7 instructions, no branch.
.macro SORT_CE
  ldr r2, [r11]
  ldr lr, [r11, r12]
  usub16 r3, lr, r2
  sel r1, r2, lr
  sel lr, lr, r2
  str lr, [r11, r12]
  str r1, [r11], #4
.endm

@ IN_WORD_CE x: the comparator (2k, 2k + 1) of the word in \x: low half = min, high half = max.
@ With y = x rotated by 16, USUB16 y - x sets GE[1:0] iff high >= low and GE[3:2] iff low >= high,
@ so SEL(x, y) holds the minimum in both halves and SEL(y, x) the maximum. Clobbers r9, r10.
.macro IN_WORD_CE x
  ror r9, \x, #16
  usub16 r10, r9, \x
  sel r10, \x, r9
  sel r9, r9, \x
  pkhbt \x, r10, r9
.endm

@ CROSS_CE: the comparator (2k + 1, 2k + 1 + d), d odd: the high half of the word at r11 and the
@ low half of the word at r11 + r12 (r12 = 2 (d + 1) bytes) become their min and max; r11
@ advanced by 4. Clobbers r1-r4, r9.
.macro CROSS_CE
  ldr r1, [r11]
  ldr r3, [r11, r12]
  lsl r2, r3, #16                   @ b in the high half, beside a
  usub16 r9, r2, r1                 @ GE[3:2] iff b >= a
  sel r4, r1, r2                    @ high half: min
  sel r2, r2, r1                    @ high half: max
  pkhbt r1, r1, r4
  pkhtb r3, r3, r2, asr #16
  str r3, [r11, r12]
  str r1, [r11], #4
.endm

@ CROSS_CE2: two CROSS_CE at once, for the words k, k + 1 at r11 and k + e, k + e + 1 at
@ r11 + r12 (e = r12 / 4 >= 2, so the four words are distinct): the two high halves packed into
@ one word and the two low halves into another, one USUB16 and two SELs, and the halves put back
@ (PKHBT, PKHTB); r11 advanced by 8. About 10.5 estimated cycles a comparator with the loop,
@ against 15 one at a time. Clobbers r1-r4, r6, r9, r10, lr.
.macro CROSS_CE2
  add lr, r11, r12
  ldr r1, [r11]                     @ A0
  ldr r2, [r11, #4]                 @ A1
  ldr r3, [lr]                      @ B0
  ldr r4, [lr, #4]                  @ B1
  pkhtb r6, r2, r1, asr #16         @ (A0 high, A1 high)
  pkhbt r10, r3, r4, lsl #16        @ (B0 low, B1 low)
  usub16 r9, r10, r6
  sel r9, r6, r10                   @ the minima
  sel r10, r10, r6                  @ the maxima
  pkhbt r1, r1, r9, lsl #16
  pkhbt r2, r2, r9
  pkhbt r3, r10, r3
  pkhtb r4, r4, r10, asr #16
  str r3, [lr]
  str r4, [lr, #4]
  str r2, [r11, #4]
  str r1, [r11], #8
.endm

@ void hqc_m4_sort_merge_exchange(uint16_t* v, uint32_t n)
@ v[0 .. n) in increasing order (n even, 2 <= n < 2^16, v 4-byte aligned, values below 2^16) by
@ Knuth's merge exchange (TAOCP 5.2.2 Algorithm M), as route::sort in support_route_m4.hpp:
@ t = bit width of n - 1; for p = 2^(t-1), .. , 1: q = 2^(t-1), r = 0, d = p; then repeatedly
@ the comparators (i, i + d) for every i < n - d with i & p = r (runs of p indices starting at r,
@ every 2p), and while q != p: d = q - p, q = q / 2, r = p. The loops depend on n only (IT
@ selects a run's public end). Values two to a word (v's own layout):
@ - p >= 2: d, r, every run's start and end and n - d are even, so the comparators come in pairs
@   (2k, 2k + d), (2k + 1, 2k + 1 + d): SORT_CE, a word at a time. p = 2 has runs of one word,
@   every other word, and a loop of its own.
@ - p = 1: the round d = 1, r = 0 pairs the halves of every word (IN_WORD_CE, four words per
@   LDM); the rounds d = q - 1 (r = 1, d odd) pair the high half of word k with the low half of
@   word k + (d + 1) / 2, for k < (n - d - 1) / 2: CROSS_CE2, two at a time, except for d = 1,
@   where word k + 1 is in two comparators: CROSS_CE in order.
@ About 7.0k estimated cycles for n = 76 (HQC-1's 75 positions and a pad), against 9.9k a value to
@ a word (scripts/m4-cycles.py).
@ Registers: r0 v, r4 p, r5 q, r6 r, r7 d, r8 n - d, r9 run start, r10 run end (address), r11
@ the comparator's address, r12 its partner's distance in bytes; n and 2^(t-1) on the stack.
  .global hqc_m4_sort_merge_exchange
  .section .text.hqc_m4_sort_merge_exchange, "ax", %progbits
  .type hqc_m4_sort_merge_exchange, %function
  .thumb_func
hqc_m4_sort_merge_exchange:
  push {r4-r11, lr}
  sub r2, r1, #1
  clz r2, r2
  rsb r2, r2, #31
  movs r3, #1
  lsl r3, r3, r2                @ 2^(t-1)
  push {r1, r3}                 @ [sp] n, [sp, #4] 2^(t-1)
  mov r4, r3                    @ p
  cmp r4, #2
  blo 20f                       @ n = 2: p = 1 only
1:                              @ for each p >= 2
  ldr r5, [sp, #4]              @ q = 2^(t-1)
  movs r6, #0                   @ r = 0
  mov r7, r4                    @ d = p
2:                              @ one round: the comparators (i, i + d), i & p = r
  ldr r8, [sp]
  sub r8, r8, r7                @ i < n - d
  lsl r12, r7, #1
  mov r9, r6                    @ the first run starts at r
  cmp r4, #2
  beq 8f                        @ runs of one word: the loop below
3:
  cmp r9, r8
  bhs 6f
  add r10, r9, r4               @ the run ends at min(start + p, n - d)
  cmp r10, r8
  it hi
  movhi r10, r8
  sub r3, r10, r9               @ its length: an even number of values
  add r11, r0, r9, lsl #1
  add r10, r0, r10, lsl #1
  tst r3, #2                    @ an odd number of words
  beq 4f
  SORT_CE
  cmp r11, r10
  beq 5f
4:
  SORT_CE
  SORT_CE
  cmp r11, r10
  bne 4b
5:
  add r9, r9, r4, lsl #1        @ the next run: 2p further
  b 3b
6:
  cmp r5, r4                    @ while q != p
  beq 7f
  sub r7, r5, r4                @ d = q - p
  lsr r5, r5, #1                @ q = q / 2
  mov r6, r4                    @ r = p
  b 2b
7:
  lsr r4, r4, #1
  cmp r4, #2
  bhs 1b
  b 20f
8:                              @ p = 2: one word every other word, from v + 2 r to v + 2 (n - d)
  add r11, r0, r6, lsl #1
  add r10, r0, r8, lsl #1
  cmp r11, r10
  bhs 6b
9:
  SORT_CE
  adds r11, r11, #4
  cmp r11, r10
  blo 9b
  b 6b
20:                             @ p = 1, d = 1, r = 0: each word in itself
  ldr r1, [sp]
  mov r11, r0
  add r8, r0, r1, lsl #1        @ the end of v
  sub r7, r8, #12               @ four words fit while r11 < end - 12
  cmp r11, r7
  bhs 22f
21:
  ldm r11, {r1-r4}
  IN_WORD_CE r1
  IN_WORD_CE r2
  IN_WORD_CE r3
  IN_WORD_CE r4
  stm r11!, {r1-r4}
  cmp r11, r7
  blo 21b
22:
  cmp r11, r8
  bhs 24f
23:
  ldr r1, [r11]
  IN_WORD_CE r1
  str r1, [r11], #4
  cmp r11, r8
  blo 23b
24:
  ldr r5, [sp, #4]              @ q = 2^(t-1)
25:                             @ while q != 1: d = q - 1, q = q / 2, r = 1
  cmp r5, #1
  beq 29f
  sub r7, r5, #1                @ d
  lsr r5, r5, #1
  ldr r8, [sp]
  sub r8, r8, r7
  sub r8, r8, #1                @ n - d - 1: twice the words k < (n - d - 1) / 2
  add r8, r0, r8, lsl #1        @ their end
  add r12, r7, #1
  lsl r12, r12, #1              @ 2 (d + 1) bytes to word k + (d + 1) / 2
  mov r11, r0
  cmp r7, #1
  beq 27f
  sub r7, r8, #4                @ two words fit while r11 < end - 4
  cmp r11, r7
  bhs 27f
26:
  CROSS_CE2
  cmp r11, r7
  blo 26b
27:                             @ the rest (every comparator when d = 1) one at a time
  cmp r11, r8
  bhs 25b
28:
  CROSS_CE
  cmp r11, r8
  blo 28b
  b 25b
29:
  add sp, sp, #8
  pop {r4-r11, pc}
  .size hqc_m4_sort_merge_exchange, . - hqc_m4_sort_merge_exchange

@ void hqc_m4_route_keep(uint32_t* top, const uint32_t* bottom)
@ The steps of one level for slots without a source (j < s), between bottom and top (a positive
@ number of slots), from the top down: a slot keeps its item unless bit 31 of its offset is set,
@ and the offset moves on a bit. LDMDB and STMDB of five words 6 each, six ALU: 18 estimated
@ cycles a slot, 22 with the loop.
  .global hqc_m4_route_keep
  .section .text.hqc_m4_route_keep, "ax", %progbits
  .type hqc_m4_route_keep, %function
  .thumb_func
hqc_m4_route_keep:
  push {r4-r8}
1:
  ldmdb r0, {r4-r8}
  MASK4 bic, r4, r5, r6, r7, r8
  bic r8, r8, r8, asr #31
  lsl r8, r8, #1
  stmdb r0!, {r4-r8}
  cmp r0, r1
  bne 1b
  pop {r4-r8}
  bx lr
  .size hqc_m4_route_keep, . - hqc_m4_route_keep

@ void hqc_m4_route_items(uint32_t* comp_top, const uint16_t* sorted, uint32_t w)
@ route::items (support_route_m4.hpp): for j = 0 .. w - 1 (w >= 1, sorted[w] = 0xFFFF), item
@ j of the sorted positions s = sorted[j] in the five words below comp_top - 20 j: the bit
@ 1 << (s & 31) is ORed into word (s >> 5) & 3 of the mask carried from the items below j in its
@ block (four IT-predicated ORRs: single-cycle ALU instructions whatever their condition, no
@ memory access); same = all ones iff block s >> 7 is the block of sorted[j + 1]; the slot gets
@ mask & ~same, the carry keeps mask & same; full = all ones iff the slot's mask is not zero
@ (a predicated MOV), and the offset is (RBIT(c) | B) & full, c the count of empty items below j,
@ which grows by 1 + full. About 53 estimated cycles an item.
@ Registers: r0 the slot's top, r1 sorted, r2 the items left, r3 c, r4-r8 the slot (mask, offset),
@ r9-r12 the carried mask, lr s and then B.
  .global hqc_m4_route_items
  .section .text.hqc_m4_route_items, "ax", %progbits
  .type hqc_m4_route_items, %function
  .thumb_func
hqc_m4_route_items:
  push {r4-r11, lr}
  movs r3, #0
  movs r9, #0
  movs r10, #0
  movs r11, #0
  movs r12, #0
1:
  ldrh lr, [r1], #2             @ s
  ldrh r8, [r1]                 @ the next position (or the sentinel)
  and r5, lr, #31
  movs r4, #1
  lsl r4, r4, r5                @ its bit
  ubfx r5, lr, #5, #2           @ its word in the block
  cmp r5, #0
  it eq
  orreq r9, r9, r4
  cmp r5, #1
  it eq
  orreq r10, r10, r4
  cmp r5, #2
  it eq
  orreq r11, r11, r4
  cmp r5, #3
  it eq
  orreq r12, r12, r4
  lsr lr, lr, #7                @ B
  eor r8, lr, r8, lsr #7
  sub r8, r8, #1
  asr r8, r8, #31               @ same: B = the next one's block (both below 2^9)
  bic r4, r9, r8
  and r9, r9, r8
  bic r5, r10, r8
  and r10, r10, r8
  bic r6, r11, r8
  and r11, r11, r8
  bic r7, r12, r8
  and r12, r12, r8
  orr r8, r4, r5
  orr r8, r8, r6
  orrs r8, r8, r7
  it ne
  movne r8, #0xFFFFFFFF         @ full
  rbit r3, r3
  orr lr, lr, r3                @ B | c reversed (c < 256: bits 24 .. 31; B < 2^9)
  rbit r3, r3
  adds r3, r3, #1
  add r3, r3, r8                @ c + 1 if the item is empty
  and r8, lr, r8
  stmdb r0!, {r4-r8}
  subs r2, r2, #1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_route_items, . - hqc_m4_route_items
