// SPDX-License-Identifier: MIT
// OSSL_DISPATCH entries with a compile-time check of each function's signature against the
// OSSL_FUNC_*_fn type OpenSSL declares for that slot.
#pragma once

#include <openssl/core.h>

namespace hqckit::provider {

template <class Sig>
inline void (*as_dispatch(Sig* f))(void) {
  return reinterpret_cast<void (*)()>(f);
}

}  // namespace hqckit::provider

#define HQCKIT_DISPATCH(id, fntype, f) \
  OSSL_DISPATCH { id, ::hqckit::provider::as_dispatch<fntype>(f) }
