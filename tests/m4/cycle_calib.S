@ Routines of known Cortex-M4 cycle count for the cycle model's check (tests/m4/cycle_model_test.sh,
@ scripts/m4-cycles.py). Each count is summed by hand from the Cortex-M4 TRM's table 3-1 (zero wait
@ states), with P = 2 for a pipeline refill after a taken branch; the right column is the
@ instruction's cycles.
  .syntax unified
  .cpu cortex-m4
  .fpu fpv4-sp-d16
  .thumb
  .text

@ void hqc_m4_calib_block(uint32_t scratch[8]): straight-line, 39 cycles including its return.
  .global hqc_m4_calib_block
  .type hqc_m4_calib_block, %function
  .thumb_func
hqc_m4_calib_block:
  push {r4-r7, lr}          @ 1 + 5 = 6
  ldr r1, [r0, #0]          @ 2
  ldr r2, [r0, #4]          @ 1 (pipelined with the load before)
  ldr r3, [r0, #8]          @ 1 (pipelined)
  eors r1, r2               @ 1
  umull r4, r5, r1, r3      @ 1
  mla r6, r1, r2, r3        @ 1
  str r4, [r0, #12]         @ 2
  str r5, [r0, #16]         @ 1 (pipelined)
  ldm r0, {r1-r3}           @ 1 + 3 = 4
  vmov s0, r1               @ 1
  vmov r7, s0               @ 1
  add r7, r7, r6, lsl #3    @ 1
  ldrd r4, r5, [r0, #16]    @ 3
  stm r0, {r4-r7}           @ 1 + 4 = 5
  pop {r4-r7, pc}           @ 1 + 5 + P = 8            total 39
  .size hqc_m4_calib_block, . - hqc_m4_calib_block

@ uint32_t hqc_m4_calib_loop(const uint32_t* p, uint32_t n), n >= 1: XOR of p[0..n).
@ 1 + n * 5 + (n - 1) * P + 1 + (1 + P) = 7n + 3 cycles (n = 100: 703).
  .global hqc_m4_calib_loop
  .type hqc_m4_calib_loop, %function
  .thumb_func
hqc_m4_calib_loop:
  movs r2, #0               @ 1
1:
  ldr r3, [r0], #4          @ 2
  eors r2, r3               @ 1
  subs r1, #1               @ 1
  bne 1b                    @ 1, + P when taken (n - 1 times)
  mov r0, r2                @ 1
  bx lr                     @ 1 + P
  .size hqc_m4_calib_loop, . - hqc_m4_calib_loop
