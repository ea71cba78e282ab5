#include "common/store.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>

#include "common/errors.hpp"

namespace fs = std::filesystem;

namespace cm {

namespace {
// How often the pointer is retried when a racing run keeps changing it between the checks.
constexpr int point_attempts = 20;
}  // namespace

bool is_run_id(const std::string& text) {
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::optional<fs::path> store_link_target(const fs::path& link, const fs::path& store) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(link, ec))) return std::nullopt;
  const fs::path text = fs::read_symlink(link, ec);
  if (ec) return std::nullopt;
  const fs::path folder = link.has_parent_path() ? link.parent_path() : fs::path(".");
  const fs::path named = (text.is_absolute() ? text : folder / text).lexically_normal();
  if (!is_run_id(named.filename().string())) return std::nullopt;
  // The link's folder and the store compared as absolute paths, their links resolved.
  const fs::path a = fs::weakly_canonical(fs::absolute(named.parent_path(), ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(store, ec), ec);
  if (ec || a != b) return std::nullopt;
  return store / named.filename();
}

void point_to(const fs::path& pointer, const fs::path& entry, const std::function<void()>& check_replaceable) {
  std::error_code ec;
  const fs::path folder = pointer.has_parent_path() ? pointer.parent_path() : fs::path(".");
  const fs::path text = fs::relative(fs::absolute(entry), fs::weakly_canonical(fs::absolute(folder)), ec);
  if (ec || text.empty())
    throw IoError("--output: cannot express '" + entry.string() + "' relative to '" + folder.string() +
                  "': " + ec.message());
  const fs::path link = folder / ("." + pointer.filename().string() + ".link-" + std::to_string(::getpid()));
  fs::remove(link, ec);
  fs::create_symlink(text, link, ec);
  if (ec) throw IoError("--output: cannot create the link '" + link.string() + "': " + ec.message());
  for (int attempt = 0;; ++attempt) {
    if (attempt == point_attempts) {
      fs::remove(link, ec);
      throw IoError("--output: '" + pointer.string() + "' kept changing while this run tried to point it");
    }
    if (::renameat2(AT_FDCWD, link.c_str(), AT_FDCWD, pointer.c_str(), RENAME_NOREPLACE) == 0) return;
    if (errno != EEXIST) {
      const std::string message = io_message("cannot link", pointer.string());
      fs::remove(link, ec);
      throw IoError(message);
    }
    try {
      check_replaceable();
    } catch (...) {
      fs::remove(link, ec);
      throw;
    }
    if (fs::is_symlink(fs::symlink_status(pointer, ec))) {
      if (::rename(link.c_str(), pointer.c_str()) == 0) return;  // an earlier pointer: replaced atomically
    } else if (::renameat2(AT_FDCWD, link.c_str(), AT_FDCWD, pointer.c_str(), RENAME_EXCHANGE) == 0) {
      fs::remove_all(link, ec);  // now the earlier run written in place, checked above
      return;
    }
    if (errno != ENOENT && errno != EISDIR && errno != ENOTDIR) {
      const std::string message = io_message("cannot replace", pointer.string());
      fs::remove(link, ec);
      throw IoError(message);
    }
  }
}

}  // namespace cm
