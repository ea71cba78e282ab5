// cm_cite: how to cite a run, as BibTeX and as plain text.
//
// The run is looked up by its id (the full 64 hex digits, or a unique prefix of at least 8) in the
// run store (<results>/runs/<run id>/run.json) and in the archive indexes (<archives>/index.tsv of
// each folder of --archives: archive/ of make archive, records/ of the runs of record).
// The citation names the run, its paper and study, the software version and source revision that
// made it, and the archive that holds it (the archive id is the SHA-256 of the archive's manifest).
// A run not archived yet is cited with a warning to archive it first (`make archive`).
//
//   cm_cite --run=<run id> [--results=results] [--archives=archive,records]
//
// Exit status: 0 printed; 2 bad input (no run with that id, an ambiguous prefix); 74 an I/O
// error; 70 an internal error.
//
// The class CiteTool below is the tool; its main, cm_cite.cpp, is one line over cm::tool_main.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/tool.hpp"
#include "tools/archive.hpp"

namespace cm::pipeline {

/// What a citation says of its run: "?" where the run store does not hold the run (its paper and
/// study then come from the archive index).
struct Cited {
  std::string id, paper = "?", study = "?", version = "?", revision = "?", date = "?";
  bool modified = false;
  std::string archive;  ///< the latest archive holding it, empty if none
};

/// The runs whose ids start with `prefix`: the run ids of the store's folders, then those of the
/// archive index that the store does not hold, each once.
std::vector<std::string> runs_named(const std::string& prefix, const std::filesystem::path& store,
                                    const std::vector<IndexLine>& index);

/// The run `id`'s provenance, from <store>/<id>/run.json when the store holds it, and the last
/// archive of the index that holds it (which also gives its paper and study when the store does not).
Cited cited_run(const std::string& id, const std::filesystem::path& store, const std::vector<IndexLine>& index);

/// The citation as BibTeX (a @misc entry keyed cm-run-<first 12 digits of the id>), then a blank line.
std::string bibtex_citation(const Cited& run);

/// The citation as one line of plain text.
std::string plain_citation(const Cited& run);

class CiteTool {
 public:
  static constexpr cm::ToolInfo info{"cm_cite", "Prints how to cite a run: BibTeX and plain text",
                                     "Exit status: 0 printed, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  std::string id_, results_ = "results";
  std::vector<std::string> archives_{"archive"};
};

}  // namespace cm::pipeline
