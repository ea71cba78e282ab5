// cm_verify: checks an archive of cm_archive and re-runs its runs with the current build.
//
// First the manifest: the archive must unpack, and every file of manifest.json must be there
// with its SHA-256, and no other file (a damaged archive: each damaged, missing or extra file is
// named). When the archive's file name is an archive id (<id>.tar.gz), the SHA-256 of its bytes
// must be that id. Then every run of the manifest is run again from its archived configuration
// (every key of its run.json, on the command line of the solver it names, found in --bin; under
// mpirun on as many ranks when its statistics record MPI ranks) into a scratch folder, from a
// tree where results/<paper>/<study> names the archived runs (a run that goes on from another
// run's saved state reads the archived one), and each data file is compared with the archived one column by column
// (cm_tsvdiff's rule |a - b| <= abs + rel |a|), and each scalar the same way. A table says,
// per run, REPRODUCES, DRIFT (the largest difference, relative to what is allowed, and where),
// FAILED (the solver's exit status) or NO-SOLVER.
//
//   cm_verify --archive=archive/<id>.tar.gz --bin=build/bin [--scratch=DIR] [--abs=1e-9] [--rel=1e-7]
//   cm_verify --archive=DIR ...        # an archive unpacked already (its cm-archive/ folder)
//
// The default tolerances are the loosest of the regression tests (abs 1e-9, rel 1e-7): a re-run
// with the same build gives the same bytes (CONVENTIONS.md, deterministic runs), and another
// compiler or library may move the last digits of an integration by its rtol, which the studies
// keep at 1e-10 or below.
//
// Exit status: 0 every run reproduces; 1 a run drifted, failed or has no solver here; 65 a
// damaged archive (it does not unpack, or a file is missing, changed or unexpected: nothing was
// re-run); 2 bad input (no such archive, a bad key); 74 an I/O error; 70 an internal error.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/store.hpp"
#include "tools/archive.hpp"
#include "tools/process.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"
#include "tools/tsv.hpp"

namespace fs = std::filesystem;

namespace {

constexpr int exit_drift = 1;
constexpr int exit_damaged = 65;  // EX_DATAERR: the archive itself is damaged

std::string quote(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string archive, bin = "build/bin", scratch;
    double abs = 1e-9, rel = 1e-7;
    cm::Config config("cm_verify", "Checks an archive's manifest, re-runs its runs and compares the outputs");
    config.add("archive", &archive, "the archive (<id>.tar.gz) or an unpacked one (the folder holding cm-archive/)");
    config.add("bin", &bin, "where the solvers of the current build are");
    config.add("scratch", &scratch, "a folder for the unpacked archive and the re-runs (default: a new temporary one)");
    config.add("abs", &abs, "absolute tolerance of every value").range(cm::Range::nonnegative());
    config.add("rel", &rel, "relative tolerance of every value (times |archived|)").range(cm::Range::nonnegative());
    config.set_usage(
        "usage: cm_verify --archive=FILE|DIR [--bin=DIR] [--scratch=DIR] [--abs=A] [--rel=R]\nExit status: 0 every "
        "run reproduces, 1 drift (or a run failed), 65 a damaged archive, 2 bad input, 74 an I/O error, 70 an "
        "internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (archive.empty()) config.fail("archive", "required: an archive of cm_archive");
    std::error_code ec;
    if (!fs::exists(archive, ec)) config.fail("archive", "'" + archive + "' not found");

    bool own_scratch = false;
    if (scratch.empty()) {
      std::string pattern = (fs::temp_directory_path() / "cm_verify.XXXXXX").string();
      if (!::mkdtemp(pattern.data())) throw cm::IoError(cm::io_message("cannot create", pattern));
      scratch = pattern;
      own_scratch = true;
    }
    struct Cleanup {
      fs::path dir;
      bool own;
      ~Cleanup() {
        std::error_code e;
        if (own) fs::remove_all(dir, e);
      }
    } cleanup{scratch, own_scratch};

    // 1. The archive unpacks, and its bytes are its id.
    fs::path top;
    std::vector<std::string> damage;
    if (fs::is_directory(archive)) {
      top = fs::path(archive) / archive_top;
    } else {
      const fs::path unpacked = fs::path(scratch) / "unpacked";
      fs::remove_all(unpacked, ec);
      fs::create_directories(unpacked, ec);
      if (ec) throw_io_error("cannot create", unpacked, ec);
      const int status =
          run_program({"bash", "-c", "tar -xzf " + quote(archive) + " -C " + quote(unpacked.string()) + " 2>&1"});
      if (status != 0) {
        std::printf("DAMAGED %s: does not unpack (tar exited with %d)\n", archive.c_str(), status);
        return exit_damaged;
      }
      top = unpacked / archive_top;
      std::string name = fs::path(archive).filename().string();
      const std::string suffix = ".tar.gz";
      if (name.size() > suffix.size() && name.ends_with(suffix)) name.resize(name.size() - suffix.size());
      if (cm::is_run_id(name) && sha256_file(archive) != name)
        damage.push_back(archive + ": its SHA-256 is not the archive id in its name");
    }
    if (!fs::is_regular_file(top / "manifest.json")) {
      std::printf("DAMAGED %s: no %s/manifest.json\n", archive.c_str(), archive_top.c_str());
      return exit_damaged;
    }
    nlohmann::json manifest;
    try {
      manifest = nlohmann::json::parse(read_text(top / "manifest.json", "archive"));
      if (manifest.value("schema", "") != "cm-archive 1" || !manifest["files"].is_array() ||
          !manifest["runs"].is_array())
        throw std::runtime_error("not a cm-archive 1 manifest");
    } catch (const std::exception& e) {
      std::printf("DAMAGED %s/manifest.json: %s\n", archive_top.c_str(), e.what());
      return exit_damaged;
    }

    // 2. The manifest: every file there with its hash, and nothing else.
    std::set<std::string> listed{"manifest.json", "SHA256SUMS"};
    for (const auto& file : manifest["files"]) {
      const std::string path = file.value("path", "");
      listed.insert(path);
      const fs::path here = top / path;
      if (!fs::is_regular_file(here)) {
        damage.push_back(path + ": missing");
      } else if (sha256_file(here) != file.value("sha256", "")) {
        damage.push_back(path + ": changed (its SHA-256 differs from the manifest)");
      }
    }
    for (const fs::path& file : files_below(top))
      if (!listed.count(file.string())) damage.push_back(file.string() + ": not in the manifest");
    if (!damage.empty()) {
      for (const std::string& d : damage) std::printf("DAMAGED %s\n", d.c_str());
      std::printf("cm_verify: the archive is damaged (%zu file%s); nothing was re-run\n", damage.size(),
                  damage.size() == 1 ? "" : "s");
      return exit_damaged;
    }
    std::printf("manifest: %zu files, every SHA-256 as listed\n", manifest["files"].size());

    // 3. Every run again, from its archived configuration, in a tree of its own: `configs` is the
    // archive's, and `results/<paper>/<study>` names each archived run, so a run that reads
    // another (a channel going on from a saved state) reads the archived one.
    const fs::path tree = fs::absolute(fs::path(scratch) / "tree");
    fs::remove_all(tree, ec);
    fs::create_directories(tree / "results", ec);
    if (ec) throw_io_error("cannot create", tree, ec);
    if (fs::is_directory(top / "configs"))
      fs::create_directory_symlink(fs::absolute(top / "configs"), tree / "configs");
    for (const auto& entry : manifest["runs"]) {
      const fs::path link = tree / "results" / entry.value("paper", "?") / entry.value("study", "?");
      fs::create_directories(link.parent_path(), ec);
      if (!fs::exists(link))
        fs::create_directory_symlink(fs::absolute(top / "runs" / entry.value("run_id", "?")), link);
    }
    const DiffOptions options{{abs, rel}, {}};
    std::printf("%-12s %-32s %-16s %s\n", "status", "paper/study", "run id",
                "largest difference (ratio to allowed, where)");
    std::size_t bad = 0;
    for (const auto& entry : manifest["runs"]) {
      const std::string paper = entry.value("paper", "?"), study = entry.value("study", "?");
      const std::string id = entry.value("run_id", "?"), solver = entry.value("solver", "?");
      const fs::path archived = top / "runs" / id;
      const nlohmann::json run =
          parse_run_json(read_text(archived / "run.json", "archive"), (archived / "run.json").string());
      const std::string label = paper + "/" + study;
      const std::string short_id = id.substr(0, 16);
      const fs::path program = fs::path(bin) / solver;
      if (solver.find('/') != std::string::npos || !fs::exists(program)) {
        std::printf("%-12s %-32s %-16s no solver %s in %s\n", "NO-SOLVER", label.c_str(), short_id.c_str(),
                    solver.c_str(), bin.c_str());
        ++bad;
        continue;
      }
      const fs::path output = fs::absolute(fs::path(scratch) / "reruns" / paper / study);
      fs::remove_all(output, ec);
      std::vector<std::string> args;
      // A run over MPI ranks (its statistics say how many) runs again under mpirun on as many.
      const auto& stats = run.value("statistics", nlohmann::json::object());
      if (stats.contains("mpi") && stats["mpi"].contains("ranks") && stats["mpi"]["ranks"].is_number()) {
        if (run_program({"bash", "-c", "command -v mpirun >/dev/null"}) != 0) {
          std::printf("%-12s %-32s %-16s a run over MPI ranks, and no mpirun here (openmpi-bin)\n", "NO-SOLVER",
                      label.c_str(), short_id.c_str());
          ++bad;
          continue;
        }
        args = {"mpirun", "--oversubscribe", "-np", std::to_string(stats["mpi"]["ranks"].get<long>())};
        if (::geteuid() == 0) args.push_back("--allow-run-as-root");
      }
      args.push_back(fs::absolute(program).string());
      const std::string file = run["config"].value("file", "");
      if (!file.empty() && fs::is_regular_file(top / file))
        args.insert(args.end(), {"--config", fs::absolute(top / file).string()});
      for (const auto& [key, value] : run["config"]["values"].items())
        if (key != "output.store") args.push_back("--" + key + "=" + value.get<std::string>());
      args.insert(args.end(), {"--output", output.string(), "--output.store=none", "--quiet"});
      // What the solver prints goes to a log beside its re-run, shown when it fails.
      std::string command = "cd " + quote(tree.string()) + " && exec";
      for (const std::string& a : args) command += " " + quote(a);
      const fs::path log = fs::absolute(fs::path(scratch) / "reruns" / (paper + "." + study + ".log"));
      fs::create_directories(log.parent_path(), ec);
      const int status = run_program({"bash", "-c", command + " > " + quote(log.string()) + " 2>&1"});
      if (status != 0) {
        std::printf("%-12s %-32s %-16s the solver exited with %d; its output:\n", "FAILED", label.c_str(),
                    short_id.c_str(), status);
        std::fflush(stdout);
        run_program({"tail", "-n", "20", log.string()});
        ++bad;
        continue;
      }
      double worst = 0.0;
      std::string where = "-";
      bool drift = false;
      for (const auto& f : run.value("files", nlohmann::json::array())) {
        const std::string name = f["name"].get<std::string>();
        const TsvData a = read_tsv(archived / name), b = read_tsv(output / name);
        const DiffReport report = diff_tsv(a, b, options);
        if (!report.structure.empty()) {
          drift = true;
          where = name + ": " + report.structure.front();
          worst = INFINITY;
        } else if (report.max_ratio > worst) {
          worst = report.max_ratio;
          where = name + " column " + report.max_column + " row " + std::to_string(report.max_row);
        }
        drift = drift || !report.equal();
      }
      const nlohmann::json again =
          parse_run_json(read_text(output / "run.json", "rerun"), (output / "run.json").string());
      for (const auto& [name, scalar] : run["scalars"].items()) {
        const auto& a = scalar["value"];
        const auto& b = again["scalars"].contains(name) ? again["scalars"][name]["value"] : nlohmann::json();
        if (a.is_null() || b.is_null()) {
          if (a.is_null() != b.is_null() || !again["scalars"].contains(name)) {
            drift = true;
            where = "scalar " + name + (again["scalars"].contains(name) ? ": finite in one run only" : ": missing");
          }
          continue;
        }
        const double x = a.get<double>(), y = b.get<double>();
        const double allowed = abs + rel * std::fabs(x);
        const double ratio = allowed > 0 ? std::fabs(x - y) / allowed : (x == y ? 0.0 : INFINITY);
        if (!within(x, y, {abs, rel})) drift = true;
        if (ratio > worst) {
          worst = ratio;
          where = "scalar " + name;
        }
      }
      const bool same_id = again.value("run_id", "") == id;
      std::printf("%-12s %-32s %-16s %s%s%s\n", drift ? "DRIFT" : "REPRODUCES", label.c_str(), short_id.c_str(),
                  format_g(worst, 3).c_str(), where == "-" ? "" : (" at " + where).c_str(),
                  same_id ? "" : " (re-run under another run id: another revision or build)");
      if (drift) ++bad;
    }
    std::printf("cm_verify: %zu of %zu runs reproduce (abs %s, rel %s)\n", manifest["runs"].size() - bad,
                manifest["runs"].size(), format_g(abs, 3).c_str(), format_g(rel, 3).c_str());
    return bad == 0 ? 0 : exit_drift;
  });
}
