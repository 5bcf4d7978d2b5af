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

@ One comparator of the sort: (a, b) = (min, max) of the words at r11 and r11 + r12, r11
@ advanced by 4. Values below 2^16 (positions, below n < 2^16): USUB16 sets GE[1:0] exactly when
@ b >= a (the low halfwords; the high ones are zero, 0 - 0 sets GE[3:2]), and SEL picks each
@ halfword by them. 7 instructions, no branch.
.macro SORT_CE
  ldr r2, [r11]
  ldr lr, [r11, r12]
  usub16 r3, lr, r2
  sel r1, r2, lr
  sel lr, lr, r2
  str lr, [r11, r12]
  str r1, [r11], #4
.endm

@ void hqc_m4_sort_merge_exchange(uint32_t* v, uint32_t n)
@ v[0 .. n) in increasing order (2 <= n < 2^31, values below 2^16) by Knuth's merge exchange
@ (TAOCP 5.2.2 Algorithm M), as route::sort in support_route_m4.hpp: t = bit width of n - 1; for
@ p = 2^(t-1), .. , 1: q = 2^(t-1), r = 0, d = p; then repeatedly the comparators (i, i + d) for
@ every i < n - d with i & p = r (runs of p indices starting at r, every 2p), and while q != p:
@ d = q - p, q = q / 2, r = p. The loops depend on n only (IT selects a run's public end).
@ Rounds with p <= 2 (more than half the comparators) have loops of their own, which step
@ from comparator to comparator without a loop per run: about 14 estimated cycles a comparator
@ over the whole sort instead of 19.5 (9 of them the compare-exchange).
@ Registers: r0 v, r4 p, r5 q, r6 r, r7 d, r8 n - d, r9 run start, r10 run end (address), r11
@ the comparator's address, r12 4 d; n and 2^(t-1) on the stack.
  .global hqc_m4_sort_merge_exchange
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
1:                              @ for each p
  ldr r5, [sp, #4]              @ q = 2^(t-1)
  movs r6, #0                   @ r = 0
  mov r7, r4                    @ d = p
2:                              @ one round: the comparators (i, i + d), i & p = r
  ldr r8, [sp]
  sub r8, r8, r7                @ i < n - d
  lsl r12, r7, #2
  mov r9, r6                    @ the first run starts at r
  cmp r4, #2
  bls 8f                        @ runs of one or two comparators: the loops below
3:
  cmp r9, r8
  bhs 6f
  add r10, r9, r4               @ the run ends at min(start + p, n - d)
  cmp r10, r8
  it hi
  movhi r10, r8
  sub r3, r10, r9               @ its length, odd or even
  add r11, r0, r9, lsl #2
  add r10, r0, r10, lsl #2
  tst r3, #1
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
  lsrs r4, r4, #1
  bne 1b
  add sp, sp, #8
  pop {r4-r11, pc}
8:                              @ p <= 2: the comparators from v + 4 r up to v + 4 (n - d)
  add r11, r0, r6, lsl #2
  add r10, r0, r8, lsl #2
  cmp r4, #1
  bne 10f
  cmp r11, r10                  @ p = 1: every other index
  bhs 6b
9:
  SORT_CE
  adds r11, r11, #4
  cmp r11, r10
  blo 9b
  b 6b
10:                             @ p = 2: pairs, every other pair; the last may be cut to one
  sub r9, r10, #4
  cmp r11, r9
  bhs 12f
11:
  SORT_CE
  SORT_CE
  adds r11, r11, #8
  cmp r11, r9
  blo 11b
12:
  cmp r11, r10
  bhs 6b
  SORT_CE
  b 6b
  .size hqc_m4_sort_merge_exchange, . - hqc_m4_sort_merge_exchange

@ void hqc_m4_route_keep(uint32_t* top, const uint32_t* bottom)
@ The steps of one level for slots without a source (j < s), between bottom and top (a positive
@ number of slots), from the top down: a slot keeps its item unless bit 31 of its offset is set,
@ and the offset moves on a bit. LDMDB and STMDB of five words 6 each, six ALU: 18 estimated
@ cycles a slot, 22 with the loop.
  .global hqc_m4_route_keep
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

@ void hqc_m4_route_items(uint32_t* comp_top, const uint32_t* sorted, uint32_t w)
@ route::items (support_route_m4.hpp): for j = 0 .. w - 1 (w >= 1, sorted[w] = 0xFFFFFFFF), item
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
  ldr lr, [r1], #4              @ s
  ldr r8, [r1]                  @ the next position (or the sentinel)
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
  asr r8, r8, #31               @ same: B = the next one's block (both below 2^25)
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
