// The bottom of the study kit: what a run records of the build and the source it came from,
// and the SHA-256 that names runs (and, later, archives) by their content.
#pragma once

#include <string>

namespace cm {

/// Build and source facts recorded in every run.json.
struct Provenance {
  std::string version;   ///< the project's version
  std::string revision;  ///< source revision (git commit), "unknown" outside a checkout
  bool modified;         ///< the tree had uncommitted changes at build time
  std::string build_type, compiler, flags;
  std::string sundials, eigen, boost;  ///< the library versions the build was configured with
};
const Provenance& provenance();

/// The SHA-256 of `text`, as 64 lower-case hex digits.
std::string sha256_hex(const std::string& text);

}  // namespace cm
