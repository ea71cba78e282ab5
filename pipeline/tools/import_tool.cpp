#include "tools/import_tool.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "core/run.hpp"
#include "core/store.hpp"
#include "tools/archive.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

void ImportTool::declare(cm::Config& config) {
  config.add("archive", &archive_, "the record, <archive id>.tar.gz (records/)").required("a record of cm_archive");
  config.add("results", &results_,
             "the results directory: results/<paper>/<study> is linked to the run, kept in <results>/runs");
  config.add("study", &study_, "the run to import, <paper>/<study> (default: every run of the record)");
  config.add("run", &run_id_, "the run id the record index gives that study (default: whichever the record holds)");
  config
      .add("max_bytes", &max_bytes_,
           "the most bytes unpacking may write (each member counts 512 more), as cm_verify's: a record is kept to "
           "a few MB")
      .unit("B")
      .range(cm::Range::positive());
}

int ImportTool::run(const cm::Config& config) {
  check_the_keys(config);
  make_the_folder();
  const CheckedArchive checked = check_archive(archive_, id_, own_.dir, static_cast<std::uintmax_t>(max_bytes_));
  if (!checked.damage.empty()) {
    for (const std::string& d : checked.damage)
      std::fprintf(stderr, "cm_import: DAMAGED %s: %s\n", archive_.c_str(), d.c_str());
    std::fprintf(stderr, "cm_import: the record %s is refused (%zu finding%s); nothing was imported or re-run\n",
                 archive_.c_str(), checked.damage.size(), checked.damage.size() == 1 ? "" : "s");
    return exit_damaged;
  }
  for (const ArchivedRun& r : chosen(config, checked)) import(checked, r);
  return 0;
}

void ImportTool::check_the_keys(const cm::Config& config) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::status(archive_, ec)))
    config.fail("archive", "'" + archive_ + "' is no record file (<archive id>.tar.gz)");
  id_ = archive_id_in_name(archive_);
  if (id_.empty() || !archive_.ends_with(".tar.gz"))
    config.fail("archive", "'" + archive_ +
                               "' holds no archive id in its name (<id>.tar.gz, as cm_archive names it): a record "
                               "is checked against the id it is known by");
  if (!study_.empty()) {
    const auto parts = cm::split(study_, '/');
    if (parts.size() != 2 || !is_study_name(parts[0]) || !is_study_name(parts[1]))
      config.fail("study", "'" + study_ + "' is not <paper>/<study> (names of [a-z0-9_])");
  }
  if (!run_id_.empty() && !cm::is_run_id(run_id_))
    config.fail("run", "'" + run_id_ + "' is not a run id (64 hex digits)");
  if (!run_id_.empty() && study_.empty()) config.fail("run", "a run id is checked for one study: give study too");
  if (!fs::is_directory(results_, ec))
    config.fail("results", "'" + results_ + "' is not a directory (make creates it)");
}

void ImportTool::make_the_folder() {
  store_ = fs::path(results_) / "runs";
  std::error_code ec;
  fs::create_directories(store_, ec);
  if (ec) throw_io_error("cannot create", store_, ec);
  cm::remove_dead_partials(store_);  // what killed imports and runs left, never a live one's
  const fs::path dir = store_ / (".import-" + std::to_string(::getpid()));
  if (!fs::create_directory(dir, ec) || ec)
    throw cm::IoError("cannot create '" + dir.string() + "'" + (ec ? ": " + ec.message() : ": it exists"));
  own_.dir = dir;
}

std::vector<ArchivedRun> ImportTool::chosen(const cm::Config& config, const CheckedArchive& checked) const {
  if (study_.empty()) return checked.runs;
  for (const ArchivedRun& r : checked.runs) {
    if (r.entry.paper + "/" + r.entry.study != study_) continue;
    if (!run_id_.empty() && r.entry.run_id != run_id_)
      config.fail("run", "the record " + archive_ + " holds the run " + r.entry.run_id + " of " + study_ + ", not " +
                             run_id_ + ": the record index and the record disagree");
    return {r};
  }
  config.fail("study", "the record " + archive_ + " holds no run of " + study_);
}

void ImportTool::import(const CheckedArchive& checked, const ArchivedRun& r) {
  const auto& [paper, study, run_id, solver] = r.entry;
  const fs::path entry = store_ / run_id;
  const fs::path from = checked.top / "runs" / run_id;
  bool created = false;
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, entry.c_str(), RENAME_NOREPLACE) == 0) {
    created = true;
  } else if (errno == EEXIST || errno == ENOTEMPTY) {
    check_the_same(checked, r, entry);
  } else {
    throw cm::IoError(cm::io_message("cannot move the run into", entry.string()));
  }
  const fs::path pointer = fs::path(results_) / paper / study;
  try {
    std::error_code ec;
    fs::create_directories(pointer.parent_path(), ec);
    if (ec) throw_io_error("cannot create", pointer.parent_path(), ec);
    cm::point_to(pointer, entry, [&, &paper = paper, &study = study] { check_the_pointer(pointer, paper, study); });
  } catch (...) {
    std::error_code e;
    if (created) fs::remove_all(entry, e);  // what this import made, and nothing else
    throw;
  }
  std::printf("import  %s/%s: run %s from the record %s%s\n", paper.c_str(), study.c_str(), run_id.c_str(), id_.c_str(),
              created ? "" : " (in the run store already)");
}

void ImportTool::check_the_same(const CheckedArchive& checked, const ArchivedRun& r, const fs::path& entry) const {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(entry, ec)))
    throw cm::InputError("results: '" + entry.string() + "' is in the run store and is not a run folder; it is " +
                         "left untouched: move it away to import the record " + archive_);
  const std::string prefix = "runs/" + r.entry.run_id + "/";
  for (const auto& file : checked.manifest.files) {
    if (!file.path.starts_with(prefix)) continue;
    const fs::path here = entry / file.path.substr(prefix.size());
    if (!fs::is_regular_file(fs::symlink_status(here, ec)) || sha256_file(here) != file.sha256)
      throw cm::InputError("results: the run store holds a run " + r.entry.run_id + " whose " +
                           here.filename().string() + " is not the record's (" + archive_ +
                           "); it is left untouched: move '" + entry.string() + "' away to import the record");
  }
}

void ImportTool::check_the_pointer(const fs::path& pointer, const std::string& paper, const std::string& study) const {
  std::error_code ec;
  const auto status = fs::symlink_status(pointer, ec);
  if (ec || status.type() == fs::file_type::not_found) return;
  if (status.type() != fs::file_type::symlink || !cm::store_link_target(pointer, store_))
    throw cm::InputError("results: '" + pointer.string() +
                         "' is not a link into the run store; an import replaces only such a link. It is left "
                         "untouched: move it away to import the record " +
                         archive_);
  cm::check_replaceable(pointer, paper, study, store_);
}

}  // namespace cm::pipeline
