// Decapsulation of arbitrary ciphertexts against a fixed key by two different backends per input
// (portable among the candidates), which must agree; and the C API's decapsulation with arbitrary
// lengths, which must agree with them.
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

template <class P>
void run(fuzz::BackendPair pair, const std::uint8_t* data, std::size_t size) {
  const auto& f = fixed<P>();
  static std::uint8_t ct[P::kCiphertextBytes];
  std::memset(ct, 0, sizeof(ct));
  std::memcpy(ct, data, size < sizeof(ct) ? size : sizeof(ct));
  std::uint8_t ref[32], ss[32];
  kem::decaps<P>(*pair.a, f.key, ref, ct);
  kem::decaps<P>(*pair.b, f.key, ss, ct);
  if (std::memcmp(ss, ref, 32) != 0) {
    std::fprintf(stderr, "hqc fuzz: backends %s and %s disagree\n", pair.a->name, pair.b->name);
    fuzz::fail("decaps differs between backends", pair.b->name, P::kLevel);
  }
  // The C API on the exact input length (wrong lengths must fail cleanly with ss zeroed).
  std::uint8_t ss2[32];
  std::memset(ss2, 0xAA, sizeof(ss2));
  const int rc = hqc_secret_key_decaps(f.obj, ss2, sizeof(ss2), data, size);
  if (size == P::kCiphertextBytes) {
    if (rc != HQC_OK || std::memcmp(ss2, ref, 32) != 0) fuzz::fail("C API decaps differs", "active", P::kLevel);
  } else {
    static constexpr std::uint8_t kZero[32] = {};
    if (rc != HQC_ERR_LENGTH || std::memcmp(ss2, kZero, 32) != 0)
      fuzz::fail("C API accepted a wrong length or left output", "active", P::kLevel);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const fuzz::BackendPair pair = fuzz::backend_pair_of(data[0] / 3u);
  with_params(fuzz::level_of(data[0]), [&]<class P>() { run<P>(pair, data + 1, size - 1); });
  return 0;
}
