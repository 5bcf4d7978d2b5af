// Thread safety (hardening issue): keygen / encaps / decaps from several threads at once, with the
// first use of the library (backend selection, CPU feature probe) racing between the threads, and
// key objects shared read-only between threads. Every result is compared with a single-threaded
// run and with the portable backend. Runs in the TSan build (preset `tsan`, label `tsan`), where
// a data race anywhere on these paths fails the test, and in every normal build.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "backend/registry.hpp"
#include "hqc/hqc.h"
#include "kem/kem.hpp"

namespace {

constexpr int kThreads = 8;
constexpr int kLevels[] = {1, 3, 5};

struct Result {
  std::vector<std::uint8_t> pk, sk, ct, ss_enc, ss_dec, ss_bad;
  int rc = -1;
};

std::array<std::uint8_t, 32> seed_for(int thread, int level) {
  std::array<std::uint8_t, 32> s{};
  for (std::size_t i = 0; i < s.size(); i++) s[i] = static_cast<std::uint8_t>(31 * thread + 7 * level + i);
  return s;
}
std::vector<std::uint8_t> coins_for(int thread, std::size_t n) {
  std::vector<std::uint8_t> c(n);
  for (std::size_t i = 0; i < n; i++) c[i] = static_cast<std::uint8_t>(13 * thread + 3 * i + 1);
  return c;
}

// The whole KEM through the C API (which selects the backend on first use).
Result run_capi(int thread, int level) {
  Result r;
  const hqc_kem_info* info = hqc_kem_info_by_level(level);
  const auto seed = seed_for(thread, level);
  const auto coins = coins_for(thread, info->encaps_coins_bytes);
  r.pk.resize(info->public_key_bytes);
  r.sk.resize(info->secret_key_bytes);
  r.ct.resize(info->ciphertext_bytes);
  r.ss_enc.resize(32);
  r.ss_dec.resize(32);
  r.ss_bad.resize(32);
  int rc =
      hqc_kem_keypair_derand(info->name, r.pk.data(), r.pk.size(), r.sk.data(), r.sk.size(), seed.data(), seed.size());
  if (rc == HQC_OK)
    rc = hqc_kem_encaps_derand(info->name, r.ct.data(), r.ct.size(), r.ss_enc.data(), 32, r.pk.data(), r.pk.size(),
                               coins.data(), coins.size());
  if (rc == HQC_OK)
    rc = hqc_kem_decaps(info->name, r.ss_dec.data(), 32, r.ct.data(), r.ct.size(), r.sk.data(), r.sk.size());
  if (rc == HQC_OK) {
    std::vector<std::uint8_t> bad = r.ct;
    bad[bad.size() / 3] ^= 0x10;  // implicit rejection path
    rc = hqc_kem_decaps(info->name, r.ss_bad.data(), 32, bad.data(), bad.size(), r.sk.data(), r.sk.size());
  }
  r.rc = rc;
  return r;
}

// The same through the internal API on an explicit backend (no selection involved).
template <class P>
Result run_internal(const hqc::backend::Backend& be, int thread) {
  Result r;
  auto key = std::make_unique<hqc::kem::SecretKey<P>>();
  const auto seed = seed_for(thread, P::kLevel);
  const auto coins = coins_for(thread, P::kEncapsCoinsBytes);
  hqc::kem::keypair<P>(be, *key, seed.data());
  r.pk.assign(key->pub.pk, key->pub.pk + P::kPublicKeyBytes);
  r.sk.resize(P::kSecretKeyBytes);
  key->serialize(r.sk.data());
  r.ct.resize(P::kCiphertextBytes);
  r.ss_enc.resize(32);
  r.ss_dec.resize(32);
  r.ss_bad.resize(32);
  hqc::kem::encaps<P>(be, key->pub, r.ct.data(), r.ss_enc.data(), coins.data(), coins.data() + P::kK);
  hqc::kem::decaps<P>(be, *key, r.ss_dec.data(), r.ct.data());
  std::vector<std::uint8_t> bad = r.ct;
  bad[bad.size() / 3] ^= 0x10;
  hqc::kem::decaps<P>(be, *key, r.ss_bad.data(), bad.data());
  r.rc = HQC_OK;
  return r;
}

Result run_portable(int thread, int level) {
  Result r;
  hqc::with_params(level, [&]<class P>() { r = run_internal<P>(hqc::backend::portable(), thread); });
  return r;
}

void expect_same(const Result& a, const Result& b, const char* what, int thread, int level) {
  SCOPED_TRACE(testing::Message() << what << ", thread " << thread << ", HQC-" << level);
  EXPECT_EQ(a.rc, HQC_OK);
  EXPECT_EQ(b.rc, HQC_OK);
  EXPECT_EQ(a.pk, b.pk);
  EXPECT_EQ(a.sk, b.sk);
  EXPECT_EQ(a.ct, b.ct);
  EXPECT_EQ(a.ss_enc, b.ss_enc);
  EXPECT_EQ(a.ss_dec, b.ss_dec);
  EXPECT_EQ(a.ss_bad, b.ss_bad);
  EXPECT_EQ(a.ss_enc, a.ss_dec);
  EXPECT_NE(a.ss_bad, a.ss_dec);
}

// Must be the first use of the library in its process (ctest runs each test in its own process):
// the threads are released together, so backend selection and the CPU probe race.
TEST(ThreadTest, RacingFirstUseMatchesSingleThread) {
  std::vector<std::array<Result, 3>> results(kThreads);
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      // Rotate the level order so that different levels run at the same time.
      for (int i = 0; i < 3; i++) {
        const int li = (t + i) % 3;
        results[t][li] = run_capi(t, kLevels[li]);
      }
    });
  }
  while (ready.load() != kThreads) std::this_thread::yield();
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();

  ASSERT_NE(hqc_backend_name(), nullptr) << hqc_backend_error();
  for (int t = 0; t < kThreads; t++) {
    for (int li = 0; li < 3; li++) {
      expect_same(results[t][li], run_capi(t, kLevels[li]), "threaded vs single-threaded", t, kLevels[li]);
      expect_same(results[t][li], run_portable(t, kLevels[li]), "threaded vs portable", t, kLevels[li]);
    }
  }
}

// One secret key object and one public key object shared by all threads (const use only).
TEST(ThreadTest, SharedKeyObjects) {
  for (int level : kLevels) {
    const hqc_kem_info* info = hqc_kem_info_by_level(level);
    const auto seed = seed_for(99, level);
    hqc_secret_key* sk = nullptr;
    ASSERT_EQ(hqc_secret_key_generate(info->name, seed.data(), seed.size(), &sk), HQC_OK);
    std::vector<std::uint8_t> pk(info->public_key_bytes);
    ASSERT_EQ(hqc_secret_key_public(sk, pk.data(), pk.size()), HQC_OK);
    hqc_public_key* pub = nullptr;
    ASSERT_EQ(hqc_public_key_new(info->name, pk.data(), pk.size(), &pub), HQC_OK);

    constexpr int kPerThread = 2;
    struct Out {
      std::vector<std::uint8_t> ct, ss, ss2;
      int rc = HQC_OK;
    };
    std::vector<Out> outs(kThreads * kPerThread);
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; t++) {
      threads.emplace_back([&, t] {
        for (int j = 0; j < kPerThread; j++) {
          Out& o = outs[t * kPerThread + j];
          const auto coins = coins_for(t * kPerThread + j, info->encaps_coins_bytes);
          o.ct.resize(info->ciphertext_bytes);
          o.ss.resize(32);
          o.ss2.resize(32);
          o.rc |=
              hqc_public_key_encaps_derand(pub, o.ct.data(), o.ct.size(), o.ss.data(), 32, coins.data(), coins.size());
          o.rc |= hqc_secret_key_decaps(sk, o.ss2.data(), 32, o.ct.data(), o.ct.size());
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int i = 0; i < kThreads * kPerThread; i++) {
      SCOPED_TRACE(testing::Message() << "HQC-" << level << " run " << i);
      const auto coins = coins_for(i, info->encaps_coins_bytes);
      std::vector<std::uint8_t> ct(info->ciphertext_bytes), ss(32);
      ASSERT_EQ(hqc_public_key_encaps_derand(pub, ct.data(), ct.size(), ss.data(), 32, coins.data(), coins.size()),
                HQC_OK);
      EXPECT_EQ(outs[i].rc, HQC_OK);
      EXPECT_EQ(outs[i].ct, ct);
      EXPECT_EQ(outs[i].ss, ss);
      EXPECT_EQ(outs[i].ss2, ss);
    }
    hqc_public_key_free(pub);
    hqc_secret_key_free(sk);
  }
}

// Every compiled backend that this CPU supports, used from many threads at once, agrees with
// the portable backend (kernel tables are immutable and shared).
TEST(ThreadTest, AllBackendsConcurrently) {
  std::vector<const hqc::backend::Backend*> backends;
  for (const auto* b : hqc::backend::all_backends())
    if (hqc::backend::is_supported(*b, hqc::backend::effective_cpu_features())) backends.push_back(b);
  std::vector<Result> results(kThreads);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      const auto& be = *backends[static_cast<std::size_t>(t) % backends.size()];
      results[t] = run_internal<hqc::Hqc1>(be, t);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; t++) expect_same(results[t], run_portable(t, 1), "backend vs portable", t, 1);
}

}  // namespace

namespace {

// Negative control for the TSan build (run with --gtest_also_run_disabled_tests, expected to fail
// there): an unsynchronised counter shared by two threads. If TSan did not report this, a clean
// thread test would prove nothing.
int g_racy_counter = 0;

TEST(ThreadTest, DISABLED_PlantedRace) {
  auto bump = [] {
    for (int i = 0; i < 1000; i++) g_racy_counter = g_racy_counter + 1;
  };
  std::thread a(bump), b(bump);
  a.join();
  b.join();
  EXPECT_GT(g_racy_counter, 0);
}

}  // namespace
