// The KAT test: the SHA-256 of `hqc kat --level N` (100 records) equals the digest of the official
// transcript (tests/data/KAT_SHA256SUMS = shared/kat/SHA256SUMS = liboqs kats.json), for every
// backend (registry row) this CPU runs. On a mismatch
// the test names the first differing record and field, using the .rsp files when available.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "backend/registry.hpp"
#include "test_util.hpp"

namespace {

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");  // NOLINT(cert-env33-c): the test's own fixed command line
  if (!p) return out;
  char buf[65536];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

std::string sha256(const std::string& s) {
  unsigned char md[32];
  unsigned len = 0;
  EVP_Digest(s.data(), s.size(), md, &len, EVP_sha256(), nullptr);
  return hqc::test::to_hex(md, len);
}

std::string expected_digest(const std::string& file) {
  std::ifstream in(hqc::test::data_path("KAT_SHA256SUMS"));
  std::string digest, name;
  while (in >> digest >> name)
    if (name == file) return digest;
  return "";
}

// First differing record/field between our transcript and the official one.
std::string first_difference(const std::string& ours, int level) {
  const std::string path = std::string(HQC_SHARED_KAT_DIR) + "/PQCkemKAT_HQC-" + std::to_string(level) + ".rsp";
  std::ifstream in(path);
  if (!in) return "(official transcript " + path + " not available to locate the difference)";
  std::stringstream off;
  off << in.rdbuf();
  std::istringstream a(ours), b(off.str());
  std::string la, lb, record = "?";
  int line = 0;
  while (true) {
    const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    line++;
    if (!ga && !gb) return "(no line differs: trailing bytes?)";
    if (gb && lb.rfind("count = ", 0) == 0) record = lb.substr(8);
    if (ga != gb || la != lb) {
      const std::string field = lb.substr(0, lb.find(' '));
      std::string where = "first difference: record " + record;
      where += ", field '" + field + "' (line " + std::to_string(line) + ")";
      return where;
    }
  }
}

std::vector<std::string> backends() {
  std::vector<std::string> v;
  for (const auto* b : hqc::backend::all_backends())
    if (hqc::backend::is_supported(*b, hqc::backend::effective_cpu_features())) v.emplace_back(b->name);
  return v;
}

class Kat : public testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(Kat, TranscriptDigestMatchesOfficial) {
  const auto& [backend, level] = GetParam();
  const std::string env = "HQC_BACKEND=" + backend;
  const std::string out = run(env + " " + HQC_CLI + " kat --level " + std::to_string(level));
  ASSERT_FALSE(out.empty()) << "hqc kat printed nothing";
  const std::string file = "PQCkemKAT_HQC-" + std::to_string(level) + ".rsp";
  const std::string exp = expected_digest(file);
  ASSERT_EQ(exp.size(), 64u) << "no digest for " << file;
  const std::string got = sha256(out);
  EXPECT_EQ(got, exp) << first_difference(out, level);
  // The single-record transcript (first 6 lines) too.
  const std::string single = run(env + " " + HQC_CLI + " kat --count 1 --level " + std::to_string(level));
  EXPECT_EQ(sha256(single), expected_digest("PQCkemKAT_HQC-" + std::to_string(level) + "_single.txt"));
}

INSTANTIATE_TEST_SUITE_P(AllBackends, Kat, testing::Combine(testing::ValuesIn(backends()), testing::Values(1, 3, 5)),
                         [](const testing::TestParamInfo<std::tuple<std::string, int>>& i) {
                           return hqc::test::param_name(std::get<0>(i.param)) + "_HQC" +
                                  std::to_string(std::get<1>(i.param));
                         });

}  // namespace
