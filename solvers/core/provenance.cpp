#include "core/provenance.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

#include "cm_revision.hpp"

namespace cm {

const Provenance& provenance() {
  // The library versions come from CMake's find_package, so that recording them links nothing.
  static const Provenance p{CM_VERSION, CM_REVISION,         CM_MODIFIED,      CM_BUILD_TYPE,   CM_COMPILER,
                            CM_FLAGS,   CM_SUNDIALS_VERSION, CM_EIGEN_VERSION, CM_BOOST_VERSION};
  return p;
}

std::string sha256_hex(const std::string& text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(hex[digest[i] >> 4]);
    out.push_back(hex[digest[i] & 15]);
  }
  return out;
}

}  // namespace cm
