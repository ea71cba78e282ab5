#include "tools/archive.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

std::string sha256_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(io_message("cannot read", file.string()));
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot start a SHA-256");
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    if (in.gcount() > 0) EVP_DigestUpdate(context.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw IoError(io_message("cannot read", file.string()));
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(context.get(), digest.data(), &size);
  std::string hex;
  char two[3];
  for (unsigned int i = 0; i < size; ++i) {
    std::snprintf(two, sizeof two, "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

std::vector<fs::path> files_below(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) files.push_back(fs::relative(it->path(), dir));
  }
  if (ec) throw_io_error("cannot list", dir, ec);
  std::sort(files.begin(), files.end());
  return files;
}

std::string first_line_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>/dev/null").c_str(), "r"), ::pclose);
  if (!pipe) return "unknown";
  char line[512] = {};
  if (!std::fgets(line, sizeof line, pipe.get())) return "unknown";
  std::string text = line;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  // Read the rest, so that the program is not killed by a closed pipe.
  while (std::fgets(line, sizeof line, pipe.get())) {
  }
  return text.empty() ? "unknown" : text;
}

std::vector<IndexLine> read_index(const fs::path& index) {
  std::vector<IndexLine> result;
  std::error_code ec;
  if (!fs::exists(index, ec)) return result;
  std::size_t number = 0;
  for (const std::string& line : lines(read_text(index, "archives"))) {
    ++number;
    if (line.empty()) continue;
    const auto fields = split(line, '\t');
    if (fields.size() != 3)
      throw InputError(index.string() + ":" + std::to_string(number) +
                       ": not <archive id> TAB <run id> TAB <paper>/<study>");
    result.push_back({fields[0], fields[1], fields[2]});
  }
  return result;
}

}  // namespace cm::pipeline
