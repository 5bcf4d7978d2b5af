// Calibration image of the cycle model (tests/m4/cycle_model_test.sh): runs routines whose
// Cortex-M4 cycle counts are known by hand (tests/m4/cycle_calib.S) and a kernel whose inner loop
// docs/M4.md counts by hand (the portable support expansion at HQC-1), each between markers
// 2*ID and 2*ID+1, as tests/m4/m4_measure.cpp does, and one Keccak-f[1600] permutation of the
// portable backend and of the device table's first row (and, where that row has one, of its
// permutation on the interleaved form, which the sponges call). Prints "op NAME ID" per routine.
#include <cstdint>
#include <cstdlib>

#include "backend/device.hpp"
#include "m4_support.hpp"
#include "params/params.hpp"

extern "C" void hqc_m4_calib_block(std::uint32_t* scratch);
extern "C" std::uint32_t hqc_m4_calib_loop(const std::uint32_t* p, std::uint32_t n);

namespace {

std::uint32_t g_scratch[8] = {1, 2, 3, 4, 5, 6, 7, 8};
std::uint32_t g_words[100];
alignas(64) std::uint64_t g_vec[hqc::Hqc1::kNWordsPadded];
std::uint32_t g_pos[hqc::Hqc1::kW];
std::uint64_t g_state[25];
std::uint32_t g_interleaved[50];
volatile std::uint32_t g_sink;

template <class F>
__attribute__((noinline)) void measure(const char* name, std::uint32_t id, F&& op) {
  m4::hqc_m4_mark(2 * id);
  op();
  m4::hqc_m4_mark(2 * id + 1);
  m4::out("op ");
  m4::out(name);
  m4::out(" ");
  m4::out_uint(id);
  m4::out("\n");
}

}  // namespace

int main() {
  for (std::uint32_t i = 0; i < 100; i++) g_words[i] = i * 2654435761u;
  for (std::uint32_t i = 0; i < hqc::Hqc1::kW; i++) g_pos[i] = (i * 389u) % hqc::Hqc1::kN;
  measure("empty", 0, [] {});
  measure("block", 1, [] { hqc_m4_calib_block(g_scratch); });
  measure("loop100", 2, [] { g_sink = hqc_m4_calib_loop(g_words, 100); });
  measure("support_to_vector_hqc1", 3,
          [] { hqc::backend::device_portable().kernels<hqc::Hqc1>().support_to_vector(g_vec, g_pos, hqc::Hqc1::kW); });
  measure("keccak_f1600", 4, [] { hqc::backend::device_portable().keccak_f1600(g_state); });
  // The permutation of the device's own row (the first of its table: m4 when it is built).
  measure("keccak_f1600_device", 5, [] { hqc::backend::device_backends().front()->keccak_f1600(g_state); });
  if (hqc::backend::device_backends().front()->keccak_f1600_interleaved != nullptr)
    measure("keccak_f1600_interleaved_device", 6,
            [] { hqc::backend::device_backends().front()->keccak_f1600_interleaved(g_interleaved); });
  m4::flush();
  std::exit(0);
}
