#include "tools/archive_tool.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "core/provenance.hpp"
#include "core/run_reader.hpp"
#include "core/store.hpp"
#include "tools/archive.hpp"
#include "tools/process.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace cm::pipeline {

namespace {

void copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  if (ec) cm::pipeline::throw_io_error("cannot create", to.parent_path(), ec);
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) cm::pipeline::throw_io_error("cannot copy", from, ec);
}

// Every visible file below `from` (hidden names, such as leftovers of interrupted writes, left out).
void copy_tree(const fs::path& from, const fs::path& to) {
  for (const fs::path& file : cm::pipeline::files_below(from)) {
    bool hidden = false;
    for (const auto& part : file) hidden = hidden || part.string().front() == '.';
    if (!hidden) copy_into(from / file, to / file);
  }
}

std::string quote(const fs::path& path) {
  std::string q = "'";
  for (char c : path.string()) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The rows of a comparison.tsv as {column: value} objects.
ordered_json comparison_rows(const fs::path& file) {
  ordered_json rows = ordered_json::array();
  if (!fs::exists(file)) return rows;
  const auto all = cm::pipeline::lines(cm::pipeline::read_text(file, "reports"));
  if (all.empty()) return rows;
  const auto header = cm::split(all[0], '\t');
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (all[i].empty()) continue;
    const auto fields = cm::split(all[i], '\t');
    ordered_json row;
    for (const char* key :
         {"id", "scalar", "source", "quote", "relation", "published", "reproduced", "status", "expected", "run_id"}) {
      for (std::size_t c = 0; c < header.size() && c < fields.size(); ++c)
        if (header[c] == key) row[key] = fields[c];
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

void ArchiveTool::declare(cm::Config& config) {
  config.add("papers-file", &papers_file_, "the papers: one line <paper> TAB <title of the original article>")
      .required("<paper> TAB <title> per line");
  config.add("papers", &only_, "only these papers (default: every paper of papers-file)");
  config.add("results", &results_, "the results directory (results/<paper>/<study> names each current run)");
  config.add("reports", &reports_, "the reports directory");
  config.add("configs", &configs_, "the configs directory");
  config.add("archives", &archives_, "where archives and their index.tsv are written");
}

int ArchiveTool::run(const cm::Config& config) {
  read_the_papers(config);
  cm::check_results_directory(results_);
  stage();
  for (const std::string& paper : papers_) {
    copy_the_runs(paper);
    copy_the_configs_and_reports(paper);
    write_the_paper_metadata(paper);
  }
  if (fs::exists(fs::path(reports_) / "index.html"))
    copy_into(fs::path(reports_) / "index.html", top_ / "reports" / "index.html");
  write_the_citation();
  write_the_manifest();
  const std::string id = sha256_file(top_ / "manifest.json");
  const fs::path final_name = pack(id);
  add_to_the_index(id);
  std::printf("archive %s: %zu runs of %zu papers in %s\n", id.c_str(), held_.size(), papers_.size(),
              final_name.c_str());
  return 0;
}

void ArchiveTool::read_the_papers(const cm::Config& config) {
  for (const std::string& line : lines(read_text(papers_file_, "papers-file"))) {
    const auto fields = cm::split(line, '\t');
    if (fields.size() != 2 || fields[0].empty())
      config.fail("papers-file", "'" + line + "' is not <paper> TAB <title>");
    titles_[fields[0]] = fields[1];
  }
  if (only_.empty()) {
    for (const auto& [paper, title] : titles_) papers_.push_back(paper);
    return;
  }
  for (const std::string& paper : only_) {
    if (!titles_.count(paper)) config.fail("papers", "'" + paper + "' is not a paper of " + papers_file_);
    papers_.push_back(paper);
  }
}

void ArchiveTool::stage() {
  staging_.dir = fs::path(archives_) / (".staging-" + std::to_string(::getpid()));
  top_ = staging_.dir / archive_top;
  std::error_code ec;
  fs::remove_all(staging_.dir, ec);
  fs::create_directories(top_, ec);
  if (ec) throw_io_error("cannot create", top_, ec);
}

void ArchiveTool::copy_the_runs(const std::string& paper) {
  const fs::path paper_results = fs::path(results_) / paper;
  if (!fs::is_directory(paper_results)) return;
  for (const cm::RunRecord& run : cm::load_runs(paper_results)) {
    const fs::path into = top_ / "runs" / run.run_id;
    copy_into(run.dir / "run.json", into / "run.json");
    if (fs::exists(run.dir / "columns.gp")) copy_into(run.dir / "columns.gp", into / "columns.gp");
    if (run.json.contains("files"))
      for (const auto& file : run.json["files"]) {
        const std::string name = file["name"].get<std::string>();
        copy_into(run.dir / name, into / name);
      }
    // Names the reader accepts (cm_verify checks every one): refused here, at the source.
    const std::string solver = cm::json_text(run.json, {"solver", "name"});
    if (!is_study_name(paper) || !is_study_name(run.study) || !is_study_name(solver) || !cm::is_run_id(run.run_id))
      throw cm::InputError(run.dir.string() + ": its paper, study, solver or run id is not a name an archive may hold");
    const std::string revision = cm::json_text(run.json, {"solver", "revision"});
    revisions_.insert(revision);
    runs_.push_back({{"paper", paper},
                     {"study", run.study},
                     {"run_id", run.run_id},
                     {"solver", solver},
                     {"revision", revision},
                     {"modified", run.json.contains("solver") && run.json["solver"].value("modified", false)}});
    held_.push_back({"", run.run_id, paper + "/" + run.study});
    if (run.json.contains("build"))
      for (const auto& [key, value] : run.json["build"].items())
        if (key != "flags" && key != "type") libraries_[key] = value;
  }
}

void ArchiveTool::copy_the_configs_and_reports(const std::string& paper) const {
  if (fs::is_directory(fs::path(configs_) / paper)) copy_tree(fs::path(configs_) / paper, top_ / "configs" / paper);
  if (fs::is_directory(fs::path(reports_) / paper)) copy_tree(fs::path(reports_) / paper, top_ / "reports" / paper);
}

void ArchiveTool::write_the_paper_metadata(const std::string& paper) {
  const ordered_json values = comparison_rows(fs::path(reports_) / paper / "comparison.tsv");
  std::size_t reproduced = 0, not_at_scale = 0, disagrees = 0, total = values.size();
  for (const auto& v : values) {
    if (v.value("status", "") == "MATCH" || v.value("status", "") == "KNOWN-DIFFERENCE") ++reproduced;
    if (v.value("status", "") == "NOT-AT-PAPER-SCALE") ++not_at_scale;  // compared, never reproduced
    if (v.value("status", "") == "DISAGREES") ++disagrees;              // measured, never reproduced
  }
  ordered_json meta;
  meta["upload_type"] = "dataset";
  meta["title"] = "Reproduction runs of: " + titles_[paper];
  meta["description"] = "Runs, configurations, figures and report of a reproduction of \"" + titles_[paper] +
                        "\": " + std::to_string(reproduced) + " of " + std::to_string(total) +
                        " published values reproduced (MATCH or an explained KNOWN-DIFFERENCE), " +
                        std::to_string(not_at_scale) +
                        " compared from runs not at the paper's scale (NOT-AT-PAPER-SCALE, not reproduced), " +
                        std::to_string(disagrees) + " disagreeing with the paper at its scale (DISAGREES).";
  meta["references"] = ordered_json::array({titles_[paper]});
  meta["version"] = cm::provenance().version;
  meta["keywords"] = ordered_json::array({"contact mechanics", "reproduction", paper});
  meta["published_values"] = values;
  write_atomic(top_ / "papers" / (paper + ".json"), meta.dump(2) + "\n");
}

void ArchiveTool::write_the_citation() {
  const auto& p = cm::provenance();
  const std::string revision = p.revision + (p.modified ? " (modified)" : "");
  write_atomic(top_ / "CITATION.cff",
               "cff-version: 1.2.0\n"
               "message: \"If you use these runs, cite the archive by its id (make cite RUN=<run id>).\"\n"
               "title: \"Contact mechanics reproductions\"\n"
               "type: software\n"
               "authors:\n  - name: \"The contact mechanics reproductions project\"\n"
               "version: \"" +
                   p.version +
                   "\"\n"
                   "commit: \"" +
                   p.revision +
                   "\"\n"
                   "license: \"see the source repository\"\n");
  ordered_json zenodo;
  zenodo["upload_type"] = "dataset";
  zenodo["title"] = "Contact mechanics reproductions: runs of " + cm::join(papers_, ", ");
  zenodo["creators"] = ordered_json::array({{{"name", "The contact mechanics reproductions project"}}});
  zenodo["description"] = "Reproducible runs of the contact mechanics reproductions, software version " + p.version +
                          ", revision " + revision + ". Each paper's metadata is in papers/.";
  zenodo["version"] = p.version;
  ordered_json refs = ordered_json::array();
  for (const auto& paper : papers_) refs.push_back(titles_[paper]);
  zenodo["references"] = refs;
  write_atomic(top_ / ".zenodo.json", zenodo.dump(2) + "\n");
}

void ArchiveTool::write_the_manifest() {
  const auto& p = cm::provenance();
  libraries_["nlohmann_json"] = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  libraries_["pandoc"] = first_line_of("pandoc --version");
  libraries_["gnuplot"] = first_line_of("gnuplot --version");
  ordered_json manifest;
  manifest["schema"] = archive_schema;
  manifest["software"] = {{"name", "contact mechanics reproductions"},
                          {"version", p.version},
                          {"revision", p.revision},
                          {"modified", p.modified}};
  manifest["run_revisions"] = ordered_json(std::vector<std::string>(revisions_.begin(), revisions_.end()));
  manifest["libraries"] = libraries_;
  manifest["papers"] = papers_;
  manifest["runs"] = runs_;
  // Every file under a name the reader accepts (is_archive_path): a name outside that grammar
  // would make the archive unverifiable, so it is refused here, at the source.
  std::vector<ManifestFile> listed;
  ordered_json files = ordered_json::array();
  for (const fs::path& file : files_below(top_)) {
    if (!is_archive_path(file.string()))
      throw cm::InputError("'" + file.string() + "' is not a name an archive may hold ([A-Za-z0-9_.+-] words)");
    listed.push_back({file.string(), sha256_file(top_ / file), fs::file_size(top_ / file)});
    files.push_back({{"path", listed.back().path}, {"sha256", listed.back().sha256}, {"bytes", listed.back().bytes}});
  }
  manifest["files"] = files;
  write_atomic(top_ / "manifest.json", manifest.dump(2) + "\n");
  write_atomic(top_ / "SHA256SUMS", sha256sums_text(listed));
}

fs::path ArchiveTool::pack(const std::string& id) const {
  std::error_code ec;
  const fs::path partial = fs::path(archives_) / (".archive.partial-" + std::to_string(::getpid()) + ".tar.gz");
  const std::string command =
      "tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=u=rwX,go=rX "
      "--format=gnu -C " +
      quote(staging_.dir) + " -cf - " + archive_top + " | gzip -n -9 > " + quote(partial);
  const int status = run_program({"bash", "-c", "set -o pipefail; " + command});
  if (status != 0) {
    fs::remove(partial, ec);
    throw cm::IoError("cannot write the archive '" + partial.string() + "' (tar | gzip exited with " +
                      std::to_string(status) + ")");
  }
  const fs::path final_name = fs::path(archives_) / (id + ".tar.gz");
  if (fs::exists(final_name)) {
    fs::remove(partial, ec);  // the same bytes are there already: an archive is never rewritten
  } else {
    fs::rename(partial, final_name, ec);
    if (ec) {
      fs::remove(partial, ec);
      throw_io_error("cannot move the archive into", final_name, ec);
    }
  }
  return final_name;
}

void ArchiveTool::add_to_the_index(const std::string& id) const {
  const fs::path index = fs::path(archives_) / "index.tsv";
  std::string text;
  std::set<std::string> present;
  for (const auto& line : read_index(index)) {
    text += line.archive_id + "\t" + line.run_id + "\t" + line.study + "\n";
    present.insert(line.archive_id + line.run_id);
  }
  for (const auto& line : held_)
    if (!present.count(id + line.run_id)) text += id + "\t" + line.run_id + "\t" + line.study + "\n";
  write_atomic(index, text);
}

}  // namespace cm::pipeline
