#include "core/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace cm {

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

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result = split(text, '\n');
  if (!result.empty() && result.back().empty()) result.pop_back();
  for (std::string& line : result) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  return result;
}

}  // namespace cm
