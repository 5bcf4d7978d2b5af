// Writes the seed corpora of the fuzz targets: gen_corpus DIR (normally fuzz/corpus). Inputs
// follow each target's format ([selector][...]; see the target sources) and are deterministic.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_common.hpp"

namespace {

using namespace hqc;
using Bytes = std::vector<std::uint8_t>;

void write(const std::filesystem::path& dir, const std::string& name, std::uint8_t selector, const Bytes& body) {
  std::filesystem::create_directories(dir);
  std::FILE* f = std::fopen((dir / name).c_str(), "wb");
  if (f == nullptr) {
    std::perror((dir / name).c_str());
    std::exit(1);
  }
  std::fputc(selector, f);
  if (!body.empty()) std::fwrite(body.data(), 1, body.size(), f);
  std::fclose(f);
}

Bytes pattern(std::size_t n, unsigned seed) {
  Bytes b(n);
  std::uint32_t x = 0x9E3779B9u * (seed + 1);
  for (auto& v : b) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    v = static_cast<std::uint8_t>(x);
  }
  return b;
}

template <class P>
void level(const std::filesystem::path& root, std::uint8_t li) {
  const std::string L = std::to_string(P::kLevel);
  const auto& be = backend::portable();
  auto key = std::make_unique<kem::SecretKey<P>>();
  std::uint8_t seed[32];
  fuzz::fixed_seed(P::kLevel, seed);
  kem::keypair<P>(be, *key, seed);
  Bytes sk(P::kSecretKeyBytes), ct(P::kCiphertextBytes), ss(32);
  key->serialize(sk.data());
  const Bytes pk(key->pub.pk, key->pub.pk + P::kPublicKeyBytes);
  const Bytes coins = pattern(P::kK + 16, 7);
  kem::encaps<P>(be, key->pub, ct.data(), ss.data(), coins.data(), coins.data() + P::kK);

  // decaps_fuzz: [level][ct]
  write(root / "decaps_fuzz", "valid-hqc" + L, li, ct);
  Bytes noisy = ct;
  for (std::size_t i = 0; i < 40; i++) noisy[P::kVecNBytes + 37 * i] ^= static_cast<std::uint8_t>(1u << (i % 8));
  write(root / "decaps_fuzz", "noisy-v-hqc" + L, li, noisy);  // errors the decoder corrects
  Bytes pad = ct;
  pad[P::kVecNBytes - 1] |= 0x80;
  write(root / "decaps_fuzz", "padding-hqc" + L, li, pad);
  write(root / "decaps_fuzz", "zero-hqc" + L, li, Bytes(P::kCiphertextBytes, 0));
  write(root / "decaps_fuzz", "short-hqc" + L, li, Bytes(ct.begin(), ct.begin() + 100));

  // parse_fuzz: [level + 3*kind][object]
  write(root / "parse_fuzz", "pk-hqc" + L, li, pk);
  Bytes bad_pk = pk;
  bad_pk[32 + P::kVecNBytes - 1] |= 0x80;
  write(root / "parse_fuzz", "pk-padding-hqc" + L, li, bad_pk);
  write(root / "parse_fuzz", "sk-hqc" + L, static_cast<std::uint8_t>(li + 3), sk);
  write(root / "parse_fuzz", "ct-padding-hqc" + L, static_cast<std::uint8_t>(li + 6), pad);

  // kernels_fuzz: [level + 3*kernel][pair][fill mode][operands]; the pair byte varies with the
  // kernel and level so that the seeds start from different pairs of implementations.
  const std::size_t vec = P::kVecNBytes;
  for (unsigned k = 0; k < 7; k++) {
    const auto sel = static_cast<std::uint8_t>(li + 3 * k);
    std::size_t n = 64;
    if (k <= 1) n = 3 * vec;
    if (k == 2) n = P::kVecN1N2Bytes;
    if (k == 3) n = P::kN1;
    if (k == 4) n = 4 * P::kWr;
    if (k == 5) n = 200;
    if (k == 6) n = 3 * P::kW;
    const auto pair = static_cast<std::uint8_t>(k + li);
    Bytes body = pattern(n, k + 10 * li);
    body.insert(body.begin(), {pair, 2});  // fill mode: pattern
    write(root / "kernels_fuzz", "k" + std::to_string(k) + "-hqc" + L, sel, body);
    write(root / "kernels_fuzz", "k" + std::to_string(k) + "-ones-hqc" + L, sel, Bytes{pair, 1});
  }
  // rm_decode / rs_decode of a valid code word with errors: the decoders' interesting paths.
  pke::CodeVec<P> cw;
  pke::code_encode<P>(cw, coins.data());
  Bytes rm(cw.bytes(), cw.bytes() + P::kVecN1N2Bytes);
  for (std::size_t i = 0; i < rm.size(); i += 29) rm[i] ^= 0x11;
  rm.insert(rm.begin(), {0, 0});
  write(root / "kernels_fuzz", "rm-codeword-hqc" + L, static_cast<std::uint8_t>(li + 6), rm);
  std::uint8_t rs[P::kN1];
  code::rs_encode<P>(rs, coins.data());
  Bytes rsb(rs, rs + P::kN1);
  for (std::size_t i = 0; i < P::kDelta; i++) rsb[3 * i % P::kN1] ^= static_cast<std::uint8_t>(i + 1);
  rsb.insert(rsb.begin(), {0, 0});
  write(root / "kernels_fuzz", "rs-delta-errors-hqc" + L, static_cast<std::uint8_t>(li + 9), rsb);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_corpus DIR\n");
    return 2;
  }
  const std::filesystem::path root = argv[1];
  level<Hqc1>(root, 0);
  level<Hqc3>(root, 1);
  level<Hqc5>(root, 2);
  return 0;
}
