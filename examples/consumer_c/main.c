/* Minimal use of the C API: a round trip at every level, through the stateless functions and
 * through key objects (which the library allocates with aligned operator new). */
#include <hqc/hqc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int round_trip(const hqc_kem_info *info) {
  int ok = 0;
  uint8_t *pk = malloc(info->public_key_bytes), *sk = malloc(info->secret_key_bytes);
  uint8_t *ct = malloc(info->ciphertext_bytes);
  uint8_t ss[HQC_SHARED_SECRET_BYTES], ss2[HQC_SHARED_SECRET_BYTES], ss3[HQC_SHARED_SECRET_BYTES];
  hqc_public_key *ek = NULL;
  hqc_secret_key *dk = NULL;
  if (pk && sk && ct &&
      hqc_kem_keypair(info->name, pk, info->public_key_bytes, sk, info->secret_key_bytes) == HQC_OK &&
      hqc_public_key_new(info->name, pk, info->public_key_bytes, &ek) == HQC_OK &&
      hqc_public_key_encaps(ek, ct, info->ciphertext_bytes, ss, sizeof ss) == HQC_OK &&
      hqc_kem_decaps(info->name, ss2, sizeof ss2, ct, info->ciphertext_bytes, sk, info->secret_key_bytes) == HQC_OK &&
      hqc_secret_key_new(info->name, sk, info->secret_key_bytes, &dk) == HQC_OK &&
      hqc_secret_key_decaps(dk, ss3, sizeof ss3, ct, info->ciphertext_bytes) == HQC_OK &&
      memcmp(ss, ss2, sizeof ss) == 0 && memcmp(ss, ss3, sizeof ss) == 0)
    ok = 1;
  hqc_public_key_free(ek);
  hqc_secret_key_free(dk);
  free(pk);
  free(sk);
  free(ct);
  return ok;
}

int main(void) {
  for (int level = 1; level <= 5; level += 2) {
    const hqc_kem_info *info = hqc_kem_info_by_level(level);
    if (!info || !round_trip(info)) {
      printf("C consumer: HQC-%d FAILED\n", level);
      return 1;
    }
  }
  printf("C consumer: hqckit %s, HQC-1/3/5 round trips OK with backend %s\n", hqc_version(), hqc_backend_name());
  return 0;
}
