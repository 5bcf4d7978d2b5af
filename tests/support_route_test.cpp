// The routing networks of the Cortex-M4 support expansion (src/backend/m4/support_route_m4.hpp)
// on the host, with the portable passes (route::PortableOps): the device image m4_test checks the
// m4 row (its Thumb-2 passes) against the portable kernel on the device; this test checks the
// networks themselves over many more inputs, where a sanitizer build can watch their indices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "backend/m4/support_route_m4.hpp"

namespace {

namespace route = hqc::backend::m4::route;

// The vector sizes of the three parameter sets (2 * kNWordsPadded 32-bit words) and their n.
struct Size {
  std::uint32_t n;
  std::size_t words;
};
constexpr Size kSizes[] = {{17669, 554}, {35851, 1122}, {57637, 1802}};

// Runs the expansion on pos and compares it with the bits set one by one; the scratch must be
// all zero afterwards (it held the secret masks and offsets) and out32 untouched beyond nwords.
void check(const Size& size, const std::vector<std::uint32_t>& pos) {
  const std::size_t nblocks = (size.words + route::kBlockWords - 1) / route::kBlockWords;
  unsigned levels = 0;
  while ((std::size_t{1} << levels) < nblocks) levels++;
  std::vector<std::uint32_t> want(size.words, 0), out(size.words + 1, 0xA5A5A5A5);
  for (std::uint32_t p : pos) want[p / 32] |= std::uint32_t{1} << (p % 32);
  std::vector<std::uint32_t> slots(route::scratch_words(nblocks, pos.size()), 0x5A5A5A5A);
  std::vector<std::uint16_t> sorted(pos.size() + 1, 0x5A5A);
  route::support_to_vector<route::PortableOps>(out.data(), slots.data(), sorted.data(), pos.data(), pos.size(),
                                               size.words, nblocks, levels);
  ASSERT_EQ(out[size.words], 0xA5A5A5A5u) << "wrote past the vector, n " << size.n << " w " << pos.size();
  out.resize(size.words);
  ASSERT_EQ(out, want) << "n " << size.n << " w " << pos.size();
  ASSERT_TRUE(std::all_of(slots.begin(), slots.end(), [](std::uint32_t x) { return x == 0; }));
  ASSERT_TRUE(std::all_of(sorted.begin(), sorted.end(), [](std::uint16_t x) { return x == 0; }));
}

TEST(SupportRoute, SortIsMergeExchange) {
  std::mt19937 rng(3);
  for (std::size_t n = 1; n <= 300; n++) {
    std::vector<std::uint16_t> v(n);
    for (auto& x : v) x = static_cast<std::uint16_t>(rng() % (n < 20 ? 4 : 0x10000));  // many equal values for small n
    std::vector<std::uint16_t> want = v;
    std::sort(want.begin(), want.end());
    route::sort(v.data(), n);
    ASSERT_EQ(v, want) << n;
  }
}

TEST(SupportRoute, RandomPositionsEveryWeight) {
  std::mt19937 rng(5);
  for (const Size& size : kSizes)
    for (std::size_t w = 1; w <= 256; w++) {
      std::vector<std::uint32_t> pos(w);
      for (auto& p : pos) p = static_cast<std::uint32_t>(rng() % size.n);  // repeats included: the expansion ORs them
      check(size, pos);
    }
}

TEST(SupportRoute, CrowdedAndEdgePositions) {
  std::mt19937 rng(7);
  for (const Size& size : kSizes)
    for (std::size_t w : {1, 2, 3, 55, 56, 66, 75, 100, 114, 131, 149, 255, 256})
      for (int pattern = 0; pattern < 6; pattern++) {
        std::vector<std::uint32_t> pos(w);
        for (std::size_t i = 0; i < w; i++) {
          const auto u = static_cast<std::uint32_t>(i);
          switch (pattern) {
            case 0: pos[i] = size.n - 1 - u; break;                                        // the last bits
            case 1: pos[i] = u; break;                                                     // the first bits
            case 2: pos[i] = 128 * (size.n / 256) + u % 128; break;                        // one block, repeats
            case 3: pos[i] = size.n / 3 + 5 * u + (u / 7) * 97; break;                     // runs: many merges
            case 4: pos[i] = static_cast<std::uint32_t>(rng() % 300); break;               // crowded low blocks
            default: pos[i] = (u * 211) % 2 == 0 ? u * 128 : size.n - 1 - u * 128; break;  // both ends
          }
          pos[i] %= size.n;
        }
        check(size, pos);
      }
}

// Every block of the vector holds one item: the expansion offsets are all zero, the compaction
// moves nothing, and the top block (which holds fewer than four words at HQC-1 and HQC-5) is set.
TEST(SupportRoute, OnePositionPerBlock) {
  for (const Size& size : kSizes) {
    std::vector<std::uint32_t> pos;
    for (std::uint32_t p = 31; p < size.n && pos.size() < 256; p += 128) pos.push_back(p);
    check(size, pos);
    pos.assign(1, size.n - 1);
    check(size, pos);
  }
}

}  // namespace
