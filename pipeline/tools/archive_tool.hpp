// cm_archive: one self-describing, reproducible archive of the current runs of some papers.
//
// The archive (`cm-archive 2`, pipeline/README.md) is a gzip-compressed tar of one folder
// `cm-archive/` holding
//   runs/<run id>/          each run's run.json, data files and columns.gp (the current run of
//                           every study of the papers: what results/<paper>/<study> names)
//   configs/<paper>/        the exact configs (every INI, the quick presets, published.tsv)
//   reports/<paper>/        the reports and figures, and reports/index.html
//   papers/<paper>.json     per paper, Zenodo-style metadata: the original article, and for
//                           each published value whether it was reproduced
//   CITATION.cff, .zenodo.json   how to cite the software and the deposit
//   manifest.json           the source revision and whether the tree was modified, the library
//                           and tool versions, the runs, and the SHA-256 and size of every file
//   SHA256SUMS              the same hashes for `sha256sum -c`
// It is written as <archives>/<archive id>.tar.gz, where the archive id is the SHA-256 of
// manifest.json: the manifest holds the SHA-256 and size of every other file, so the id names the
// whole content, and it can be checked on the tar.gz and on an unpacked folder alike (cm_verify).
// tar runs with sorted names, time 0 and owner 0, gzip without a name or time, so that the same
// content also gives the same bytes. Written to a hidden temporary
// file and renamed into place without replacing anything; an archive is never changed
// afterwards. Every run it holds is listed in <archives>/index.tsv (archive id, run id,
// paper/study), which keeps those runs from `make prune`.
//
//   cm_archive --papers-file=build/papers.tsv [--papers=friction,maxdiss] [--results=results]
//              [--reports=reports] [--configs=configs] [--archives=archive]
//
// Exit status: 0 written (or already there: the same id); 2 bad input (a paper unknown, a
// directory missing, a malformed run.json); 74 an I/O error; 70 an internal error.
//
// The class ArchiveTool below is the tool; its main, cm_archive.cpp, is one line over cm::tool_main.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/tool.hpp"
#include "tools/archive.hpp"

namespace cm::pipeline {

class ArchiveTool {
 public:
  static constexpr cm::ToolInfo info{"cm_archive",
                                     "Packs the current runs of papers into one reproducible, citable archive",
                                     "Exit status: 0 written, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  /// The papers (and their articles' titles) of papers-file, only those of --papers when given.
  void read_the_papers(const cm::Config& config);

  /// A hidden folder of the archives, removed at the end, that the archive's folder is built in.
  void stage();

  /// The current run of each of the paper's studies: run.json, columns.gp and its data files.
  void copy_the_runs(const std::string& paper);

  void copy_the_configs_and_reports(const std::string& paper) const;

  /// papers/<paper>.json: Zenodo-style metadata, the original article and each published value.
  void write_the_paper_metadata(const std::string& paper);

  /// CITATION.cff and .zenodo.json: how to cite the software and the deposit.
  void write_the_citation();

  /// manifest.json (the software, the libraries, the runs, every file's SHA-256 and size) and
  /// SHA256SUMS.
  void write_the_manifest();

  /// The tar.gz, written as <archives>/<id>.tar.gz, never over an archive there already.
  /// Reproducible bytes: sorted names, time 0, owner 0, fixed modes; gzip without name and time.
  std::filesystem::path pack(const std::string& id) const;

  /// <archives>/index.tsv lists every run the archive holds (which keeps them from make prune).
  void add_to_the_index(const std::string& id) const;

  std::string results_ = "results", reports_ = "reports", configs_ = "configs", archives_ = "archive", papers_file_;
  std::vector<std::string> only_;

  std::map<std::string, std::string> titles_;
  std::vector<std::string> papers_;
  OwnFolder staging_;  // removed when the archive is written or has failed
  std::filesystem::path top_;
  nlohmann::ordered_json runs_ = nlohmann::ordered_json::array();
  std::vector<IndexLine> held_;
  std::set<std::string> revisions_;
  nlohmann::ordered_json libraries_ = nlohmann::ordered_json::object();
};

}  // namespace cm::pipeline
