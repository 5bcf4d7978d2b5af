/* Example firmware: hqckit on a Cortex-M4 device, without heap or OS.
 *
 * What an integration needs:
 *  1. A randomness hook: hqc_set_randombytes(fn, ctx) with fn reading the part's TRNG (or a DRBG
 *     seeded from it). Until one is registered, every call that needs randomness fails with
 *     HQC_ERR_RANDOMNESS and zeroed outputs.
 *  2. Key objects in the firmware's own memory: hqcL_secret_key_object / hqcL_public_key_object
 *     are plain structs of HQCL_*_KEY_OBJECT_BYTES bytes (static here, so zero-initialised).
 *     They keep H(pk), h, s (and y), so repeated operations with one key skip that work.
 *
 * The flow below: the device generates its key pair, a peer (here: the device itself, standing in
 * for the gateway) encapsulates to the public key, the device decapsulates, and both keys agree.
 * Build: the cortex-m4 presets (target firmware_example, and firmware_hqc1/3/5 for single-level
 * images); run in QEMU: scripts/m4-run.sh build/cortex-m4/examples/firmware/firmware_example.elf */
#include <hqc/hqc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FIRMWARE_LEVEL
#define FIRMWARE_LEVEL 1
#endif
#define CAT3(a, b, c) a##b##c
#define XCAT3(a, b, c) CAT3(a, b, c)
#define LVL(name) XCAT3(hqc, FIRMWARE_LEVEL, name)  /* LVL(_keypair) -> hqc1_keypair */
#define LVLC(name) XCAT3(HQC, FIRMWARE_LEVEL, name) /* LVLC(_PUBLIC_KEY_BYTES) */

/* The board's TRNG. QEMU's mps2-an386 has none, so this stand-in returns a fixed, NOT random
 * sequence (a xorshift stream): replace it with the part's TRNG driver (e.g. the STM32L4 RNG
 * peripheral, the nRF52 RNG) and return non-zero on a TRNG error. */
static int board_trng(void *ctx, uint8_t *out, size_t len) {
  uint32_t *state = (uint32_t *)ctx;
  for (size_t i = 0; i < len; i++) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    out[i] = (uint8_t)*state;
  }
  return 0;
}

static uint32_t trng_state = 0x2545F491u;
static LVL(_secret_key_object) device_key; /* static RAM: zero-initialised, as the API requires */
static LVL(_public_key_object) peer_view;  /* the peer's parsed copy of the device's public key */
static uint8_t pk[LVLC(_PUBLIC_KEY_BYTES)];
static uint8_t ct[LVLC(_CIPHERTEXT_BYTES)];

int main(void) {
  uint8_t ss_peer[HQC_SHARED_SECRET_BYTES], ss_device[HQC_SHARED_SECRET_BYTES];
  int rc;

  /* Without a hook, key generation must fail cleanly. */
  rc = LVL(_secret_key_object_generate)(&device_key, NULL);
  if (rc != HQC_ERR_RANDOMNESS) return 10;

  hqc_set_randombytes(board_trng, &trng_state);
  rc = LVL(_secret_key_object_generate)(&device_key, NULL);
  if (rc == HQC_OK) rc = LVL(_secret_key_object_public)(&device_key, pk);
  if (rc == HQC_OK) rc = LVL(_public_key_object_parse)(&peer_view, pk);
  if (rc == HQC_OK) rc = LVL(_public_key_object_encaps)(&peer_view, ct, ss_peer);
  if (rc == HQC_OK) rc = LVL(_secret_key_object_decaps)(&device_key, ss_device, ct);
  if (rc != HQC_OK) {
    printf("firmware: %s\n", hqc_status_string(rc));
    return 1;
  }
  LVL(_secret_key_object_wipe)(&device_key);
  if (memcmp(ss_peer, ss_device, sizeof ss_peer) != 0) {
    printf("firmware: the shared secrets differ\n");
    return 1;
  }
  printf("firmware: HQC-%d key exchange ok (%u-byte key objects)\n", FIRMWARE_LEVEL, (unsigned)sizeof(device_key));
  return 0;
}
