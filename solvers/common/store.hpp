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

namespace cm {

/// Whether `text` is a run id: 64 lower-case hex digits (a SHA-256).
bool is_run_id(const std::string& text);

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
