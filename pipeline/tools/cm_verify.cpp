// cm_verify: checks an archive of cm_archive and re-runs its runs with the current build.
//
// An archive to verify comes from elsewhere, so it is untrusted input from end to end
// (tools/archive.hpp), and the check happens in four steps, each complete before the next:
//
//  1. Unpack. A tar.gz is unpacked member by member into a folder of the scratch: regular files
//     and folders below cm-archive/ only, names of the project's grammar, within max_bytes; a
//     link of any kind, a device, an absolute or ".." member, a member twice, or one past the
//     budget is damage. An unpacked folder is checked the same way.
//  2. The manifest. Its SHA-256 is the archive id, so the id the archive is cited by (its file or
//     folder name <id>, or --id) must be it: a changed manifest is damage. Every file it lists
//     must be there with its SHA-256 and size, SHA256SUMS must say the same, and no other file
//     may be there.
//  3. The runs. Every name the manifest and each run.json give (paper, study, run id, solver,
//     data file, configuration key) must be of the grammar the project writes, every value of a
//     configuration must stay inside the archive when it is read as a path, and MPI ranks are
//     bounded by max_ranks. Nothing has been run until all of this holds.
//  4. Re-runs. Every run is run again from its archived configuration (every key of its run.json,
//     on the command line of the solver it names, a regular executable of --bin; under mpirun on
//     as many ranks when its statistics record MPI ranks) into the scratch, from a tree where
//     results/<paper>/<study> names the archived runs (a run that goes on from another run's saved
//     state reads the archived one), and each data file is compared with the archived one column
//     by column (cm_tsvdiff's rule |a - b| <= abs + rel |a|), and each scalar the same way. A
//     table says, per run, REPRODUCES, DRIFT (the largest difference, relative to what is allowed,
//     and where), FAILED (the solver's exit status) or NO-SOLVER.
//
// The scratch is a folder of cm_verify's own: --scratch must not exist or be empty (it is then
// kept, to be looked at), and without it a new temporary folder is made and removed at the end.
// Nothing outside it is written or removed.
//
//   cm_verify --archive=archive/<id>.tar.gz --bin=build/bin [--scratch=DIR] [--abs=1e-9] [--rel=1e-7]
//   cm_verify --archive=DIR --id=<id> ...   # an archive unpacked already (the folder holding cm-archive/)
//
// The default tolerances are the loosest of the regression tests (abs 1e-9, rel 1e-7): a re-run
// with the same build gives the same bytes (CONVENTIONS.md, deterministic runs), and another
// compiler or library may move the last digits of an integration by its rtol, which the studies
// keep at 1e-10 or below.
//
// Exit status: 0 every run reproduces; 1 a run drifted, failed or has no solver here; 65 a
// damaged archive (it does not unpack, its manifest is not its id, a file is missing, changed or
// unexpected, a name is not of the project's grammar: nothing was re-run); 2 bad input (no such
// archive, no id to check it against, a scratch that is not empty, more ranks than max_ranks);
// 74 an I/O error; 70 an internal error.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

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

using cm::pipeline::Damage;

constexpr int exit_drift = 1;
constexpr int exit_damaged = 65;  // EX_DATAERR: the archive itself is damaged

// The archive id in a name: "<id>.tar.gz" or a folder "<id>"; "" when the name holds none.
std::string id_in_name(const fs::path& archive) {
  std::string name = fs::path(archive).lexically_normal().filename().string();
  if (name.empty()) name = fs::path(archive).lexically_normal().parent_path().filename().string();
  const std::string suffix = ".tar.gz";
  if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
  return cm::is_run_id(name) ? name : "";
}

// A configuration key as the solvers declare them: [a-z0-9_] words joined by dots.
bool is_key(const std::string& key) {
  if (key.empty() || key.size() > 128) return false;
  for (const std::string& word : cm::split(key, '.'))
    if (!cm::pipeline::is_study_name(word)) return false;
  return true;
}

// Whether a configuration value stays inside the re-run's tree when a solver reads it as a path
// (or a list of paths): no item of it absolute, from a home folder, or through "..".
bool stays_inside(const std::string& value) {
  for (const std::string& item : cm::split(value, ',')) {
    const std::string path = cm::trim(item);
    if (path.starts_with('/') || path.starts_with('~')) return false;
    for (const std::string& part : cm::split(path, '/'))
      if (part == "..") return false;
  }
  return true;
}

// Throws unless `path` lies inside `root` once both are resolved (links followed).
void require_inside(const fs::path& root, const fs::path& path) {
  const fs::path r = fs::weakly_canonical(root), p = fs::weakly_canonical(path);
  auto mismatch = std::mismatch(r.begin(), r.end(), p.begin(), p.end());
  if (mismatch.first != r.end())
    throw std::logic_error("'" + path.string() + "' lies outside the scratch '" + root.string() + "'");
}

// One run to re-run, as checked in step 3.
struct Rerun {
  cm::pipeline::ManifestRun entry;
  nlohmann::json run;             // its archived run.json
  std::vector<std::string> keys;  // --KEY=VALUE of its configuration
  std::vector<std::string> files;
  long ranks = 0;  // MPI ranks (0: not over MPI)
};

// Step 3 for one run: everything it names checked. Damage on anything that is not as the project
// writes it; ranks beyond max_ranks fail the key.
Rerun check_run(const cm::pipeline::ManifestRun& entry, const fs::path& top, const std::set<std::string>& listed,
                long max_ranks, const cm::Config& config) {
  using namespace cm::pipeline;
  const std::string where = "runs/" + entry.run_id;
  if (!listed.count(where + "/run.json")) throw Damage(where + "/run.json: not in the manifest");
  Rerun r{entry, {}, {}, {}, 0};
  try {
    r.run = parse_run_json(read_text(top / where / "run.json", "archive"), where + "/run.json");
  } catch (const cm::InputError& e) {
    throw Damage(e.what());
  }
  const auto& run = r.run;
  if (run["run_id"] != entry.run_id || run.value("paper", "") != entry.paper || run.value("study", "") != entry.study)
    throw Damage(where + "/run.json: its run id, paper or study is not the manifest's");
  if (json_text(run, {"solver", "name"}, "") != entry.solver)
    throw Damage(where + "/run.json: its solver is not the manifest's");
  for (const auto& file : run.value("files", nlohmann::json::array())) {
    if (!file.is_object() || !file.contains("name") || !file["name"].is_string())
      throw Damage(where + "/run.json: a file without a name");
    const std::string name = file["name"].get<std::string>();
    if (!is_archive_path(name) || name.find('/') != std::string::npos || !listed.count(where + "/" + name))
      throw Damage(where + "/run.json: the file '" + name + "' is not a file of the run in the manifest");
    r.files.push_back(name);
  }
  if (!run.contains("config") || !run["config"].contains("values"))
    throw Damage(where + "/run.json: no configuration to re-run it from");
  for (const auto& [key, value] : run["config"]["values"].items()) {
    if (!is_key(key) || key == "output" || key == "config")
      throw Damage(where + "/run.json: '" + key + "' is not a configuration key");
    if (!value.is_string()) throw Damage(where + "/run.json: the value of " + key + " is not a string");
    const std::string text = value.get<std::string>();
    if (!stays_inside(text) || text.find('\n') != std::string::npos)
      throw Damage(where + "/run.json: " + key + " = '" + text + "' reaches outside the archive");
    if (key != "output.store") r.keys.push_back("--" + key + "=" + text);
  }
  const auto& stats = run.value("statistics", nlohmann::json::object());
  if (stats.contains("mpi") && stats["mpi"].contains("ranks")) {
    const double ranks = stats["mpi"]["ranks"].get<double>();  // a number: parse_run_json checked it
    if (!(ranks >= 1 && ranks <= 1e6 && ranks == std::floor(ranks)))
      throw Damage(where + "/run.json: statistics.mpi.ranks is not a number of ranks");
    r.ranks = static_cast<long>(ranks);
    if (r.ranks > max_ranks)
      config.fail("max_ranks", entry.paper + "/" + entry.study + " asks for " + std::to_string(r.ranks) +
                                   " MPI ranks, more than " + std::to_string(max_ranks) +
                                   " (this machine's cores by default); raise max_ranks to allow it");
  }
  return r;
}

// The scratch: a new temporary folder (removed at the end), or --scratch, which must not exist or
// be an empty folder (kept).
struct Scratch {
  fs::path dir;
  bool own = false;
  ~Scratch() {
    std::error_code e;
    if (own) fs::remove_all(dir, e);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string archive, id, bin = "build/bin", scratch_key;
    double abs = 1e-9, rel = 1e-7;
    long max_bytes = 2L << 30;
    const long cores = std::max(1L, static_cast<long>(std::thread::hardware_concurrency()));
    long max_ranks = cores;
    cm::Config config("cm_verify", "Checks an archive's manifest, re-runs its runs and compares the outputs");
    config.add("archive", &archive, "the archive (<id>.tar.gz) or an unpacked one (the folder holding cm-archive/)");
    config.add("id", &id,
               "the archive id it is cited by (the SHA-256 of its manifest); default: the id in the archive's name");
    config.add("bin", &bin, "where the solvers of the current build are");
    config.add("scratch", &scratch_key,
               "a folder for the unpacked archive and the re-runs: new or empty, and kept (default: a new temporary "
               "one, removed at the end)");
    config.add("abs", &abs, "absolute tolerance of every value").range(cm::Range::nonnegative());
    config.add("rel", &rel, "relative tolerance of every value (times |archived|)").range(cm::Range::nonnegative());
    config
        .add("max_bytes", &max_bytes,
             "the most bytes unpacking may write (each member counts 512 more): an archive holds data files and "
             "saved frames, so 2 GiB is far above what make archive writes, and below what fills a disk")
        .unit("B")
        .range(cm::Range::positive());
    config
        .add("max_ranks", &max_ranks,
             "the most MPI ranks an archived run may ask for (default: this machine's cores, " + std::to_string(cores) +
                 ")")
        .range(cm::Range::positive());
    config.set_usage(
        "usage: cm_verify --archive=FILE|DIR [--id=ID] [--bin=DIR] [--scratch=DIR] [--abs=A] [--rel=R] "
        "[--max_bytes=B] [--max_ranks=N]\nExit status: 0 every run reproduces, 1 drift (or a run failed), 65 a "
        "damaged archive, 2 bad input, 74 an I/O error, 70 an internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (archive.empty()) config.fail("archive", "required: an archive of cm_archive");
    std::error_code ec;
    const auto kind = fs::status(archive, ec).type();
    if (kind != fs::file_type::regular && kind != fs::file_type::directory)
      config.fail("archive", "'" + archive + "' is no archive file or folder");
    if (id.empty()) id = id_in_name(archive);
    if (id.empty())
      config.fail("id", "'" + archive +
                            "' holds no archive id in its name (<id>.tar.gz): give the id it is cited by, which is "
                            "what is verified");
    if (!cm::is_run_id(id)) config.fail("id", "'" + id + "' is not an archive id (64 hex digits)");

    Scratch scratch;
    if (scratch_key.empty()) {
      std::string pattern = (fs::temp_directory_path() / "cm_verify.XXXXXX").string();
      if (!::mkdtemp(pattern.data())) throw cm::IoError(cm::io_message("cannot create", pattern));
      scratch.dir = pattern;
      scratch.own = true;
    } else {
      const auto status = fs::symlink_status(scratch_key, ec);
      if (fs::exists(status) && !(fs::is_directory(status) && fs::is_empty(scratch_key, ec)))
        config.fail("scratch", "'" + scratch_key +
                                   "' exists and is not an empty folder; cm_verify writes only into a "
                                   "folder of its own");
      fs::create_directories(scratch_key, ec);
      if (ec) throw_io_error("cannot create", scratch_key, ec);
      scratch.dir = fs::absolute(scratch_key);
    }
    const fs::path& root = scratch.dir;

    // 1. Unpacked, each member checked; 2. the manifest is the id and lists every file.
    fs::path top;
    Manifest manifest;
    std::set<std::string> listed{"manifest.json", "SHA256SUMS"};
    try {
      if (kind == fs::file_type::directory) {
        top = fs::path(archive) / archive_top;
        check_unpacked(top);
      } else {
        const fs::path unpacked = root / "unpacked";
        fs::create_directory(unpacked, ec);
        if (ec) throw_io_error("cannot create", unpacked, ec);
        unpack_archive(archive, unpacked, static_cast<std::uintmax_t>(max_bytes));
        top = unpacked / archive_top;
      }
      if (!fs::is_regular_file(fs::symlink_status(top / "manifest.json")))
        throw Damage("no " + archive_top + "/manifest.json");
      const std::string content_id = sha256_file(top / "manifest.json");
      if (content_id != id)
        throw Damage("the SHA-256 of its manifest is " + content_id + ", not the archive id " + id +
                     ": the manifest was changed, or this is another archive");
      manifest = parse_manifest(read_text(top / "manifest.json", "archive"));
    } catch (const Damage& e) {
      std::printf("DAMAGED %s: %s\ncm_verify: the archive is damaged; nothing was re-run\n", archive.c_str(), e.what());
      return exit_damaged;
    }
    std::vector<std::string> damage;
    for (const auto& file : manifest.files) {
      listed.insert(file.path);
      const fs::path here = top / file.path;
      if (!fs::is_regular_file(fs::symlink_status(here))) {
        damage.push_back(file.path + ": missing");
      } else if (fs::file_size(here) != file.bytes || sha256_file(here) != file.sha256) {
        damage.push_back(file.path + ": changed (its size or SHA-256 differs from the manifest)");
      }
    }
    if (!fs::is_regular_file(fs::symlink_status(top / "SHA256SUMS")) ||
        read_text(top / "SHA256SUMS", "archive") != sha256sums_text(manifest.files))
      damage.push_back("SHA256SUMS: not the manifest's hashes");
    for (const fs::path& file : files_below(top))
      if (!listed.count(file.string())) damage.push_back(file.string() + ": not in the manifest");
    // 3. Every run's names and values, before anything runs.
    std::vector<Rerun> reruns;
    if (damage.empty()) {
      try {
        for (const auto& entry : manifest.runs) reruns.push_back(check_run(entry, top, listed, max_ranks, config));
      } catch (const Damage& e) {
        damage.push_back(e.what());
      }
    }
    if (!damage.empty()) {
      for (const std::string& d : damage) std::printf("DAMAGED %s\n", d.c_str());
      std::printf("cm_verify: the archive is damaged (%zu finding%s); nothing was re-run\n", damage.size(),
                  damage.size() == 1 ? "" : "s");
      return exit_damaged;
    }
    std::printf("manifest: archive id %s, %zu files, every SHA-256 as listed\n", id.c_str(), manifest.files.size());

    // 4. Every run again, from its archived configuration, in a tree of its own: `configs` is the
    // archive's, and `results/<paper>/<study>` names each archived run, so a run that reads
    // another (a channel going on from a saved state) reads the archived one.
    const fs::path tree = root / "tree";
    fs::create_directories(tree / "results", ec);
    if (ec) throw_io_error("cannot create", tree, ec);
    if (fs::is_directory(top / "configs"))
      fs::create_directory_symlink(fs::absolute(top / "configs"), tree / "configs");
    for (const Rerun& r : reruns) {
      const fs::path link = tree / "results" / r.entry.paper / r.entry.study;
      require_inside(root, link.parent_path());
      fs::create_directories(link.parent_path(), ec);
      fs::create_directory_symlink(fs::absolute(top / "runs" / r.entry.run_id), link);
    }
    const bool have_mpirun = on_path("mpirun");
    const DiffOptions options{{abs, rel}, {}};
    std::printf("%-12s %-32s %-16s %s\n", "status", "paper/study", "run id",
                "largest difference (ratio to allowed, where)");
    std::size_t bad = 0;
    for (const Rerun& r : reruns) {
      const auto& [paper, study, run_id, solver] = r.entry;
      const fs::path archived = top / "runs" / run_id;
      const std::string label = paper + "/" + study, short_id = run_id.substr(0, 16);
      const fs::path program = fs::path(bin) / solver;
      if (!fs::is_regular_file(fs::symlink_status(program)) || ::access(program.c_str(), X_OK) != 0) {
        std::printf("%-12s %-32s %-16s no solver %s in %s\n", "NO-SOLVER", label.c_str(), short_id.c_str(),
                    solver.c_str(), bin.c_str());
        ++bad;
        continue;
      }
      std::vector<std::string> args;
      if (r.ranks > 0) {
        if (!have_mpirun) {
          std::printf("%-12s %-32s %-16s a run over MPI ranks, and no mpirun here (openmpi-bin)\n", "NO-SOLVER",
                      label.c_str(), short_id.c_str());
          ++bad;
          continue;
        }
        args = {"mpirun", "--oversubscribe", "-np", std::to_string(r.ranks)};
        if (::geteuid() == 0) args.push_back("--allow-run-as-root");
      }
      const fs::path output = root / "reruns" / paper / study;
      const fs::path log = root / "reruns" / (paper + "." + study + ".log");
      require_inside(root, output);
      require_inside(root, log);
      fs::create_directories(output.parent_path(), ec);
      if (ec) throw_io_error("cannot create", output.parent_path(), ec);
      args.push_back(fs::absolute(program).string());
      args.insert(args.end(), r.keys.begin(), r.keys.end());
      args.insert(args.end(), {"--output", output.string(), "--output.store=none", "--quiet"});
      // What the solver prints goes to a log beside its re-run, shown when it fails.
      const int status = run_program_in(args, tree.string(), log.string());
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
      for (const std::string& name : r.files) {
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
      for (const auto& [name, scalar] : r.run["scalars"].items()) {
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
      const bool same_id = again.value("run_id", "") == run_id;
      std::printf("%-12s %-32s %-16s %s%s%s\n", drift ? "DRIFT" : "REPRODUCES", label.c_str(), short_id.c_str(),
                  format_g(worst, 3).c_str(), where == "-" ? "" : (" at " + where).c_str(),
                  same_id ? "" : " (re-run under another run id: another revision or build)");
      if (drift) ++bad;
    }
    std::printf("cm_verify: %zu of %zu runs reproduce (abs %s, rel %s)\n", reruns.size() - bad, reruns.size(),
                format_g(abs, 3).c_str(), format_g(rel, 3).c_str());
    return bad == 0 ? 0 : exit_drift;
  });
}
