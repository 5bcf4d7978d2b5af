@ Support expansion on the Cortex-M4 (spec §4.4) with predicated ORs: five positions per pass over
@ the output, every 32-bit output word loaded and stored once per pass whatever the positions.
@ A position is compared with the ADDRESS of the word (it is never used to form an access) and
@ its bit is ORed in by an IT-predicated ORR, which takes its cycle whether or not its condition
@ holds: no branch and no memory address depends on a position.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

.macro OR_WORD
  ldr r12, [r0]
  cmp r0, r2
  it eq
  orreq r12, r12, r3
  cmp r0, r4
  it eq
  orreq r12, r12, r5
  cmp r0, r6
  it eq
  orreq r12, r12, r7
  cmp r0, r8
  it eq
  orreq r12, r12, r9
  cmp r0, r10
  it eq
  orreq r12, r12, r11
  str r12, [r0], #4
.endm

@ void hqc_m4_support_or5(uint32_t* out, const uint32_t* end, const uint32_t arg[10])
@ For q = 0..4: ORs the bit arg[2q+1] into the word of out at address arg[2q], over the words
@ out[0 .. end - out), an even count >= 2 (two words per iteration). A pair may repeat: OR is
@ idempotent, so a short last group repeats its last position.
  .global hqc_m4_support_or5
  .type hqc_m4_support_or5, %function
  .thumb_func
hqc_m4_support_or5:
  push {r4-r11, lr}
  ldm r2, {r2-r11}
1:
  OR_WORD
  OR_WORD
  cmp r0, r1
  bne 1b
  pop {r4-r11, pc}
  .size hqc_m4_support_or5, . - hqc_m4_support_or5
