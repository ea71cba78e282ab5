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

#include "common/errors.hpp"

namespace cm::pipeline {

std::optional<double> to_double(std::string_view text) {
  const std::string s(text);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  // Overflow to infinity is refused; underflow to a subnormal or zero is a value.
  if (errno == ERANGE && std::isinf(x)) return std::nullopt;
  return x;
}

std::string format_g(double x, int digits) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

std::string format_full(double x) { return format_g(x, 17); }

void throw_io_error(const std::string& what, const std::filesystem::path& file, const std::error_code& ec) {
  errno = ec.value();  // std::filesystem reports the system's errno values (POSIX)
  throw IoError(io_message(what, file.string()));
}

std::string read_text(const std::filesystem::path& file, const std::string& what) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status)) throw InputError(what + ": file '" + file.string() + "' not found");
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError(what + ": '" + file.string() + "' is not a regular file");
  }
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(io_message(what + ": cannot open", file.string()));
  std::string text;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      const int error = errno;
      ::close(fd);
      errno = error;
      throw IoError(io_message(what + ": cannot read", file.string()));
    }
  }
  ::close(fd);  // read-only: nothing can be lost on close
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

bool hidden(const std::filesystem::path& entry) {
  const std::string name = entry.filename().string();
  return !name.empty() && name.front() == '.';
}

std::vector<std::filesystem::path> visible_subdirectories(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) throw_io_error("cannot list", dir, ec);
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) throw_io_error("cannot list", dir, ec);
    if (hidden(it->path())) continue;
    const bool directory = it->is_directory(ec);
    if (ec) throw_io_error("cannot inspect", it->path(), ec);
    if (directory) dirs.push_back(it->path());
  }
  if (ec) throw_io_error("cannot list", dir, ec);
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::string plural(std::size_t n, const std::string& singular, const std::string& plural_form) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural_form);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result = split(text, '\n');
  if (!result.empty() && result.back().empty()) result.pop_back();
  for (std::string& line : result) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  return result;
}

}  // namespace cm::pipeline
