// SPDX-License-Identifier: MIT
// Encoders and decoders for pure HQC keys, so that `openssl genpkey`, `openssl pkey` and
// PEM_read/PEM_write work: SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo (RFC 5280 §4.1,
// RFC 5958 §2) carrying the raw HQC key bytes under the OIDs of groups.hpp, in DER or PEM, plus
// a text form. Unencrypted PKCS#8 only, strict DER. Hybrid keys have no file format (TLS only):
// their encoders fail with a message saying so.
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <array>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dispatch.hpp"
#include "hqc/hqc.h"
#include "provider.hpp"

namespace hqckit::provider {
namespace {

using Der = std::vector<unsigned char>;

// --- DER ---

void put_len(Der& out, std::size_t len) {
  if (len < 0x80) {
    out.push_back(static_cast<unsigned char>(len));
    return;
  }
  unsigned char buf[sizeof(std::size_t)];
  int n = 0;
  for (std::size_t v = len; v != 0; v >>= 8) buf[n++] = static_cast<unsigned char>(v);
  out.push_back(static_cast<unsigned char>(0x80 | n));
  while (n > 0) out.push_back(buf[--n]);
}

void put_tlv(Der& out, unsigned char tag, const unsigned char* v, std::size_t len, bool bitstring = false) {
  out.push_back(tag);
  put_len(out, len + (bitstring ? 1 : 0));
  if (bitstring) out.push_back(0);  // no unused bits
  out.insert(out.end(), v, v + len);
}

Der algorithm_identifier(const Group& g) {
  Der oid(std::begin(kHqcOidPrefix), std::end(kHqcOidPrefix));
  oid.push_back(g.oid_last);
  Der inner;
  put_tlv(inner, 0x06, oid.data(), oid.size());
  Der out;
  put_tlv(out, 0x30, inner.data(), inner.size());
  return out;
}

Der spki(const Group& g, const unsigned char* pk) {
  Der body = algorithm_identifier(g);
  put_tlv(body, 0x03, pk, g.hqc_pk_bytes, true);
  Der out;
  put_tlv(out, 0x30, body.data(), body.size());
  return out;
}

// The caller wipes the result.
Der pkcs8(const Group& g, const unsigned char* sk) {
  static const unsigned char kVersion0[] = {0x02, 0x01, 0x00};
  Der body(std::begin(kVersion0), std::end(kVersion0));
  Der alg = algorithm_identifier(g);
  body.insert(body.end(), alg.begin(), alg.end());
  put_tlv(body, 0x04, sk, g.hqc_sk_bytes);
  Der out;
  put_tlv(out, 0x30, body.data(), body.size());
  OPENSSL_cleanse(body.data(), body.size());
  return out;
}

// Reads one DER TLV with the expected tag; advances p. DER only (X.690 §10.1): definite length
// in the fewest octets, so an indefinite (BER) or padded length is refused.
bool get_tlv(const unsigned char*& p, const unsigned char* end, unsigned char tag, const unsigned char*& v,
             std::size_t& len) {
  if (end - p < 2 || p[0] != tag) return false;
  const unsigned char* q = p + 2;
  std::size_t n = p[1];
  if (n >= 0x80) {
    const std::size_t k = n & 0x7f;
    if (k == 0 || k > 3 || static_cast<std::size_t>(end - q) < k || q[0] == 0) return false;
    n = 0;
    for (std::size_t i = 0; i < k; ++i) n = (n << 8) | *q++;
    if (n < 0x80) return false;  // would fit the short form
  }
  if (static_cast<std::size_t>(end - q) < n) return false;
  v = q;
  len = n;
  p = q + n;
  return true;
}

bool algorithm_matches(const Group& g, const unsigned char*& p, const unsigned char* end) {
  const Der want = algorithm_identifier(g);
  if (static_cast<std::size_t>(end - p) < want.size() || std::memcmp(p, want.data(), want.size()) != 0) return false;
  p += want.size();
  return true;
}

// --- encoders ---

enum class Form { kPrivDer, kPrivPem, kPubDer, kPubPem, kText };

struct EncCtx {
  ProvCtx* prov;
};

void* enc_newctx(void* provctx) {
  auto* ctx = static_cast<EncCtx*>(OPENSSL_zalloc(sizeof(EncCtx)));
  if (ctx != nullptr) ctx->prov = static_cast<ProvCtx*>(provctx);
  return ctx;
}
void enc_freectx(void* ctx) { OPENSSL_free(ctx); }

bool write_all(BIO* bio, const void* data, std::size_t len) {
  std::size_t written = 0;
  return BIO_write_ex(bio, data, len, &written) == 1 && written == len;
}

void hex_block(std::string& out, const unsigned char* v, std::size_t len) {
  static const char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < len; ++i) {
    if (i % 16 == 0) out += "    ";
    out += kHex[v[i] >> 4];
    out += kHex[v[i] & 15];
    out += (i + 1 == len) ? "\n" : (i % 16 == 15) ? ":\n" : ":";
  }
}

template <Form F>
int enc_does_selection(void*, int selection) {
  if constexpr (F == Form::kPrivDer || F == Form::kPrivPem) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  if constexpr (F == Form::kPubDer || F == Form::kPubPem) return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
}

template <Form F>
int encode(void* vctx, OSSL_CORE_BIO* cout, const void* obj, const OSSL_PARAM[], int selection,
           OSSL_PASSPHRASE_CALLBACK*, void*) {
  auto* ctx = static_cast<EncCtx*>(vctx);
  const auto* key = static_cast<const Key*>(obj);
  if (ctx == nullptr || key == nullptr || key->group->classical != nullptr) return 0;
  const Group& g = *key->group;
  const bool want_priv = (F == Form::kPrivDer || F == Form::kPrivPem ||
                          (F == Form::kText && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0));
  if (!key_has_public(key) || (want_priv && key->hqc_sk == nullptr)) {
    HQCKIT_RAISE(ctx->prov, kErrMissingKey, "%s key has no %s key to encode", g.name, want_priv ? "private" : "public");
    return 0;
  }
  BIO* out = BIO_new_from_core_bio(ctx->prov->libctx, cout);
  if (out == nullptr) return 0;
  bool ok = false;
  unsigned char* sk = nullptr;
  if (want_priv) {
    sk = static_cast<unsigned char*>(OPENSSL_secure_malloc(g.hqc_sk_bytes));
    if (sk == nullptr || hqc_secret_key_bytes(key->hqc_sk, sk, g.hqc_sk_bytes) != HQC_OK) {
      OPENSSL_secure_clear_free(sk, g.hqc_sk_bytes);
      BIO_free(out);
      return 0;
    }
  }
  if constexpr (F == Form::kText) {
    std::string text = std::string(g.hqc_alg) + (want_priv ? " private key:\n" : " public key:\n");
    if (want_priv) {
      text += "priv:\n";
      hex_block(text, sk, g.hqc_sk_bytes);
    }
    text += "pub:\n";
    hex_block(text, key->hqc_pub, g.hqc_pk_bytes);
    ok = write_all(out, text.data(), text.size());
    OPENSSL_cleanse(text.data(), text.size());
  } else {
    Der der = want_priv ? pkcs8(g, sk) : spki(g, key->hqc_pub);
    if constexpr (F == Form::kPrivPem || F == Form::kPubPem)
      ok = PEM_write_bio(out, want_priv ? "PRIVATE KEY" : "PUBLIC KEY", "", der.data(), static_cast<long>(der.size())) >
           0;
    else ok = write_all(out, der.data(), der.size());
    OPENSSL_cleanse(der.data(), der.size());
  }
  OPENSSL_secure_clear_free(sk, g.hqc_sk_bytes);
  BIO_free(out);
  return ok ? 1 : 0;
}

// Hybrid keys (classical + HQC) have no file format: their encoders exist only to say so,
// instead of OpenSSL's "No encoders were found".
int encode_hybrid(void* vctx, OSSL_CORE_BIO*, const void* obj, const OSSL_PARAM[], int, OSSL_PASSPHRASE_CALLBACK*,
                  void*) {
  auto* ctx = static_cast<EncCtx*>(vctx);
  const auto* key = static_cast<const Key*>(obj);
  if (ctx == nullptr || key == nullptr) return 0;
  HQCKIT_RAISE(ctx->prov, kErrUnsupported,
               "%s: key files are not supported for hybrid groups (hybrid keys serve TLS key exchange only; "
               "hqc1, hqc3 and hqc5 keys have PEM/DER files)",
               key->group->name);
  return 0;
}

template <Form F>
const OSSL_DISPATCH* hybrid_encoder_dispatch() {
  static const OSSL_DISPATCH kTable[] = {
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_NEWCTX, OSSL_FUNC_encoder_newctx_fn, &enc_newctx),
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_FREECTX, OSSL_FUNC_encoder_freectx_fn, &enc_freectx),
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_DOES_SELECTION, OSSL_FUNC_encoder_does_selection_fn, &enc_does_selection<F>),
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_ENCODE, OSSL_FUNC_encoder_encode_fn, &encode_hybrid),
      OSSL_DISPATCH{0, nullptr},
  };
  return kTable;
}

template <Form F>
const OSSL_DISPATCH* encoder_dispatch() {
  static const OSSL_DISPATCH kTable[] = {
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_NEWCTX, OSSL_FUNC_encoder_newctx_fn, &enc_newctx),
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_FREECTX, OSSL_FUNC_encoder_freectx_fn, &enc_freectx),
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_DOES_SELECTION, OSSL_FUNC_encoder_does_selection_fn, &enc_does_selection<F>),
      HQCKIT_DISPATCH(OSSL_FUNC_ENCODER_ENCODE, OSSL_FUNC_encoder_encode_fn, &encode<F>),
      OSSL_DISPATCH{0, nullptr},
  };
  return kTable;
}

// --- decoders ---

enum class Input { kPrivDer, kPubDer };

struct DecCtx {
  ProvCtx* prov;
  const Group* group;
};

template <std::size_t I>
void* dec_newctx(void* provctx) {
  auto* ctx = static_cast<DecCtx*>(OPENSSL_zalloc(sizeof(DecCtx)));
  if (ctx != nullptr) {
    ctx->prov = static_cast<ProvCtx*>(provctx);
    ctx->group = &kGroups[I];
  }
  return ctx;
}
void dec_freectx(void* ctx) { OPENSSL_free(ctx); }

template <Input In>
int dec_does_selection(void*, int selection) {
  if (selection == 0) return 1;
  if constexpr (In == Input::kPrivDer) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

// Reads the whole input; false if it is empty or larger than any HQC key file (not ours).
bool read_input(const ProvCtx* prov, OSSL_CORE_BIO* cin, Der& data) {
  constexpr std::size_t kMax = 1u << 16;
  BIO* in = BIO_new_from_core_bio(prov->libctx, cin);
  if (in == nullptr) return false;
  unsigned char buf[4096];
  int n;
  while ((n = BIO_read(in, buf, sizeof(buf))) > 0 && data.size() <= kMax) data.insert(data.end(), buf, buf + n);
  OPENSSL_cleanse(buf, sizeof(buf));
  BIO_free(in);
  return !data.empty() && data.size() <= kMax;
}

// Parses a DER SubjectPublicKeyInfo / PrivateKeyInfo of group g. Returns the key bytes in v/len;
// `ours` tells whether the AlgorithmIdentifier names g (then a false return is an error of the
// file, described in *why), otherwise the input belongs to another decoder.
template <Input In>
bool parse_der(const Group& g, const Der& data, bool& ours, const char*& why, const unsigned char*& v,
               std::size_t& len) {
  const unsigned char* p = data.data();
  const unsigned char* end = p + data.size();
  const unsigned char* seq = nullptr;
  std::size_t seq_len = 0;
  ours = false;
  if (!get_tlv(p, end, 0x30, seq, seq_len)) return false;
  const bool trailing = p != end;
  const unsigned char* q = seq;
  const unsigned char* qend = seq + seq_len;
  if constexpr (In == Input::kPrivDer) {
    const unsigned char* ver = nullptr;
    std::size_t ver_len = 0;
    if (!get_tlv(q, qend, 0x02, ver, ver_len) || !algorithm_matches(g, q, qend)) return false;
    ours = true;
    if (ver_len != 1 || ver[0] != 0) return (why = "version is not 0 (v1)", false);
    if (!get_tlv(q, qend, 0x04, v, len)) return (why = "no privateKey OCTET STRING", false);
    const unsigned char* attrs = nullptr;
    std::size_t attrs_len = 0;
    if (q != qend && !get_tlv(q, qend, 0xA0, attrs, attrs_len))  // RFC 5958: only [0] attributes may follow
      return (why = "trailing data after the private key", false);
  } else {
    if (!algorithm_matches(g, q, qend)) return false;
    ours = true;
    if (!get_tlv(q, qend, 0x03, v, len) || len < 1 || v[0] != 0)
      return (why = "no subjectPublicKey BIT STRING with 0 unused bits", false);
    ++v;  // skip the BIT STRING's unused-bits byte
    --len;
  }
  if (q != qend) return (why = "trailing data inside the key structure", false);
  if (trailing) return (why = "trailing data after the key structure", false);
  return true;
}

// Returns 1 without producing an object when the input is not an HQC key of this decoder's
// group, so that OpenSSL tries its other decoders. An input that names the group but is not a
// well-formed DER key of it raises an error and returns 0.
template <Input In>
int decode(void* vctx, OSSL_CORE_BIO* cin, int, OSSL_CALLBACK* data_cb, void* data_cbarg, OSSL_PASSPHRASE_CALLBACK*,
           void*) {
  auto* ctx = static_cast<DecCtx*>(vctx);
  if (ctx == nullptr) return 0;
  const Group& g = *ctx->group;
  Der data;
  if (!read_input(ctx->prov, cin, data)) {
    OPENSSL_cleanse(data.data(), data.size());
    return 1;
  }
  const char* kind = In == Input::kPrivDer ? "PKCS#8 private key" : "SubjectPublicKeyInfo";
  bool ours = false;
  const char* why = "";
  const unsigned char* v = nullptr;
  std::size_t len = 0;
  Key* key = nullptr;
  if (parse_der<In>(g, data, ours, why, v, len)) {
    key = key_new(ctx->prov, &g);
    const bool ok = key != nullptr &&
                    (In == Input::kPrivDer ? key_set_hqc_secret(key, v, len) : key_set_encoded_public(key, v, len));
    if (!ok) {  // the OID said HQC but the key is bad: a clear error, no object
      key_free(key);
      OPENSSL_cleanse(data.data(), data.size());
      return 0;
    }
  } else if (ours) {
    HQCKIT_RAISE(ctx->prov, kErrMalformedKey, "%s %s: %s (DER required)", g.name, kind, why);
    OPENSSL_cleanse(data.data(), data.size());
    return 0;
  }
  OPENSSL_cleanse(data.data(), data.size());
  if (key == nullptr) return 1;
  int object_type = OSSL_OBJECT_PKEY;
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &object_type),
      OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, const_cast<char*>(g.name), 0),
      // An object reference is the address of the key pointer, sized as a pointer (OpenSSL's idiom).
      // NOLINTNEXTLINE(bugprone-sizeof-expression)
      OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &key, sizeof(key)),
      OSSL_PARAM_construct_end(),
  };
  const int rc = data_cb(params, data_cbarg);
  key_free(key);  // nullptr if the key manager took it
  return rc;
}

template <std::size_t I, Input In>
const OSSL_DISPATCH* decoder_dispatch() {
  static const OSSL_DISPATCH kTable[] = {
      HQCKIT_DISPATCH(OSSL_FUNC_DECODER_NEWCTX, OSSL_FUNC_decoder_newctx_fn, &dec_newctx<I>),
      HQCKIT_DISPATCH(OSSL_FUNC_DECODER_FREECTX, OSSL_FUNC_decoder_freectx_fn, &dec_freectx),
      HQCKIT_DISPATCH(OSSL_FUNC_DECODER_DOES_SELECTION, OSSL_FUNC_decoder_does_selection_fn, &dec_does_selection<In>),
      HQCKIT_DISPATCH(OSSL_FUNC_DECODER_DECODE, OSSL_FUNC_decoder_decode_fn, &decode<In>),
      OSSL_DISPATCH{0, nullptr},
  };
  return kTable;
}

constexpr std::size_t kPure[] = {0, 3, 6};  // indexes of the pure HQC groups in kGroups
static_assert(kGroups[0].classical == nullptr && kGroups[3].classical == nullptr && kGroups[6].classical == nullptr);

template <template <Form> class D>
void add_encoders(std::vector<OSSL_ALGORITHM>& v, const char* n) {
  v.push_back({n, "provider=hqckit,output=der,structure=PrivateKeyInfo", D<Form::kPrivDer>::get(), nullptr});
  v.push_back({n, "provider=hqckit,output=pem,structure=PrivateKeyInfo", D<Form::kPrivPem>::get(), nullptr});
  v.push_back({n, "provider=hqckit,output=der,structure=SubjectPublicKeyInfo", D<Form::kPubDer>::get(), nullptr});
  v.push_back({n, "provider=hqckit,output=pem,structure=SubjectPublicKeyInfo", D<Form::kPubPem>::get(), nullptr});
  v.push_back({n, "provider=hqckit,output=text", D<Form::kText>::get(), nullptr});
}
template <Form F>
struct PureEnc {
  static const OSSL_DISPATCH* get() { return encoder_dispatch<F>(); }
};
template <Form F>
struct HybridEnc {
  static const OSSL_DISPATCH* get() { return hybrid_encoder_dispatch<F>(); }
};

template <std::size_t I>
void add_decoders(std::vector<OSSL_ALGORITHM>& v) {
  const char* n = kGroups[I].alg_names;
  v.push_back(
      {n, "provider=hqckit,input=der,structure=PrivateKeyInfo", decoder_dispatch<I, Input::kPrivDer>(), nullptr});
  v.push_back(
      {n, "provider=hqckit,input=der,structure=SubjectPublicKeyInfo", decoder_dispatch<I, Input::kPubDer>(), nullptr});
}

}  // namespace

const OSSL_ALGORITHM* encoder_algorithms() {
  static const std::vector<OSSL_ALGORITHM> kTable = [] {
    std::vector<OSSL_ALGORITHM> v;
    for (const Group& g : kGroups) {
      if (g.classical == nullptr) add_encoders<PureEnc>(v, g.alg_names);
      else add_encoders<HybridEnc>(v, g.alg_names);
    }
    v.push_back({nullptr, nullptr, nullptr, nullptr});
    return v;
  }();
  return kTable.data();
}

const OSSL_ALGORITHM* decoder_algorithms() {
  static const std::vector<OSSL_ALGORITHM> kTable = [] {
    std::vector<OSSL_ALGORITHM> v;
    add_decoders<kPure[0]>(v);
    add_decoders<kPure[1]>(v);
    add_decoders<kPure[2]>(v);
    v.push_back({nullptr, nullptr, nullptr, nullptr});
    return v;
  }();
  return kTable.data();
}

}  // namespace hqckit::provider
