// The run store (CONVENTIONS.md, "A run"): every run is kept as <store>/<run id>/ (results/runs by
// default), and the output a study was asked for (results/<paper>/<study>) becomes a pointer to
// it, a relative symbolic link such as `../runs/<run id>`. A newer run of the study moves the
// pointer; the older run stays in the store, retrievable and verifiable by its id, until it is
// pruned explicitly (cm_store --prune, which never removes a run that a pointer names, that is
// pinned, or that an archive holds).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cm {

/// Whether `text` is a run id: 64 lower-case hex digits (a SHA-256).
bool is_run_id(const std::string& text);

/// The hidden folders a process makes in a run store while it works, and removes when it ends:
/// `.<run id>.partial-<pid>` (a run being written), `.<run id>.old-<pid>` (a run being replaced,
/// by earlier versions) and `.import-<pid>` (a record being unpacked by cm_import). A process
/// killed (SIGKILL, a crash) leaves its folder behind. This removes each folder of `store` whose
/// name is exactly of that grammar (the pid decimal, without a leading zero) and whose process is
/// gone (kill(pid, 0) fails with ESRCH), and nothing else: never the folder of a live process,
/// never a link, never a name of anyone else's. With `remove` false it only lists them. Returns
/// the folders removed (or that would be), sorted; a folder that cannot be removed is skipped.
std::vector<std::filesystem::path> remove_dead_partials(const std::filesystem::path& store, bool remove = true);

/// Whether `name` is one of the hidden folder names above, and the pid it names.
std::optional<long> partial_pid(const std::string& name);

/// When `link` is a symbolic link whose text names <store>/<run id> (relative to the link's
/// folder, or absolute), that store entry (which may no longer exist); otherwise nothing.
std::optional<std::filesystem::path> store_link_target(const std::filesystem::path& link,
                                                       const std::filesystem::path& store);

/// Makes `pointer` a relative symbolic link to `entry`, atomically: a hidden link is made beside
/// it and renamed over it. What is at `pointer` is first checked by `check_replaceable` (which
/// throws to refuse); an earlier run directory there (written before the store existed) is
/// exchanged with the link and then removed.
void point_to(const std::filesystem::path& pointer, const std::filesystem::path& entry,
              const std::function<void()>& check_replaceable);

}  // namespace cm
