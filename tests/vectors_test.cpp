// Component-by-component checks against the intermediate values of tests/data/HQC-*-count*.txt
// and the decoder tests T1-T4 (spec §11), for every backend compiled in and supported here.
#include <gtest/gtest.h>

#include <cstring>

#include "backend/registry.hpp"
#include "kem/kem.hpp"
#include "sampling/sampling.hpp"
#include "sym/oracles.hpp"
#include "test_util.hpp"

namespace hqc {
namespace {

using test::Bytes;
using test::to_hex;

template <class P>
struct Level {
  using Params = P;
};

struct Case {
  int level;
  const char* file;
  const backend::Backend* be;
};

std::vector<Case> record_cases() {
  std::vector<Case> out;
  for (const backend::Backend* be : backend::all_backends()) {
    if (!backend::is_supported(*be, backend::effective_cpu_features())) continue;
    for (auto [level, file] : std::vector<std::pair<int, const char*>>{{1, "HQC-1-count0.txt"},
                                                                       {1, "HQC-1-count27.txt"},
                                                                       {1, "HQC-1-count7.txt"},
                                                                       {3, "HQC-3-count0.txt"},
                                                                       {5, "HQC-5-count0.txt"},
                                                                       {5, "HQC-5-count49.txt"}})
      out.push_back({level, file, be});
  }
  return out;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string f = info.param.file;
  f = f.substr(0, f.find('.'));
  for (auto& c : f)
    if (c == '-') c = '_';
  return test::param_name(info.param.be->name) + "_" + f;
}

class RecordVectors : public testing::TestWithParam<Case> {};

template <class P>
std::vector<unsigned> sorted_support(const std::uint64_t* v) {
  std::vector<unsigned> out;
  for (unsigned i = 0; i < P::kN; i++)
    if ((v[i / 64] >> (i % 64)) & 1) out.push_back(i);
  return out;
}

template <class P>
void check_record(const test::VectorFile& vf, const backend::Backend& be) {
  const auto f = be.keccak_f1600;
  const auto& k = be.kernels<P>();
  // --- KeyGen: seeds, I, samplers (generation order and bytes consumed), h, s, pk, sk.
  Bytes seed_kem = vf.bytes("keygen.seed_kem");
  std::uint8_t z[32 + P::kK];
  {
    sym::Xof xof(f, seed_kem.data());
    xof.squeeze(z, sizeof(z));
  }
  EXPECT_EQ(to_hex(z, 32), vf.str("keygen.seed_pke"));
  EXPECT_EQ(to_hex(z + 32, P::kK), vf.str("keygen.sigma"));
  std::uint8_t iout[64];
  sym::oracle_i(f, iout, z);
  EXPECT_EQ(to_hex(iout, 64), vf.str("keygen.I_output"));
  {
    sym::Xof xof(f, iout);
    std::uint32_t pos[P::kW];
    std::size_t used = sampling::sample_keygen_positions<P>(pos, xof);
    EXPECT_EQ(used, vf.num("keygen.y_xof_bytes_consumed"));
    EXPECT_EQ(std::vector<unsigned>(pos, pos + P::kW), vf.list("keygen.y_support_in_generation_order"));
    used = sampling::sample_keygen_positions<P>(pos, xof);
    EXPECT_EQ(used, vf.num("keygen.x_xof_bytes_consumed"));
    EXPECT_EQ(std::vector<unsigned>(pos, pos + P::kW), vf.list("keygen.x_support_in_generation_order"));
    pke::RingVec<P> v;
    k.support_to_vector(v.w, pos, P::kW);
    EXPECT_EQ(sorted_support<P>(v.w), vf.list("keygen.x_support_sorted"));
  }
  pke::RingVec<P> h;
  pke::expand_h<P>(be, h, iout + 32);
  EXPECT_EQ(to_hex(h.bytes(), P::kVecNBytes), vf.str("keygen.h"));

  kem::SecretKey<P> key;
  kem::keypair<P>(be, key, seed_kem.data());
  EXPECT_EQ(to_hex(key.pub.ek.s.bytes(), P::kVecNBytes), vf.str("keygen.s"));
  EXPECT_EQ(to_hex(key.pub.pk, P::kPublicKeyBytes), vf.str("keygen.pk"));
  std::uint8_t sk[P::kSecretKeyBytes];
  key.serialize(sk);
  EXPECT_EQ(to_hex(sk, sizeof(sk)), vf.str("keygen.sk"));
  EXPECT_EQ(sorted_support<P>(key.y.w), vf.list("keygen.y_support_sorted"));

  // --- Encaps: H(pk), G, the encryption samplers, u, RS and RM encodings, noise, v, ct, ss.
  Bytes m = vf.bytes("encaps.m"), salt = vf.bytes("encaps.salt");
  EXPECT_EQ(to_hex(key.pub.hpk, 32), vf.str("encaps.hash_ek"));
  std::uint8_t g[64];
  sym::oracle_g(f, g, key.pub.hpk, m.data(), P::kK, salt.data());
  EXPECT_EQ(to_hex(g, 64), vf.str("encaps.G_output"));
  for (const char* name : {"r2", "e", "r1"}) {
    Bytes rnd = vf.bytes(std::string("encaps.") + name + "_xof_bytes");
    const std::size_t w = rnd.size() / 4;
    std::vector<std::uint32_t> pos(w);
    k.enc_positions(pos.data(), rnd.data(), w);
    EXPECT_EQ(std::vector<unsigned>(pos.begin(), pos.end()),
              vf.list(std::string("encaps.") + name + "_support_in_generation_order"))
        << name;
  }
  std::uint8_t cw[P::kN1];
  code::rs_encode<P>(cw, m.data());
  EXPECT_EQ(to_hex(cw, P::kN1), vf.str("encaps.rs_codeword"));
  pke::CodeVec<P> enc;
  pke::code_encode<P>(enc, m.data());
  EXPECT_EQ(to_hex(enc.bytes(), P::kVecN1N2Bytes), vf.str("encaps.encoded_m"));
  pke::RingVec<P> u;
  pke::CodeVec<P> v;
  pke::encrypt<P>(be, key.pub.ek, u, v, m.data(), g + 32);
  EXPECT_EQ(to_hex(u.bytes(), P::kVecNBytes), vf.str("encaps.u"));
  EXPECT_EQ(to_hex(v.bytes(), P::kVecN1N2Bytes), vf.str("encaps.v"));
  std::uint8_t ct[P::kCiphertextBytes], ss[32];
  kem::encaps<P>(be, key.pub, ct, ss, m.data(), salt.data());
  EXPECT_EQ(to_hex(ct, sizeof(ct)), vf.str("encaps.ct"));
  EXPECT_EQ(to_hex(ss, 32), vf.str("encaps.ss"));

  // --- Decaps: u*y, received word, RM decoding, RS decoding internals, m', J, result.
  pke::RingVec<P> uy;
  k.mul(uy.w, u.w, key.y.w);
  EXPECT_EQ(to_hex(uy.bytes(), P::kVecN1N2Bytes), vf.str("decaps.uy_trunc"));
  pke::CodeVec<P> recv;
  for (std::size_t i = 0; i < P::kN1N2Words; i++) recv.w[i] = v.w[i] ^ uy.w[i];
  EXPECT_EQ(to_hex(recv.bytes(), P::kVecN1N2Bytes), vf.str("decaps.received_word"));
  std::uint8_t rm[P::kN1];
  k.rm_decode(rm, recv.w);
  EXPECT_EQ(to_hex(rm, P::kN1), vf.str("decaps.rm_decoded"));
  code::RsDecodeTrace<P> tr;
  std::uint8_t mprime[P::kK];
  code::rs_decode_portable<P>(mprime, rm, &tr);
  EXPECT_EQ(std::vector<unsigned>(tr.syndromes, tr.syndromes + P::kRsParity), vf.list("decaps.rs_syndromes"));
  EXPECT_EQ(std::vector<unsigned>(tr.sigma, tr.sigma + P::kDelta + 1), vf.list("decaps.elp_sigma"));
  EXPECT_EQ(std::vector<unsigned>(tr.error_values, tr.error_values + P::kN1), vf.list("decaps.error_values"));
  EXPECT_EQ(to_hex(tr.corrected, P::kN1), vf.str("decaps.rs_corrected_codeword"));
  EXPECT_EQ(to_hex(mprime, P::kK), vf.str("decaps.m_prime"));
  std::uint8_t msg2[P::kK];
  k.rs_decode(msg2, rm);
  EXPECT_EQ(to_hex(msg2, P::kK), vf.str("decaps.m_prime"));
  std::uint8_t kbar[32];
  sym::oracle_j(f, kbar, key.pub.hpk, key.sigma, P::kK, ct, sizeof(ct));
  EXPECT_EQ(to_hex(kbar, 32), vf.str("decaps.K_bar"));
  std::uint8_t ss2[32];
  kem::decaps<P>(be, key, ss2, ct);
  EXPECT_EQ(to_hex(ss2, 32), vf.str("decaps.ss"));

  // --- Negative tests: one byte changed, the result is J over the modified ciphertext.
  for (const char* neg : {"neg_flip_u_bit0", "neg_flip_v_bit0", "neg_flip_salt_lastbit", "neg_set_u_padding_msb"}) {
    std::uint8_t bad[P::kCiphertextBytes];
    std::memcpy(bad, ct, sizeof(ct));
    const unsigned off = vf.num(std::string(neg) + ".modified_byte_offset");
    ASSERT_LT(off, sizeof(bad));
    EXPECT_EQ(to_hex(&bad[off], 1), vf.str(std::string(neg) + ".byte_before"));
    bad[off] = vf.bytes(std::string(neg) + ".byte_after")[0];
    kem::decaps<P>(be, key, ss2, bad);
    EXPECT_EQ(to_hex(ss2, 32), vf.str(std::string(neg) + ".ss")) << neg;
  }
}

TEST_P(RecordVectors, EveryIntermediateValue) {
  const Case& c = GetParam();
  test::VectorFile vf(c.file);
  with_params(c.level, [&]<class P>() { check_record<P>(vf, *c.be); });
}

INSTANTIATE_TEST_SUITE_P(Kat, RecordVectors, testing::ValuesIn(record_cases()), case_name);

// ---- Decoder tests T1-T4 (spec §11).

struct DecoderCase {
  int level;
  const backend::Backend* be;
};
std::vector<DecoderCase> decoder_cases() {
  std::vector<DecoderCase> out;
  for (const backend::Backend* be : backend::all_backends())
    if (backend::is_supported(*be, backend::effective_cpu_features()))
      for (int level : {1, 3, 5}) out.push_back({level, be});
  return out;
}
class DecoderVectors : public testing::TestWithParam<DecoderCase> {};

template <class P>
void check_decoder(const test::VectorFile& vf, const backend::Backend& be) {
  const auto& k = be.kernels<P>();
  // T1: RS decoding with exactly delta errors.
  {
    Bytes recv = vf.bytes("T1.received_rs_word");
    code::RsDecodeTrace<P> tr;
    std::uint8_t m[P::kK];
    code::rs_decode_portable<P>(m, recv.data(), &tr);
    EXPECT_EQ(std::vector<unsigned>(tr.syndromes, tr.syndromes + P::kRsParity), vf.list("T1.rs_syndromes"));
    EXPECT_EQ(std::vector<unsigned>(tr.sigma, tr.sigma + P::kDelta + 1), vf.list("T1.elp_sigma"));
    EXPECT_EQ(std::vector<unsigned>(tr.error_values, tr.error_values + P::kN1), vf.list("T1.error_values"));
    EXPECT_EQ(to_hex(m, P::kK), vf.str("T1.decoded_message"));
    std::uint8_t m2[P::kK];
    k.rs_decode(m2, recv.data());
    EXPECT_EQ(to_hex(m2, P::kK), vf.str("T1.decoded_message"));
  }
  // T2: concatenated decoding with wrong RM blocks and bit noise.
  {
    Bytes recv = vf.bytes("T2.received_word");
    ASSERT_EQ(recv.size(), P::kVecN1N2Bytes);
    pke::CodeVec<P> w;
    std::memcpy(w.w, recv.data(), recv.size());
    std::uint8_t rm[P::kN1];
    k.rm_decode(rm, w.w);
    EXPECT_EQ(to_hex(rm, P::kN1), vf.str("T2.rm_decoded"));
    std::uint8_t m[P::kK];
    pke::code_decode<P>(k, m, w);
    EXPECT_EQ(to_hex(m, P::kK), vf.str("T2.decoded_message"));
  }
  // T3: RM tie-breaking.
  {
    Bytes recv = vf.bytes("T3.received_word");
    pke::CodeVec<P> w;
    std::memcpy(w.w, recv.data(), recv.size());
    std::uint8_t rm[P::kN1];
    k.rm_decode(rm, w.w);
    EXPECT_EQ(to_hex(rm, P::kN1), vf.str("T3.rm_decoded"));
  }
  // T4 (informative): delta+1 errors; the reference's output is reproduced as well.
  {
    Bytes recv = vf.bytes("T4.received_rs_word");
    code::RsDecodeTrace<P> tr;
    std::uint8_t m[P::kK];
    code::rs_decode_portable<P>(m, recv.data(), &tr);
    EXPECT_EQ(std::vector<unsigned>(tr.sigma, tr.sigma + P::kDelta + 1), vf.list("T4.elp_sigma"));
    EXPECT_EQ(to_hex(m, P::kK), vf.str("T4.decoded_message"));
  }
}

TEST_P(DecoderVectors, T1toT4) {
  const auto& c = GetParam();
  test::VectorFile vf("HQC-" + std::to_string(c.level) + "-decoder-tests.txt");
  with_params(c.level, [&]<class P>() { check_decoder<P>(vf, *c.be); });
}

INSTANTIATE_TEST_SUITE_P(Decoder, DecoderVectors, testing::ValuesIn(decoder_cases()),
                         [](const testing::TestParamInfo<DecoderCase>& i) {
                           return test::param_name(i.param.be->name) + "_HQC" + std::to_string(i.param.level);
                         });

}  // namespace
}  // namespace hqc
