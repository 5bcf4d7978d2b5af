// Measurement image (scripts/m4-report.sh): for one level (argument level=1|3|5), runs each
// operation once on fixed inputs with the stack painted before it (tests/m4/m4_support.cpp) and
// instruction-count markers around it (hqc_m4_mark, watched by tests/m4/insn_count_plugin.c).
// Prints "backend NAME", then one line per operation: "op NAME ID stack_bytes", where markers
// 2*ID and 2*ID+1 bracket it. Operations: keygen, encaps, decaps (stateless, serialized keys: the per-level C
// API), encaps_cached, decaps_cached (key objects in caller storage, parsed and prepared beforehand:
// "transforms PK SK" gives the bytes of transforms they keep, 0 where the backend has none), and
// "empty" (the two markers alone: the constant that the report subtracts). A decapsulation that
// does not give back the encapsulated secret is reported as failed, like an error.
#include <cstdlib>
#include <cstring>

#include "hqc/hqc.h"
#include "m4_support.hpp"

namespace {

std::uint8_t g_pk[HQC5_PUBLIC_KEY_BYTES], g_sk[HQC5_SECRET_KEY_BYTES], g_ct[HQC5_CIPHERTEXT_BYTES];
std::uint8_t g_ss[HQC_SHARED_SECRET_BYTES];
const std::uint8_t kSeed[HQC_KEYPAIR_COINS_BYTES] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                                     17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
const std::uint8_t kCoins[HQC_MAX_ENCAPS_COINS_BYTES] = {
    9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38};
hqc5_public_key_object g_pk_obj;
hqc5_secret_key_object g_sk_obj;
// The transforms the key objects keep where the backend's multiplier has them (HQC-5 on m4).
alignas(64) std::uint8_t g_pk_transforms[HQC5_PUBLIC_KEY_TRANSFORMS_BYTES];
alignas(64) std::uint8_t g_sk_transforms[HQC5_SECRET_KEY_TRANSFORMS_BYTES];

int g_status = 0;

// The shared secret of the last encapsulation, which the next decapsulation must give back.
std::uint8_t g_ss_encaps[HQC_SHARED_SECRET_BYTES];
bool keep_encaps_secret() {
  std::memcpy(g_ss_encaps, g_ss, sizeof(g_ss));
  return true;
}
bool same_secret_as_encaps() { return std::memcmp(g_ss, g_ss_encaps, sizeof(g_ss)) == 0; }

// Runs op between markers 2*id and 2*id+1 with the stack painted, and prints its peak stack.
// check runs after the second marker, outside the measured window: an operation fails if it
// returns an error or check() is false (a decapsulation that misses the encapsulated secret), so
// that no figure is reported for a build that computes wrong results.
template <class F, class C>
__attribute__((noinline)) void measure(const char* name, std::uint32_t id, F&& op, C&& check) {
  m4::paint_stack();
  m4::hqc_m4_mark(2 * id);
  const int rc = op();
  m4::hqc_m4_mark(2 * id + 1);
  const std::size_t stack = m4::stack_used();
  const bool failed = rc != HQC_OK || !check();
  if (failed) g_status = 1;
  m4::report_op(name, id, stack, failed);
}
template <class F>
void measure(const char* name, std::uint32_t id, F&& op) {
  measure(name, id, op, [] { return true; });
}

#define HQC_MEASURE_LEVEL(L)                                                                                        \
  void run##L() {                                                                                                   \
    auto* pko = reinterpret_cast<hqc##L##_public_key_object*>(&g_pk_obj);                                           \
    auto* sko = reinterpret_cast<hqc##L##_secret_key_object*>(&g_sk_obj);                                           \
    measure("empty", 0, [] { return HQC_OK; });                                                                     \
    measure("keygen", 1, [] { return hqc##L##_keypair_derand(g_pk, g_sk, kSeed); });                                \
    measure(                                                                                                        \
        "encaps", 2, [] { return hqc##L##_encaps_derand(g_ct, g_ss, g_pk, kCoins); }, keep_encaps_secret);          \
    measure(                                                                                                        \
        "decaps", 3, [] { return hqc##L##_decaps(g_ss, g_ct, g_sk); }, same_secret_as_encaps);                      \
    if (hqc##L##_public_key_object_parse(pko, g_pk) != HQC_OK || hqc##L##_secret_key_object_parse(sko, g_sk) != 0)  \
      g_status = 1;                                                                                                 \
    int pk_kept = 0, sk_kept = 0;                                                                                   \
    if (hqc##L##_public_key_object_prepare(pko, g_pk_transforms, HQC##L##_PUBLIC_KEY_TRANSFORMS_BYTES, &pk_kept) != \
            HQC_OK ||                                                                                               \
        hqc##L##_secret_key_object_prepare(sko, g_sk_transforms, HQC##L##_SECRET_KEY_TRANSFORMS_BYTES, &sk_kept) != \
            HQC_OK)                                                                                                 \
      g_status = 1;                                                                                                 \
    m4::report_transforms(pk_kept ? HQC##L##_PUBLIC_KEY_TRANSFORMS_BYTES : 0,                                       \
                          sk_kept ? HQC##L##_SECRET_KEY_TRANSFORMS_BYTES : 0);                                      \
    measure(                                                                                                        \
        "encaps_cached", 4, [&] { return hqc##L##_public_key_object_encaps_derand(pko, g_ct, g_ss, kCoins); },      \
        keep_encaps_secret);                                                                                        \
    measure(                                                                                                        \
        "decaps_cached", 5, [&] { return hqc##L##_secret_key_object_decaps(sko, g_ss, g_ct); },                     \
        same_secret_as_encaps);                                                                                     \
    hqc##L##_secret_key_object_wipe(sko);                                                                           \
  }
HQC_MEASURE_LEVEL(1)
HQC_MEASURE_LEVEL(3)
HQC_MEASURE_LEVEL(5)

}  // namespace

int main(int argc, char** argv) {
  const std::uint32_t level = m4::arg_uint(argc, argv, "level", 1);
  m4::out("backend ");
  m4::out(hqc_backend_name());
  m4::out("\n");
  if (level == 1) run1();
  else if (level == 3) run3();
  else if (level == 5) run5();
  else g_status = 2;
  m4::flush();
  std::exit(g_status);
}
