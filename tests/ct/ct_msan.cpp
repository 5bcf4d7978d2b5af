// Constant-time harness for MemorySanitizer (label `ct`): the counterpart of ct_harness.cpp for
// code valgrind cannot execute (the avx512 backend, the GFNI kernels of avx2). The whole build is
// compiled with -fsanitize=memory and HQC_CT_MSAN=1, so ct::poison / ct::declassify become
// __msan_poison / __msan_unpoison and MSan aborts on any branch, memory address or libc argument
// computed from a poisoned secret. What MSan can and cannot show is in docs/SIDE-CHANNELS.md.
//
// usage: ct_msan LEVEL {keygen|encaps|decaps} [--planted-leak | --planted-flow]
//        ct_msan {probe|rawprobe} NAME {clean|branch}
//        ct_msan shimcheck
//        ct_msan taint     (every kernel of the selected backend alone, secret inputs poisoned)
//  --planted-leak  branch on seed_kem before key generation (must be reported: ct_msan_selftest)
//  --planted-flow  poison only seed_dk, decapsulate a valid ciphertext and branch on the shared
//                  secret: the taint must survive u*y, RM and RS decoding, G and the selection in
//                  the selected backend's kernels, or MSan misses it (expected to be reported)
//  probe           one SIMD instruction on poisoned input (ct_msan_probes.cpp): `clean` must not
//                  be reported (no false positive), `branch` on its result must be (no lost taint);
//                  `probe` as the library is built (msan_intrinsics.hpp), `rawprobe` the real one
//  shimcheck       the replacements of msan_intrinsics.hpp equal the real instructions
//
// No gtest and (almost) no libstdc++: MSan needs every executed library instrumented.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sanitizer/msan_interface.h>

#include "backend/registry.hpp"
#include "common/ct.hpp"
#include "kem/kem.hpp"

#if !defined(HQC_CT_MSAN) || !HQC_CT_MSAN
#error "ct_msan needs HQC_CT_MSAN=1 and -fsanitize=memory"
#endif

// Probes of single instructions (ct_msan_probes.cpp, compiled with the avx512 flags), with the
// replacements of msan_intrinsics.hpp (probe) and with the real instructions (rawprobe).
int hqc_msan_probe(const char* name, bool branch);
int hqc_msan_probe_raw(const char* name, bool branch);
int hqc_msan_shim_check();

namespace {

using namespace hqc;

volatile int g_sink;

// The planted branches, each in a function of its own so that MSan's report names it (the must-fail
// tests ct_msan_selftest and ct_msan_*_flow match "#0 ... in ...planted_leak/planted_flow").
__attribute__((noinline)) void planted_leak(const std::uint8_t* secret) {
  if (secret[0] & 1) g_sink = 1;
}
__attribute__((noinline)) void planted_flow(const std::uint8_t* ss) {
  if (ss[0] & 1) g_sink = 2;
}

enum class Mode { kNormal, kLeak, kFlow };

template <class P>
struct Objects {
  kem::SecretKey<P> key, key2, key3;  // key3: prepared as it was generated
  kem::PublicKey<P> pub;
  std::uint8_t sk[P::kSecretKeyBytes];
  std::uint8_t ct[P::kCiphertextBytes];
};

template <class P>
int run(const backend::Backend& be, const char* op, Mode mode) {
  static Objects<P> o;
  std::uint8_t seed_kem[32], coins[P::kK + 16], ss[32];
  for (int i = 0; i < 32; i++) seed_kem[i] = static_cast<std::uint8_t>(17 * i + 3);
  for (std::size_t i = 0; i < sizeof(coins); i++) coins[i] = static_cast<std::uint8_t>(5 * i + 1);

  // KeyGen: seed_kem secret.
  ct::poison(seed_kem, sizeof(seed_kem));
  if (mode == Mode::kLeak) planted_leak(seed_kem);  // planted: a branch on a secret byte
  kem::keypair<P>(be, o.key, seed_kem);
  ct::declassify(o.key.pub.pk, sizeof(o.key.pub.pk));  // the public key is published
  o.key.serialize(o.sk);
  // The same key prepared as it is generated (h*y through the transforms it keeps where the
  // table's products are its transform products: avx512 at HQC-5).
  kem::keypair_prepared<P>(be, o.key3, seed_kem, pke::heap_transform_store<P>());
  ct::declassify(o.key3.pub.pk, sizeof(o.key3.pub.pk));
  if (std::strcmp(op, "keygen") == 0) return 0;

  // Encaps: m and salt secret.
  if (kem::parse_public_key<P>(be, o.pub, o.key.pub.pk) != kem::Status::kOk) return 2;
  ct::poison(coins, sizeof(coins));
  kem::encaps<P>(be, o.pub, o.ct, ss, coins, coins + P::kK);
  ct::declassify(o.ct, sizeof(o.ct));  // the ciphertext is published
  if (std::strcmp(op, "encaps") == 0) return 0;

  if (mode == Mode::kFlow) {
    // Only seed_dk secret: sigma (and so K_bar) stays clean, so a report on ss can only come
    // from taint that went through y, u*y, the decoders, G and the comparison.
    ct::declassify(o.sk, sizeof(o.sk));
    ct::poison(o.sk + P::kPublicKeyBytes, 32);
    if (kem::parse_secret_key<P>(be, o.key2, o.sk) != kem::Status::kOk) return 2;
    kem::decaps<P>(be, o.key2, ss, o.ct);
    planted_flow(ss);  // planted: must be reported
    return 0;
  }
  // Decaps: the secret part of sk, from parsing on, with a valid and two invalid ciphertexts.
  ct::poison(o.sk + P::kPublicKeyBytes, P::kSecretKeyBytes - P::kPublicKeyBytes);
  if (kem::parse_secret_key<P>(be, o.key2, o.sk) != kem::Status::kOk) return 2;
  kem::decaps<P>(be, o.key2, ss, o.ct);
  o.ct[P::kCiphertextBytes / 2] ^= 1;
  kem::decaps<P>(be, o.key2, ss, o.ct);
  o.ct[0] ^= 0x80;
  kem::decaps<P>(be, o.key2, ss, o.ct);
  kem::decaps<P>(be, o.key3, ss, o.ct);  // with the key prepared as it was generated
  ct::declassify(ss, sizeof(ss));        // returned to the caller
  return 0;
}

// Every kernel of the selected backend run on its own with its secret inputs poisoned: MSan
// reports any branch or address computed from them inside the kernel (this checks each kernel even
// where the taint was lost upstream in a whole-KEM run). Also prints whether each output is still
// poisoned: a clean output means MSan's approximate propagation dropped the taint (then a later
// leak of that value goes unseen; docs/SIDE-CHANNELS.md lists where this happens).
template <class P>
int taint(const backend::Backend& be) {
  const auto& k = be.kernels<P>();
  static pke::RingVec<P> a, b, o1, o2;
  static pke::CodeVec<P> cv;
  int bad = 0;
  auto report = [&](const char* name, const void* out, std::size_t len) {
    const bool tainted = __msan_test_shadow(out, len) != -1;
    std::printf("  %-8s HQC-%d %-18s %s\n", be.name, P::kLevel, name,
                tainted ? "taint propagated" : "taint lost (MSan approximation, see docs)");
    bad |= !tainted;
  };
  for (std::size_t i = 0; i < P::kNWords; i++) {
    a.w[i] = (i % 7 == 0) ? (std::uint64_t{1} << (i % 64)) : 0;  // sparse, like y or r2
    b.w[i] = 0x9E3779B97F4A7C15u * (i + 1);
  }
  b.w[P::kNWords - 1] &= P::kLastWordMask;
  ct::poison(a.w, sizeof(a.w));
  k.mul(o1.w, a.w, b.w);
  report("mul (secret a)", o1.w, sizeof(o1.w));
  ct::declassify(a.w, sizeof(a.w));
  ct::poison(b.w, sizeof(b.w));
  k.mul(o1.w, a.w, b.w);
  report("mul (secret b)", o1.w, sizeof(o1.w));
  ct::declassify(b.w, sizeof(b.w));
  ct::poison(a.w, sizeof(a.w));
  k.mul2(o1.w, o2.w, b.w, b.w, a.w);
  report("mul2 out1", o1.w, sizeof(o1.w));
  report("mul2 out2", o2.w, sizeof(o2.w));
  ct::declassify(a.w, sizeof(a.w));
  if (const auto* t = k.transforms) {  // the transform multiplier (FAFFT) with a secret operand (y, r2, u*y)
    static pke::Transform<P> ta, tb;
    ct::poison(a.w, sizeof(a.w));
    t->transform(ta.w, a.w);
    report("transform", ta.w, sizeof(ta.w));
    t->transform(tb.w, b.w);
    t->mul_transforms(o1.w, ta.w, tb.w);
    report("mul_transforms", o1.w, sizeof(o1.w));
    t->mul_transform_plain(o1.w, tb.w, a.w);
    report("mul_transform_plain", o1.w, sizeof(o1.w));
    ct::declassify(a.w, sizeof(a.w));
    ct::declassify(ta.w, sizeof(ta.w));
  }
  {  // the key-generation sampler's duplicate test: secret positions and candidate
    std::uint32_t kp[P::kW];
    for (std::size_t i = 0; i < P::kW; i++) kp[i] = static_cast<std::uint32_t>((i * 7919) % P::kN);
    std::uint32_t r = kp[P::kW / 2];
    ct::poison(kp, sizeof(kp));
    ct::poison(&r, sizeof(r));
    std::uint32_t taken = k.position_taken(kp, P::kW - 1, r);
    report("position_taken", &taken, sizeof(taken));
    ct::declassify(&taken, sizeof(taken));
  }
  std::uint32_t pos[P::kWr];
  std::uint8_t rnd[4 * P::kWr];
  for (std::size_t i = 0; i < sizeof(rnd); i++) rnd[i] = static_cast<std::uint8_t>(i * 37 + 11);
  ct::poison(rnd, sizeof(rnd));
  k.enc_positions(pos, rnd, P::kWr);
  {
    // MSan propagates a product's shadow only into the low bits (OR of the operand shadows, or a
    // shift by the constant's trailing zeros), so the multiply-shift of the sampler, whose result
    // is the high half, comes out clean in every backend: reported, not counted as a failure.
    const bool tainted = __msan_test_shadow(pos, sizeof(pos)) != -1;
    std::printf("  %-8s HQC-%d %-18s %s\n", be.name, P::kLevel, "enc_positions",
                tainted ? "taint propagated" : "taint lost in the multiply-shift (MSan limitation)");
  }
  ct::declassify(pos, sizeof(pos));
  ct::poison(pos, sizeof(pos));  // support expansion checked with secret positions directly
  k.support_to_vector(o1.w, pos, P::kWr);
  report("support_to_vector", o1.w, sizeof(o1.w));
  std::uint64_t st[25];
  for (int i = 0; i < 25; i++) st[i] = static_cast<std::uint64_t>(i) * 0x1111111111111111u;
  ct::poison(st, sizeof(st));
  be.keccak_f1600(st);
  report("keccak_f1600", st, sizeof(st));
  for (std::size_t i = 0; i < P::kN1N2Words; i++) cv.w[i] = 0x0123456789ABCDEFu * (i + 3);
  ct::poison(cv.w, sizeof(cv.w));
  std::uint8_t cw[P::kN1], msg[P::kK];
  k.rm_decode(cw, cv.w);
  report("rm_decode", cw, sizeof(cw));
  for (std::size_t i = 0; i < P::kN1; i++) cw[i] = static_cast<std::uint8_t>(i * 29 + 5);
  ct::poison(cw, sizeof(cw));
  k.rs_decode(msg, cw);
  report("rs_decode", msg, sizeof(msg));
  for (std::size_t i = 0; i < P::kK; i++) msg[i] = static_cast<std::uint8_t>(i * 53 + 7);
  ct::poison(msg, sizeof(msg));
  k.rs_encode(cw, msg);
  report("rs_encode", cw, sizeof(cw));
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // MSan ends the process at the first report
  if (argc >= 2 && std::strcmp(argv[1], "shimcheck") == 0) return hqc_msan_shim_check();
  if (argc >= 2 && std::strcmp(argv[1], "taint") == 0) {
    const backend::Backend* tb = backend::active();
    if (tb == nullptr) return 77;
    int lost = 0;
    lost |= taint<Hqc1>(*tb);
    lost |= taint<Hqc3>(*tb);
    lost |= taint<Hqc5>(*tb);
    std::printf("ct_msan: kernels of %s: no report%s\n", tb->name, lost ? " (some outputs lost their taint)" : "");
    return 0;
  }
  if (argc >= 4 && (std::strcmp(argv[1], "probe") == 0 || std::strcmp(argv[1], "rawprobe") == 0)) {
    const bool branch = std::strcmp(argv[3], "branch") == 0;
    const int rc = argv[1][0] == 'p' ? hqc_msan_probe(argv[2], branch) : hqc_msan_probe_raw(argv[2], branch);
    if (rc == 77) std::printf("ct_msan: probe %s needs CPU features this machine lacks: skipped\n", argv[2]);
    return rc;
  }
  const bool known_mode =
      argc == 3 ||
      (argc == 4 && (std::strcmp(argv[3], "--planted-leak") == 0 || std::strcmp(argv[3], "--planted-flow") == 0));
  if (argc < 3 || !known_mode) {
    std::fprintf(stderr,
                 "usage: ct_msan LEVEL {keygen|encaps|decaps} [--planted-leak|--planted-flow]\n"
                 "       ct_msan {probe|rawprobe} NAME {clean|branch}\n       ct_msan shimcheck\n");
    return 2;
  }
  const int level = std::atoi(argv[1]);
  const char* op = argv[2];
  Mode mode = Mode::kNormal;
  if (argc > 3 && std::strcmp(argv[3], "--planted-leak") == 0) mode = Mode::kLeak;
  if (argc > 3 && std::strcmp(argv[3], "--planted-flow") == 0) mode = Mode::kFlow;
  const backend::Backend* be = backend::active();
  if (be == nullptr) {
    // A backend this CPU cannot run (HQC_BACKEND=avx512 on a machine without AVX-512): skipped.
    std::printf("ct_msan: %s: skipped\n", backend::active_error().c_str());
    return 77;
  }
  std::printf("ct_msan: HQC-%d %s on backend %s%s\n", level, op, be->name,
              mode == Mode::kLeak   ? " (planted leak)"
              : mode == Mode::kFlow ? " (planted flow)"
                                    : "");
  int rc = 2;
  if (!with_params(level, [&]<class P>() { rc = run<P>(*be, op, mode); })) return 2;
  return rc;
}
