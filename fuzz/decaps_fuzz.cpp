// Decapsulation of arbitrary ciphertexts against a fixed key by two different backends per input
// (portable among the candidates), which must agree; and the C API's decapsulation with arbitrary
// lengths: with the exact length it stands for the active backend when that backend is one of the
// pair (so it is compared with the other member), with any other length it must fail cleanly.
// Input: [selector][ciphertext bytes...]: selector % 3 picks the level, (selector / 3) the pair of
// backends (fuzz::backend_pair_of); missing ct bytes are 0.
#include <array>

#include "fuzz_common.hpp"
#include "hqc/hqc.h"

namespace {

using namespace hqc;

template <class P>
struct Fixed {
  kem::SecretKey<P> key;
  hqc_secret_key* obj = nullptr;  // the same key through the C API (parsed once)
  Fixed() {
    std::uint8_t seed[32], sk[P::kSecretKeyBytes];
    fuzz::fixed_seed(P::kLevel, seed);
    kem::keypair<P>(backend::portable(), key, seed);
    key.serialize(sk);
    if (hqc_secret_key_new(P::kName, sk, sizeof(sk), &obj) != HQC_OK)
      fuzz::fail("fixed key rejected", "active", P::kLevel);
  }
};

template <class P>
const Fixed<P>& fixed() {
  static const Fixed<P> f;
  return f;
}

// The C API's decapsulation through the key object, which runs the active backend. On a wrong
// length it must fail with HQC_ERR_LENGTH and a zeroed output (no work is done).
template <class P>
void api_decaps(const Fixed<P>& f, std::uint8_t ss[32], const std::uint8_t* data, std::size_t size) {
  std::memset(ss, 0xAA, 32);
  const int rc = hqc_secret_key_decaps(f.obj, ss, 32, data, size);
  if (size == P::kCiphertextBytes) {
    if (rc != HQC_OK) fuzz::fail("C API decaps failed", "active", P::kLevel);
  } else {
    static constexpr std::uint8_t kZero[32] = {};
    if (rc != HQC_ERR_LENGTH || std::memcmp(ss, kZero, 32) != 0)
      fuzz::fail("C API accepted a wrong length or left output", "active", P::kLevel);
  }
}

template <class P>
void run(fuzz::BackendPair pair, const std::uint8_t* data, std::size_t size) {
  const auto& f = fixed<P>();
  static std::uint8_t ct[P::kCiphertextBytes];
  std::memset(ct, 0, sizeof(ct));
  std::memcpy(ct, data, size < sizeof(ct) ? size : sizeof(ct));
  // An input of the exact length whose pair holds the active backend: the C API stands for that
  // member (its key object was parsed from the serialized key and runs the active backend), so
  // the API is compared with the other member without a third decapsulation. Any other length:
  // the C API must reject it, which costs no decapsulation.
  const bool exact = size == P::kCiphertextBytes;
  const backend::Backend* api_side = exact ? backend::active() : nullptr;
  std::uint8_t ref[32], ss[32];
  if (pair.a == api_side) api_decaps<P>(f, ref, data, size);
  else kem::decaps<P>(*pair.a, f.key, ref, ct);
  if (pair.b == api_side && pair.a != api_side) api_decaps<P>(f, ss, data, size);
  else kem::decaps<P>(*pair.b, f.key, ss, ct);
  if (std::memcmp(ss, ref, 32) != 0) {
    std::fprintf(stderr, "hqc fuzz: backends %s and %s disagree%s\n", pair.a->name, pair.b->name,
                 pair.a == api_side || pair.b == api_side ? " (the active one through the C API)" : "");
    fuzz::fail("decaps differs between backends", pair.b->name, P::kLevel);
  }
  if (!exact) {
    std::uint8_t rejected[32];
    api_decaps<P>(f, rejected, data, size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const fuzz::BackendPair pair = fuzz::backend_pair_of(data[0] / 3u);
  with_params(fuzz::level_of(data[0]), [&]<class P>() { run<P>(pair, data + 1, size - 1); });
  return 0;
}
