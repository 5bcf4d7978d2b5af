// Kernel tests: the portable kernels against naive definitions, and every other backend's kernels
// against the portable ones (the oracle) on random and edge inputs, for every parameter set.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "backend/registry.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "kem/kem.hpp"
#include "test_util.hpp"

namespace hqc {
namespace {

// ---- Portable building blocks against naive definitions.

void naive_clmul(std::uint64_t a, std::uint64_t b, std::uint64_t* lo, std::uint64_t* hi) {
  *lo = *hi = 0;
  for (int i = 0; i < 64; i++)
    if ((b >> i) & 1) {
      *lo ^= a << i;
      if (i) *hi ^= a >> (64 - i);
    }
}

TEST(Gf2xPortable, Clmul64MatchesNaive) {
  std::mt19937_64 rng(1);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {
      {0, 0}, {~0ull, ~0ull}, {1, ~0ull}, {~0ull, 1}, {0x8000000000000000ull, 0x8000000000000000ull},
      {0x1111111111111111ull, ~0ull}, {0x8421084210842108ull, 0x8421084210842108ull}};
  for (int i = 0; i < 20000; i++) cases.push_back({rng(), rng()});
  for (int i = 0; i < 2000; i++) cases.push_back({rng() | rng() | rng(), rng() | rng() | rng()});  // dense
  for (auto [a, b] : cases) {
    std::uint64_t l1, h1, l2, h2;
    gf2x::clmul64(a, b, &l1, &h1);
    naive_clmul(a, b, &l2, &h2);
    ASSERT_EQ(l1, l2) << std::hex << a << " " << b;
    ASSERT_EQ(h1, h2) << std::hex << a << " " << b;
  }
}

TEST(Gf2xPortable, KaratsubaMatchesSchoolbook) {
  std::mt19937_64 rng(2);
  for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 13, 31, 64, 100, 277}) {
    std::vector<std::uint64_t> a(n), b(n), out(2 * n), ref(2 * n, 0), scratch(gf2x::karatsuba_scratch_words(n));
    for (auto& x : a) x = rng();
    for (auto& x : b) x = rng();
    gf2x::karatsuba(out.data(), a.data(), b.data(), n, scratch.data());
    for (std::size_t i = 0; i < n; i++)
      for (std::size_t j = 0; j < n; j++) {
        std::uint64_t lo, hi;
        naive_clmul(a[i], b[j], &lo, &hi);
        ref[i + j] ^= lo;
        ref[i + j + 1] ^= hi;
      }
    EXPECT_EQ(out, ref) << "n=" << n;
  }
}

template <class P>
void ring_identities() {
  // x^n = 1: multiplying by x^(n-1) then by x gives the identity; x^a * x^b = x^((a+b) mod n).
  const auto& k = backend::portable().kernels<P>();
  pke::RingVec<P> a{}, b{}, out{};
  std::uint32_t pa = P::kN - 1, pb = 1;
  k.support_to_vector(a.w, &pa, 1);
  k.support_to_vector(b.w, &pb, 1);
  k.mul(out.w, a.w, b.w);
  EXPECT_EQ(out.w[0], 1u);
  for (std::size_t i = 1; i < P::kNWordsPadded; i++) EXPECT_EQ(out.w[i], 0u);
  std::mt19937 rng(3);
  for (int i = 0; i < 50; i++) {
    pa = static_cast<std::uint32_t>(rng() % P::kN);
    pb = static_cast<std::uint32_t>(rng() % P::kN);
    k.support_to_vector(a.w, &pa, 1);
    k.support_to_vector(b.w, &pb, 1);
    k.mul(out.w, a.w, b.w);
    const std::uint32_t pc = (pa + pb) % P::kN;
    for (std::size_t w = 0; w < P::kNWordsPadded; w++)
      EXPECT_EQ(out.w[w], w == pc / 64 ? (std::uint64_t{1} << (pc % 64)) : 0u);
  }
}
TEST(Gf2xPortable, RingIdentities) {
  ring_identities<Hqc1>();
  ring_identities<Hqc3>();
  ring_identities<Hqc5>();
}

// XofWithPrefix (key generation squeezes the start of XOF(seed_dk) beside h): the same stream as
// one XOF for every prefix length (including ones shorter than what the reader takes, so the
// restart path runs) and read pattern; and the sampler gives the same positions from both.
TEST(Sampling, XofWithPrefixIsTheSameStream) {
  const auto f = backend::portable().keccak_f1600;
  std::uint8_t seed[32];
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(7 * i + 1);
  std::vector<std::uint8_t> want(1000);
  {
    sym::Xof xof(f, seed);
    xof.squeeze(want.data(), want.size());
  }
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{135}, std::size_t{136}, std::size_t{137},
                          std::size_t{300}, std::size_t{1000}}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{198}, std::size_t{1000}}) {
      pke::XofWithPrefix src(f, seed, want.data(), len);
      std::vector<std::uint8_t> got(want.size());
      for (std::size_t off = 0; off < got.size(); off += chunk)
        src.squeeze(got.data() + off, std::min(chunk, got.size() - off));
      ASSERT_EQ(want, got) << "prefix " << len << " chunk " << chunk;
      ASSERT_EQ(len < want.size(), src.used_rest());
    }
  }
  // The sampler from a short prefix (restart after 5 bytes) equals the sampler from one XOF.
  std::uint32_t p1[Hqc1::kW], p2[Hqc1::kW];
  sym::Xof xof(f, seed);
  pke::XofWithPrefix src(f, seed, want.data(), 5);
  for (int draw = 0; draw < 2; draw++) {
    const std::size_t u1 = sampling::sample_keygen_positions<Hqc1>(p1, xof);
    const std::size_t u2 = sampling::sample_keygen_positions<Hqc1>(p2, src);
    ASSERT_EQ(u1, u2);
    ASSERT_EQ(0, std::memcmp(p1, p2, sizeof(p1)));
  }
}

TEST(Sampling, BarrettReductionIsExactBelowThreshold) {
  auto check = [&]<class P>() {
    for (std::uint32_t c = 0; c < (1u << 24); c += 1 + (c & 7)) ASSERT_EQ(sampling::reduce_mod_n<P>(c), c % P::kN) << c;
    ASSERT_EQ(sampling::reduce_mod_n<P>((1u << 24) - 1), ((1u << 24) - 1) % P::kN);
  };
  check.template operator()<Hqc1>();
  check.template operator()<Hqc3>();
  check.template operator()<Hqc5>();
}

// ---- Every backend against the portable backend.

struct DiffCase {
  const backend::Backend* be;
  int level;
};

std::vector<DiffCase> diff_cases() {
  std::vector<DiffCase> v;
  for (const auto* b : backend::all_backends())
    if (b != &backend::portable() && backend::is_supported(*b, backend::effective_cpu_features()))
      for (int level : {1, 3, 5}) v.push_back({b, level});
  return v;
}

class BackendDiff : public testing::TestWithParam<DiffCase> {};

template <class P>
void random_ring(pke::RingVec<P>& v, std::mt19937_64& rng) {
  for (std::size_t i = 0; i < P::kNWordsPadded; i++) v.w[i] = i < P::kNWords ? rng() : 0;
  v.w[P::kNWords - 1] &= P::kLastWordMask;
}

template <class P>
void diff_kernels(const backend::Backend& be) {
  const auto& ref = backend::portable().kernels<P>();
  const auto& k = be.kernels<P>();
  std::mt19937_64 rng(42 + P::kLevel);

  // Multiplication: random dense x dense, dense x sparse, all-zero, all-one, single bits at the edges.
  std::vector<std::pair<pke::RingVec<P>, pke::RingVec<P>>> pairs;
  auto add = [&](auto fa, auto fb) {
    pke::RingVec<P> a{}, b{};
    fa(a);
    fb(b);
    pairs.push_back({a, b});
  };
  auto dense = [&](pke::RingVec<P>& v) { random_ring<P>(v, rng); };
  auto zero = [&](pke::RingVec<P>& v) { std::memset(v.w, 0, sizeof(v.w)); };
  auto ones = [&](pke::RingVec<P>& v) {
    for (std::size_t i = 0; i < P::kNWordsPadded; i++) v.w[i] = i < P::kNWords ? ~0ull : 0;
    v.w[P::kNWords - 1] &= P::kLastWordMask;
  };
  auto sparse = [&](pke::RingVec<P>& v) {
    std::uint8_t rnd[4 * P::kWr];
    for (auto& x : rnd) x = static_cast<std::uint8_t>(rng());
    std::uint32_t pos[P::kWr];
    ref.enc_positions(pos, rnd, P::kWr);
    ref.support_to_vector(v.w, pos, P::kWr);
  };
  auto top_bit = [&](pke::RingVec<P>& v) {
    zero(v);
    v.w[(P::kN - 1) / 64] = std::uint64_t{1} << ((P::kN - 1) % 64);
  };
  for (int i = 0; i < 5; i++) add(dense, dense);
  for (int i = 0; i < 5; i++) add(dense, sparse);
  add(zero, dense);
  add(ones, ones);
  add(ones, sparse);
  add(top_bit, top_bit);
  add(top_bit, ones);
  for (auto& [a, b] : pairs) {
    pke::RingVec<P> o1{}, o2{}, p1{}, p2{};
    ref.mul(o1.w, a.w, b.w);
    k.mul(o2.w, a.w, b.w);
    ASSERT_EQ(0, std::memcmp(o1.w, o2.w, sizeof(o1.w))) << "mul";
    ref.mul2(o1.w, p1.w, a.w, b.w, b.w);
    k.mul2(o2.w, p2.w, a.w, b.w, b.w);
    ASSERT_EQ(0, std::memcmp(o1.w, o2.w, sizeof(o1.w))) << "mul2 first";
    ASSERT_EQ(0, std::memcmp(p1.w, p2.w, sizeof(p1.w))) << "mul2 second";
  }

  // Samplers: random bytes, all-zero and all-0xFF bytes (maximal duplicates / largest positions).
  for (int iter = 0; iter < 200; iter++) {
    std::uint8_t rnd[4 * P::kWr];
    const int mode = iter % 4;
    for (auto& x : rnd) x = mode == 0 ? 0 : mode == 1 ? 0xFF : static_cast<std::uint8_t>(rng());
    std::uint32_t p1[P::kWr], p2[P::kWr];
    ref.enc_positions(p1, rnd, P::kWr);
    k.enc_positions(p2, rnd, P::kWr);
    ASSERT_EQ(0, std::memcmp(p1, p2, sizeof(p1))) << "enc_positions mode " << mode;
    pke::RingVec<P> v1{}, v2{};
    ref.support_to_vector(v1.w, p1, P::kWr);
    k.support_to_vector(v2.w, p1, P::kWr);
    ASSERT_EQ(0, std::memcmp(v1.w, v2.w, sizeof(v1.w))) << "support_to_vector";
  }
  // Key-generation duplicate test: every count 0..w, r present at each place or absent, equal to
  // the first/last position, positions up to n-1 (the tail of a partial vector is masked).
  for (std::size_t count = 0; count <= P::kW; count++) {
    std::uint32_t pos[P::kW];
    for (std::size_t i = 0; i < P::kW; i++) pos[i] = static_cast<std::uint32_t>(rng() % P::kN);
    pos[P::kW - 1] = static_cast<std::uint32_t>(P::kN - 1);
    std::uint32_t probes[4] = {static_cast<std::uint32_t>(rng() % P::kN), pos[0], pos[count ? count - 1 : 0],
                               pos[count < P::kW ? count : 0]};  // the last one sits just past count
    for (std::uint32_t r : probes) {
      const std::uint32_t want = ref.position_taken(pos, count, r);
      ASSERT_EQ(want, k.position_taken(pos, count, r)) << "position_taken count " << count;
      ASSERT_TRUE(want == 0 || want == ~0u);
    }
    if (count > 0) {
      ASSERT_EQ(~0u, k.position_taken(pos, count, pos[count - 1]));
    }
  }
  // The key-generation sampler with the backend's whole-refill kernel (if any) against the
  // draw-by-draw portable one, on streams with no, many and only duplicates and rejections.
  {
    struct Stream {
      const std::vector<std::uint8_t>* b;
      std::size_t off = 0;
      void squeeze(std::uint8_t* out, std::size_t n) {
        if (off + n > b->size()) {  // a test stream must hold enough distinct positions
          std::fprintf(stderr, "keygen sampler test: stream exhausted\n");
          std::abort();
        }
        std::memcpy(out, b->data() + off, n);
        off += n;
      }
    };
    for (int mode = 0; mode < 5; mode++) {
      std::vector<std::uint8_t> bytes(3 * 40 * P::kW);
      for (std::size_t i = 0; i < bytes.size() / 3; i++) {
        std::uint32_t c = static_cast<std::uint32_t>(rng()) & 0xFFFFFF;
        if (mode == 1) c = static_cast<std::uint32_t>(i % (P::kW + 3));                // many duplicates
        if (mode == 2 && rng() % 3 == 0) c = P::kRejectThreshold + (c % 1000);         // rejections
        if (mode == 3) c = (i % 2) ? 0xFFFFFF : static_cast<std::uint32_t>(i / 2 % (P::kW + 1)) * 7;
        // r = c mod n collisions (w + 11 is prime to 5 at every level, so w positions exist)
        if (mode == 4) c = static_cast<std::uint32_t>(i % 5 == 0 ? P::kN + i % 7 : i % (P::kW + 11));
        bytes[3 * i] = static_cast<std::uint8_t>(c);
        bytes[3 * i + 1] = static_cast<std::uint8_t>(c >> 8);
        bytes[3 * i + 2] = static_cast<std::uint8_t>(c >> 16);
      }
      Stream s1{&bytes}, s2{&bytes};
      std::uint32_t p1[P::kW], p2[P::kW];
      for (int draw = 0; draw < 2; draw++) {
        const std::size_t u1 = sampling::sample_keygen_positions<P>(p1, s1);
        const std::size_t u2 = sampling::sample_keygen_positions<P>(p2, s2, k.keygen_accept);
        ASSERT_EQ(u1, u2) << "keygen sampler bytes consumed, mode " << mode;
        ASSERT_EQ(0, std::memcmp(p1, p2, sizeof(p1))) << "keygen sampler positions, mode " << mode;
      }
    }
  }
  {  // positions at both ends of the vector
    std::uint32_t edge[4] = {0, 63, static_cast<std::uint32_t>(P::kN - 1), static_cast<std::uint32_t>(P::kN - 2)};
    pke::RingVec<P> v1{}, v2{};
    ref.support_to_vector(v1.w, edge, 4);
    k.support_to_vector(v2.w, edge, 4);
    ASSERT_EQ(0, std::memcmp(v1.w, v2.w, sizeof(v1.w)));
  }

  // RM decoding: clean code words, noisy ones, random words, all-zero/all-one, exact ties.
  for (int iter = 0; iter < 100; iter++) {
    pke::CodeVec<P> w;
    std::uint8_t m[P::kK];
    for (auto& x : m) x = static_cast<std::uint8_t>(rng());
    pke::code_encode<P>(w, m);
    const int mode = iter % 5;
    for (std::size_t i = 0; i < P::kN1N2Words; i++) {
      if (mode == 1) w.w[i] ^= rng() & rng();         // 25% noise
      if (mode == 2) w.w[i] = rng();                   // random
      if (mode == 3) w.w[i] = 0;
      if (mode == 4) w.w[i] = (i % 4 < 2) ? ~0ull : 0;  // ties between copies
    }
    std::uint8_t d1[P::kN1], d2[P::kN1];
    ref.rm_decode(d1, w.w);
    k.rm_decode(d2, w.w);
    ASSERT_EQ(0, std::memcmp(d1, d2, sizeof(d1))) << "rm_decode mode " << mode;
  }

  // RS decoding: 0..delta errors, delta+1 and more (beyond capacity), random words.
  for (int iter = 0; iter < 300; iter++) {
    std::uint8_t m[P::kK], cw[P::kN1];
    for (auto& x : m) x = static_cast<std::uint8_t>(rng());
    code::rs_encode<P>(cw, m);
    const std::size_t errors = iter < 200 ? static_cast<std::size_t>(iter) % (P::kDelta + 1) : P::kDelta + 1 + iter % 5;
    for (std::size_t e = 0; e < errors; e++) cw[rng() % P::kN1] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    if (iter >= 290) std::memset(cw, 0xFF, sizeof(cw));
    std::uint8_t d1[P::kK], d2[P::kK];
    ref.rs_decode(d1, cw);
    k.rs_decode(d2, cw);
    ASSERT_EQ(0, std::memcmp(d1, d2, sizeof(d1))) << "rs_decode with " << errors << " errors";
    if (errors <= P::kDelta && iter < 290) {
      ASSERT_EQ(0, std::memcmp(d1, m, sizeof(m)));
    }
  }

  // Keccak permutation.
  for (int iter = 0; iter < 100; iter++) {
    std::uint64_t s1[25], s2[25];
    for (auto& x : s1) x = rng();
    std::memcpy(s2, s1, sizeof(s1));
    backend::portable().keccak_f1600(s1);
    be.keccak_f1600(s2);
    ASSERT_EQ(0, std::memcmp(s1, s2, sizeof(s1))) << "keccak_f1600";
  }
}

TEST_P(BackendDiff, EveryKernelEqualsPortable) {
  with_params(GetParam().level, [&]<class P>() { diff_kernels<P>(*GetParam().be); });
}

// Whole KEM: same bytes for random keys, encapsulations and (valid and invalid) decapsulations.
template <class P>
void diff_kem(const backend::Backend& be) {
  std::mt19937_64 rng(99);
  for (int iter = 0; iter < 20; iter++) {
    std::uint8_t seed[32], m[P::kK], salt[16];
    for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
    for (auto& x : m) x = static_cast<std::uint8_t>(rng());
    for (auto& x : salt) x = static_cast<std::uint8_t>(rng());
    auto k1 = std::make_unique<kem::SecretKey<P>>();
    auto k2 = std::make_unique<kem::SecretKey<P>>();
    kem::keypair<P>(backend::portable(), *k1, seed);
    kem::keypair<P>(be, *k2, seed);
    ASSERT_EQ(0, std::memcmp(k1->pub.pk, k2->pub.pk, P::kPublicKeyBytes));
    std::vector<std::uint8_t> c1(P::kCiphertextBytes), c2(P::kCiphertextBytes);
    std::uint8_t s1[32], s2[32];
    kem::encaps<P>(backend::portable(), k1->pub, c1.data(), s1, m, salt);
    kem::encaps<P>(be, k2->pub, c2.data(), s2, m, salt);
    ASSERT_EQ(c1, c2);
    ASSERT_EQ(0, std::memcmp(s1, s2, 32));
    if (iter % 2) c1[rng() % c1.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    kem::decaps<P>(backend::portable(), *k1, s1, c1.data());
    kem::decaps<P>(be, *k2, s2, c1.data());
    ASSERT_EQ(0, std::memcmp(s1, s2, 32));

    // Key objects prepared for many operations (transforms of h, s, y where the multiplier has
    // them), prepared after keypair or after parsing, and unprepared ones give the same bytes.
    const bool transforms = be.kernels<P>().transforms != nullptr;
    ASSERT_EQ(nullptr, k2->pub.ek.kept.owner());  // keypair and parsing never prepare
    ASSERT_EQ(nullptr, k2->y_kept.owner());
    std::vector<std::uint8_t> sk(P::kSecretKeyBytes), c3(P::kCiphertextBytes);
    k2->serialize(sk.data());
    auto parsed = std::make_unique<kem::SecretKey<P>>();
    ASSERT_EQ(kem::Status::kOk, kem::parse_secret_key<P>(be, *parsed, sk.data()));
    ASSERT_EQ(nullptr, parsed->y_kept.owner());
    ASSERT_EQ(transforms, kem::prepare_secret_key<P>(be, *parsed));
    ASSERT_EQ(transforms, kem::prepare_secret_key<P>(be, *k2));
    ASSERT_EQ(transforms, parsed->y_kept.owner() == &be.kernels<P>());
    ASSERT_EQ(transforms, parsed->pub.ek.kept.owner() == &be.kernels<P>());
    if (transforms) {
      ASSERT_EQ(0, std::memcmp(parsed->y_kept.data(), k2->y_kept.data(), sizeof(pke::Transform<P>)));
      ASSERT_EQ(0, std::memcmp(parsed->pub.ek.kept.data(), k2->pub.ek.kept.data(), 2 * sizeof(pke::Transform<P>)));
      // The kept transforms are really used: a corrupted one changes the ciphertext.
      auto bent = std::make_unique<kem::PublicKey<P>>(parsed->pub);
      bent->ek.kept.data()[0].w[3] ^= 1;  // a deep copy: parsed stays intact
      std::uint8_t s4[32];
      kem::encaps<P>(be, *bent, c3.data(), s4, m, salt);
      ASSERT_NE(c2, c3);
    }
    auto plain = std::make_unique<kem::SecretKey<P>>();
    ASSERT_EQ(kem::Status::kOk, kem::parse_secret_key<P>(be, *plain, sk.data()));
    for (const kem::SecretKey<P>* key : {parsed.get(), plain.get(), k2.get()}) {
      std::uint8_t s3[32];
      kem::encaps<P>(be, key->pub, c3.data(), s3, m, salt);
      ASSERT_EQ(c2, c3);
      kem::decaps<P>(be, *key, s3, c1.data());
      ASSERT_EQ(0, std::memcmp(s1, s3, 32));
    }
  }
}

TEST_P(BackendDiff, KemEqualsPortable) {
  with_params(GetParam().level, [&]<class P>() { diff_kem<P>(*GetParam().be); });
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendDiff, testing::ValuesIn(diff_cases()),
                         [](const testing::TestParamInfo<DiffCase>& i) {
                           return test::param_name(i.param.be->name) + "_HQC" + std::to_string(i.param.level);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BackendDiff);

}  // namespace
}  // namespace hqc
