#include "backend/registry.hpp"

#include <array>
#include <cstdlib>
#include <mutex>

namespace hqc::backend {

// Each backend defines its table in its own folder (src/backend/<name>/backend.cpp), compiled
// with its own ISA flags. The macros below are set by CMake when that backend is built.
extern const Backend kPortableBackend;
#if defined(HQC_WITH_AVX512)
extern const Backend kAvx512Backend;
extern const Backend kAvx512KaratsubaBackend;
extern const Backend kAvx512FafftBackend;
#endif
#if defined(HQC_WITH_AVX2)
extern const Backend kAvx2VpclmulGfniBackend;
extern const Backend kAvx2VpclmulBackend;
extern const Backend kAvx2GfniBackend;
extern const Backend kAvx2BaseBackend;
#endif

namespace {

// Fastest first: select_backend() takes the first supported entry that is not a variant. A
// variant follows the backend it varies. The avx2 rows differ only in the optional instructions
// of two kernels (src/backend/avx2/backend.cpp): with all of them first, then VPCLMULQDQ (the
// multiplier, most of the time), then GFNI, then neither (Haswell, Zen 1-2).
constexpr std::array kBackends = {
#if defined(HQC_WITH_AVX512)
    &kAvx512Backend,          &kAvx512KaratsubaBackend, &kAvx512FafftBackend,
#endif
#if defined(HQC_WITH_AVX2)
    &kAvx2VpclmulGfniBackend, &kAvx2VpclmulBackend,     &kAvx2GfniBackend,    &kAvx2BaseBackend,
#endif
    &kPortableBackend,
};

#if defined(HQC_WITH_AVX2)
constexpr std::array<const Backend*, 4> kAvx2Family = {&kAvx2VpclmulGfniBackend, &kAvx2VpclmulBackend,
                                                       &kAvx2GfniBackend, &kAvx2BaseBackend};
constexpr std::array kAliases = {BackendAlias{"avx2", kAvx2Family}};
#else
constexpr std::array<BackendAlias, 0> kAliases = {};
#endif

struct Selection {
  const Backend* backend = nullptr;
  std::string error;
};

const Selection& selection() {
  static const Selection sel = [] {
    Selection s;
    if (const char* mask = std::getenv("HQC_CPU_MASK")) {
      CpuFeatures hidden = 0;
      if (!parse_feature_list(mask, &hidden, &s.error)) {
        s.error = "HQC_CPU_MASK: " + s.error;
        return s;
      }
    }
    s.backend = select_backend(effective_cpu_features(), std::getenv("HQC_BACKEND"), &s.error);
    return s;
  }();
  return sel;
}

}  // namespace

std::span<const Backend* const> all_backends() { return kBackends; }

bool is_supported(const Backend& b, CpuFeatures features) { return (b.required & ~features) == 0; }

std::span<const BackendAlias> backend_aliases() { return kAliases; }

const Backend* find_backend(std::string_view name, CpuFeatures features) {
  for (const Backend* b : kBackends)
    if (name == b->name) return b;
  for (const BackendAlias& a : kAliases) {
    if (name != a.name) continue;
    for (const Backend* b : a.rows)
      if (is_supported(*b, features)) return b;
    return a.rows.back();
  }
  return nullptr;
}

const Backend* find_backend(std::string_view name) { return find_backend(name, effective_cpu_features()); }

const Backend* select_backend(CpuFeatures features, const char* forced_name, std::string* error) {
  if (forced_name != nullptr && *forced_name != '\0') {
    const Backend* b = find_backend(forced_name, features);
    if (b == nullptr) {
      std::string known;
      for (const Backend* k : kBackends) known += std::string(known.empty() ? "" : ", ") + k->name;
      for (const BackendAlias& a : kAliases) known += std::string(", ") + a.name;
      if (error) *error = std::string("HQC_BACKEND: unknown backend '") + forced_name + "' (known: " + known + ")";
      return nullptr;
    }
    if (!is_supported(*b, features)) {
      if (error)
        *error = std::string("HQC_BACKEND: backend '") + forced_name + "' needs CPU features " +
                 feature_list_string(b->required & ~features) + " that this CPU (or HQC_CPU_MASK) lacks";
      return nullptr;
    }
    return b;
  }
  for (const Backend* b : kBackends)
    if (!b->variant && is_supported(*b, features)) return b;
  return &kPortableBackend;  // unreachable: portable requires nothing
}

const Backend* active() { return selection().backend; }
const std::string& active_error() { return selection().error; }
const Backend& portable() { return kPortableBackend; }

}  // namespace hqc::backend
