@ The butterflies of the M4 FAFFT (fafft_m4.cpp; docs/FAFFT.md), those of the layers with halves
@ below 32 points (the larger ones: hqc_m4_fafft_sliced below): a layer at a time, u[k] and v[k]
@ for k < half in each block, with the block's twiddle tau in GF(2^32) = GF(2)[z]/(z^32 + z^7 +
@ z^3 + z^2 + 1). The product tau * v is clmul_m4.S's 32x32 carry-less product from UMULL over the
@ four bit classes (positions = k mod 4) of both operands (PRODUCT_SPLIT), with tau's classes split
@ once per block and kept in r1-r4 and v's split once per product, then the reduction. No branch
@ and no address depends on u, v or tau; the loop runs half times.
#include "backend/m4/clmul_classes_m4.inc"
#include "backend/m4/word_loop_m4.inc"
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ r12 = (lr:r12) mod z^32 + z^7 + z^3 + z^2 + 1. With h = lr and o = the bits of h z^7 + h z^3 +
@ h z^2 above bit 31 (h >> 25 ^ h >> 29 ^ h >> 30), the residue is lo + f(h + o), f(x) = x + x z^2
@ + x z^3 + x z^7 cut to 32 bits (o < 2^7, so o's own terms stay below bit 32). Clobbers r7, lr.
.macro REDUCE
  lsr r7, lr, #25
  eor r7, r7, lr, lsr #29
  eor r7, r7, lr, lsr #30
  eor lr, lr, r7
  eor r12, r12, lr
  eor r12, r12, lr, lsl #2
  eor r12, r12, lr, lsl #3
  eor r12, r12, lr, lsl #7
.endm

@ SPLIT4 src, c0, c1, c2, c3: the four bit classes of \src into \c0 .. \c3 (\c3 may be \src).
.macro SPLIT4 src, c0, c1, c2, c3
  and \c0, \src, #0x11111111
  and \c1, \src, #0x22222222
  and \c2, \src, #0x44444444
  and \c3, \src, #0x88888888
.endm

@ PRODUCT_SPLIT: (lr:r12) = x * y, both split: x's classes 0-3 in r1-r4, y's in r5-r8
@ (CLMUL_CLASSES, clmul_classes_m4.inc: 46 instructions). The four classes of each operand in eight
@ registers, one accumulator pair, one product pair and the result leave no core register for a
@ pointer, so the callers keep theirs in FPU registers meanwhile (a VMOV each way, against the 12
@ ANDs of splitting one operand again for each of its products). The classes stay intact (tau's
@ are kept across a block's products). Clobbers r0, r9-r11.
.macro PRODUCT_SPLIT
  CLMUL_CLASSES r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r0
.endm

@ The butterflies, tau's classes in r1-r4 (split once per block), v's split once each
@ (PRODUCT_SPLIT): r0 = u (advanced by a word), v at r0 + \off bytes, \off an immediate, or, where
@ it is left out, 4 half from s1 (LAYER). The product needs every core register, so u's pointer
@ waits in s12 and v (v + u in the inverse) in s13 meanwhile: a VMOV each way, against the 12
@ ANDs of splitting v again for each of its products (about 72 estimated cycles a butterfly, 74
@ with the offset in s1). The two stores are adjacent, so that the second pipelines with the first.
@ BUTTERFLY_PRODUCT: r12 = tau r8, with r0 back and r6 = r8 after it (through s12, s13).
.macro BUTTERFLY_PRODUCT
  vmov s12, r0
  vmov s13, r8
  SPLIT4 r8, r5, r6, r7, r8
  PRODUCT_SPLIT
  REDUCE
  vmov r0, s12
  vmov r6, s13
.endm
@ BUTTERFLY_STORE off: v = r6 and u = r7 back, r0 advanced.
.macro BUTTERFLY_STORE off
  .ifb \off
  vmov r9, s1
  str r6, [r0, r9]
  .else
  str r6, [r0, #\off]
  .endif
  str r7, [r0], #4
.endm
@ Forward: u += tau v, v += u.
.macro BUTTERFLY off
  .ifb \off
  vmov r12, s1
  ldr r8, [r0, r12]
  .else
  ldr r8, [r0, #\off]
  .endif
  BUTTERFLY_PRODUCT
  ldr r7, [r0]
  eor r7, r7, r12
  eor r6, r6, r7
  BUTTERFLY_STORE \off
.endm
@ Inverse: v += u, u += tau v; u is loaded again after the product. The two loads are adjacent.
.macro BUTTERFLY_INVERSE off
  .ifb \off
  vmov r12, s1
  ldr r7, [r0]
  ldr r8, [r0, r12]
  .else
  ldr r7, [r0]
  ldr r8, [r0, #\off]
  .endif
  eor r8, r8, r7
  BUTTERFLY_PRODUCT
  ldr r7, [r0]
  eor r7, r7, r12
  BUTTERFLY_STORE \off
.endm

@ tau_b = tau_(b-1) + steps[ctz(b)] for the block b in r2 (b >= 1): s4 = tau, s5 = steps (the
@ Cantor basis' prefix sums, fafft_m4.cpp's kTwiddleStep). Clobbers r3, r4.
.macro NEXT_TWIDDLE
  rbit r3, r2
  clz r3, r3
  vmov r4, s5
  ldr r3, [r4, r3, lsl #2]
  vmov r4, s4
  eor r4, r4, r3
  vmov s4, r4
.endm

@ A whole layer: blocks of 2 half words from g on, block b with twiddle tau_b, tau_0 given and
@ tau_b = tau_(b-1) + steps[ctz(b)] (fafft_m4.cpp's kTwiddleStep: the Cantor basis' prefix sums). The
@ layer's state lives in FPU registers while the butterflies use every core register: s0 = the end
@ of the block's u, s1 = 4 half, s2 = b, s3 = blocks, s4 = tau_b, s5 = steps, s6 = steps[0] (and
@ s12, s13 the butterfly's own, BUTTERFLY_PRODUCT). For
@ half >= 8 (a power of two; LAYER_SMALL below has the smaller ones): four butterflies an
@ iteration, so that the loop's test and branch are paid once per four (about 1.3 estimated cycles
@ a butterfly); blocks b (even) and b + 1 (if blocks > 1; blocks is a power of two) an outer
@ iteration, the odd one's twiddle tau_b + steps[0] (ctz(b + 1) = 0), so that the twiddle step by
@ ctz and the test on b are paid once per two blocks. Every branch and address depends on half,
@ blocks and b only.
@ One block of LAYER from r0 on: r0 = u, s0 = the end of u, tau in r4 (its classes to r1-r4); four
@ butterflies an iteration. Leaves r0 = the next block.
.macro LAYER_BLOCK body
  vmov r12, s1
  add r2, r0, r12
  vmov s0, r2
  SPLIT4 r4, r1, r2, r3, r4
2:
  .rept 4
  \body
  .endr
  vmov r8, s0
  cmp r0, r8
  bne 2b
  vmov r12, s1
  add r0, r0, r12
.endm
.macro LAYER body
  push {r4-r11, lr}
  ldr r12, [sp, #36]
  vmov s5, r12
  ldr r12, [r12]
  vmov s6, r12
  lsl r1, r1, #2
  vmov s1, r1
  vmov s3, r2
  movs r12, #0
  vmov s2, r12
  vmov s4, r3
1:
  vmov r4, s4
  LAYER_BLOCK \body
  vmov r3, s3
  cmp r3, #1
  beq 5f
  vmov r4, s4
  vmov r5, s6
  eor r4, r4, r5
  vmov s4, r4
  LAYER_BLOCK \body
  vmov r2, s2
  adds r2, r2, #2
  vmov s2, r2
  vmov r3, s3
  cmp r2, r3
  beq 5f
  NEXT_TWIDDLE
  b 1b
5:
  pop {r4-r11, pc}
.endm

@ A layer whose blocks have half = 1, 2 or 4 (the forward FFT's last three layers, the inverse's
@ second and third; they hold seven eighths of the blocks): each block's butterflies unrolled, no
@ inner loop. With pair = 1 (half 1 and 2, where the blocks are most) two blocks an iteration, b
@ even and b + 1: ctz(b + 1) = 0, so the odd block's twiddle is the even one's plus steps[0] (in
@ s6), and the test, the branch and the twiddle step by ctz are paid once per two blocks (about 16
@ estimated cycles a block against about 35 in LAYER; the number of blocks is even). At half 4 one
@ block an iteration (the pair's flash, 2 KB a direction, buys less there). The state as in LAYER:
@ s2 = b, s3 = the end of g's blocks, s4 = tau_b (then tau_(b+1)), s5 = steps. Every branch and
@ address depends on half, blocks and b only.
.macro SMALL_BLOCK body, half
  SPLIT4 r4, r1, r2, r3, r4
  .rept \half
  \body 4*\half
  .endr
  add r0, r0, #4 * \half
.endm
.macro LAYER_SMALL body, half, pair
  push {r4-r11, lr}
  ldr r12, [sp, #36]
  vmov s5, r12
  ldr r12, [r12]
  vmov s6, r12
  .if \half == 1
  add r2, r0, r2, lsl #3
  .elseif \half == 2
  add r2, r0, r2, lsl #4
  .else
  add r2, r0, r2, lsl #5
  .endif
  vmov s3, r2
  movs r12, #0
  vmov s2, r12
  vmov s4, r3
1:
  vmov r4, s4
  SMALL_BLOCK \body, \half
  .if \pair
  vmov r4, s4
  vmov r5, s6
  eor r4, r4, r5
  vmov s4, r4
  SMALL_BLOCK \body, \half
  .endif
  vmov r8, s3
  cmp r0, r8
  beq 5f
  vmov r2, s2
  adds r2, r2, #(1 + \pair)
  vmov s2, r2
  rbit r3, r2
  clz r3, r3
  vmov r4, s5
  ldr r3, [r4, r3, lsl #2]
  vmov r4, s4
  eor r3, r4, r3
  vmov s4, r3
  b 1b
5:
  pop {r4-r11, pc}
.endm

@ void hqc_m4_fafft_layer(u32* g, u32 half, u32 blocks, u32 tau0, const u32* steps): one layer of
@ the forward FFT, u[k] += tau_b v[k], v[k] += u[k] in every block (half >= 1, blocks >= 1).
  .global hqc_m4_fafft_layer
  .section .text.hqc_m4_fafft_layer, "ax", %progbits
  .type hqc_m4_fafft_layer, %function
  .thumb_func
hqc_m4_fafft_layer:
  cmp r1, #2
  bhi 6f
  beq 7f
  LAYER_SMALL BUTTERFLY, 1, 1
7:
  LAYER_SMALL BUTTERFLY, 2, 1
6:
  cmp r1, #4
  bne 8f
  LAYER_SMALL BUTTERFLY, 4, 0
8:
  LAYER BUTTERFLY
  .size hqc_m4_fafft_layer, . - hqc_m4_fafft_layer

@ void hqc_m4_fafft_layer_inverse(u32* g, u32 half, u32 blocks, u32 tau0, const u32* steps): one
@ layer of the inverse FFT, v[k] += u[k], u[k] += tau_b v[k]; half >= 2 (layer 0, half 1, is
@ fused with the pointwise products, hqc_m4_fafft_pointwise_first, or with the block products).
  .global hqc_m4_fafft_layer_inverse
  .section .text.hqc_m4_fafft_layer_inverse, "ax", %progbits
  .type hqc_m4_fafft_layer_inverse, %function
  .thumb_func
hqc_m4_fafft_layer_inverse:
  cmp r1, #2
  bhi 6f
  LAYER_SMALL BUTTERFLY_INVERSE, 2, 1
6:
  cmp r1, #4
  bne 8f
  LAYER_SMALL BUTTERFLY_INVERSE, 4, 0
8:
  LAYER BUTTERFLY_INVERSE
  .size hqc_m4_fafft_layer_inverse, . - hqc_m4_fafft_layer_inverse

@ XOR_SHIFTED_FOUR (below) with the shift an immediate r (1 .. 31): two EORs a word, the shifts in
@ their operands, instead of four instructions.
.macro XOR_SHIFTED_FOUR_IMM r, c, d0, d1, d2, d3
  eor \d0, \d0, \c, lsr #\r
  eor \d0, \d0, r5, lsl #(32 - \r)
  eor \d1, \d1, r5, lsr #\r
  eor \d1, \d1, r6, lsl #(32 - \r)
  eor \d2, \d2, r6, lsr #\r
  eor \d2, \d2, r7, lsl #(32 - \r)
  eor \d3, \d3, r7, lsr #\r
  eor \d3, \d3, r8, lsl #(32 - \r)
  mov \c, r8
.endm

@ Four destination words d0-d3 of a shifted XOR: d_i ^= (s_(i-1) >> r) | (s_i << rc) with s_(-1) in
@ \c (the source word carried from before) and s_0-s_3 in r5-r8, just loaded; \c is the scratch and
@ ends as r8, the word carried to the next four. \r and \rc = 32 - r are registers.
.macro XOR_SHIFTED_FOUR c, r, rc, d0, d1, d2, d3
  lsr \c, \c, \r
  eor \d0, \d0, \c
  lsl \c, r5, \rc
  eor \d0, \d0, \c
  lsr \c, r5, \r
  eor \d1, \d1, \c
  lsl \c, r6, \rc
  eor \d1, \d1, \c
  lsr \c, r6, \r
  eor \d2, \d2, \c
  lsl \c, r7, \rc
  eor \d2, \d2, \c
  lsr \c, r7, \r
  eor \d3, \d3, \c
  lsl \c, r8, \rc
  eor \d3, \d3, \c
  mov \c, r8
.endm

@ void hqc_m4_fafft_xor_shifted(u32* dst, const u32* src, u32 len, u32 r): dst[i] ^= (src[i] >> r) |
@ (src[i + 1] << (32 - r)) for i < len (len >= 1, 1 <= r <= 31; reads src[0 .. len]): the middle
@ words of a conversion step whose source is r bits off a word (fafft_m4.cpp, memory_step). Four
@ words per LDM/STM, the last source word carried to the next four (about 9 estimated cycles a word
@ against 14 for the C++ loop), then one at a time. Shifts by the register r (public).
  .global hqc_m4_fafft_xor_shifted
  .section .text.hqc_m4_fafft_xor_shifted, "ax", %progbits
  .type hqc_m4_fafft_xor_shifted, %function
  .thumb_func
hqc_m4_fafft_xor_shifted:
  push {r4-r11, lr}
  rsb r12, r3, #32
  ldr r4, [r1], #4
  subs r2, r2, #4
  blo 2f
1:
  ldm r1!, {r5-r8}
  ldm r0, {r9-r11, lr}
  XOR_SHIFTED_FOUR r4, r3, r12, r9, r10, r11, lr
  stm r0!, {r9-r11, lr}
  subs r2, r2, #4
  bhs 1b
2:
  adds r2, r2, #4
  beq 4f
3:
  ldr r5, [r1], #4
  ldr r9, [r0]
  lsr r4, r4, r3
  eor r9, r9, r4
  lsl r4, r5, r12
  eor r9, r9, r4
  str r9, [r0], #4
  mov r4, r5
  subs r2, r2, #1
  bne 3b
4:
  pop {r4-r11, pc}
  .size hqc_m4_fafft_xor_shifted, . - hqc_m4_fafft_xor_shifted

@ void hqc_m4_fafft_pointwise_first(u32* g, const u32* x, const u32* y, u32 pairs, u32 tau0,
@                                   const u32* steps)
@ The pointwise products and the first layer of the inverse FFT (half = 1) in one pass: for each
@ pair b < pairs, p = x[2b] y[2b] and p' = x[2b + 1] y[2b + 1], then v = p' + p and u = p + tau_b v,
@ g[2b] = u, g[2b + 1] = v, with tau_0 given and tau_b = tau_(b-1) + steps[ctz(b)] (as LAYER).
@ g may be x or y (a pair of g is stored, by one STRD, after the pair's x and y are read). State in
@ FPU registers: s0 = the end of y, s1 = g - y in bytes, s2 = b, s4 = tau_b, s5 = steps, s6 = p,
@ s7 = steps[0], s12 - s14 x, y and v through the products (POINT_PAIR). Saves each pair's loads
@ and stores of g and the layer's block set-up. Two pairs an iteration, b even and b + 1
@ (tau_(b+1) = tau_b + steps[0]; pairs is even), as LAYER_SMALL.
@ No branch or address depends on x, y or tau.
.macro POINT_PRODUCT
  ldr r4, [r0], #4
  ldr r8, [r1], #4
  vmov s12, r0
  vmov s13, r1
  SPLIT4 r4, r1, r2, r3, r4
  SPLIT4 r8, r5, r6, r7, r8
  PRODUCT_SPLIT
  REDUCE
.endm
@ One pair with the twiddle in s4: u and v to g by one STRD. x's and y's pointers wait in s12 and
@ s13 through the products (PRODUCT_SPLIT needs every core register), p in s6, v in s14.
.macro POINT_PAIR
  POINT_PRODUCT
  vmov s6, r12
  vmov r0, s12
  vmov r1, s13
  POINT_PRODUCT
  vmov r7, s6
  eor r8, r12, r7
  vmov s14, r8
  vmov r4, s4
  SPLIT4 r4, r1, r2, r3, r4
  SPLIT4 r8, r5, r6, r7, r8
  PRODUCT_SPLIT
  REDUCE
  vmov r7, s6
  eor r7, r7, r12
  vmov r6, s14
  vmov r0, s12
  vmov r1, s13
  vmov r8, s1
  add r8, r8, r1
  strd r7, r6, [r8, #-8]
.endm
  .global hqc_m4_fafft_pointwise_first
  .section .text.hqc_m4_fafft_pointwise_first, "ax", %progbits
  .type hqc_m4_fafft_pointwise_first, %function
  .thumb_func
hqc_m4_fafft_pointwise_first:
  push {r4-r11, lr}
  ldr r12, [sp, #40]
  vmov s5, r12
  ldr r12, [r12]
  vmov s7, r12
  sub r0, r0, r2
  vmov s1, r0
  add r3, r2, r3, lsl #3
  vmov s0, r3
  ldr r12, [sp, #36]
  vmov s4, r12
  movs r12, #0
  vmov s2, r12
  mov r0, r1
  mov r1, r2
1:
  POINT_PAIR
  vmov r3, s4
  vmov r4, s7
  eor r3, r3, r4
  vmov s4, r3
  POINT_PAIR
  vmov r8, s0
  cmp r1, r8
  beq 5f
  vmov r2, s2
  adds r2, r2, #2
  vmov s2, r2
  NEXT_TWIDDLE
  b 1b
5:
  pop {r4-r11, pc}
  .size hqc_m4_fafft_pointwise_first, . - hqc_m4_fafft_pointwise_first

@ void hqc_m4_fafft_block_products(u32* g, const u32* x, const u32* y, u32 pairs, u32 tau0,
@                                  const u32* steps, u32* work)
@ The one-shot products' last layers (fafft_m4.cpp, block_products: the algebra and the order of
@ the leaves): for each pair b < pairs of 8-point blocks (16 words of x, y and g), the Karatsuba
@ leaves of the four halves (LEAVES8), their 54 products, the two products' 16 coefficients
@ (COMBINE8) and their reduction fused with inverse layer 3 (15 products by the pair's twiddle
@ tau_b; tau_0 given, tau_b = tau_(b-1) + steps[ctz(b)] as LAYER). g may be x or y (a pair of g is
@ written after the pair's x and y are read). work: kBlockWork words of scratch (the caller wipes
@ it), laid out as below. State in FPU registers: s0 = g's pair, s1 = x's, s2 = y's, s3 = b,
@ s4 = tau_b, s5 = steps, s6 = work, s7 = the end of g, s8 = the end of a product run, s9 - s11
@ the subroutines' return addresses and destination. No branch or address depends on x, y or the
@ twiddles.
.equ BP_LX, 0          @ 54 words: the leaves of x's halves, then the products
.equ BP_LY, 216        @ 54 words: the leaves of y's halves
.equ BP_E, 432         @ 16 words: the first half's product (coefficients 0 .. 14)
.equ BP_F, 496         @ 16 words: the second's
.equ BP_S, 560         @ 8 words: the multiples of tau

@ The 27 leaves of the 8 words at r0 to r1 .. r1 + 108 (r1 advanced): those of a0..a3, of a4..a7,
@ of their sum; those of four words b0..b3 are b0, b1, b0+b1, b2, b3, b2+b3, b0+b2, b1+b3, and the
@ sum of all four. Clobbers r0, r2-r12, lr.
.macro LEAVES4 b0, b1, b2, b3, off
  eor r10, \b0, \b1
  eor r11, \b2, \b3
  eor r12, \b0, \b2
  eor lr, \b1, \b3
  eor r0, r12, lr
  str \b0, [r1, #\off]
  str \b1, [r1, #\off + 4]
  str r10, [r1, #\off + 8]
  str \b2, [r1, #\off + 12]
  str \b3, [r1, #\off + 16]
  str r11, [r1, #\off + 20]
  str r12, [r1, #\off + 24]
  str lr, [r1, #\off + 28]
  str r0, [r1, #\off + 32]
.endm
.macro LEAVES8
  ldm r0, {r2-r9}
  LEAVES4 r2, r3, r4, r5, 0
  LEAVES4 r6, r7, r8, r9, 36
  eor r2, r2, r6
  eor r3, r3, r7
  eor r4, r4, r8
  eor r5, r5, r9
  LEAVES4 r2, r3, r4, r5, 72
  add r1, r1, #108
.endm

@ Nine products p0..p8 (the leaves of four words) at r0 + off to the 8 coefficients of their
@ product, in place, the top one (zero) left out: p0, p0+p2, p0+p6+p7, p0+p2+p6+p8, p1+p3+p7,
@ p3+p5, p4. Clobbers r1-r12, lr.
.macro COMBINE4 off
  add r1, r0, #\off
  ldm r1, {r2-r10}
  eor r11, r2, r4
  eor r12, r2, r8
  eor r12, r12, r9
  eor lr, r11, r8
  eor lr, lr, r10
  eor r3, r3, r5
  eor r3, r3, r9
  eor r5, r5, r7
  str r11, [r1, #4]
  str r12, [r1, #8]
  str lr, [r1, #12]
  str r3, [r1, #16]
  str r5, [r1, #20]
  str r6, [r1, #24]
.endm
@ The 27 products at r0 to the 15 coefficients e0..e14 at s11 (e15 = 0): with P, Q, R
@ the coefficients of the three sub-products (P7 = Q7 = R7 = 0), e_i = P_i, e_(4+i) = R_i + P_i +
@ R_(4+i), e_(8+i) = R_(4+i) + P_(4+i) + Q_i, e_(12+i) = Q_(4+i) (i < 4). Clobbers r1-r12, lr.
.macro COMBINE8
  COMBINE4 0
  COMBINE4 36
  COMBINE4 72
  ldm r0, {r2-r5}
  add r1, r0, #72
  ldm r1, {r6-r12}
  eor r6, r6, r2
  eor r6, r6, r10
  eor r7, r7, r3
  eor r7, r7, r11
  eor r8, r8, r4
  eor r8, r8, r12
  eor r9, r9, r5
  vmov r1, s11
  stm r1, {r2-r9}
  add r1, r0, #16
  ldm r1, {r2-r4}
  add r1, r0, #36
  ldm r1, {r5-r9, lr}
  eor r10, r10, r2
  eor r10, r10, r5
  eor r11, r11, r3
  eor r11, r11, r6
  eor r12, r12, r4
  eor r12, r12, r7
  ldr r2, [r0, #60]
  vmov r1, s11
  str r10, [r1, #32]
  str r11, [r1, #36]
  str r12, [r1, #40]
  str r8, [r1, #44]
  str r9, [r1, #48]
  str lr, [r1, #52]
  str r2, [r1, #56]
.endm

@ XOR_FOUR off, d0-d3 (XOR_THREE off, d0-d2): the registers ^= the four (three) words at r0 + off.
@ Clobbers r1, r10-r12 (and lr).
.macro XOR_FOUR off, d0, d1, d2, d3
  add r1, r0, #\off
  ldm r1, {r10-r12, lr}
  eor \d0, \d0, r10
  eor \d1, \d1, r11
  eor \d2, \d2, r12
  eor \d3, \d3, lr
.endm
.macro XOR_THREE off, d0, d1, d2
  add r1, r0, #\off
  ldm r1, {r10-r12}
  eor \d0, \d0, r10
  eor \d1, \d1, r11
  eor \d2, \d2, r12
.endm

@ LEAVES8 and COMBINE8 as subroutines (each is called two or four times a pair): r0 and
@ r1 as the macros take them. The return address waits in s10.
  .section .text.fafft_block_leaves, "ax", %progbits
  .type fafft_block_leaves, %function
  .thumb_func
fafft_block_leaves:
  vmov s10, lr
  LEAVES8
  vmov lr, s10
  bx lr
  .size fafft_block_leaves, . - fafft_block_leaves
@ r0 = the 27 products, r1 = where e0 .. e14 go.
  .section .text.fafft_block_combine, "ax", %progbits
  .type fafft_block_combine, %function
  .thumb_func
fafft_block_combine:
  vmov s10, lr
  vmov s11, r1
  COMBINE8
  vmov lr, s10
  bx lr
  .size fafft_block_combine, . - fafft_block_combine

@ x[k] = x[k] y[k] for the words from r0 (x) to s8 (x's end), y[k] BP_LY bytes after x[k]: six
@ products an iteration, so that the test and the branch are paid once per six (the count, 54, is
@ a multiple of six); the last product's store waits for the next iteration, where it pipelines
@ with the loads. Both operands are split once (PRODUCT_SPLIT); the pointer waits in s12 meanwhile.
@ Clobbers r0-r12 and lr (the return address waits in s9).
.macro RUN_PRODUCT
  ldr r4, [r0], #4
  ldr r8, [r0, #BP_LY - 4]
  vmov s12, r0
  SPLIT4 r4, r1, r2, r3, r4
  SPLIT4 r8, r5, r6, r7, r8
  PRODUCT_SPLIT
  REDUCE
  vmov r0, s12
.endm
  .section .text.fafft_block_product_run, "ax", %progbits
  .type fafft_block_product_run, %function
  .thumb_func
fafft_block_product_run:
  vmov s9, lr
  b 2f
1:
  str r12, [r0, #-4]
2:
  .rept 5
  RUN_PRODUCT
  str r12, [r0, #-4]
  .endr
  RUN_PRODUCT
  vmov r8, s8
  cmp r0, r8
  bne 1b
  str r12, [r0, #-4]
  vmov lr, s9
  bx lr
  .size fafft_block_product_run, . - fafft_block_product_run

@ x[k] = tau x[k] for the words from r0 to s8 (x's end), tau in s4: its classes split once (r1-r4),
@ each x[k]'s once (PRODUCT_SPLIT; the pointer waits in s12); each product's store waits for the
@ next load, as above. Two products an iteration: the entry fafft_block_scale_run takes an even
@ count (8 here), fafft_block_scale_run_odd an odd one (7), which it starts with the second
@ product of an iteration. Clobbers r0-r12 and lr (the return address waits in s9).
.macro SCALE_PRODUCT
  ldr r8, [r0], #4
  vmov s12, r0
  SPLIT4 r8, r5, r6, r7, r8
  PRODUCT_SPLIT
  REDUCE
  vmov r0, s12
.endm
  .section .text.fafft_block_scale_run_odd, "ax", %progbits
  .type fafft_block_scale_run_odd, %function
  .thumb_func
fafft_block_scale_run_odd:
  vmov s9, lr
  vmov r4, s4
  SPLIT4 r4, r1, r2, r3, r4
  b 3f
  .size fafft_block_scale_run_odd, . - fafft_block_scale_run_odd
  .section .text.fafft_block_scale_run, "ax", %progbits
  .type fafft_block_scale_run, %function
  .thumb_func
fafft_block_scale_run:
  vmov s9, lr
  vmov r4, s4
  SPLIT4 r4, r1, r2, r3, r4
  b 2f
1:
  str r12, [r0, #-4]
2:
  SCALE_PRODUCT
  str r12, [r0, #-4]
3:
  SCALE_PRODUCT
  vmov r8, s8
  cmp r0, r8
  bne 1b
  str r12, [r0, #-4]
  vmov lr, s9
  bx lr
  .size fafft_block_scale_run, . - fafft_block_scale_run

  .global hqc_m4_fafft_block_products
  .section .text.hqc_m4_fafft_block_products, "ax", %progbits
  .type hqc_m4_fafft_block_products, %function
  .thumb_func
hqc_m4_fafft_block_products:
  push {r4-r11, lr}
  vmov s0, r0
  vmov s1, r1
  vmov s2, r2
  add r3, r0, r3, lsl #6
  vmov s7, r3
  movs r12, #0
  vmov s3, r12
  ldr r12, [sp, #36]
  vmov s4, r12
  ldr r12, [sp, #40]
  vmov s5, r12
  ldr r12, [sp, #44]
  vmov s6, r12
1:
  @ The leaves: x's two halves to BP_LX, y's to BP_LY.
  vmov r1, s6
  vmov r0, s1
  bl fafft_block_leaves
  vmov r0, s1
  add r0, r0, #32
  bl fafft_block_leaves
  vmov r0, s2
  bl fafft_block_leaves
  vmov r0, s2
  add r0, r0, #32
  bl fafft_block_leaves
  @ Their products, in place.
  vmov r0, s6
  add r1, r0, #BP_LY
  vmov s8, r1
  bl fafft_block_product_run
  @ The halves' products' coefficients.
  vmov r0, s6
  add r1, r0, #BP_E
  bl fafft_block_combine
  vmov r0, s6
  add r0, r0, #BP_LX + 108
  add r1, r0, #BP_F - BP_LX - 108
  bl fafft_block_combine
  vmov r0, s6
  @ S = E_hi + F_hi (7 words); S *= tau.
  add r1, r0, #BP_E + 32
  ldm r1, {r2-r8}
  XOR_FOUR BP_F + 32, r2, r3, r4, r5
  XOR_THREE BP_F + 48, r6, r7, r8
  add r0, r0, #BP_S
  stm r0, {r2-r8}
  add r8, r0, #28
  vmov s8, r8
  bl fafft_block_scale_run_odd
  @ V' = E_lo + F_lo + F_hi + tau S (v7 = e7 + f7) to g's second half; S = E_hi + V' (s7 = v7).
  vmov r0, s6
  add r1, r0, #BP_E
  ldm r1, {r2-r9}
  XOR_FOUR BP_F, r2, r3, r4, r5
  XOR_FOUR BP_F + 16, r6, r7, r8, r9
  XOR_FOUR BP_F + 32, r2, r3, r4, r5
  XOR_THREE BP_F + 48, r6, r7, r8
  XOR_FOUR BP_S, r2, r3, r4, r5
  XOR_THREE BP_S + 16, r6, r7, r8
  vmov r1, s0
  add r1, r1, #32
  stm r1, {r2-r9}
  XOR_FOUR BP_E + 32, r2, r3, r4, r5
  XOR_THREE BP_E + 48, r6, r7, r8
  add r1, r0, #BP_S
  stm r1, {r2-r9}
  @ S *= tau; U' = E_lo + S to g's first half.
  add r0, r0, #BP_S
  add r8, r0, #32
  vmov s8, r8
  bl fafft_block_scale_run
  vmov r0, s6
  add r1, r0, #BP_E
  ldm r1, {r2-r9}
  XOR_FOUR BP_S, r2, r3, r4, r5
  XOR_FOUR BP_S + 16, r6, r7, r8, r9
  vmov r1, s0
  stm r1!, {r2-r9}
  @ The next pair.
  add r1, r1, #32
  vmov s0, r1
  vmov r8, s7
  cmp r1, r8
  beq 5f
  vmov r1, s1
  add r1, r1, #64
  vmov s1, r1
  vmov r1, s2
  add r1, r1, #64
  vmov s2, r1
  vmov r2, s3
  adds r2, r2, #1
  vmov s3, r2
  NEXT_TWIDDLE
  b 1b
5:
  pop {r4-r11, pc}
  .size hqc_m4_fafft_block_products, . - hqc_m4_fafft_block_products

@ void hqc_m4_transpose32(u32* out, const u32* in): out = in as a 32 x 32 bit matrix (bit j of
@ word i) transposed; out may be in. A round s swaps bit s of the word index with bit s of the bit
@ index (the off-diagonal s x s blocks), and the five rounds commute. Rounds 16 and 8 run on the
@ words k, k + 8, k + 16, k + 24 (k < 8) from in to out, round 16 by halfword packs (PKHBT /
@ PKHTB); rounds 4, 2, 1 on each eight consecutive words of out, LDM / STM. No address depends on
@ the data (about 470 estimated cycles, against 730 and a copy for the C++ rounds).
  .global hqc_m4_transpose32
  .section .text.hqc_m4_transpose32, "ax", %progbits
  .type hqc_m4_transpose32, %function
  .thumb_func
hqc_m4_transpose32:
  push {r4-r10}
  .irp k, 0, 1, 2, 3, 4, 5, 6, 7
  ldr r2, [r1, #4 * \k]
  ldr r3, [r1, #4 * (\k + 8)]
  ldr r4, [r1, #4 * (\k + 16)]
  ldr r5, [r1, #4 * (\k + 24)]
  pkhbt r6, r2, r4, lsl #16
  pkhtb r4, r4, r2, asr #16
  pkhbt r2, r3, r5, lsl #16
  pkhtb r5, r5, r3, asr #16
  DELTA_SWAP r6, r2, 8, 0x00FF00FF, r10
  DELTA_SWAP r4, r5, 8, 0x00FF00FF, r10
  str r6, [r0, #4 * \k]
  str r2, [r0, #4 * (\k + 8)]
  str r4, [r0, #4 * (\k + 16)]
  str r5, [r0, #4 * (\k + 24)]
  .endr
  .rept 4
  ldm r0, {r2-r9}
  DELTA_SWAP r2, r6, 4, 0x0F0F0F0F, r10
  DELTA_SWAP r3, r7, 4, 0x0F0F0F0F, r10
  DELTA_SWAP r4, r8, 4, 0x0F0F0F0F, r10
  DELTA_SWAP r5, r9, 4, 0x0F0F0F0F, r10
  DELTA_SWAP r2, r4, 2, 0x33333333, r10
  DELTA_SWAP r3, r5, 2, 0x33333333, r10
  DELTA_SWAP r6, r8, 2, 0x33333333, r10
  DELTA_SWAP r7, r9, 2, 0x33333333, r10
  DELTA_SWAP r2, r3, 1, 0x55555555, r10
  DELTA_SWAP r4, r5, 1, 0x55555555, r10
  DELTA_SWAP r6, r7, 1, 0x55555555, r10
  DELTA_SWAP r8, r9, 1, 0x55555555, r10
  stm r0!, {r2-r9}
  .endr
  pop {r4-r10}
  bx lr
  .size hqc_m4_transpose32, . - hqc_m4_transpose32

@ void hqc_m4_shift_words_left(u32* dst, const u32* src, u32 len, u32 r): dst[0 .. len] = src[0 ..
@ len) shifted left by r bits (1 <= r <= 31, len >= 1): dst[i] = (src[i] << r) | (src[i - 1] >>
@ (32 - r)), src[-1] = 0, and dst[len] = src[len - 1] >> (32 - r). The shifted copies of the
@ quotient in the Chinese remainder step (fafft_m4.cpp, CrtEntry::add_low_terms). Four words per
@ LDM/STM, the last source word carried to the next four, then one at a time. Shifts by the
@ register r (public).
  .global hqc_m4_shift_words_left
  .section .text.hqc_m4_shift_words_left, "ax", %progbits
  .type hqc_m4_shift_words_left, %function
  .thumb_func
hqc_m4_shift_words_left:
  push {r4-r10}
  rsb r12, r3, #32
  movs r4, #0
  subs r2, r2, #4
  blo 2f
1:
  ldm r1!, {r5-r8}
  lsr r4, r4, r12
  lsl r9, r5, r3
  orr r9, r9, r4
  lsr r5, r5, r12
  lsl r10, r6, r3
  orr r10, r10, r5
  lsr r6, r6, r12
  lsl r5, r7, r3
  orr r5, r5, r6
  lsr r7, r7, r12
  lsl r6, r8, r3
  orr r6, r6, r7
  stm r0!, {r9, r10}
  stm r0!, {r5, r6}
  mov r4, r8
  subs r2, r2, #4
  bhs 1b
2:
  adds r2, r2, #4
  beq 4f
3:
  ldr r5, [r1], #4
  lsr r4, r4, r12
  lsl r9, r5, r3
  orr r9, r9, r4
  str r9, [r0], #4
  mov r4, r5
  subs r2, r2, #1
  bne 3b
4:
  lsr r4, r4, r12
  str r4, [r0]
  pop {r4-r10}
  bx lr
  .size hqc_m4_shift_words_left, . - hqc_m4_shift_words_left

@ void hqc_m4_fafft_step_blocks(u32* w, const u32* run): the unclipped blocks of one memory step of
@ the novel-basis conversion (fafft_m4.cpp, memory_step) in one call, run = {w0, n, q, r, head,
@ tail, block_words, blocks}: for each of the blocks (>= 1) at w + k block_words, with p = that +
@ w0 and the source s(i) = the 32 bits at bit r of word q + i of p (s(i) = p[q + i] where r = 0),
@ p[0] ^= s(0) & head, p[i] ^= s(i) for 1 <= i <= n, p[n + 1] ^= s(n + 1) & tail. The middle
@ words four per LDM/STM, the source word carried to the next four, as hqc_m4_fafft_xor_shifted;
@ the per-block set-up, the masked end words and the loop stay here instead of a call per block
@ (about 30 estimated cycles a block). Where r != 0 it reads p[q + n + 2], as the C++ end words
@ did. The middle words' loop has a copy with immediate shifts for each r the conversions take
@ (16, 24, 28, 30, 31: r = -2^k mod 32 for their steps' pieces of 2^k < 32 bits), about 2 estimated
@ cycles a word fewer, chosen once per call (its address in s7) and entered by BX from each block.
@ Every branch and address depends on the run (public) only.
@ A block of hqc_m4_fafft_step_blocks from r0 = p: s6 = p, r1 = the source p + q, r2 = n.
.macro STEP_BLOCK_BEGIN
  vmov s6, r0
  vmov r1, s1
  add r1, r0, r1
  vmov r2, s0
.endm
@ The next block (p + block_words) while blocks remain (s5), back to \loop.
.macro STEP_BLOCK_NEXT loop
  vmov r0, s6
  vmov r5, s4
  add r0, r0, r5
  vmov r5, s5
  subs r5, r5, #1
  vmov s5, r5
  bne \loop
.endm
@ Four middle words, r = 0 (r2 = words left - 4 >= 0), counting r2 down by four (the flags tell
@ whether four more remain).
.macro STEP_MIDDLE_PLAIN
  ldm r1!, {r5-r8}
  ldm r0, {r3, r9-r11}
  eor r3, r3, r5
  eor r9, r9, r6
  eor r10, r10, r7
  eor r11, r11, r8
  stm r0!, {r3, r9-r11}
  subs r2, r2, #4
.endm
@ One of the last 1 .. 3 middle words (r2 of them left; unrolled, so that only the exit branches):
@ r = 0, and r != 0 with the carried source word in r4.
.macro STEP_TAIL_WORD
  ldr r5, [r1], #4
  ldr r9, [r0]
  eor r9, r9, r5
  str r9, [r0], #4
.endm
.macro STEP_TAIL_WORD_SHIFTED
  ldr r5, [r1], #4
  ldr r9, [r0]
  lsr r4, r4, r12
  eor r9, r9, r4
  lsl r4, r5, lr
  eor r9, r9, r4
  str r9, [r0], #4
  mov r4, r5
.endm
  .global hqc_m4_fafft_step_blocks
  .section .text.hqc_m4_fafft_step_blocks, "ax", %progbits
  .type hqc_m4_fafft_step_blocks, %function
  .thumb_func
hqc_m4_fafft_step_blocks:
  push {r4-r11, lr}
  ldm r1, {r2-r9}
  add r0, r0, r2, lsl #2
  vmov s0, r3
  lsl r4, r4, #2
  vmov s1, r4
  vmov s2, r6
  vmov s3, r7
  lsl r8, r8, #2
  vmov s4, r8
  vmov s5, r9
  mov r12, r5
  rsb lr, r5, #32
  cmp r12, #0
  beq 20f
  adr r3, 110f                      @ the middle words' loop for r (Thumb bit set below)
  cmp r12, #16
  it eq
  adreq r3, 116f
  cmp r12, #24
  it eq
  adreq r3, 124f
  cmp r12, #28
  it eq
  adreq r3, 128f
  cmp r12, #30
  it eq
  adreq r3, 130f
  cmp r12, #31
  it eq
  adreq r3, 131f
  orr r3, r3, #1
  vmov s7, r3
10:                                 @ a block, r != 0
  STEP_BLOCK_BEGIN
  ldr r4, [r1], #4
  ldr r5, [r1], #4
  lsr r4, r4, r12
  lsl r6, r5, lr
  orr r4, r4, r6
  vmov r6, s2
  and r4, r4, r6
  ldr r6, [r0]
  eor r6, r6, r4
  str r6, [r0], #4
  mov r4, r5
  subs r2, r2, #4
  blo 12f
  vmov r3, s7
  bx r3                             @ to 110 (any r) or 116 .. 131, which return to 12
12:
  adds r2, r2, #4
  beq 14f
  .rept 2
  STEP_TAIL_WORD_SHIFTED
  subs r2, r2, #1
  beq 14f
  .endr
  STEP_TAIL_WORD_SHIFTED
14:
  ldr r5, [r1]
  lsr r4, r4, r12
  lsl r5, r5, lr
  orr r4, r4, r5
  vmov r5, s3
  and r4, r4, r5
  ldr r5, [r0]
  eor r5, r5, r4
  str r5, [r0]
  STEP_BLOCK_NEXT 10b
  pop {r4-r11, pc}
20:                                 @ a block, r = 0
  STEP_BLOCK_BEGIN
  ldr r4, [r1], #4
  vmov r6, s2
  and r4, r4, r6
  ldr r6, [r0]
  eor r6, r6, r4
  str r6, [r0], #4
  subs r2, r2, #4
  blo 22f
21:
  STEP_MIDDLE_PLAIN
  blo 22f
  STEP_MIDDLE_PLAIN
  bhs 21b
22:
  adds r2, r2, #4
  beq 24f
  .rept 2
  STEP_TAIL_WORD
  subs r2, r2, #1
  beq 24f
  .endr
  STEP_TAIL_WORD
24:
  ldr r5, [r1]
  vmov r4, s3
  and r5, r5, r4
  ldr r4, [r0]
  eor r4, r4, r5
  str r4, [r0]
  STEP_BLOCK_NEXT 20b
  pop {r4-r11, pc}
@ The middle words' loops of the r != 0 blocks (r2 = words left - 4 >= 0, r4 = the carried source
@ word): four words a step, two steps an iteration (the first may leave it), then back to 12 for
@ the last 0 .. 3.
.macro STEP_MIDDLE_REG
  ldm r1!, {r5-r8}
  ldm r0, {r3, r9-r11}
  XOR_SHIFTED_FOUR r4, r12, lr, r3, r9, r10, r11
  stm r0!, {r3, r9-r11}
  subs r2, r2, #4
.endm
  .p2align 2
110:
  STEP_MIDDLE_REG
  blo 12b
  STEP_MIDDLE_REG
  bhs 110b
  b 12b
.macro STEP_MIDDLE_IMM r
  ldm r1!, {r5-r8}
  ldm r0, {r3, r9-r11}
  XOR_SHIFTED_FOUR_IMM \r, r4, r3, r9, r10, r11
  stm r0!, {r3, r9-r11}
  subs r2, r2, #4
.endm
  .p2align 2
116:
  STEP_MIDDLE_IMM 16
  blo 12b
  STEP_MIDDLE_IMM 16
  bhs 116b
  b 12b
  .p2align 2
124:
  STEP_MIDDLE_IMM 24
  blo 12b
  STEP_MIDDLE_IMM 24
  bhs 124b
  b 12b
  .p2align 2
128:
  STEP_MIDDLE_IMM 28
  blo 12b
  STEP_MIDDLE_IMM 28
  bhs 128b
  b 12b
  .p2align 2
130:
  STEP_MIDDLE_IMM 30
  blo 12b
  STEP_MIDDLE_IMM 30
  bhs 130b
  b 12b
  .p2align 2
131:
  STEP_MIDDLE_IMM 31
  blo 12b
  STEP_MIDDLE_IMM 31
  bhs 131b
  b 12b
  .size hqc_m4_fafft_step_blocks, . - hqc_m4_fafft_step_blocks

@ void hqc_m4_fafft_step_words(u32* w, const u32* run): the unclipped blocks of one memory step
@ whose destination is within one word (fafft_m4.cpp, memory_step), run = {w0, q, r, mask,
@ block_words, blocks}: for each of the blocks (>= 1) at w + k block_words, with p = that + w0,
@ p[0] ^= s(0) & mask (s as in hqc_m4_fafft_step_blocks; where r != 0 it reads p[q + 1], as the
@ C++ did). Every branch and address depends on the run (public) only.
  .global hqc_m4_fafft_step_words
  .section .text.hqc_m4_fafft_step_words, "ax", %progbits
  .type hqc_m4_fafft_step_words, %function
  .thumb_func
hqc_m4_fafft_step_words:
  push {r4-r9}
  ldm r1, {r2-r7}
  add r0, r0, r2, lsl #2
  lsl r3, r3, #2
  lsl r6, r6, #2
  rsb r2, r4, #32
  cmp r4, #0
  beq 2f
1:
  add r1, r0, r3
  ldr r8, [r1]
  ldr r9, [r1, #4]
  lsr r8, r8, r4
  lsl r9, r9, r2
  orr r8, r8, r9
  and r8, r8, r5
  ldr r9, [r0]
  eor r9, r9, r8
  str r9, [r0]
  add r0, r0, r6
  subs r7, r7, #1
  bne 1b
  pop {r4-r9}
  bx lr
2:
  ldr r8, [r0, r3]
  and r8, r8, r5
  ldr r9, [r0]
  eor r9, r9, r8
  str r9, [r0]
  add r0, r0, r6
  subs r7, r7, #1
  bne 2b
  pop {r4-r9}
  bx lr
  .size hqc_m4_fafft_step_words, . - hqc_m4_fafft_step_words

@ The layers with half >= 32 on bit-sliced chunks (fafft_m4.cpp's fft and ifft_product): a chunk is
@ 32 points as their 32 bit planes (word p = bit p of the 32 points), and u's chunk faces v's at
@ vofs bytes. tau v is then a 32 x 32 bit-matrix product over the planes (the matrix of tau's
@ product: column c = tau z^c): by the method of four Russians, the 16 subset sums of each group of
@ four v planes (a table of 128 words), and output plane r = the XOR of eight table words at the
@ byte indices idx[8 r + g] = 16 g + nibble g of row r, which fafft_m4.cpp computes from tau
@ (public) once per block. About 45 estimated cycles a butterfly against about 72 for the packed
@ ones. No branch or address depends on u or v: the table's indices are functions of tau.

@ The table from the 32 v planes at r0 into r1 (both advanced), unrolled. Clobbers r4-r12.
.macro SLICED_TABLE
  .rept 8
  movs r4, #0
  ldmia r0!, {r5, r6, r8, r12}
  eor r7, r5, r6
  eor r9, r5, r8
  eor r10, r6, r8
  eor r11, r7, r8
  stmia r1!, {r4-r11}
  mov r4, r12
  eor r5, r5, r12
  eor r6, r6, r12
  eor r7, r7, r12
  eor r8, r8, r12
  eor r9, r9, r12
  eor r10, r10, r12
  eor r11, r11, r12
  stmia r1!, {r4-r11}
  .endr
.endm

@ r4 = (tau v) plane of the indices at r2 (advanced by 8): r1 = the table. Clobbers r5-r11.
.macro SLICED_PLANE
  ldrb r4, [r2], #1
  ldrb r5, [r2], #1
  ldrb r6, [r2], #1
  ldrb r7, [r2], #1
  ldrb r8, [r2], #1
  ldrb r9, [r2], #1
  ldrb r10, [r2], #1
  ldrb r11, [r2], #1
  ldr r4, [r1, r4, lsl #2]
  ldr r5, [r1, r5, lsl #2]
  ldr r6, [r1, r6, lsl #2]
  ldr r7, [r1, r7, lsl #2]
  ldr r8, [r1, r8, lsl #2]
  ldr r9, [r1, r9, lsl #2]
  ldr r10, [r1, r10, lsl #2]
  ldr r11, [r1, r11, lsl #2]
  eor r4, r4, r5
  eor r6, r6, r7
  eor r8, r8, r9
  eor r10, r10, r11
  eor r4, r4, r6
  eor r8, r8, r10
  eor r4, r4, r8
.endm

@ The chunks of one block: s0 = u's chunk, s1 = vofs, s2 = idx, s3 = the table, s4 = the end of
@ u's chunks. Forward: u += tau v, v += u; inverse: v += u, u += tau v.
.macro SLICED inverse
  push {r4-r11, lr}
  ldr r12, [sp, #36]
  vmov s3, r12
  vmov s2, r3
  vmov s1, r2
  add r1, r0, r1, lsl #7
  vmov s4, r1
1:
  vmov s0, r0
  .if \inverse
  add r1, r0, r2
  mov lr, #4
3:
  .rept 2
  ldmia r0!, {r4-r7}
  ldmia r1, {r8-r11}
  eor r8, r8, r4
  eor r9, r9, r5
  eor r10, r10, r6
  eor r11, r11, r7
  stmia r1!, {r8-r11}
  .endr
  subs lr, lr, #1
  bne 3b
  vmov r0, s0
  .endif
  add r0, r0, r2
  vmov r1, s3
  SLICED_TABLE
  vmov r0, s0
  vmov r1, s3
  vmov r2, s2
  vmov r3, s1
  add lr, r0, #128
4:
  .rept 8
  SLICED_PLANE
  ldr r5, [r0]
  .if \inverse
  eor r5, r5, r4
  .else
  ldr r6, [r0, r3]
  eor r5, r5, r4
  eor r6, r6, r5
  str r6, [r0, r3]
  .endif
  str r5, [r0], #4
  .endr
  cmp r0, lr
  bne 4b
  vmov r1, s4
  vmov r2, s1
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
.endm

@ void hqc_m4_fafft_sliced(u32* u, u32 chunks, u32 vofs, const u8* idx, u32* table): u[k] += tau
@ v[k], v[k] += u[k] on chunks bit-sliced chunks from u on (v at u + vofs bytes); table: 128 words
@ of scratch (left holding subset sums of v: the caller wipes it).
  .global hqc_m4_fafft_sliced
  .section .text.hqc_m4_fafft_sliced, "ax", %progbits
  .type hqc_m4_fafft_sliced, %function
  .thumb_func
hqc_m4_fafft_sliced:
  SLICED 0
  .size hqc_m4_fafft_sliced, . - hqc_m4_fafft_sliced

@ void hqc_m4_fafft_sliced_inverse(u32* u, u32 chunks, u32 vofs, const u8* idx, u32* table): v[k]
@ += u[k], u[k] += tau v[k], as hqc_m4_fafft_sliced.
  .global hqc_m4_fafft_sliced_inverse
  .section .text.hqc_m4_fafft_sliced_inverse, "ax", %progbits
  .type hqc_m4_fafft_sliced_inverse, %function
  .thumb_func
hqc_m4_fafft_sliced_inverse:
  SLICED 1
  .size hqc_m4_fafft_sliced_inverse, . - hqc_m4_fafft_sliced_inverse

@ void hqc_m4_fafft_index_step(u32* next, const u32* idx, const u32* step): next[k] = idx[k] ^
@ step[k] for k < 64 (next may be idx): a block's table indices from the previous block's
@ (fafft_m4.cpp's sliced_layers and sliced_indices), eight words an iteration by LDM/STM.
  .global hqc_m4_fafft_index_step
  .section .text.hqc_m4_fafft_index_step, "ax", %progbits
  .type hqc_m4_fafft_index_step, %function
  .thumb_func
hqc_m4_fafft_index_step:
  push {r4-r10}
  mov r12, #8
1:
  .rept 2
  ldmia r1!, {r3-r6}
  ldmia r2!, {r7-r10}
  eors r3, r7
  eors r4, r4, r8
  eors r5, r5, r9
  eors r6, r6, r10
  stmia r0!, {r3-r6}
  .endr
  subs r12, r12, #1
  bne 1b
  pop {r4-r10}
  bx lr
  .size hqc_m4_fafft_index_step, . - hqc_m4_fafft_index_step
