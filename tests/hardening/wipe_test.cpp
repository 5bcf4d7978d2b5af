// Secrets wiped (hardening issue): key objects are zeroed when destroyed, the C API wipes a secret
// key on free, and decapsulation / encapsulation leave no copy of their secrets (m', theta', K',
// the RS code word of m', u*y, the sigma of the key) in the stack frames they used. Each check
// has a negative control that leaves a secret behind on purpose and must be detected, so that a
// scanner that cannot see secrets makes the suite fail.
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "backend/registry.hpp"
#include "code/reed_solomon.hpp"
#include "hqc/hqc.h"
#include "kem/kem.hpp"
#include "sym/oracles.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define HQC_WIPE_TEST_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HQC_WIPE_TEST_SANITIZER 1
#endif

namespace {

using namespace hqc;
using Bytes = std::vector<std::uint8_t>;

// A named byte string that must not be found in freed or dead memory.
struct Pattern {
  std::string name;
  Bytes bytes;
};

// Names of the patterns found in [p, p+n).
std::vector<std::string> find_patterns(const std::uint8_t* p, std::size_t n, const std::vector<Pattern>& pats) {
  std::vector<std::string> found;
  for (const Pattern& pat : pats) {
    if (pat.bytes.empty() || pat.bytes.size() > n) continue;
    if (std::search(p, p + n, pat.bytes.begin(), pat.bytes.end()) != p + n) found.push_back(pat.name);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// 1. kem::SecretKey wipes its secret fields on destruction (placement new in a visible buffer).

template <class P>
void secret_key_destructor_check() {
  alignas(64) static std::uint8_t storage[sizeof(kem::SecretKey<P>)];
  std::uint8_t seed[32];
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(i * 9 + 1);
  auto* key = new (storage) kem::SecretKey<P>;
  kem::keypair<P>(backend::portable(), *key, seed);
  const std::size_t off_dk = offsetof(kem::SecretKey<P>, seed_dk);
  const std::size_t end = offsetof(kem::SecretKey<P>, y) + sizeof(key->y);
  // Before: the secret region holds the secrets (so the check below can fail).
  EXPECT_FALSE(std::all_of(storage + off_dk, storage + off_dk + 32, [](std::uint8_t b) { return b == 0; }));
  key->~SecretKey<P>();
  // seed_dk, sigma, seed_kem, y (and the padding between them) must all be zero now.
  const std::size_t nonzero =
      static_cast<std::size_t>(std::count_if(storage + off_dk, storage + end, [](std::uint8_t b) { return b != 0; }));
  EXPECT_EQ(nonzero, 0u) << P::kName << ": secret bytes left in a destroyed SecretKey";
}

TEST(WipeTest, SecretKeyDestructor) {
  secret_key_destructor_check<Hqc1>();
  secret_key_destructor_check<Hqc3>();
  secret_key_destructor_check<Hqc5>();
}

TEST(WipeTest, SecretKeyWipeMethodClearsEveryField) {
  auto key = std::make_unique<kem::SecretKey<Hqc1>>();
  std::uint8_t seed[32] = {1, 2, 3};
  kem::keypair<Hqc1>(backend::portable(), *key, seed);
  key->wipe();
  const auto* b = reinterpret_cast<const std::uint8_t*>(key.get());
  const std::size_t off = offsetof(kem::SecretKey<Hqc1>, seed_dk);
  const std::size_t end = offsetof(kem::SecretKey<Hqc1>, y) + sizeof(key->y);
  EXPECT_TRUE(std::all_of(b + off, b + end, [](std::uint8_t x) { return x == 0; }));
}

// ---------------------------------------------------------------------------------------------
// 2. The C API wipes a secret key object before its memory returns to the allocator. The test
//    binary replaces the global operator delete; while armed, every freed block is scanned for
//    the key's secrets before it is released.

std::atomic<bool> g_armed{false};
std::vector<Pattern>* g_patterns = nullptr;
std::vector<std::string>* g_found = nullptr;

[[maybe_unused]] void scan_freed(void* p) {
  if (p == nullptr || !g_armed.load(std::memory_order_relaxed)) return;
  g_armed = false;  // the scan itself allocates
  const std::size_t n = malloc_usable_size(p);
  for (auto& s : find_patterns(static_cast<const std::uint8_t*>(p), n, *g_patterns)) g_found->push_back(s);
  g_armed = true;
}

[[maybe_unused]] std::vector<Pattern> secret_key_patterns(int level, const Bytes& sk) {
  std::vector<Pattern> pats;
  hqc::with_params(level, [&]<class P>() {
    const std::uint8_t* s = sk.data() + P::kPublicKeyBytes;
    pats.push_back({"seed_dk", Bytes(s, s + 32)});
    pats.push_back({"sigma", Bytes(s + 32, s + 32 + P::kK)});
    pats.push_back({"seed_kem", Bytes(s + 32 + P::kK, s + 64 + P::kK)});
    // y: the 32-byte window of its expansion with the most set bits (it is sparse).
    auto key = std::make_unique<kem::SecretKey<P>>();
    EXPECT_EQ(kem::parse_secret_key<P>(backend::portable(), *key, sk.data()), kem::Status::kOk);
    std::size_t best = 0, best_bits = 0;
    for (std::size_t i = 0; i + 4 <= P::kNWords; i++) {
      std::size_t bits = 0;
      for (std::size_t j = 0; j < 4; j++) bits += static_cast<std::size_t>(__builtin_popcountll(key->y.w[i + j]));
      if (bits > best_bits) {
        best_bits = bits;
        best = i;
      }
    }
    const auto* yb = reinterpret_cast<const std::uint8_t*>(key->y.w + best);
    pats.push_back({"y", Bytes(yb, yb + 32)});
  });
  return pats;
}

TEST(WipeTest, CApiSecretKeyFreeWipes) {
#if defined(HQC_WIPE_TEST_SANITIZER)
  GTEST_SKIP() << "the sanitizer runtime owns operator delete";
#else
  for (int level : {1, 3, 5}) {
    const hqc_kem_info* info = hqc_kem_info_by_level(level);
    std::uint8_t seed[32];
    for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(level * 40 + i);
    hqc_secret_key* key = nullptr;
    ASSERT_EQ(hqc_secret_key_generate(info->name, seed, sizeof(seed), &key), HQC_OK);
    Bytes sk(info->secret_key_bytes);
    ASSERT_EQ(hqc_secret_key_bytes(key, sk.data(), sk.size()), HQC_OK);
    std::vector<Pattern> pats = secret_key_patterns(level, sk);
    std::vector<std::string> found;
    g_patterns = &pats;
    g_found = &found;

    // Negative control: a heap copy of the secret key freed without wiping must be detected.
    auto* copy = new std::uint8_t[sk.size()];
    std::memcpy(copy, sk.data(), sk.size());
    g_armed = true;
    delete[] copy;
    g_armed = false;
    EXPECT_EQ(found, (std::vector<std::string>{"seed_dk", "sigma", "seed_kem"}))
        << "the freed-memory scanner does not see secrets";
    found.clear();

    g_armed = true;
    hqc_secret_key_free(key);
    g_armed = false;
    EXPECT_TRUE(found.empty()) << info->name << ": hqc_secret_key_free left " << testing::PrintToString(found);
    g_patterns = nullptr;
    g_found = nullptr;
  }
#endif
}

// ---------------------------------------------------------------------------------------------
// 3. No secret temporaries left on the stack. In a fresh thread (whole stack mapped): clear a
//    large region below the current frame, run the operation, then scan the dead frames it used.

constexpr std::size_t kScanBytes = 512 * 1024;

[[gnu::noinline]] void clear_stack_below() {
  volatile std::uint8_t area[kScanBytes + 16384];
  for (volatile std::uint8_t& b : area) b = 0;
}

// Scans the region below this function's frame (where the callee frames of the operation were).
[[gnu::noinline, gnu::no_sanitize_address]] std::vector<std::string> scan_stack_below(
    const std::vector<Pattern>& pats) {
  // The address is laundered through asm: the compiler must not reason about the region.
  std::uintptr_t top = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  __asm__("" : "+r"(top));
  static std::uint8_t copy[kScanBytes];  // copied with plain byte reads, then searched
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the point is to hide the provenance from the optimiser
  const volatile std::uint8_t* src = reinterpret_cast<const volatile std::uint8_t*>(top - 512 - kScanBytes);
  for (std::size_t i = 0; i < kScanBytes; i++) copy[i] = src[i];
  return find_patterns(copy, kScanBytes, pats);
}

// Runs f with its frames at least 4 KiB below the caller's, so that the scanner's own frame
// (which reuses the top of the dead region) cannot hide what f left behind.
template <class F>
[[gnu::noinline]] void below_padding(F&& f) {
  volatile std::uint8_t pad[4096];
  pad[0] = 0;
  f();
  pad[sizeof(pad) - 1] = 0;
}

// Negative control: keeps a copy of a secret in a dead frame.
[[gnu::noinline]] void leave_secret_on_stack(const Bytes& secret) {
  std::uint8_t local[256];
  std::memcpy(local, secret.data(), std::min(secret.size(), sizeof(local)));
  __asm__ __volatile__("" : : "r"(local) : "memory");
}

template <class P>
struct StackCase {
  kem::SecretKey<P> key;
  std::uint8_t ct[P::kCiphertextBytes];
  std::uint8_t ss[32];
  std::vector<Pattern> decaps_pats, encaps_pats;
};

template <class P>
void prepare(const backend::Backend& be, StackCase<P>& c) {
  std::uint8_t seed[32], coins[P::kK + 16];
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(77 + 3 * i);
  for (std::size_t i = 0; i < sizeof(coins); i++) coins[i] = static_cast<std::uint8_t>(0xA5 ^ (11 * i));
  kem::keypair<P>(be, c.key, seed);
  kem::encaps<P>(be, c.key.pub, c.ct, c.ss, coins, coins + P::kK);
  const Bytes m(coins, coins + P::kK);
  std::uint8_t g[64];
  sym::oracle_g(be.keccak_f1600, g, c.key.pub.hpk, coins, P::kK, coins + P::kK);
  std::uint8_t cw[P::kN1];
  code::rs_encode<P>(cw, coins);
  // u*y + v: the received word given to the decoder (a 32-byte window of it).
  pke::RingVec<P> u, uy;
  pke::load_ring_vec<P>(u, c.ct);
  be.kernels<P>().mul(uy.w, u.w, c.key.y.w);
  Bytes recv(32);
  for (std::size_t i = 0; i < 32; i++)
    recv[i] = static_cast<std::uint8_t>(uy.bytes()[256 + i] ^ c.ct[P::kVecNBytes + 256 + i]);
  const Bytes theta(g + 32, g + 64), kprime(g, g + 32);
  c.decaps_pats = {{"m'", m},
                   {"theta'", theta},
                   {"RS codeword of m'", Bytes(cw, cw + P::kN1)},
                   {"u*y", Bytes(uy.bytes() + 256, uy.bytes() + 288)},
                   {"v+u*y", recv},
                   {"sigma", Bytes(c.key.sigma, c.key.sigma + P::kK)}};
  // The shared secret is an output, but no copy may stay below the caller (the G buffer holds it).
  c.decaps_pats.push_back({"K'", kprime});
  c.encaps_pats = {{"m", m}, {"theta", theta}, {"RS codeword of m", Bytes(cw, cw + P::kN1)}, {"K", kprime}};
  // The test's own copies must not be found later either.
  ct::wipe(coins, sizeof(coins));
  ct::wipe(g, sizeof(g));
  ct::wipe(cw, sizeof(cw));
  ct::wipe(uy.w, sizeof(uy.w));
}

template <class P>
[[gnu::noinline]] void do_decaps(const backend::Backend& be, StackCase<P>& c) {
  std::uint8_t ss[32];
  kem::decaps<P>(be, c.key, ss, c.ct);
  std::memcpy(c.ss, ss, 32);
  ct::wipe(ss, sizeof(ss));
}

template <class P>
[[gnu::noinline]] void do_encaps(const backend::Backend& be, StackCase<P>& c) {
  std::uint8_t coins[P::kK + 16], ct2[P::kCiphertextBytes], ss[32];
  for (std::size_t i = 0; i < sizeof(coins); i++) coins[i] = static_cast<std::uint8_t>(0xA5 ^ (11 * i));
  kem::encaps<P>(be, c.key.pub, ct2, ss, coins, coins + P::kK);
  ct::wipe(coins, sizeof(coins));
  ct::wipe(ss, sizeof(ss));
  __asm__ __volatile__("" : : "r"(ct2) : "memory");
}

// Negative control 2: decryption as decaps does it, but into an m' buffer that is not wiped.
template <class P>
[[gnu::noinline]] void leaky_decrypt(const backend::Backend& be, StackCase<P>& c) {
  std::uint8_t m[P::kK];
  auto u = std::make_unique<pke::RingVec<P>>();
  auto v = std::make_unique<pke::CodeVec<P>>();
  pke::load_ring_vec<P>(*u, c.ct);
  std::memcpy(v->w, c.ct + P::kVecNBytes, P::kVecN1N2Bytes);
  pke::decrypt<P>(be, m, c.key.y, *u, *v);
  __asm__ __volatile__("" : : "r"(m) : "memory");
}

template <class P>
void stack_check(const backend::Backend& be, bool negative_control) {
  auto c = std::make_unique<StackCase<P>>();
  std::vector<std::string> found_dec, found_enc, found_ctrl;
  std::thread th([&] {
    prepare<P>(be, *c);
    clear_stack_below();
    if (negative_control) {
      below_padding([&] { leave_secret_on_stack(c->decaps_pats[0].bytes); });
      found_ctrl = scan_stack_below(c->decaps_pats);
      clear_stack_below();
      below_padding([&] { leaky_decrypt<P>(be, *c); });
      for (auto& s : scan_stack_below(c->decaps_pats)) found_ctrl.push_back("leaky_decrypt: " + s);
      return;
    }
    below_padding([&] { do_decaps<P>(be, *c); });
    found_dec = scan_stack_below(c->decaps_pats);
    clear_stack_below();
    below_padding([&] { do_encaps<P>(be, *c); });
    found_enc = scan_stack_below(c->encaps_pats);
  });
  th.join();
  if (negative_control) {
    // The planted copy, and m' left by the non-wiping decryption, must both be seen.
    for (const char* want : {"m'", "leaky_decrypt: m'"})
      EXPECT_NE(std::find(found_ctrl.begin(), found_ctrl.end(), want), found_ctrl.end())
          << "the stack scanner does not see a planted secret (" << want << "); found "
          << testing::PrintToString(found_ctrl);
    return;
  }
  EXPECT_TRUE(found_dec.empty()) << be.name << " " << P::kName
                                 << " decaps left on the stack: " << testing::PrintToString(found_dec);
  EXPECT_TRUE(found_enc.empty()) << be.name << " " << P::kName
                                 << " encaps left on the stack: " << testing::PrintToString(found_enc);
}

TEST(WipeTest, StackScannerSeesPlantedSecret) {
  stack_check<Hqc1>(backend::portable(), true);
  stack_check<Hqc5>(backend::portable(), true);
}

TEST(WipeTest, NoSecretsLeftOnStack) {
  for (const auto* be : backend::all_backends()) {
    if (!backend::is_supported(*be, backend::effective_cpu_features())) continue;
    SCOPED_TRACE(be->name);
    stack_check<Hqc1>(*be, false);
    stack_check<Hqc3>(*be, false);
    stack_check<Hqc5>(*be, false);
  }
}

}  // namespace

#if !defined(HQC_WIPE_TEST_SANITIZER)
// Replaced global allocation (malloc/free) and deallocation (scans freed blocks while armed): the
// replacement operators must call malloc and free themselves.
// NOLINTBEGIN(cppcoreguidelines-no-malloc)
namespace {
[[gnu::noinline]] void* acquire(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
[[gnu::noinline]] void release(void* p) noexcept {
  scan_freed(p);
  std::free(p);
}
}  // namespace
void* operator new(std::size_t n) { return acquire(n); }
void* operator new[](std::size_t n) { return acquire(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
// NOLINTEND(cppcoreguidelines-no-malloc)
#endif
