// Single-instruction probes for the MemorySanitizer constant-time harness (ct_msan.cpp). Each probe
// runs one SIMD instruction that the avx2/avx512 kernels use on a poisoned (secret) input.
//   clean:  the result is only stored. MSan must stay silent; a report is a false positive (MSan
//           checks the operands of an instruction it does not model instead of propagating).
//   branch: the program branches on the result. MSan must report; silence means the instruction
//           drops the taint, so a leak after it in a kernel would go unseen.
// The probes live in one file per instruction group, compiled with that group's ISA flags alone
// (ct_msan_probes.hpp); this dispatcher is compiled without them and checks the CPU first, so that
// nothing the CPU lacks runs: a probe whose group the CPU cannot run returns 77 (skipped).
#include "ct_msan_probes.hpp"

#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "common/ct.hpp"

int hqc_msan_probe(const char* name, bool branch);
int hqc_msan_probe_raw(const char* name, bool branch);
int hqc_msan_shim_check();

namespace {

namespace be = hqc::backend;
using hqc_msan_probes::Probe;
using hqc_msan_probes::Table;

volatile int g_sink;
alignas(64) std::uint8_t g_out[64];

struct Inputs {
  alignas(64) std::uint8_t secret[64];
  alignas(64) std::uint8_t pub[64];
};

// The probe called name, with its inputs ready (secret poisoned, g_out cleared); null with *rc = 77
// if the CPU lacks a feature its file was compiled for, 2 if no table has it.
const Probe* prepare(std::initializer_list<const Table*> tables, const char* name, Inputs& in, int* rc) {
  for (const Table* t : tables) {
    for (std::size_t i = 0; i < t->count; i++) {
      const Probe& pr = t->probes[i];
      if (std::strcmp(pr.name, name) != 0) continue;
      if ((pr.needs & ~be::detect_cpu_features()) != 0) {
        *rc = 77;
        return nullptr;
      }
      for (int k = 0; k < 64; k++) {
        in.secret[k] = static_cast<std::uint8_t>(0x5A ^ (7 * k));
        in.pub[k] = static_cast<std::uint8_t>(3 * k + 1);
      }
      std::memset(g_out, 0, sizeof(g_out));
      hqc::ct::poison(in.secret, sizeof(in.secret));
      return &pr;
    }
  }
  *rc = 2;
  return nullptr;
}

}  // namespace

// Returns 0 if the probe ran, 77 if the CPU lacks its instructions, 2 for an unknown name. The
// branch is here, so that MSan's report on it names this function.
int hqc_msan_probe(const char* name, bool branch) {
  Inputs in;
  int rc = 0;
  const Probe* pr =
      prepare({&hqc_msan_probes::kAvx2, &hqc_msan_probes::kGfni256, &hqc_msan_probes::kAvx512}, name, in, &rc);
  if (pr == nullptr) return rc;
  pr->run(g_out, in.secret, in.pub);
  if (branch) {
    // One branch per byte (an OR over bytes could be decided by a clean byte alone).
    for (std::uint8_t b : g_out)
      if (b != 0) g_sink = g_sink + 1;  // must be reported
  }
  return 0;
}

// The same with the real instructions: MSan's report on one it does not model names the probe's
// instruction, called from here.
int hqc_msan_probe_raw(const char* name, bool branch) {
  Inputs in;
  int rc = 0;
  const Probe* pr = prepare({&hqc_msan_probes::kRawGfni256, &hqc_msan_probes::kRawAvx512}, name, in, &rc);
  if (pr == nullptr) return rc;
  pr->run(g_out, in.secret, in.pub);
  if (branch) {
    for (std::uint8_t b : g_out)
      if (b != 0) g_sink = g_sink + 1;
  }
  return 0;
}

// 0 if msan_intrinsics.hpp's replacements give the real instructions' bytes, 1 otherwise, 77 if the
// CPU lacks AVX-512 or GFNI.
int hqc_msan_shim_check() {
  constexpr be::CpuFeatures kNeeds =
      be::kCpuAvx512F | be::kCpuAvx512BW | be::kCpuAvx512VL | be::kCpuAvx512DQ | be::kCpuGfni;
  if ((kNeeds & ~be::detect_cpu_features()) != 0) return 77;
  return hqc_msan_probes::shim_check();
}
