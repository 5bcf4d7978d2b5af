// Every kernel of the backend table, differentially: two different implementations of one
// kernel per input, on the same input. Input: [selector][pair][fill mode][operand bytes...]:
//   selector % 3         the level
//   (selector / 3) % 7   the kernel: mul, mul2, rm_decode, rs_decode + rs_encode, enc_positions +
//                        support_to_vector, keccak_f1600, support_to_vector and the keygen
//                        duplicate test on chosen distinct positions; mul also runs a transform
//                        multiplier's cached paths (transform, mul_transforms, mul_transform_plain)
//   pair                 the two implementations compared: pair % count of the unordered pairs of
//                        the kernel's distinct implementations (kernel_pair)
// Operands are taken from the input, the rest filled per fuzz::fill.
//
// The implementations of a kernel are the distinct entries (function pointers) of its slots over
// the backends this CPU runs, portable first: several backend rows share a kernel (the avx2 rows
// differ in a few kernels only), and comparing an entry with itself checks nothing. Across inputs
// every pair is compared, so every implementation is compared with portable and with each other;
// an input runs the kernel twice, and portable, the slowest, only in the pairs that hold it.
#include <array>

#include "fuzz_common.hpp"
#include "pke/pke.hpp"

namespace {

using namespace hqc;

template <class P>
void ring_operand(pke::RingVec<P>& v, const std::uint8_t* data, std::size_t size, std::uint8_t mode) {
  std::memset(v.w, 0, sizeof(v.w));
  fuzz::fill(v.bytes(), P::kVecNBytes, data, size, mode);
  v.w[P::kNWords - 1] &= P::kLastWordMask;
}

// Whether two backends have the same implementation of a kernel (the kernel numbers of run).
template <class P>
bool same_kernel(const backend::Backend& x, const backend::Backend& y, unsigned kernel) {
  const auto& a = x.kernels<P>();
  const auto& b = y.kernels<P>();
  switch (kernel) {
    case 0: return a.mul == b.mul && a.transforms == b.transforms;
    case 1: return a.mul2 == b.mul2;
    case 2: return a.rm_decode == b.rm_decode;
    case 3: return a.rs_decode == b.rs_decode && a.rs_encode == b.rs_encode;
    case 4: return a.enc_positions == b.enc_positions && a.support_to_vector == b.support_to_vector;
    case 5: return x.keccak_f1600 == y.keccak_f1600;
    default: return a.support_to_vector == b.support_to_vector && a.position_taken == b.position_taken;
  }
}

constexpr unsigned kKernels = 7;

// One backend per distinct implementation of each kernel (the first that has it, portable first).
template <class P>
const std::vector<const backend::Backend*>& implementations(unsigned kernel) {
  static const auto lists = [] {
    std::array<std::vector<const backend::Backend*>, kKernels> l;
    for (unsigned k = 0; k < kKernels; k++) {
      l[k].push_back(&backend::portable());
      for (const auto* be : fuzz::other_backends()) {
        bool seen = false;
        for (const auto* have : l[k]) seen |= same_kernel<P>(*have, *be, k);
        if (!seen) l[k].push_back(be);
      }
    }
    return l;
  }();
  return lists[kernel];
}

// The two implementations compared for one input; a kernel with one implementation is compared
// with itself.
template <class P>
fuzz::BackendPair kernel_pair(unsigned kernel, std::uint8_t selector) {
  const auto& impl = implementations<P>(kernel);
  const std::size_t n = impl.size();
  if (n == 1) return {impl[0], impl[0]};
  const fuzz::IndexPair p = fuzz::index_pair(selector % (n * (n - 1) / 2), n);
  return {impl[p.i], impl[p.j]};
}

// A difference between the two implementations (named by the first backend that has each).
template <class P>
void check(bool same, fuzz::BackendPair pair, const char* kernel) {
  if (same) return;
  std::fprintf(stderr, "hqc fuzz: %s of %s and %s differ\n", kernel, pair.a->name, pair.b->name);
  fuzz::fail(kernel, pair.b->name, P::kLevel);
}

template <class P>
void run(fuzz::BackendPair pair, unsigned kernel, std::uint8_t mode, const std::uint8_t* data, std::size_t size) {
  const auto& ref = pair.a->kernels<P>();
  const backend::Backend* const compared[1] = {pair.b};
  switch (kernel) {
    case 0:
    case 1: {  // mul, mul2: operands a1 | a2 | b from the input
      static pke::RingVec<P> a1, a2, b, r1, r2, o1, o2;
      const std::size_t third = size / 3;
      ring_operand<P>(a1, data, third, mode);
      ring_operand<P>(a2, data + third, third, static_cast<std::uint8_t>(mode >> 2));
      ring_operand<P>(b, data + 2 * third, size - 2 * third, static_cast<std::uint8_t>(mode >> 4));
      if (kernel == 0) ref.mul(r1.w, a1.w, b.w);
      else ref.mul2(r1.w, r2.w, a1.w, a2.w, b.w);
      for (const auto* be : compared) {
        const auto& k = be->kernels<P>();
        if (kernel == 0) {
          k.mul(o1.w, a1.w, b.w);
          check<P>(std::memcmp(o1.w, r1.w, sizeof(o1.w)) == 0, pair, "mul");
        } else {
          k.mul2(o1.w, o2.w, a1.w, a2.w, b.w);
          check<P>(std::memcmp(o1.w, r1.w, sizeof(o1.w)) == 0 && std::memcmp(o2.w, r2.w, sizeof(o2.w)) == 0, pair,
                   "mul2");
        }
      }
      // The transform multipliers' cached-operand paths of both members, against the product.
      for (const auto* be : {pair.a, pair.b}) {
        const auto* t = be->kernels<P>().transforms;
        if (kernel != 0 || t == nullptr || (be == pair.b && pair.a->kernels<P>().transforms == t)) continue;
        static pke::Transform<P> ta, tb;
        t->transform(ta.w, a1.w);
        t->transform(tb.w, b.w);
        t->mul_transforms(o1.w, ta.w, tb.w);
        check<P>(std::memcmp(o1.w, r1.w, sizeof(o1.w)) == 0, {be, be == pair.a ? pair.b : pair.a}, "mul_transforms");
        t->mul_transform_plain(o1.w, ta.w, b.w);
        check<P>(std::memcmp(o1.w, r1.w, sizeof(o1.w)) == 0, {be, be == pair.a ? pair.b : pair.a},
                 "mul_transform_plain");
      }
      break;
    }
    case 2: {  // rm_decode of an arbitrary received word
      static pke::CodeVec<P> in;
      fuzz::fill(in.bytes(), sizeof(in.w), data, size, mode);
      std::uint8_t r[P::kN1], o[P::kN1];
      ref.rm_decode(r, in.w);
      for (const auto* be : compared) {
        be->kernels<P>().rm_decode(o, in.w);
        check<P>(std::memcmp(o, r, sizeof(o)) == 0, pair, "rm_decode");
      }
      break;
    }
    case 3: {  // rs_decode of an arbitrary received RS word, rs_encode of its first k symbols
      std::uint8_t cw[P::kN1], r[P::kK], o[P::kK];
      fuzz::fill(cw, sizeof(cw), data, size, mode);
      ref.rs_decode(r, cw);
      for (const auto* be : compared) {
        be->kernels<P>().rs_decode(o, cw);
        check<P>(std::memcmp(o, r, sizeof(o)) == 0, pair, "rs_decode");
      }
      // rs_encode of the word's first k symbols as a message.
      std::uint8_t er[P::kN1], eo[P::kN1];
      ref.rs_encode(er, cw);
      for (const auto* be : compared) {
        be->kernels<P>().rs_encode(eo, cw);
        check<P>(std::memcmp(eo, er, sizeof(eo)) == 0, pair, "rs_encode");
      }
      break;
    }
    case 4: {  // the encryption sampler and support expansion, for each weight in use
      for (std::size_t w : {P::kWr, P::kWe, P::kW}) {
        std::uint8_t rnd[4 * P::kW > 4 * P::kWr ? 4 * P::kW : 4 * P::kWr];
        std::uint32_t r[sizeof(rnd) / 4], o[sizeof(rnd) / 4];
        fuzz::fill(rnd, 4 * w, data, size, mode);
        ref.enc_positions(r, rnd, w);
        static pke::RingVec<P> vr, vo;
        ref.support_to_vector(vr.w, r, w);
        for (const auto* be : compared) {
          be->kernels<P>().enc_positions(o, rnd, w);
          check<P>(std::memcmp(o, r, w * sizeof(std::uint32_t)) == 0, pair, "enc_positions");
          be->kernels<P>().support_to_vector(vo.w, r, w);
          check<P>(std::memcmp(vo.w, vr.w, sizeof(vo.w)) == 0, pair, "support_to_vector");
        }
      }
      break;
    }
    case 5: {  // Keccak-f[1600] on an arbitrary state
      std::uint64_t s[25], t[25];
      fuzz::fill(reinterpret_cast<std::uint8_t*>(s), sizeof(s), data, size, mode);
      std::memcpy(t, s, sizeof(s));
      pair.a->keccak_f1600(s);
      for (const auto* be : compared) {
        std::uint64_t u[25];
        std::memcpy(u, t, sizeof(t));
        be->keccak_f1600(u);
        check<P>(std::memcmp(u, s, sizeof(s)) == 0, pair, "keccak_f1600");
      }
      break;
    }
    default: {  // support_to_vector of positions chosen by the input (made distinct, < n)
      std::uint32_t pos[P::kWr > P::kW ? P::kWr : P::kW] = {};
      const std::size_t w = size / 3 < sizeof(pos) / 4 ? size / 3 : sizeof(pos) / 4;
      std::size_t count = 0;
      for (std::size_t i = 0; i < w; i++) {
        const std::uint32_t p =
            (static_cast<std::uint32_t>(data[3 * i]) | (static_cast<std::uint32_t>(data[3 * i + 1]) << 8) |
             (static_cast<std::uint32_t>(data[3 * i + 2]) << 16)) %
            static_cast<std::uint32_t>(P::kN);
        bool dup = false;
        for (std::size_t j = 0; j < count; j++) dup |= pos[j] == p;
        if (!dup) pos[count++] = p;
      }
      // The key-generation duplicate test on every prefix of these positions, probing each
      // position and one value that may or may not be among them.
      const std::uint32_t probe = size >= 2 ? (static_cast<std::uint32_t>(data[size - 1]) * 251u) % P::kN : 0;
      for (std::size_t c = 0; c <= count; c++) {
        for (std::uint32_t r : {probe, pos[c < count ? c : 0], pos[c > 0 ? c - 1 : 0]}) {
          const std::uint32_t want = ref.position_taken(pos, c, r);
          for (const auto* be : compared)
            check<P>(be->kernels<P>().position_taken(pos, c, r) == want, pair, "position_taken");
        }
      }
      static pke::RingVec<P> vr, vo;
      ref.support_to_vector(vr.w, pos, count);
      for (const auto* be : compared) {
        be->kernels<P>().support_to_vector(vo.w, pos, count);
        check<P>(std::memcmp(vo.w, vr.w, sizeof(vo.w)) == 0, pair, "support_to_vector");
      }
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::uint8_t sel = data[0], pair = data[1], mode = data[2];
  const unsigned kernel = (sel / 3u) % kKernels;
  with_params(fuzz::level_of(sel),
              [&]<class P>() { run<P>(kernel_pair<P>(kernel, pair), kernel, mode, data + 3, size - 3); });
  return 0;
}
