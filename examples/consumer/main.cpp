// Minimal use of the C++ API: key pair, encapsulation, decapsulation.
#include <cstdio>

#include <hqc/hqc.hpp>

int main() {
  using K = hqckit::Hqc3;
  K::PublicKey pk;
  K::SecretKey sk;
  K::Ciphertext ct;
  hqckit::SharedSecret ss, ss2;
  if (K::keypair(pk, sk) != hqckit::Status::kOk || K::encaps(ct, ss, pk) != hqckit::Status::kOk ||
      K::decaps(ss2, ct, sk) != hqckit::Status::kOk || !ss.equals(ss2)) {
    std::puts("consumer: FAILED");
    return 1;
  }
  std::printf("consumer: %s round trip OK with backend %s\n", K::kName, hqckit::backend_name().data());
  return 0;
}
