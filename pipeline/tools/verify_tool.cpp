#include "tools/verify_tool.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "core/run_reader.hpp"
#include "core/store.hpp"
#include "tools/archive.hpp"
#include "tools/process.hpp"
#include "tools/text.hpp"
#include "tools/tsv.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

namespace {

constexpr int exit_drift = 1;

// Throws unless `path` lies inside `root` once both are resolved (links followed).
void require_inside(const fs::path& root, const fs::path& path) {
  const fs::path r = fs::weakly_canonical(root), p = fs::weakly_canonical(path);
  auto mismatch = std::mismatch(r.begin(), r.end(), p.begin(), p.end());
  if (mismatch.first != r.end())
    throw std::logic_error("'" + path.string() + "' lies outside the scratch '" + root.string() + "'");
}

}  // namespace

void VerifyTool::declare(cm::Config& config) {
  config.add("archive", &archive_, "the archive (<id>.tar.gz) or an unpacked one (the folder holding cm-archive/)")
      .required("an archive of cm_archive");
  config.add("id", &id_,
             "the archive id it is cited by (the SHA-256 of its manifest); default: the id in the archive's name");
  config.add("bin", &bin_, "where the solvers of the current build are");
  config.add("scratch", &scratch_key_,
             "a folder for the unpacked archive and the re-runs: new or empty, and kept (default: a new temporary "
             "one, removed at the end)");
  config.add("store", &store_,
             "a run store (results/runs) where the runs that an archived run read and the archive does not hold "
             "(the settled frame a run of record went on from) are looked up by their run ids (default: none)");
  config.add("abs", &abs_, "absolute tolerance of every value").range(cm::Range::nonnegative());
  config.add("rel", &rel_, "relative tolerance of every value (times |archived|)").range(cm::Range::nonnegative());
  config.add("batch_means", &batch_means_,
             "a run whose data differ is verified when every average with a batch-means standard error (a "
             "scalar X beside se_X) agrees within sigmas combined standard errors (WITHIN-ERROR): a run of record");
  config
      .add("sigmas", &sigmas_,
           "how many combined standard errors sqrt(se_x^2 + se_y^2) two averages of a run may differ by under "
           "batch_means: 3, so that one of some ten averages of two runs of the same flow falls outside by "
           "chance about once in forty verifications (independent normal errors)")
      .range(cm::Range::positive());
  config
      .add("max_bytes", &max_bytes_,
           "the most bytes unpacking may write (each member counts 512 more): an archive holds data files and "
           "saved frames, so 2 GiB is far above what make archive writes, and below what fills a disk")
      .unit("B")
      .range(cm::Range::positive());
  config
      .add("max_ranks", &max_ranks_,
           "the most MPI ranks an archived run may ask for (default: this machine's cores, " + std::to_string(cores_) +
               ")")
      .range(cm::Range::positive());
}

int VerifyTool::run(const cm::Config& config) {
  check_the_archive_and_its_id(config);
  make_the_scratch(config);
  const std::vector<ArchivedRun> reruns = check_the_archive();
  if (!checked_.damage.empty()) return exit_damaged;
  check_the_ranks(config, reruns);
  std::printf("manifest: archive id %s, %zu files, every SHA-256 as listed\n", id_.c_str(),
              checked_.manifest.files.size());
  lay_out_the_tree(reruns);
  std::printf("%-12s %-32s %-16s %s\n", "status", "paper/study", "run id",
              "largest difference (ratio to allowed, where)");
  std::size_t bad = 0;
  for (const ArchivedRun& r : reruns)
    if (!re_run_and_compare(r)) ++bad;
  std::printf("cm_verify: %zu of %zu runs reproduce (abs %s, rel %s%s)\n", reruns.size() - bad, reruns.size(),
              format_g(abs_, 3).c_str(), format_g(rel_, 3).c_str(),
              batch_means_ ? (", or their averages within " + format_g(sigmas_, 3) + " standard errors").c_str() : "");
  return bad == 0 ? 0 : exit_drift;
}

void VerifyTool::check_the_archive_and_its_id(const cm::Config& config) {
  std::error_code ec;
  kind_ = fs::status(archive_, ec).type();
  if (kind_ != fs::file_type::regular && kind_ != fs::file_type::directory)
    config.fail("archive", "'" + archive_ + "' is no archive file or folder");
  if (id_.empty()) id_ = archive_id_in_name(archive_);
  if (id_.empty())
    config.fail("id", "'" + archive_ +
                          "' holds no archive id in its name (<id>.tar.gz): give the id it is cited by, which is "
                          "what is verified");
  if (!cm::is_run_id(id_)) config.fail("id", "'" + id_ + "' is not an archive id (64 hex digits)");
}

void VerifyTool::make_the_scratch(const cm::Config& config) {
  std::error_code ec;
  if (scratch_key_.empty()) {
    std::string pattern = (fs::temp_directory_path() / "cm_verify.XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw cm::IoError(cm::io_message("cannot create", pattern));
    scratch_.dir = pattern;
    return;
  }
  const auto status = fs::symlink_status(scratch_key_, ec);
  if (fs::exists(status) && !(fs::is_directory(status) && fs::is_empty(scratch_key_, ec)))
    config.fail("scratch", "'" + scratch_key_ +
                               "' exists and is not an empty folder; cm_verify writes only into a "
                               "folder of its own");
  fs::create_directories(scratch_key_, ec);
  if (ec) throw_io_error("cannot create", scratch_key_, ec);
  scratch_.remove = false;  // the user's folder
  scratch_.dir = fs::absolute(scratch_key_);
}

std::vector<ArchivedRun> VerifyTool::check_the_archive() {
  std::error_code ec;
  const fs::path unpacked = scratch_.dir / "unpacked";
  if (kind_ != fs::file_type::directory) {
    fs::create_directory(unpacked, ec);
    if (ec) throw_io_error("cannot create", unpacked, ec);
  }
  checked_ = check_archive(archive_, id_, unpacked, static_cast<std::uintmax_t>(max_bytes_));
  top_ = checked_.top;
  if (checked_.damage.empty()) return checked_.runs;
  for (const std::string& d : checked_.damage) std::printf("DAMAGED %s\n", d.c_str());
  std::printf("cm_verify: the archive is damaged (%zu finding%s); nothing was re-run\n", checked_.damage.size(),
              checked_.damage.size() == 1 ? "" : "s");
  return {};
}

void VerifyTool::check_the_ranks(const cm::Config& config, const std::vector<ArchivedRun>& reruns) const {
  for (const ArchivedRun& r : reruns)
    if (r.ranks > max_ranks_)
      config.fail("max_ranks", r.entry.paper + "/" + r.entry.study + " asks for " + std::to_string(r.ranks) +
                                   " MPI ranks, more than " + std::to_string(max_ranks_) +
                                   " (this machine's cores by default); raise max_ranks to allow it");
}

void VerifyTool::lay_out_the_tree(const std::vector<ArchivedRun>& reruns) {
  std::error_code ec;
  tree_ = scratch_.dir / "tree";
  fs::create_directories(tree_ / "results", ec);
  if (ec) throw_io_error("cannot create", tree_, ec);
  if (fs::is_directory(top_ / "configs"))
    fs::create_directory_symlink(fs::absolute(top_ / "configs"), tree_ / "configs");
  for (const ArchivedRun& r : reruns) {
    const fs::path link = tree_ / "results" / r.entry.paper / r.entry.study;
    require_inside(scratch_.dir, link.parent_path());
    fs::create_directories(link.parent_path(), ec);
    fs::create_directory_symlink(fs::absolute(top_ / "runs" / r.entry.run_id), link);
  }
  for (const ArchivedRun& r : reruns) find_the_origins(r);
  have_mpirun_ = on_path("mpirun");
}

void VerifyTool::find_the_origins(const ArchivedRun& r) {
  std::set<std::string> held;
  for (const auto& run : checked_.manifest.runs) held.insert(run.run_id);
  for (const auto& [key, id] : r.reads) {
    if (held.count(id)) continue;
    const auto& values = r.run["config"]["values"];
    const std::string path = values.contains(key) ? values[key].get<std::string>() : "";
    const fs::path origin = store_.empty() ? fs::path() : fs::path(store_) / id;
    std::error_code ec;
    if (!path.empty() && path.find(',') == std::string::npos && !origin.empty() &&
        fs::is_directory(fs::symlink_status(origin, ec))) {
      const fs::path link = tree_ / path;
      require_inside(scratch_.dir, link.parent_path());
      if (fs::exists(fs::symlink_status(link, ec))) continue;  // an archived run is there: it is read
      fs::create_directories(link.parent_path(), ec);
      if (ec) throw_io_error("cannot create", link.parent_path(), ec);
      fs::create_directory_symlink(fs::absolute(origin), link, ec);
      if (ec) throw_io_error("cannot link", link, ec);
      continue;
    }
    missing_[r.entry.run_id] =
        "it goes on from the run " + id + " (" + key + " = " + path +
        "), which the archive does not hold (an archive of a run of record keeps no full frame) and " +
        (store_.empty() ? std::string("no run store was given (--store)")
                        : "the run store " + store_ + " does not have") +
        ": make that run first with the revision that made this one (" +
        cm::json_text(r.run, {"solver", "revision"}, "unknown") +
        "; for a run of record of make channel-steady: make channel-settle), then verify again";
  }
}

bool VerifyTool::re_run_and_compare(const ArchivedRun& r) const {
  const auto& [paper, study, run_id, solver] = r.entry;
  const std::string label = paper + "/" + study, short_id = run_id.substr(0, 16);
  if (missing_.count(run_id)) {
    std::printf("%-12s %-32s %-16s %s\n", "NO-ORIGIN", label.c_str(), short_id.c_str(), missing_.at(run_id).c_str());
    return false;
  }
  const fs::path program = fs::path(bin_) / solver;
  if (!fs::is_regular_file(fs::symlink_status(program)) || ::access(program.c_str(), X_OK) != 0) {
    std::printf("%-12s %-32s %-16s no solver %s in %s\n", "NO-SOLVER", label.c_str(), short_id.c_str(), solver.c_str(),
                bin_.c_str());
    return false;
  }
  std::vector<std::string> args;
  if (r.ranks > 0) {
    if (!have_mpirun_) {
      std::printf("%-12s %-32s %-16s a run over MPI ranks, and no mpirun here (openmpi-bin)\n", "NO-SOLVER",
                  label.c_str(), short_id.c_str());
      return false;
    }
    args = {"mpirun", "--oversubscribe", "-np", std::to_string(r.ranks)};
    if (::geteuid() == 0) args.push_back("--allow-run-as-root");
  }
  const fs::path output = scratch_.dir / "reruns" / paper / study;
  const fs::path log = scratch_.dir / "reruns" / (paper + "." + study + ".log");
  require_inside(scratch_.dir, output);
  require_inside(scratch_.dir, log);
  std::error_code ec;
  fs::create_directories(output.parent_path(), ec);
  if (ec) throw_io_error("cannot create", output.parent_path(), ec);
  args.push_back(fs::absolute(program).string());
  args.insert(args.end(), r.keys.begin(), r.keys.end());
  args.insert(args.end(), {"--output", output.string(), "--output.store=none", "--quiet"});
  // What the solver prints goes to a log beside its re-run, shown when it fails.
  const int status = run_program_in(args, tree_.string(), log.string());
  if (status != 0) {
    std::printf("%-12s %-32s %-16s the solver exited with %d; its output:\n", "FAILED", label.c_str(), short_id.c_str(),
                status);
    std::fflush(stdout);
    run_program({"tail", "-n", "20", log.string()});
    return false;
  }
  return compare(r, output);
}

bool VerifyTool::compare(const ArchivedRun& r, const fs::path& output) const {
  const fs::path archived = top_ / "runs" / r.entry.run_id;
  const DiffOptions options{{abs_, rel_}, {}};
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
      cm::parse_run_json(read_text(output / "run.json", "rerun"), (output / "run.json").string());
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
    const double allowed = abs_ + rel_ * std::fabs(x);
    const double ratio = allowed > 0 ? std::fabs(x - y) / allowed : (x == y ? 0.0 : INFINITY);
    if (!within(x, y, {abs_, rel_})) drift = true;
    if (ratio > worst) {
      worst = ratio;
      where = "scalar " + name;
    }
  }
  const bool same_id = again.value("run_id", "") == r.entry.run_id;
  std::string status = drift ? "DRIFT" : "REPRODUCES", statistic;
  if (drift && batch_means_) {
    const Agreement a = averages_agree(r.run["scalars"], again["scalars"]);
    statistic = a.compared == 0 ? "; no average carries a batch-means standard error (se_<name>)"
                                : "; " + std::to_string(a.compared) + (a.compared == 1 ? " average" : " averages") +
                                      " with a batch-means error: largest " + format_g(a.worst, 3) + " of " +
                                      format_g(sigmas_, 3) + " combined standard errors, at " + a.where;
    if (a.compared > 0 && a.worst <= sigmas_) status = "WITHIN-ERROR";
  }
  std::printf("%-12s %-32s %-16s %s%s%s%s\n", status.c_str(), (r.entry.paper + "/" + r.entry.study).c_str(),
              r.entry.run_id.substr(0, 16).c_str(), format_g(worst, 3).c_str(),
              where == "-" ? "" : (" at " + where).c_str(), statistic.c_str(),
              same_id ? "" : " (re-run under another run id: another revision or build)");
  return status != "DRIFT";
}

Agreement averages_agree(const nlohmann::json& archived, const nlohmann::json& again) {
  Agreement a;
  auto value = [](const nlohmann::json& scalars, const std::string& name) -> double {
    if (!scalars.contains(name) || !scalars[name]["value"].is_number()) return NAN;
    return scalars[name]["value"].get<double>();
  };
  for (const auto& [name, scalar] : archived.items()) {
    if (name.rfind("se_", 0) != 0 || !archived.contains(name.substr(3))) continue;
    const std::string average = name.substr(3);
    const double x = value(archived, average), y = value(again, average);
    const double se_x = value(archived, name), se_y = value(again, name);
    const double combined = std::sqrt(se_x * se_x + se_y * se_y);
    double ratio = std::fabs(x - y) / combined;
    if (x == y) ratio = 0.0;  // also when both errors are 0
    if (!std::isfinite(ratio)) ratio = INFINITY;
    ++a.compared;
    if (a.compared == 1 || ratio > a.worst) {
      a.worst = ratio;
      a.where = "scalar " + average;
    }
  }
  return a;
}

}  // namespace cm::pipeline
