/* The C header compiles as C11 and the fixed-size per-level API works from C. */
#include <stdio.h>
#include <string.h>

#include "hqc/hqc.h"

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(void) {
  static uint8_t pk[HQC5_PUBLIC_KEY_BYTES], sk[HQC5_SECRET_KEY_BYTES], ct[HQC5_CIPHERTEXT_BYTES];
  uint8_t ss[HQC_SHARED_SECRET_BYTES], ss2[HQC_SHARED_SECRET_BYTES];
  CHECK(hqc1_keypair(pk, sk) == HQC_OK);
  CHECK(hqc1_encaps(ct, ss, pk) == HQC_OK);
  CHECK(hqc1_decaps(ss2, ct, sk) == HQC_OK);
  CHECK(memcmp(ss, ss2, sizeof(ss)) == 0);
  CHECK(hqc3_keypair(pk, sk) == HQC_OK);
  CHECK(hqc3_encaps(ct, ss, pk) == HQC_OK);
  CHECK(hqc3_decaps(ss2, ct, sk) == HQC_OK);
  CHECK(memcmp(ss, ss2, sizeof(ss)) == 0);
  CHECK(hqc5_keypair(pk, sk) == HQC_OK);
  CHECK(hqc5_encaps(ct, ss, pk) == HQC_OK);
  CHECK(hqc5_decaps(ss2, ct, sk) == HQC_OK);
  CHECK(memcmp(ss, ss2, sizeof(ss)) == 0);
  pk[HQC5_PUBLIC_KEY_BYTES - 1] |= 0x80;
  CHECK(hqc5_encaps(ct, ss, pk) == HQC_ERR_MALFORMED_KEY);
  CHECK(hqc_kem_info_by_name("HQC-3")->ciphertext_bytes == HQC3_CIPHERTEXT_BYTES);
  printf("C API: 3 round trips and a malformed-key rejection OK (backend %s)\n", hqc_backend_name());
  return 0;
}
