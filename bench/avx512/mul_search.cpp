// Decomposition search for the avx512 VPCLMULQDQ multiplier (src/backend/avx512/gf2x.cpp).
//
// For each parameter set, every decomposition tree of up to 6 levels, each level one of two-way
// Karatsuba (K2), three-way Karatsuba (K3, 6 products) or Toom-Cook-3 (T3, 5 products; only where
// its parts have at least kMinToomWords words), above a VPCLMULQDQ schoolbook base case is timed
// on this CPU (the base size is the smallest that covers ceil(n/64) words, also rounded up to 2, 4
// and 8 words, and the 8/16/32/64-word register leaves), and every unbalanced top (MulPlan::high): a
// two-way Karatsuba with a low part of L in [W/2, W) words and a high part of T <= L words plus up
// to kMaxExtraWords extra words (W = ceil(n/64)), each part the fastest register-leaf tree of its
// size (timed alone). Each candidate is first checked against the portable Karatsuba (one
// product and two products sharing b). The fastest tree per level is printed as the initializer
// to paste into src/backend/avx512/mul_plans.hpp; results of the run that chose the shipped plans
// are kept in bench/avx512/mul_search_results.txt. The six best trees of the first round, the
// best Karatsuba-only tree, the best balanced tree, the best unbalanced top and the shipped tree
// are then timed again with their calls interleaved (a second, side-by-side round); "chosen" is
// the winner of that round, so "shipped" and "chosen" are measured under the same load.
//
// Usage: taskset -c 1 ./avx512_mul_search [runs] [max_depth]
//        (TSC cycles, median of `runs`, default 301; max_depth default 6)
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "arg_int.hpp"
#include "backend/avx512/kernels.hpp"
#include "backend/cpu.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "median_cycles.hpp"
#include "params/params.hpp"
#include "tsc.hpp"

namespace {

using hqc::backend::avx512::MulPlan;

struct Result {
  MulPlan plan;
  double cycles1;  // one product
  double cycles2;  // two products sharing b (mul2)
};

using hqc::backend::avx512::kKaratsuba;
using hqc::backend::avx512::kToom3;

// Parts of a Toom-3 level of fewer words than this are not tried (the linear work of evaluation
// and interpolation outweighs the saved product there).
constexpr std::size_t kMinToomWords = 8;

// The initializer of one tree: {base, depth, {splits}} when every level is Karatsuba (or
// `kinds_always`), {base, depth, {splits}, {kinds}} otherwise.
std::string tree_string(const MulPlan& p, bool kinds_always) {
  std::string s = "{";
  s += std::to_string(p.base);
  s += ", ";
  s += std::to_string(p.depth);
  s += ", {";
  bool toom = false;
  for (int i = 0; i < p.depth; i++) {
    if (i) s += ", ";
    s += std::to_string(p.split[i]);
    toom = toom || p.kind[i] == kToom3;
  }
  s += "}";
  if (toom) {
    s += ", {";
    for (int i = 0; i < p.depth; i++) {
      if (i) s += ", ";
      s += p.kind[i] == kToom3 ? "kToom3" : "kKaratsuba";
    }
    s += "}";
  } else if (kinds_always) {
    s += ", {}";
  }
  return s;
}

// The initializer for mul_plans.hpp: the tree, and for an unbalanced top the high tree (and its
// extra words) after the low tree's kinds: {32, 4, {2, 2, 2, 2}, {}, {32, 3, {3, 2, 2}, {...}, 5}}.
std::string plan_string(const MulPlan& p) {
  if (!p.unbalanced()) return tree_string(p, false) + "}";
  std::string s = tree_string(p, true) + ", " + tree_string(p.high_plan(), p.high.extra != 0);
  if (p.high.extra != 0) s += ", " + std::to_string(p.high.extra);
  return s + "}}";
}

// Short form for the table: levels top first, K2 / K3 / T3, then the base; an unbalanced top
// adds "+ <high tree>" and "+e" for its extra words.
std::string tree_short(const MulPlan& p) {
  std::string s;
  for (int i = 0; i < p.depth; i++) {
    s += p.kind[i] == kToom3 ? "T" : "K";
    s += std::to_string(p.split[i]);
    s += " ";
  }
  s += "b";
  s += std::to_string(p.base);
  return s;
}
std::string plan_short(const MulPlan& p) {
  if (!p.unbalanced()) return tree_short(p);
  std::string s = tree_short(p) + " + " + tree_short(p.high_plan());
  if (p.high.extra != 0) s += " +" + std::to_string(p.high.extra);
  return s;
}

template <class F>
double median_cycles(F&& f, int runs) {
  return hqc::bench::median_cycles(f, runs, 20);
}

bool small_toom(const MulPlan& p) {  // a Toom-3 level whose parts are below kMinToomWords
  bool small = false;
  for (int i = 0; i < p.depth; i++) {
    std::size_t part = p.base;
    for (int j = i + 1; j < p.depth; j++) part *= p.split[j];
    small = small || (p.kind[i] == kToom3 && part < kMinToomWords);
  }
  return small;
}

// Every register-leaf tree (base 8, 16, 32 or 64 words) of up to max_depth levels and below `below`
// words: the parts of unbalanced tops.
std::vector<MulPlan> leaf_trees(int max_depth, std::size_t below) {
  std::vector<MulPlan> out;
  for (int depth = 0; depth <= max_depth; depth++) {
    unsigned shapes = 1;
    for (int i = 0; i < depth; i++) shapes *= 3;
    for (unsigned code = 0; code < shapes; code++) {
      MulPlan p{};
      p.depth = static_cast<std::uint8_t>(depth);
      for (unsigned i = 0, c = code; i < static_cast<unsigned>(depth); i++, c /= 3) {
        p.split[i] = static_cast<std::uint8_t>(c % 3 == 0 ? 2 : 3);
        p.kind[i] = c % 3 == 2 ? kToom3 : kKaratsuba;
      }
      for (int leaf : {8, 16, 32, 64}) {
        p.base = static_cast<std::uint16_t>(leaf);
        if (p.top_words() < below && !small_toom(p)) out.push_back(p);
      }
    }
  }
  return out;
}

// Median TSC cycles of one product plus two products sharing b (plain tree, own size).
double tree_cost(const MulPlan& p, int runs, std::mt19937_64& rng) {
  const std::size_t N = p.top_words();
  std::vector<std::uint64_t> a(N), a2(N), b(N), o1(2 * N), o2(2 * N);
  for (std::size_t i = 0; i < N; i++) {
    a[i] = rng();
    a2[i] = rng();
    b[i] = rng();
  }
  std::vector<std::uint64_t> scr(hqc::backend::avx512::plan_scratch_words(p, 2));
  return median_cycles(
      [&] {
        hqc::backend::avx512::plan_multiply(o1.data(), a.data(), b.data(), p, scr.data());
        hqc::backend::avx512::plan_multiply2(o1.data(), o2.data(), a.data(), a2.data(), b.data(), p, scr.data());
      },
      runs);
}

// Unbalanced tops (MulPlan::high) for W words: low part L in [ceil(W / 2), W), high tree T <= L
// words with T + extra >= W - L (extra = max(0, W - L - T) <= kMaxExtraWords, T + extra <= L).
// Per tree size only the fastest register-leaf tree (timed alone, mul + mul2) is combined.
std::vector<MulPlan> unbalanced_candidates(std::size_t W, int runs, int max_depth, std::mt19937_64& rng) {
  using hqc::backend::avx512::kMaxExtraWords;
  struct Best {
    MulPlan tree;
    double cost;
  };
  std::vector<std::size_t> sizes;
  std::vector<Best> best;
  for (const MulPlan& t : leaf_trees(max_depth, W)) {
    const double c = tree_cost(t, runs, rng);
    const std::size_t n = t.top_words();
    const auto it = std::find(sizes.begin(), sizes.end(), n);
    if (it == sizes.end()) {
      sizes.push_back(n);
      best.push_back({t, c});
    } else if (c < best[static_cast<std::size_t>(it - sizes.begin())].cost) {
      best[static_cast<std::size_t>(it - sizes.begin())] = {t, c};
    }
  }
  std::vector<MulPlan> out;
  for (const Best& lo : best) {
    const std::size_t L = lo.tree.top_words();
    if (2 * L < W || L >= W) continue;
    for (const Best& hi : best) {
      const std::size_t T = hi.tree.top_words(), need = W - L;
      const std::size_t extra = need > T ? need - T : 0;
      if (extra > kMaxExtraWords || T + extra > L) continue;
      MulPlan p = lo.tree;
      p.high.base = hi.tree.base;
      p.high.depth = hi.tree.depth;
      for (int i = 0; i < 7; i++) {
        p.high.split[i] = hi.tree.split[i];
        p.high.kind[i] = hi.tree.kind[i];
      }
      p.high.extra = static_cast<std::uint8_t>(extra);
      if (p.top_words() <= hqc::backend::avx512::kMaxTopWords) out.push_back(p);
    }
  }
  return out;
}

template <class P>
std::vector<Result> search(int runs, int max_depth) {
  constexpr std::size_t W = P::kNWords;
  std::mt19937_64 rng(1234 + P::kLevel);
  std::vector<Result> out;
  std::vector<MulPlan> cands;
  for (int depth = 0; depth <= max_depth; depth++) {
    unsigned shapes = 1;
    for (int i = 0; i < depth; i++) shapes *= 3;
    for (unsigned code = 0; code < shapes; code++) {  // level i: digit i of code, 0 = K2, 1 = K3, 2 = T3
      MulPlan p{};
      p.depth = static_cast<std::uint8_t>(depth);
      std::size_t prod = 1;
      for (unsigned i = 0, c = code; i < static_cast<unsigned>(depth); i++, c /= 3) {
        p.split[i] = static_cast<std::uint8_t>(c % 3 == 0 ? 2 : 3);
        p.kind[i] = c % 3 == 2 ? kToom3 : kKaratsuba;
        prod *= p.split[i];
      }
      const std::size_t b0 = (W + prod - 1) / prod;
      std::vector<std::size_t> bases = {b0, (b0 + 1) / 2 * 2, (b0 + 3) / 4 * 4, (b0 + 7) / 8 * 8};
      for (std::size_t leaf : {8u, 16u, 32u, 64u})  // register leaves (Karatsuba in registers)
        if (leaf * prod >= W && leaf * prod < 2 * W) bases.push_back(leaf);
      std::sort(bases.begin(), bases.end());
      bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
      for (std::size_t b : bases) {
        if (b < 2 || b > hqc::backend::avx512::kMaxBaseWords) continue;
        p.base = static_cast<std::uint16_t>(b);
        if (p.top_words() > hqc::backend::avx512::kMaxTopWords) continue;
        if (!small_toom(p)) cands.push_back(p);
      }
    }
  }
  for (const MulPlan& p : unbalanced_candidates(W, runs, max_depth, rng)) cands.push_back(p);
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
    r.cycles1 =
        median_cycles([&] { hqc::backend::avx512::plan_multiply(o1.data(), a.data(), b.data(), p, scr.data()); }, runs);
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

// Second round, side by side: the best `top` trees of the first round and the shipped tree are
// timed again with their calls interleaved (one call of each in turn, `runs` x 3 turns), so that
// a change of machine load during the first round cannot decide between them.
template <class P>
std::vector<Result> confirm(const std::vector<Result>& first, const MulPlan& shipped, std::size_t top, int runs) {
  constexpr std::size_t W = P::kNWords;
  std::vector<MulPlan> plans;
  for (std::size_t i = 0; i < first.size() && i < top; i++) plans.push_back(first[i].plan);
  bool have_shipped = false;
  for (const auto& p : plans) have_shipped = have_shipped || plan_string(p) == plan_string(shipped);
  if (!have_shipped) plans.push_back(shipped);
  struct Bufs {
    std::vector<std::uint64_t> a, a2, b, o1, o2, scr;
  };
  std::vector<Bufs> bufs(plans.size());
  std::mt19937_64 rng(4321 + P::kLevel);
  for (std::size_t k = 0; k < plans.size(); k++) {
    const std::size_t N = plans[k].top_words();
    Bufs& x = bufs[k];
    x.a.assign(N, 0);
    x.a2.assign(N, 0);
    x.b.assign(N, 0);
    x.o1.assign(2 * N, 0);
    x.o2.assign(2 * N, 0);
    x.scr.assign(hqc::backend::avx512::plan_scratch_words(plans[k], 2), 0);
    for (std::size_t i = 0; i < W; i++) {
      x.a[i] = rng();
      x.a2[i] = rng();
      x.b[i] = rng();
    }
  }
  const std::size_t turns = static_cast<std::size_t>(runs) * 3;
  std::vector<std::vector<unsigned long long>> t1(plans.size()), t2(plans.size());
  for (std::size_t r = 0; r < turns + 10; r++) {
    for (std::size_t k = 0; k < plans.size(); k++) {
      Bufs& x = bufs[k];
      const std::uint64_t c0 = hqc::timing::tsc_begin();
      hqc::backend::avx512::plan_multiply(x.o1.data(), x.a.data(), x.b.data(), plans[k], x.scr.data());
      const std::uint64_t c1 = hqc::timing::tsc_end();
      const std::uint64_t c2 = hqc::timing::tsc_begin();
      hqc::backend::avx512::plan_multiply2(x.o1.data(), x.o2.data(), x.a.data(), x.a2.data(), x.b.data(), plans[k],
                                           x.scr.data());
      const std::uint64_t c3 = hqc::timing::tsc_end();
      if (r >= 10) {  // warm-up turns
        t1[k].push_back(c1 - c0);
        t2[k].push_back(c3 - c2);
      }
    }
  }
  std::vector<Result> out;
  for (std::size_t k = 0; k < plans.size(); k++) {
    std::sort(t1[k].begin(), t1[k].end());
    std::sort(t2[k].begin(), t2[k].end());
    out.push_back({plans[k], static_cast<double>(t1[k][turns / 2]), static_cast<double>(t2[k][turns / 2])});
  }
  std::sort(out.begin(), out.end(),
            [](const Result& x, const Result& y) { return x.cycles1 + x.cycles2 < y.cycles1 + y.cycles2; });
  return out;
}

bool has_toom(const MulPlan& p) {
  for (int i = 0; i < p.depth; i++)
    if (p.kind[i] == kToom3) return true;
  for (int i = 0; p.unbalanced() && i < p.high.depth; i++)
    if (p.high.kind[i] == kToom3) return true;
  return false;
}

template <class P>
void report(int runs, int max_depth) {
  const auto res = search<P>(runs, max_depth);
  std::size_t n_toom = 0, n_unbalanced = 0;
  for (const auto& r : res) {
    n_toom += has_toom(r.plan) ? 1 : 0;
    n_unbalanced += r.plan.unbalanced() ? 1 : 0;
  }
  std::printf(
      "\n## %s: n = %zu bits, %zu words; %zu trees timed (%zu with Toom-3 levels, %zu with an "
      "unbalanced top; plain product, no reduction)\n",
      P::kName, P::kN, P::kNWords, res.size(), n_toom, n_unbalanced);
  std::printf("%-34s %-92s %9s %9s %9s\n", "levels (top first)", "plan", "top_words", "mul", "mul2");
  for (std::size_t i = 0; i < res.size() && i < 20; i++)
    std::printf("%-34s %-92s %9zu %9.0f %9.0f\n", plan_short(res[i].plan).c_str(), plan_string(res[i].plan).c_str(),
                res[i].plan.top_words(), res[i].cycles1, res[i].cycles2);
  // The best tree without Toom-3 levels (the previous search space), the best balanced tree and
  // the best unbalanced top, for comparison.
  for (const auto& r : res)
    if (!has_toom(r.plan)) {
      std::printf("best Karatsuba-only %s: mul %.0f, mul2 %.0f\n", plan_string(r.plan).c_str(), r.cycles1, r.cycles2);
      break;
    }
  for (const auto& r : res)
    if (!r.plan.unbalanced()) {
      std::printf("best balanced %s: mul %.0f, mul2 %.0f\n", plan_string(r.plan).c_str(), r.cycles1, r.cycles2);
      break;
    }
  for (const auto& r : res)
    if (r.plan.unbalanced()) {
      std::printf("best unbalanced %s: mul %.0f, mul2 %.0f\n", plan_string(r.plan).c_str(), r.cycles1, r.cycles2);
      break;
    }
  const MulPlan shipped = P::kLevel == 1   ? hqc::backend::avx512::mul_plan<hqc::Hqc1>()
                          : P::kLevel == 3 ? hqc::backend::avx512::mul_plan<hqc::Hqc3>()
                                           : hqc::backend::avx512::mul_plan<hqc::Hqc5>();
  // Side-by-side confirmation of the leaders, the shipped tree, the best Karatsuba-only tree, the
  // best balanced tree and the best unbalanced top.
  const auto n_lead = static_cast<std::ptrdiff_t>(std::min<std::size_t>(6, res.size()));
  std::vector<Result> lead(res.begin(), res.begin() + n_lead);
  const auto add_first = [&](auto&& pred) {
    for (const auto& r : res)
      if (pred(r.plan)) {
        bool in = false;
        for (const auto& l : lead) in = in || plan_string(l.plan) == plan_string(r.plan);
        if (!in) lead.push_back(r);
        break;
      }
  };
  add_first([](const MulPlan& p) { return !has_toom(p); });
  add_first([](const MulPlan& p) { return !p.unbalanced(); });
  add_first([](const MulPlan& p) { return p.unbalanced(); });
  const auto conf = confirm<P>(lead, shipped, lead.size(), runs);
  std::printf("side by side (calls interleaved, median of %d):\n", runs * 3);
  for (const auto& r : conf)
    std::printf("  %-34s %-92s %9.0f %9.0f%s\n", plan_short(r.plan).c_str(), plan_string(r.plan).c_str(), r.cycles1,
                r.cycles2, plan_string(r.plan) == plan_string(shipped) ? "  (shipped)" : "");
  for (const auto& r : conf)
    if (plan_string(r.plan) == plan_string(shipped))
      std::printf("shipped %s: mul %.0f, mul2 %.0f\n", plan_string(shipped).c_str(), r.cycles1, r.cycles2);
  std::printf("chosen %s: mul %.0f, mul2 %.0f\n", plan_string(conf[0].plan).c_str(), conf[0].cycles1, conf[0].cycles2);
  std::printf("chosen %s: kMulPlan<Hqc%d> = %s\n", P::kName, P::kLevel, plan_string(conf[0].plan).c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf("usage: %s [runs (default 301)] [max_depth (default 6)]\n", argv[0]);
    return 0;
  }
  const int runs = argc > 1 ? static_cast<int>(hqc::tools::arg_int(argv[1], "runs", 1, 1000000)) : 301;
  const int max_depth = argc > 2 ? static_cast<int>(hqc::tools::arg_int(argv[2], "max_depth", 0, 7)) : 6;
  if (runs < 1 || max_depth < 0 || max_depth > 7) {
    std::fprintf(stderr, "bad arguments (runs >= 1, 0 <= max_depth <= 7)\n");
    return 2;
  }
  const auto need = hqc::backend::kCpuAvx512F | hqc::backend::kCpuAvx512BW | hqc::backend::kCpuVpclmul;
  if ((hqc::backend::detect_cpu_features() & need) != need) {
    std::fprintf(stderr, "this CPU lacks AVX-512/VPCLMULQDQ\n");
    return 2;
  }
  std::printf("# avx512 multiplier decomposition search: median TSC cycles of %d runs, up to %d levels\n", runs,
              max_depth);
  std::printf("# levels: K2 = two-way Karatsuba, K3 = three-way Karatsuba (6 products), T3 = Toom-3 (5 products)\n");
  report<hqc::Hqc1>(runs, max_depth);
  report<hqc::Hqc3>(runs, max_depth);
  report<hqc::Hqc5>(runs, max_depth);
}
