#include "common/run.hpp"

#include <unistd.h>

#include <Eigen/Core>
#include <boost/version.hpp>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <ctime>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "cm_revision.hpp"
#include "common/sundials.hpp"

namespace fs = std::filesystem;

namespace cm {

// ---------------------------------------------------------------------------------------
// Provenance and hashing

const Provenance& provenance() {
  static const Provenance p{CM_VERSION,
                            CM_REVISION,
                            CM_MODIFIED,
                            CM_BUILD_TYPE,
                            CM_COMPILER,
                            CM_FLAGS,
                            sundials_version(),
                            std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                                std::to_string(EIGEN_MINOR_VERSION),
                            BOOST_LIB_VERSION};
  return p;
}

std::string content_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bit
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

namespace {


std::string utc(std::chrono::system_clock::time_point t) {
  const std::time_t s = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string serialise(const std::map<std::string, std::string>& values) {
  std::string s;
  for (const auto& [k, v] : values) s += k + "=" + v + "\n";
  return s;
}

// Temporary run directories still open, removed if the process is interrupted.
std::mutex pending_mutex;
std::set<std::string>& pending() {
  static std::set<std::string> dirs;
  return dirs;
}

extern "C" void remove_pending_and_exit(int signal) {
  // Best effort on interruption: a partial run must not survive.
  for (const auto& d : pending()) {
    std::error_code ec;
    fs::remove_all(d, ec);
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void register_pending(const fs::path& dir) {
  std::lock_guard lock(pending_mutex);
  static bool installed = false;
  if (!installed) {
    std::signal(SIGINT, remove_pending_and_exit);
    std::signal(SIGTERM, remove_pending_and_exit);
    std::signal(SIGHUP, remove_pending_and_exit);
    installed = true;
  }
  pending().insert(dir.string());
}

void unregister_pending(const fs::path& dir) {
  std::lock_guard lock(pending_mutex);
  pending().erase(dir.string());
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Table

Table::Table(const fs::path& file, const std::string& run_id, const std::string& description,
             std::vector<Column> columns)
    : file_(file), columns_(std::move(columns)) {
  if (columns_.empty()) throw std::logic_error("a table needs columns: " + file.string());
  std::FILE* f = std::fopen(file.c_str(), "w");
  if (!f) throw InputError("cannot write " + file.string() + ": " + std::strerror(errno));
  out_ = std::shared_ptr<std::FILE>(f, [](std::FILE* s) { std::fclose(s); });
  std::fprintf(f, "# schema: cm-tsv 1\n# run: %s\n# %s\n# columns: ", run_id.c_str(), description.c_str());
  for (std::size_t i = 0; i < columns_.size(); ++i)
    std::fprintf(f, "%s%s[%s]", i ? "\t" : "", columns_[i].name.c_str(), columns_[i].unit.c_str());
  std::fputc('\n', f);
}

void Table::row(std::initializer_list<double> values) { row(std::vector<double>(values)); }

void Table::row(const std::vector<double>& values) {
  if (values.size() != columns_.size())
    throw std::logic_error(file_.filename().string() + ": row of " + std::to_string(values.size()) +
                           " values for " + std::to_string(columns_.size()) + " columns");
  std::FILE* f = out_.get();
  for (std::size_t i = 0; i < values.size(); ++i) std::fprintf(f, "%s%.17g", i ? "\t" : "", values[i]);
  if (std::fputc('\n', f) == EOF) throw NumericalError("cannot write " + file_.string());
}

void Table::gap() { std::fputc('\n', out_.get()); }

// ---------------------------------------------------------------------------------------
// Run

Run::Run(const Config& config)
    : config_(config), start_(config.started()), start_steady_(config.started_steady()) {
  const auto& p = provenance();
  const auto values = config.effective();
  id_ = content_hash(config.solver() + "\n" + p.version + "\n" + p.revision + (p.modified ? "+modified" : "") +
                     "\n" + serialise(values));
  target_ = fs::path(config.output_dir()).lexically_normal();
  if (target_.filename().empty()) target_ = target_.parent_path();
  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw InputError("--output: cannot create " + parent.string() + ": " + ec.message());
  temporary_ = parent / ("." + target_.filename().string() + ".partial-" + std::to_string(::getpid()));
  fs::remove_all(temporary_, ec);
  register_pending(temporary_);
  if (!fs::create_directory(temporary_, ec) || ec)
    throw InputError("--output: cannot create " + temporary_.string() + ": " + ec.message());
}

Run::~Run() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(temporary_, ec);
  }
  unregister_pending(temporary_);
}

fs::path Run::file(const std::string& name) const { return temporary_ / name; }

Table Run::table(const std::string& name, const std::string& description, std::vector<Column> columns) {
  for (const auto& f : files_)
    if (f.name == name) throw std::logic_error("data file written twice: " + name);
  files_.push_back({name, description, columns});
  Table t(temporary_ / name, id_, description, std::move(columns));
  streams_.push_back(t.stream());
  return t;
}

void Run::scalar(const std::string& name, double value, const std::string& unit) {
  for (const auto& s : scalars_)
    if (s.first == name) throw std::logic_error("scalar written twice: " + name);
  scalars_.push_back({name, {value, unit}});
}

void Run::statistics(const std::string& group, const std::map<std::string, double>& values) {
  statistics_.push_back({group, values});
}

void Run::note(const std::string& text) { notes_.push_back(text); }

void Run::commit() {
  using nlohmann::ordered_json;
  const auto& p = provenance();
  const auto values = config_.effective();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_steady_).count();

  ordered_json j;
  j["schema"] = "cm-run 1";
  j["paper"] = config_.paper();
  j["study"] = config_.study();
  j["run_id"] = id_;
  j["solver"] = {{"name", config_.solver()}, {"version", p.version}, {"revision", p.revision},
                 {"modified", p.modified}};
  j["build"] = {{"type", p.build_type}, {"compiler", p.compiler}, {"flags", p.flags},
                {"sundials", p.sundials}, {"eigen", p.eigen},       {"boost", p.boost}};
  ordered_json config_values = ordered_json::object();
  for (const auto& [k, v] : values) config_values[k] = v;
  j["config"] = {{"file", config_.config_file()}, {"hash", content_hash(serialise(values))},
                 {"values", config_values}};
  j["command_line"] = config_.command_line();
  j["start_utc"] = utc(start_);
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown");
  j["host"] = host;
  j["wall_time_s"] = wall;
  ordered_json scalars = ordered_json::object();
  for (const auto& [name, vu] : scalars_) {
    ordered_json entry;
    entry["value"] = std::isfinite(vu.first) ? ordered_json(vu.first) : ordered_json(nullptr);
    entry["unit"] = vu.second;
    scalars[name] = entry;
  }
  j["scalars"] = scalars;
  ordered_json stats = ordered_json::object();
  for (const auto& [group, map] : statistics_) {
    ordered_json g = ordered_json::object();
    for (const auto& [k, v] : map) g[k] = v;
    stats[group] = g;
  }
  j["statistics"] = stats;
  ordered_json assumptions = ordered_json::array();
  for (const auto& a : config_.assumptions())
    assumptions.push_back({{"key", a.key}, {"value", a.value}, {"note", a.note}});
  j["assumptions"] = assumptions;
  j["notes"] = notes_;
  ordered_json files = ordered_json::array();
  for (const auto& f : files_) {
    ordered_json cols = ordered_json::array();
    for (const auto& c : f.columns) cols.push_back(c.name + "[" + c.unit + "]");
    files.push_back({{"name", f.name}, {"description", f.description}, {"columns", cols}});
  }
  j["files"] = files;

  for (const auto& weak : streams_)
    if (auto stream = weak.lock())
      if (std::fflush(stream.get()) != 0 || std::ferror(stream.get()))
        throw NumericalError("cannot write the data files in " + temporary_.string());

  {
    std::FILE* out = std::fopen((temporary_ / "run.json").c_str(), "w");
    if (!out) throw InputError("cannot write run.json in " + temporary_.string());
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (std::fclose(out) != 0 || !ok) throw NumericalError("cannot write run.json in " + temporary_.string());
  }

  // Into place: an older run at the target is moved aside first and removed after.
  std::error_code ec;
  fs::path old;
  if (fs::exists(target_)) {
    old = target_.parent_path() / ("." + target_.filename().string() + ".old-" + std::to_string(::getpid()));
    fs::remove_all(old, ec);
    fs::rename(target_, old, ec);
    if (ec) throw InputError("--output: cannot replace " + target_.string() + ": " + ec.message());
  }
  fs::rename(temporary_, target_, ec);
  if (ec) throw InputError("--output: cannot move the run into " + target_.string() + ": " + ec.message());
  committed_ = true;
  if (!old.empty()) fs::remove_all(old, ec);
  if (!config_.quiet()) std::cerr << config_.solver() << ": run " << id_ << " written to " << target_.string() << "\n";
}

// ---------------------------------------------------------------------------------------
// Progress

Progress::Progress(std::string what, double t0, double t1, bool quiet)
    : what_(std::move(what)), t0_(t0), t1_(t1), quiet_(quiet), last_(std::chrono::steady_clock::now()) {}

void Progress::update(double t) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(2)) return;
  last_ = now;
  const double fraction = t1_ > t0_ ? (t - t0_) / (t1_ - t0_) : 1.0;
  std::fprintf(stderr, "%s: t = %.6g of %.6g (%.0f%%)\n", what_.c_str(), t, t1_, 100.0 * fraction);
  printed_ = true;
}

Progress::~Progress() {
  if (printed_ && !quiet_) std::fprintf(stderr, "%s: done\n", what_.c_str());
}

}  // namespace cm
