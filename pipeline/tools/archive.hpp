// Archives of runs (`cm-archive 2`, pipeline/README.md): what cm_archive writes and cm_verify and
// cm_cite read.
//
// An archive from elsewhere is untrusted input from end to end. Nothing in it becomes a path
// before its name has passed the grammar the project itself writes (is_archive_path,
// is_study_name, cm::is_run_id). It is unpacked by unpack_archive, which writes regular files and
// folders only, below one fresh folder, within a byte budget. Its id is the SHA-256 of its
// manifest, which holds the SHA-256 and size of every other file: the id names the whole content,
// and a changed manifest is damage.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cm::pipeline {

/// The top folder of every archive.
inline const std::string archive_top = "cm-archive";
/// The schema of the manifests this build writes and reads.
inline const std::string archive_schema = "cm-archive 2";
/// The exit status of cm_verify and cm_import when an archive or a record is damaged (EX_DATAERR).
inline constexpr int exit_damaged = 65;

/// The SHA-256 of a file's bytes (64 hex digits); a file that cannot be read is a cm::IoError.
std::string sha256_file(const std::filesystem::path& file);

/// Every regular file below `dir`, as paths relative to it, sorted (links are not followed).
std::vector<std::filesystem::path> files_below(const std::filesystem::path& dir);

/// The first line that `command` prints (for tool versions), or "unknown".
std::string first_line_of(const std::string& command);

/// A folder of a tool's own (a staging or scratch folder), removed with all it holds when the tool
/// ends, done or failed; `remove` false keeps it (a folder the user named). Empty: nothing.
struct OwnFolder {
  std::filesystem::path dir;
  bool remove = true;
  OwnFolder() = default;
  OwnFolder(const OwnFolder&) = delete;
  OwnFolder& operator=(const OwnFolder&) = delete;
  ~OwnFolder() {
    std::error_code e;
    if (remove && !dir.empty()) std::filesystem::remove_all(dir, e);
  }
};

/// One line of archive/index.tsv: the archive, a run it holds, and the run's paper/study.
struct IndexLine {
  std::string archive_id, run_id, study;
};
std::vector<IndexLine> read_index(const std::filesystem::path& index);

/// The archive's contents are not what its manifest (or the archive format) says: exit 65.
struct Damage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Whether `name` is a name the project gives a paper, a study or a solver: 1 to 64 of
/// [a-z0-9_].
bool is_study_name(const std::string& name);

/// Whether `path` is a relative path the project writes into an archive: 1 to 16 components of
/// 1 to 128 characters of [A-Za-z0-9_.+-] each, none of them "." or "..", separated by single
/// slashes (no leading, trailing or doubled slash).
bool is_archive_path(const std::string& path);

/// Unpacks the gzip-compressed tar `archive` into `into`, a folder that exists and is empty. It
/// refuses, as Damage naming the member: a member outside `cm-archive/` (an absolute name, a "..",
/// any other top folder), a name that is not is_archive_path, a link of any kind, a device, FIFO or
/// socket, and a member twice. So is a member that would take the bytes written past `max_bytes`;
/// each member also counts 512 bytes, its header, so that a flood of empty members is bounded too.
/// Writes regular files and folders only; never follows, creates or replaces a link. A file that cannot be read or is
/// no tar.gz is Damage ("does not unpack").
void unpack_archive(const std::filesystem::path& archive, const std::filesystem::path& into, std::uintmax_t max_bytes);

/// Checks an unpacked archive folder `top` (its cm-archive/) as unpack_archive checks members:
/// every entry below it a folder or a regular file (no link, no device, FIFO or socket), with a
/// name of is_archive_path. Throws Damage naming the first entry that is not.
void check_unpacked(const std::filesystem::path& top);

/// A file of the manifest.
struct ManifestFile {
  std::string path, sha256;
  std::uintmax_t bytes = 0;
};
/// A run of the manifest: each name checked against the project's grammar.
struct ManifestRun {
  std::string paper, study, run_id, solver;
};
struct Manifest {
  std::vector<ManifestFile> files;
  std::vector<ManifestRun> runs;
};

/// Parses and validates manifest.json's text. Anything else than the schema `cm-archive 2` with
/// well-typed fields, names of the project's grammar, each file and each paper/study once, is
/// Damage naming the field.
Manifest parse_manifest(const std::string& text);

/// SHA256SUMS as cm_archive writes it beside a manifest with these files.
std::string sha256sums_text(const std::vector<ManifestFile>& files);

/// The archive id in an archive's name: "<id>.tar.gz", or a folder "<id>"; "" when it holds none.
std::string archive_id_in_name(const std::filesystem::path& archive);

/// A run of a checked archive, every name it gives checked (check_archive).
struct ArchivedRun {
  ManifestRun entry;
  nlohmann::json run;                                      ///< its run.json
  std::vector<std::string> keys;                           ///< --KEY=VALUE of its configuration (output.store left out)
  std::vector<std::string> files;                          ///< its data files (run.json's `files`)
  std::vector<std::pair<std::string, std::string>> reads;  ///< (configuration key, run id) it read
  long ranks = 0;                                          ///< MPI ranks (0: not over MPI)
};

/// What checking an archive found: its folder, manifest and runs, and the damage (none: the
/// archive is as its manifest says, and its id is the SHA-256 of that manifest).
struct CheckedArchive {
  std::filesystem::path top;  ///< the cm-archive/ folder checked
  Manifest manifest;
  std::vector<ArchivedRun> runs;
  std::vector<std::string> damage;  ///< each finding, "<what>: <why>"; empty when intact
};

/// Steps 1 to 3 of reading an archive from elsewhere (pipeline/README.md, cm_verify), each
/// complete before the next. 1: a tar.gz is unpacked by unpack_archive into `unpack_into`, an
/// empty folder; a folder (the one holding cm-archive/) is checked by check_unpacked. 2: the
/// SHA-256 of manifest.json must be `id`, and the manifest is parsed. 3: every file it lists is
/// there with its size and SHA-256, SHA256SUMS says the same and no other file is there. Every
/// run's names and values are of the project's grammar (check_archived_run). Damage is returned
/// in `damage`, never thrown; nothing is run.
CheckedArchive check_archive(const std::filesystem::path& archive, const std::string& id,
                             const std::filesystem::path& unpack_into, std::uintmax_t max_bytes);

/// Step 3 for one run of the manifest: its run.json parses and agrees with the manifest, and every
/// file of the run folder is run.json, columns.gp or a data file its run.json lists. Every
/// configuration key is of the project's grammar, every value stays inside the archive when read as
/// a path, and every run it read is a run id. Throws Damage naming what is wrong.
ArchivedRun check_archived_run(const ManifestRun& entry, const std::filesystem::path& top,
                               const std::set<std::string>& listed);

}  // namespace cm::pipeline
