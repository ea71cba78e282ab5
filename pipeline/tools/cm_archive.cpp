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
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/provenance.hpp"
#include "common/store.hpp"
#include "tools/archive.hpp"
#include "tools/process.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

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

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string results = "results", reports = "reports", configs = "configs", archives = "archive", papers_file;
    std::vector<std::string> only;
    cm::Config config("cm_archive", "Packs the current runs of papers into one reproducible, citable archive");
    config.add("papers-file", &papers_file, "the papers: one line <paper> TAB <title of the original article>");
    config.add("papers", &only, "only these papers (default: every paper of papers-file)");
    config.add("results", &results, "the results directory (results/<paper>/<study> names each current run)");
    config.add("reports", &reports, "the reports directory");
    config.add("configs", &configs, "the configs directory");
    config.add("archives", &archives, "where archives and their index.tsv are written");
    config.set_usage(
        "usage: cm_archive --papers-file=FILE [--papers=a,b] [--results=DIR] [--reports=DIR] [--configs=DIR] "
        "[--archives=DIR]\nExit status: 0 written, 2 bad input, 74 an I/O error, 70 an internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (papers_file.empty()) config.fail("papers-file", "required: <paper> TAB <title> per line");
    std::map<std::string, std::string> titles;
    for (const std::string& line : lines(read_text(papers_file, "papers-file"))) {
      const auto fields = cm::split(line, '\t');
      if (fields.size() != 2 || fields[0].empty())
        config.fail("papers-file", "'" + line + "' is not <paper> TAB <title>");
      titles[fields[0]] = fields[1];
    }
    std::vector<std::string> papers;
    if (only.empty()) {
      for (const auto& [paper, title] : titles) papers.push_back(paper);
    } else {
      for (const std::string& paper : only) {
        if (!titles.count(paper)) config.fail("papers", "'" + paper + "' is not a paper of " + papers_file);
        papers.push_back(paper);
      }
    }
    check_results_directory(results);

    const auto& p = cm::provenance();
    const fs::path staging = fs::path(archives) / (".staging-" + std::to_string(::getpid()));
    const fs::path top = staging / archive_top;
    std::error_code ec;
    fs::remove_all(staging, ec);
    fs::create_directories(top, ec);
    if (ec) throw_io_error("cannot create", top, ec);
    struct Cleanup {
      fs::path dir;
      ~Cleanup() {
        std::error_code e;
        fs::remove_all(dir, e);
      }
    } cleanup{staging};

    ordered_json runs = ordered_json::array();
    std::vector<IndexLine> held;
    std::set<std::string> revisions;
    ordered_json libraries = ordered_json::object();
    for (const std::string& paper : papers) {
      const fs::path paper_results = fs::path(results) / paper;
      if (fs::is_directory(paper_results)) {
        for (const RunRecord& run : load_runs(paper_results)) {
          const fs::path into = top / "runs" / run.run_id;
          copy_into(run.dir / "run.json", into / "run.json");
          if (fs::exists(run.dir / "columns.gp")) copy_into(run.dir / "columns.gp", into / "columns.gp");
          if (run.json.contains("files"))
            for (const auto& file : run.json["files"]) {
              const std::string name = file["name"].get<std::string>();
              copy_into(run.dir / name, into / name);
            }
          // Names the reader accepts (cm_verify checks every one): refused here, at the source.
          const std::string solver = json_text(run.json, {"solver", "name"});
          if (!is_study_name(paper) || !is_study_name(run.study) || !is_study_name(solver) ||
              !cm::is_run_id(run.run_id))
            throw cm::InputError(run.dir.string() +
                                 ": its paper, study, solver or run id is not a name an archive may hold");
          const std::string revision = json_text(run.json, {"solver", "revision"});
          revisions.insert(revision);
          runs.push_back({{"paper", paper},
                          {"study", run.study},
                          {"run_id", run.run_id},
                          {"solver", solver},
                          {"revision", revision},
                          {"modified", run.json.contains("solver") && run.json["solver"].value("modified", false)}});
          held.push_back({"", run.run_id, paper + "/" + run.study});
          if (run.json.contains("build"))
            for (const auto& [key, value] : run.json["build"].items())
              if (key != "flags" && key != "type") libraries[key] = value;
        }
      }
      if (fs::is_directory(fs::path(configs) / paper)) copy_tree(fs::path(configs) / paper, top / "configs" / paper);
      if (fs::is_directory(fs::path(reports) / paper)) copy_tree(fs::path(reports) / paper, top / "reports" / paper);

      const ordered_json values = comparison_rows(fs::path(reports) / paper / "comparison.tsv");
      std::size_t reproduced = 0, not_at_scale = 0, total = values.size();
      for (const auto& v : values) {
        if (v.value("status", "") == "MATCH" || v.value("status", "") == "KNOWN-DIFFERENCE") ++reproduced;
        if (v.value("status", "") == "NOT-AT-PAPER-SCALE") ++not_at_scale;  // compared, never reproduced
      }
      ordered_json meta;
      meta["upload_type"] = "dataset";
      meta["title"] = "Reproduction runs of: " + titles[paper];
      meta["description"] = "Runs, configurations, figures and report of a reproduction of \"" + titles[paper] +
                            "\": " + std::to_string(reproduced) + " of " + std::to_string(total) +
                            " published values reproduced (MATCH or an explained KNOWN-DIFFERENCE), " +
                            std::to_string(not_at_scale) +
                            " compared from runs not at the paper's scale (NOT-AT-PAPER-SCALE, not reproduced).";
      meta["references"] = ordered_json::array({titles[paper]});
      meta["version"] = p.version;
      meta["keywords"] = ordered_json::array({"contact mechanics", "reproduction", paper});
      meta["published_values"] = values;
      write_atomic(top / "papers" / (paper + ".json"), meta.dump(2) + "\n");
    }
    if (fs::exists(fs::path(reports) / "index.html"))
      copy_into(fs::path(reports) / "index.html", top / "reports" / "index.html");

    const std::string revision = p.revision + (p.modified ? " (modified)" : "");
    write_atomic(top / "CITATION.cff",
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
    zenodo["title"] = "Contact mechanics reproductions: runs of " + cm::join(papers, ", ");
    zenodo["creators"] = ordered_json::array({{{"name", "The contact mechanics reproductions project"}}});
    zenodo["description"] = "Reproducible runs of the contact mechanics reproductions, software version " + p.version +
                            ", revision " + revision + ". Each paper's metadata is in papers/.";
    zenodo["version"] = p.version;
    ordered_json refs = ordered_json::array();
    for (const auto& paper : papers) refs.push_back(titles[paper]);
    zenodo["references"] = refs;
    write_atomic(top / ".zenodo.json", zenodo.dump(2) + "\n");

    libraries["nlohmann_json"] = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                 std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                 std::to_string(NLOHMANN_JSON_VERSION_PATCH);
    libraries["pandoc"] = first_line_of("pandoc --version");
    libraries["gnuplot"] = first_line_of("gnuplot --version");
    ordered_json manifest;
    manifest["schema"] = archive_schema;
    manifest["software"] = {{"name", "contact mechanics reproductions"},
                            {"version", p.version},
                            {"revision", p.revision},
                            {"modified", p.modified}};
    manifest["run_revisions"] = ordered_json(std::vector<std::string>(revisions.begin(), revisions.end()));
    manifest["libraries"] = libraries;
    manifest["papers"] = papers;
    manifest["runs"] = runs;
    // Every file under a name the reader accepts (is_archive_path): a name outside that grammar
    // would make the archive unverifiable, so it is refused here, at the source.
    std::vector<ManifestFile> listed;
    ordered_json files = ordered_json::array();
    for (const fs::path& file : files_below(top)) {
      if (!is_archive_path(file.string()))
        throw cm::InputError("'" + file.string() + "' is not a name an archive may hold ([A-Za-z0-9_.+-] words)");
      listed.push_back({file.string(), sha256_file(top / file), fs::file_size(top / file)});
      files.push_back({{"path", listed.back().path}, {"sha256", listed.back().sha256}, {"bytes", listed.back().bytes}});
    }
    manifest["files"] = files;
    write_atomic(top / "manifest.json", manifest.dump(2) + "\n");
    write_atomic(top / "SHA256SUMS", sha256sums_text(listed));

    // Reproducible bytes: sorted names, time 0, owner 0, fixed modes; gzip without name and time.
    const fs::path partial = fs::path(archives) / (".archive.partial-" + std::to_string(::getpid()) + ".tar.gz");
    const std::string command =
        "tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=u=rwX,go=rX "
        "--format=gnu -C " +
        quote(staging) + " -cf - " + archive_top + " | gzip -n -9 > " + quote(partial);
    const int status = run_program({"bash", "-c", "set -o pipefail; " + command});
    if (status != 0) {
      fs::remove(partial, ec);
      throw cm::IoError("cannot write the archive '" + partial.string() + "' (tar | gzip exited with " +
                        std::to_string(status) + ")");
    }
    const std::string id = sha256_file(top / "manifest.json");
    const fs::path final_name = fs::path(archives) / (id + ".tar.gz");
    if (fs::exists(final_name)) {
      fs::remove(partial, ec);  // the same bytes are there already: an archive is never rewritten
    } else {
      fs::rename(partial, final_name, ec);
      if (ec) {
        fs::remove(partial, ec);
        throw_io_error("cannot move the archive into", final_name, ec);
      }
    }
    const fs::path index = fs::path(archives) / "index.tsv";
    auto lines_now = read_index(index);
    std::string text;
    std::set<std::string> present;
    for (const auto& line : lines_now) {
      text += line.archive_id + "\t" + line.run_id + "\t" + line.study + "\n";
      present.insert(line.archive_id + line.run_id);
    }
    for (const auto& line : held)
      if (!present.count(id + line.run_id)) text += id + "\t" + line.run_id + "\t" + line.study + "\n";
    write_atomic(index, text);
    std::printf("archive %s: %zu runs of %zu papers in %s\n", id.c_str(), held.size(), papers.size(),
                final_name.c_str());
    return 0;
  });
}
