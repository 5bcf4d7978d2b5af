// Decomposition search for the avx512 VPCLMULQDQ multiplier (src/backend/avx512/gf2x.cpp).
//
// For each parameter set, every decomposition tree of up to 6 levels of two-way / three-way
// Karatsuba splits above a VPCLMULQDQ schoolbook base case is timed on this CPU (the base size is
// the smallest that covers ceil(n/64) words, also rounded up to 2, 4 and 8 words). Each candidate
// is first checked against the portable Karatsuba. The fastest tree per level is printed as the
// initializer to paste into src/backend/avx512/mul_plans.hpp; results of the run that chose the
// shipped plans are kept in bench/avx512/mul_search_results.txt.
//
// Usage: taskset -c 1 ./avx512_mul_search [runs]   (TSC cycles, median of `runs`, default 301)
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/avx512/kernels.hpp"
#include "backend/cpu.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "params/params.hpp"

namespace {

using hqc::backend::avx512::MulPlan;

struct Result {
  MulPlan plan;
  double cycles1;  // one product
  double cycles2;  // two products sharing b (mul2)
};

std::string plan_string(const MulPlan& p) {
  char buf[64];
  int len = std::snprintf(buf, sizeof(buf), "{%u, %u, {", static_cast<unsigned>(p.base), static_cast<unsigned>(p.depth));
  for (int i = 0; i < p.depth; i++)
    len += std::snprintf(buf + len, sizeof(buf) - static_cast<std::size_t>(len), "%s%u", i ? ", " : "",
                         static_cast<unsigned>(p.split[i]));
  std::snprintf(buf + len, sizeof(buf) - static_cast<std::size_t>(len), "}}");
  return std::string(buf);
}

template <class F>
double median_cycles(F&& f, int runs) {
  std::vector<unsigned long long> t(static_cast<std::size_t>(runs));
  for (int i = 0; i < 20; i++) f();
  for (int i = 0; i < runs; i++) {
    unsigned aux;
    const unsigned long long a = __rdtscp(&aux);
    f();
    const unsigned long long b = __rdtscp(&aux);
    t[static_cast<std::size_t>(i)] = b - a;
  }
  std::sort(t.begin(), t.end());
  return static_cast<double>(t[t.size() / 2]);
}

template <class P>
std::vector<Result> search(int runs) {
  constexpr std::size_t W = P::kNWords;
  std::mt19937_64 rng(1234 + P::kLevel);
  std::vector<Result> out;
  std::vector<MulPlan> cands;
  for (int depth = 0; depth <= 6; depth++) {
    for (unsigned mask = 0; mask < (1u << depth); mask++) {
      MulPlan p{};
      p.depth = static_cast<std::uint8_t>(depth);
      std::size_t prod = 1;
      for (int i = 0; i < depth; i++) {
        p.split[i] = static_cast<std::uint8_t>((mask >> i) & 1 ? 3 : 2);
        prod *= p.split[i];
      }
      const std::size_t b0 = (W + prod - 1) / prod;
      std::vector<std::size_t> bases = {b0, (b0 + 1) / 2 * 2, (b0 + 3) / 4 * 4, (b0 + 7) / 8 * 8};
      for (std::size_t leaf : {8u, 16u, 32u})  // register leaves (Karatsuba in registers)
        if (leaf * prod >= W && leaf * prod < 2 * W) bases.push_back(leaf);
      std::sort(bases.begin(), bases.end());
      bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
      for (std::size_t b : bases) {
        if (b < 2 || b > hqc::backend::avx512::kMaxBaseWords) continue;
        p.base = static_cast<std::uint16_t>(b);
        if (p.top_words() > hqc::backend::avx512::kMaxTopWords) continue;
        cands.push_back(p);
      }
    }
  }
  for (const MulPlan& p : cands) {
    const std::size_t N = p.top_words();
    std::vector<std::uint64_t> a(N, 0), a2(N, 0), b(N, 0), o1(2 * N), o2(2 * N), ref(2 * N), ref2(2 * N);
    for (std::size_t i = 0; i < W; i++) {
      a[i] = rng();
      a2[i] = rng();
      b[i] = rng();
    }
    std::vector<std::uint64_t> scr(hqc::backend::avx512::plan_scratch_words(p, 2));
    std::vector<std::uint64_t> kscr(hqc::gf2x::karatsuba_scratch_words(N));
    hqc::gf2x::karatsuba(ref.data(), a.data(), b.data(), N, kscr.data());
    hqc::gf2x::karatsuba(ref2.data(), a2.data(), b.data(), N, kscr.data());
    if (!hqc::backend::avx512::plan_multiply(o1.data(), a.data(), b.data(), p, scr.data()) || o1 != ref) {
      std::fprintf(stderr, "%s: plan %s WRONG\n", P::kName, plan_string(p).c_str());
      std::exit(1);
    }
    hqc::backend::avx512::plan_multiply2(o1.data(), o2.data(), a.data(), a2.data(), b.data(), p, scr.data());
    if (o1 != ref || o2 != ref2) {
      std::fprintf(stderr, "%s: plan %s WRONG (two products)\n", P::kName, plan_string(p).c_str());
      std::exit(1);
    }
    Result r{p, 0, 0};
    r.cycles1 = median_cycles([&] { hqc::backend::avx512::plan_multiply(o1.data(), a.data(), b.data(), p, scr.data()); },
                              runs);
    r.cycles2 = median_cycles(
        [&] {
          hqc::backend::avx512::plan_multiply2(o1.data(), o2.data(), a.data(), a2.data(), b.data(), p, scr.data());
        },
        runs);
    out.push_back(r);
  }
  // Rank by the cost of one encryption's products plus one decryption product: 2 * mul + mul2 is
  // what decapsulation spends; we rank by mul + mul2 (keygen: 1 mul, encaps: 1 mul2).
  std::sort(out.begin(), out.end(),
            [](const Result& x, const Result& y) { return x.cycles1 + x.cycles2 < y.cycles1 + y.cycles2; });
  return out;
}

template <class P>
void report(int runs) {
  const auto res = search<P>(runs);
  std::printf("\n## %s: n = %zu bits, %zu words; %zu trees timed (plain product, no reduction)\n", P::kName, P::kN,
              P::kNWords, res.size());
  std::printf("%-28s %10s %10s %10s\n", "plan {base, depth, {splits}}", "top_words", "mul", "mul2");
  for (std::size_t i = 0; i < res.size() && i < 15; i++)
    std::printf("%-28s %10zu %10.0f %10.0f\n", plan_string(res[i].plan).c_str(), res[i].plan.top_words(),
                res[i].cycles1, res[i].cycles2);
  const MulPlan shipped = P::kLevel == 1   ? hqc::backend::avx512::mul_plan<hqc::Hqc1>()
                          : P::kLevel == 3 ? hqc::backend::avx512::mul_plan<hqc::Hqc3>()
                                           : hqc::backend::avx512::mul_plan<hqc::Hqc5>();
  for (const auto& r : res)
    if (plan_string(r.plan) == plan_string(shipped))
      std::printf("shipped %s: mul %.0f, mul2 %.0f\n", plan_string(shipped).c_str(), r.cycles1, r.cycles2);
  std::printf("chosen %s: kMulPlan<Hqc%d> = %s\n", P::kName, P::kLevel, plan_string(res[0].plan).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 301;
  const auto need = hqc::backend::kCpuAvx512F | hqc::backend::kCpuAvx512BW | hqc::backend::kCpuVpclmul;
  if ((hqc::backend::detect_cpu_features() & need) != need) {
    std::fprintf(stderr, "this CPU lacks AVX-512/VPCLMULQDQ\n");
    return 2;
  }
  std::printf("# avx512 multiplier decomposition search: median TSC cycles of %d runs\n", runs);
  report<hqc::Hqc1>(runs);
  report<hqc::Hqc3>(runs);
  report<hqc::Hqc5>(runs);
}
