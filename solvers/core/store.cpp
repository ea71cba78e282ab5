#include "core/store.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <limits>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace cm {

namespace {
// How often the pointer is retried when a racing run keeps changing it between the checks.
constexpr int point_attempts = 20;
}  // namespace

bool is_run_id(const std::string& text) {
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::optional<long> partial_pid(const std::string& name) {
  std::string pid;
  if (name.rfind(".import-", 0) == 0) {
    pid = name.substr(8);
  } else {
    // "." + 64 hex digits + ".partial-" or ".old-" + pid
    if (name.size() < 66 || name[0] != '.' || !is_run_id(name.substr(1, 64)) || name[65] != '.') return std::nullopt;
    const std::string rest = name.substr(66);
    for (const std::string kind : {"partial-", "old-"})
      if (rest.rfind(kind, 0) == 0) pid = rest.substr(kind.size());
  }
  // A pid as getpid() prints it: decimal, no sign, no leading zero, within a pid_t (at most 10
  // digits checked before converting, so the conversion cannot overflow a long).
  if (pid.empty() || pid.size() > 10 || pid[0] == '0' || pid.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const long value = std::stol(pid);
  if (value > std::numeric_limits<pid_t>::max()) return std::nullopt;
  return value;
}

std::vector<fs::path> remove_dead_partials(const fs::path& store, bool remove) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(store, ec)) {
    const auto pid = partial_pid(entry.path().filename().string());
    if (!pid) continue;
    std::error_code status_ec;
    if (fs::symlink_status(entry.path(), status_ec).type() != fs::file_type::directory) continue;
    // Gone only when the system says no such process: EPERM is a live process of another user.
    if (::kill(static_cast<pid_t>(*pid), 0) == 0 || errno != ESRCH) continue;
    found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  if (!remove) return found;
  std::vector<fs::path> removed;
  for (const auto& dir : found) {
    std::error_code remove_ec;
    fs::remove_all(dir, remove_ec);
    if (!remove_ec) removed.push_back(dir);
  }
  return removed;
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
