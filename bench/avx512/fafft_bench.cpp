// FAFFT multiplier (backend/avx512/fafft.hpp) against the Karatsuba multiplier of the avx512
// backend, side by side: per level, the contenders are timed in turn inside every round (the
// machine is shared and noisy), each sample is one call timed with lfence'd rdtsc, and the table
// shows the median TSC cycles over the rounds. Pinned to one core (default 1; argv[1] overrides),
// argv[2] = rounds (default 301, at least 101).
//   taskset -c 1 ./avx512_fafft_bench > bench/avx512/fafft_results.txt
#include <sched.h>
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "arg_int.hpp"
#include "backend/avx512/fafft.hpp"
#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
#include "pke/pke.hpp"
#include "tsc.hpp"

namespace {

using namespace hqc;
namespace ff = backend::avx512::fafft;

using timing::tsc_begin;
using timing::tsc_end;

struct Contender {
  std::string name;
  std::function<void()> run;
  std::vector<std::uint64_t> samples;
};

std::uint64_t median(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class P>
struct alignas(64) Transform {
  std::uint64_t w[ff::kTransformWords<P>];
};

template <class P>
void bench_level(int rounds) {
  std::mt19937_64 rng(42 + P::kLevel);
  auto a = std::make_unique<pke::RingVec<P>>(), a2 = std::make_unique<pke::RingVec<P>>();
  auto b = std::make_unique<pke::RingVec<P>>(), o1 = std::make_unique<pke::RingVec<P>>();
  auto o2 = std::make_unique<pke::RingVec<P>>(), chk = std::make_unique<pke::RingVec<P>>();
  for (auto* v : {a.get(), a2.get(), b.get()}) {
    std::memset(v->w, 0, sizeof(v->w));
    for (std::size_t i = 0; i < P::kNWords; i++) v->w[i] = rng();
    v->w[P::kNWords - 1] &= P::kLastWordMask;
  }
  auto ta = std::make_unique<Transform<P>>(), tb = std::make_unique<Transform<P>>();
  auto ta2 = std::make_unique<Transform<P>>();
  ff::forward<P>(ta->w, a->w);
  ff::forward<P>(ta2->w, a2->w);
  ff::forward<P>(tb->w, b->w);
  // Sanity: both multipliers agree.
  backend::avx512::mul<P>(chk->w, a->w, b->w);
  ff::mul<P>(o1->w, a->w, b->w);
  if (std::memcmp(chk->w, o1->w, sizeof(chk->w)) != 0) {
    std::printf("HQC-%d: MISMATCH between Karatsuba and FAFFT\n", P::kLevel);
    std::exit(1);
  }
  std::vector<Contender> cs;
  cs.push_back({"karatsuba mul", [&] { backend::avx512::mul<P>(o1->w, a->w, b->w); }, {}});
  cs.push_back({"fafft mul", [&] { ff::mul<P>(o1->w, a->w, b->w); }, {}});
  cs.push_back({"karatsuba mul2", [&] { backend::avx512::mul2<P>(o1->w, o2->w, a->w, a2->w, b->w); }, {}});
  cs.push_back({"fafft mul2", [&] { ff::mul2<P>(o1->w, o2->w, a->w, a2->w, b->w); }, {}});
  cs.push_back({"fafft forward", [&] { ff::forward<P>(tb->w, b->w); }, {}});
  cs.push_back({"fafft mul_transformed_plain", [&] { ff::mul_transformed_plain<P>(o1->w, ta->w, b->w); }, {}});
  cs.push_back({"fafft mul_transformed", [&] { ff::mul_transformed<P>(o1->w, ta->w, tb->w); }, {}});
  // Encryption with cached transforms of h and s (ta, ta2): r2 = b transformed once.
  cs.push_back(
      {"fafft mul2_transformed_plain", [&] { ff::mul2_transformed_plain<P>(o1->w, o2->w, ta->w, ta2->w, b->w); }, {}});
  for (int w = 0; w < 20; w++)
    for (auto& c : cs) c.run();  // warm-up
  for (int r = 0; r < rounds; r++)
    for (std::size_t k = 0; k < cs.size(); k++) {
      auto& c = cs[(k + static_cast<std::size_t>(r)) % cs.size()];  // rotate the order
      const std::uint64_t t0 = tsc_begin();
      c.run();
      const std::uint64_t t1 = tsc_end();
      c.samples.push_back(t1 - t0);
    }
  const double kar = static_cast<double>(median(cs[0].samples));
  const double kar2 = static_cast<double>(median(cs[2].samples));
  std::printf("HQC-%d (n = %zu, product < 2^%u bits, %zu GF(2^32) points, transform %zu bytes)\n", P::kLevel, P::kN,
              ff::kLogProduct<P>, std::size_t{1} << ff::kLogPoints<P>, ff::kTransformWords<P> * 8);
  for (std::size_t k = 0; k < cs.size(); k++) {
    const std::uint64_t m = median(cs[k].samples);
    const bool pair = (k == 2 || k == 3 || k == 7);
    std::printf("  %-30s %9llu cycles  (%.2fx Karatsuba %s)\n", cs[k].name.c_str(), static_cast<unsigned long long>(m),
                static_cast<double>(m) / (pair ? kar2 : kar), pair ? "mul2" : "mul");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int core = argc > 1 ? static_cast<int>(hqc::tools::arg_int(argv[1], "core", 0, CPU_SETSIZE - 1)) : 1;
  const int rounds =
      std::max(101, argc > 2 ? static_cast<int>(hqc::tools::arg_int(argv[2], "rounds", 1, 1000000)) : 301);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) std::printf("(could not pin to core %d)\n", core);
  const backend::Backend* be = backend::find_backend("avx512");
  if (be == nullptr || !backend::is_supported(*be, backend::effective_cpu_features())) {
    std::printf("avx512 backend not usable on this CPU\n");
    return 0;
  }
  std::printf("FAFFT vs Karatsuba (avx512 backend), median TSC cycles of %d rounds, core %d\n", rounds, core);
  bench_level<Hqc1>(rounds);
  bench_level<Hqc3>(rounds);
  bench_level<Hqc5>(rounds);
  return 0;
}
