// Archives of runs (`cm-archive 1`, pipeline/README.md): what cm_archive writes and cm_verify and
// cm_cite read.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cm::pipeline {

/// The top folder of every archive.
inline const std::string archive_top = "cm-archive";

/// The SHA-256 of a file's bytes (64 hex digits); a file that cannot be read is a cm::IoError.
std::string sha256_file(const std::filesystem::path& file);

/// Every regular file below `dir`, as paths relative to it, sorted (links are not followed).
std::vector<std::filesystem::path> files_below(const std::filesystem::path& dir);

/// The first line that `command` prints (for tool versions), or "unknown".
std::string first_line_of(const std::string& command);

/// One line of archive/index.tsv: the archive, a run it holds, and the run's paper/study.
struct IndexLine {
  std::string archive_id, run_id, study;
};
std::vector<IndexLine> read_index(const std::filesystem::path& index);

}  // namespace cm::pipeline
