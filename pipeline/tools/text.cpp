#include "tools/text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#include "core/errors.hpp"

namespace cm::pipeline {

std::string format_full(double x) { return format_g(x, 17); }

std::string format_error(double se) {
  if (!(se >= 10.0 && se < 1e6)) return format_g(se, 2);
  const double unit = std::pow(10.0, std::floor(std::log10(se)) - 1.0);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", std::round(se / unit) * unit);
  return text;
}

void write_atomic(const std::filesystem::path& file, const std::string& content) {
  const std::filesystem::path parent = file.parent_path();
  std::error_code ec;
  if (!parent.empty()) {
    std::filesystem::create_directories(parent, ec);
    if (ec) throw_io_error("cannot create the directory of", file, ec);
  }
  const std::filesystem::path temporary =
      parent / ("." + file.filename().string() + ".partial-" + std::to_string(::getpid()));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw IoError(io_message("cannot create", temporary.string()));
  auto fail = [&](const std::string& what) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    std::filesystem::remove(temporary, ec);
    errno = error;
    throw IoError(io_message(what, file.string()));
  };
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // On the disk before the rename, so that a crash leaves the old file or the new one, never an
  // empty one in its place.
  if (::fsync(fd) != 0) fail("cannot write");
  if (::close(fd) != 0) {
    const int error = errno;
    std::filesystem::remove(temporary, ec);
    errno = error;
    throw IoError(io_message("cannot write", file.string()));
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw_io_error("cannot move into place", file, ec);
  }
}

std::string plural(std::size_t n, const std::string& singular, const std::string& plural_form) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural_form);
}

}  // namespace cm::pipeline
