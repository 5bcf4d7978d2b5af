@ The samplers' duplicate test on the Cortex-M4 (spec §4.2, §4.3): is r among count positions?
@ Four positions per LDM, each compared with r and, if equal, the all-ones mask set by an
@ IT-predicated MVN, which takes its cycle whether or not its condition holds. The loop runs over
@ all count positions whatever they hold: count is public (the number of positions drawn so far, or
@ the fixed length of the fix-up), the positions and r are secret and are only compared.
  .syntax unified
  .cpu cortex-m4
  .thumb
  .text

@ uint32_t hqc_m4_eq_mask(const uint32_t* pos, size_t count, uint32_t r)
@ 0xFFFFFFFF if pos[i] == r for some i < count, else 0.
  .global hqc_m4_eq_mask
  .type hqc_m4_eq_mask, %function
  .thumb_func
hqc_m4_eq_mask:
  push {r4-r6, lr}
  movs r3, #0
  subs r1, r1, #4
  bcc 2f                @ fewer than four left (count is public)
1:
  ldm r0!, {r4-r6, r12}
  cmp r4, r2
  it eq
  mvneq r3, #0
  cmp r5, r2
  it eq
  mvneq r3, #0
  cmp r6, r2
  it eq
  mvneq r3, #0
  cmp r12, r2
  it eq
  mvneq r3, #0
  subs r1, r1, #4
  bcs 1b
2:
  adds r1, r1, #4       @ 0 .. 3 left
  beq 4f
3:
  ldr r4, [r0], #4
  cmp r4, r2
  it eq
  mvneq r3, #0
  subs r1, r1, #1
  bne 3b
4:
  mov r0, r3
  pop {r4-r6, pc}
  .size hqc_m4_eq_mask, . - hqc_m4_eq_mask
