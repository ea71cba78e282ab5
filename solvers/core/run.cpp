#include "core/run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/files.hpp"
#include "core/provenance.hpp"
#include "core/run_reader.hpp"
#include "core/store.hpp"
#include "core/text.hpp"

namespace fs = std::filesystem;

namespace cm {

namespace {

// Bytes a value takes in a data file at most: "%.17g" of a double is at most 24 characters
// ("-2.2250738585072014e-308") plus its separator.
constexpr double bytes_per_value = 25.0;
// How often a commit retries when a racing run keeps changing the output between its checks.
constexpr int commit_attempts = 20;
// The run store of the default output results/<paper>/<study> (key output.store = auto).
const std::string default_store = "results/runs";

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

// The run id of the run in `dir`, read by the run reader; InputError naming `key` when there is
// none.
std::string run_id_in(const std::string& dir, const std::string& key) {
  const fs::path file = fs::path(dir) / "run.json";
  if (!fs::is_regular_file(file)) throw InputError(key + ": no run at '" + dir + "' (no run.json)");
  const std::string id = parse_run_json(read_text(file, key), key + ": " + file.string())["run_id"].get<std::string>();
  if (!is_run_id(id)) throw InputError(key + ": '" + dir + "' holds no run.json with a run id");
  return id;
}

// Temporary run directories still open, removed if the process is interrupted.
std::mutex pending_mutex;
std::set<std::string>& pending() {
  static std::set<std::string> dirs;
  return dirs;
}

// Set from the commit on (hold_stop_signals): a stop signal that comes then is only noted.
volatile std::sig_atomic_t stop_held = 0;
volatile std::sig_atomic_t held_signal = 0;

extern "C" void remove_pending_and_exit(int signal) {
  if (stop_held) {
    held_signal = signal;
    return;
  }
  // Best effort on interruption: a partial run must not survive. (remove_all is not
  // async-signal-safe; the process ends right after, and the next run of the study removes what
  // an interrupted cleanup leaves.)
  for (const auto& d : pending()) {
    std::error_code ec;
    fs::remove_all(d, ec);
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      // An inherited SIG_IGN (nohup, a shell's background job) is the caller's wish: keep it.
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      std::signal(sig, remove_pending_and_exit);
    }
    // A closed pipe on stdout (solver | head) must not kill a run mid-commit: writes then fail
    // with EPIPE, which only the informational printing sees.
    std::signal(SIGPIPE, SIG_IGN);
  });
}

}  // namespace

void hold_stop_signals() {
  install_handlers();
  stop_held = 1;
}

void release_stop_signals() {
  stop_held = 0;
  if (const int signal = held_signal; signal != 0) remove_pending_and_exit(signal);
}

namespace {

void register_pending(const fs::path& dir) {
  install_handlers();
  std::lock_guard lock(pending_mutex);
  pending().insert(dir.string());
}

void unregister_pending(const fs::path& dir) {
  std::lock_guard lock(pending_mutex);
  pending().erase(dir.string());
}

bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

// The hidden leftovers of earlier runs of this output: `.<name>.partial-<pid>` (and
// `.<name>.old-<pid>` of earlier versions) whose process is gone.
void remove_dead_leftovers(const fs::path& parent, const std::string& name) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string file = entry.path().filename().string();
    for (const std::string& prefix : {"." + name + ".partial-", "." + name + ".old-", "." + name + ".link-"}) {
      if (file.rfind(prefix, 0) != 0) continue;
      const std::string pid_text = file.substr(prefix.size());
      if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
      if (process_alive(std::stol(pid_text))) continue;  // a run going on right now
      std::error_code remove_ec;
      if (entry.is_symlink(remove_ec)) {
        // The pointer a killed run made but had not yet moved into place (".<name>.link-<pid>").
        if (prefix == "." + name + ".link-") fs::remove(entry.path(), remove_ec);
      } else if (entry.is_directory(remove_ec)) {
        fs::remove_all(entry.path(), remove_ec);
      }
    }
  }
}

[[noreturn]] void refuse(const fs::path& target, const std::string& why) {
  throw InputError("--output: '" + target.string() + "' " + why +
                   "; a solver replaces only an earlier run of the same study. It is left untouched: choose "
                   "another --output, or move it away yourself");
}

}  // namespace

std::chrono::system_clock::time_point program_start() {
  static const auto t = std::chrono::system_clock::now();
  program_start_steady();  // both clocks start together, at the first call
  return t;
}
std::chrono::steady_clock::time_point program_start_steady() {
  static const auto t = std::chrono::steady_clock::now();
  return t;
}

void check_replaceable(const fs::path& target, const std::string& paper, const std::string& study,
                       const fs::path& store) {
  std::error_code ec;
  const auto status = fs::symlink_status(target, ec);
  if (ec || status.type() == fs::file_type::not_found) return;
  if (status.type() == fs::file_type::symlink) {
    if (store.empty()) refuse(target, "is a symbolic link");
    const auto entry = store_link_target(target, store);
    if (!entry) refuse(target, "is a symbolic link that is not a pointer into the run store '" + store.string() + "'");
    // A pointer whose run was pruned is replaced; one naming a run of another study is refused.
    if (fs::exists(fs::symlink_status(*entry, ec))) check_replaceable(*entry, paper, study);
    return;
  }
  if (status.type() != fs::file_type::directory) refuse(target, "exists and is not a run directory");
  const fs::path json_file = target / "run.json";
  if (!fs::is_regular_file(json_file, ec)) refuse(target, "exists and holds no run.json: it is not a run");
  nlohmann::json json;
  try {
    json = parse_json(read_text(json_file, "--output"), json_file.string());
  } catch (const InputError& e) {
    refuse(target, "holds a run.json that is not valid JSON (" + std::string(e.what()) + ")");
  }
  const auto text = [&](const char* field) {
    return json.is_object() && json.contains(field) && json[field].is_string() ? json[field].get<std::string>()
                                                                               : std::string("?");
  };
  if (text("schema") != "cm-run 1") refuse(target, "holds a run.json that is not a run of this project");
  if (text("paper") != paper || text("study") != study)
    refuse(target, "is the run of " + text("paper") + "/" + text("study") + ", not of " + paper + "/" + study);
  std::set<std::string> listed{"run.json", "columns.gp"};
  if (json.contains("files") && json["files"].is_array())
    for (const auto& f : json["files"])
      if (f.is_object() && f.contains("name") && f["name"].is_string()) listed.insert(f["name"].get<std::string>());
  for (const auto& entry : fs::directory_iterator(target, ec)) {
    const std::string name = entry.path().filename().string();
    if (!listed.count(name) || entry.is_directory(ec) || entry.is_symlink(ec))
      refuse(target, "is a run of " + paper + "/" + study + " but also holds '" + name + "', which no run wrote");
  }
  if (ec) throw IoError("--output: cannot list '" + target.string() + "': " + ec.message());
}

// ---------------------------------------------------------------------------------------
// Table

void Table::row(std::initializer_list<double> values) { row(std::vector<double>(values)); }

void Table::row(const std::vector<double>& values) {
  if (values.size() != columns_.size())
    throw std::logic_error(file_.filename().string() + ": row of " + std::to_string(values.size()) + " values for " +
                           std::to_string(columns_.size()) + " columns");
  run_->charge(1, bytes_per_value * static_cast<double>(values.size()), "");
  std::FILE* f = out_.get();
  if (!f) return;  // a discarding run
  for (std::size_t i = 0; i < values.size(); ++i) std::fprintf(f, "%s%.17g", i ? "\t" : "", values[i]);
  if (std::fputc('\n', f) == EOF) throw IoError(io_message("cannot write", file_.string()));
}

void Table::gap() {
  if (!out_) return;  // a discarding run
  if (std::fputc('\n', out_.get()) == EOF) throw IoError(io_message("cannot write", file_.string()));
}

// ---------------------------------------------------------------------------------------
// Run

Run::Run(const Config& config, RunIdentity identity, const Invocation& invocation, Budget budget,
         const std::string& store)
    : config_(config),
      identity_(std::move(identity)),
      invocation_(invocation),
      budget_(budget),
      quiet_(invocation.quiet) {
  const auto& p = provenance();
  // A run that reads other runs (a channel going on from a saved frame) is named by what it read:
  // the run ids of its origins stand in for their paths, so that two origins never give one id,
  // and one origin gives one id wherever it lies.
  auto identity_values = config.effective(true);
  for (const auto& [key, dirs] : config.run_references()) {
    std::vector<std::string> ids;
    for (const std::string& dir : dirs) ids.push_back(run_id_in(dir, key));
    reads_[key] = ids;
    if (identity_values.count(key)) identity_values[key] = "runs " + join(ids, ",");
  }
  id_ = sha256_hex("cm-run 1\n" + identity_.solver + "\n" + p.version + "\n" + p.revision +
                   (p.modified ? "+modified" : "") + "\n" + identity_.paper + "/" + identity_.study + "\n" +
                   serialise(identity_values));

  const std::string output =
      invocation.output.empty() ? "results/" + identity_.paper + "/" + identity_.study : invocation.output;
  target_ = fs::path(output).lexically_normal();
  if (target_.filename().empty()) target_ = target_.parent_path();
  const std::string name = target_.filename().string();
  if (name.empty() || name == "." || name == ".." || target_ == target_.root_path())
    throw InputError("--output: '" + output + "' does not name a run directory");
  if (name.front() == '.')
    throw InputError("--output: '" + output + "' is a hidden name; runs are never hidden (tools skip dot names)");
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  const fs::path absolute_target = fs::weakly_canonical(fs::absolute(target_, ec), ec);
  if (!ec) {
    // The current directory, or one of its ancestors, is never an output (--output ../work).
    auto mismatch = std::mismatch(absolute_target.begin(), absolute_target.end(), here.begin(), here.end());
    if (mismatch.first == absolute_target.end()) refuse(target_, "is the current directory or contains it");
  }
  if (store.empty()) throw InputError("output.store: empty; give a directory, none or auto");
  const std::string chosen = store == "auto" ? (invocation.output.empty() ? default_store : "none") : store;
  if (chosen != "none") {
    store_ = fs::path(chosen).lexically_normal();
    if (store_.filename().empty()) store_ = store_.parent_path();
    if (store_.empty() || store_.filename().string().front() == '.')
      throw InputError("output.store: '" + chosen + "' does not name a directory (nor a hidden one)");
    if (store_ == target_) throw InputError("output.store: '" + chosen + "' is the output itself");
  }
  check_replaceable(target_, identity_.paper, identity_.study, store_);

  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  for (const fs::path& folder : {parent, store_}) {
    if (folder.empty()) continue;
    for (fs::path p = folder; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
      created_parents_.push_back(p);
      if (!p.has_parent_path() || p.parent_path() == p) break;
    }
    fs::create_directories(folder, ec);
    if (ec) throw IoError("--output: cannot create '" + folder.string() + "': " + ec.message());
    if (!fs::is_directory(folder)) refuse(folder, "is not a directory");
  }
  remove_dead_leftovers(parent, name);
  if (store_.empty()) {
    temporary_ = parent / ("." + name + ".partial-" + std::to_string(::getpid()));
  } else {
    remove_dead_partials(store_);  // of any run or import into this store whose process is gone
    temporary_ = store_ / ("." + id_ + ".partial-" + std::to_string(::getpid()));
  }
  fs::remove_all(temporary_, ec);
  register_pending(temporary_);
  if (!fs::create_directory(temporary_, ec) || ec) {
    unregister_pending(temporary_);
    throw IoError("--output: cannot create '" + temporary_.string() + "': " + ec.message());
  }
}

Run::Run(const Config& config, RunIdentity identity, const Invocation& invocation, Budget budget, Discarding)
    : config_(config),
      identity_(std::move(identity)),
      invocation_(invocation),
      budget_(budget),
      quiet_(true),
      discarding_(true) {}

std::unique_ptr<Run> Run::discarding(const Config& config, RunIdentity identity, const Invocation& invocation,
                                     Budget budget) {
  return std::make_unique<Run>(config, std::move(identity), invocation, budget, Discarding{});
}

Run::~Run() {
  if (discarding_) return;
  std::error_code ec;
  if (!committed_) {
    fs::remove_all(temporary_, ec);
    // The folders this run created for its output, if they are still empty.
    for (const auto& p : created_parents_) fs::remove(p, ec);
  }
  unregister_pending(temporary_);
}

void Run::check_budget(double rows, double bytes, const std::string& key) const {
  const double total_rows = rows_ + rows, total_bytes = bytes_ + bytes;
  const std::string by = key.empty() ? "" : " (set by " + key + ")";
  if (total_rows > static_cast<double>(budget_.max_rows))
    throw InputError((key.empty() ? std::string(Budget::max_rows_key) : key) + ": the run would write " +
                     format_real(std::round(total_rows)) + " rows" + by + ", over the budget output.max_rows = " +
                     std::to_string(budget_.max_rows) + "; coarsen the grid or raise the budget");
  if (total_bytes > static_cast<double>(budget_.max_bytes))
    throw InputError((key.empty() ? std::string(Budget::max_bytes_key) : key) + ": the run would write about " +
                     format_real(std::round(total_bytes)) + " bytes" + by + ", over the budget output.max_bytes = " +
                     std::to_string(budget_.max_bytes) + "; coarsen the grid or raise the budget");
}

void Run::charge(double rows, double bytes, const std::string& key) {
  const std::lock_guard<std::mutex> lock(charge_mutex_);
  check_budget(rows, bytes, key);
  rows_ += rows;
  bytes_ += bytes;
}

namespace {

// The budget `key` of the program's configuration, or the default of Budget where it has none.
double budget_of(const Config& config, const std::string& key, long fallback) {
  return config.has(key) ? config.number(key) : static_cast<double>(fallback);
}

}  // namespace

long planned_steps(const Config& config, double span, double step, const std::string& step_key,
                   const std::string& span_key) {
  if (!(step > 0.0 && std::isfinite(step))) config.fail(step_key, "the step must be positive and finite");
  if (!(span > 0.0 && std::isfinite(span))) config.fail(span_key, "must be positive and finite");
  if (step > span)
    config.fail(step_key, "a step of " + format_real(step) + " is longer than the run (" + span_key + " = " +
                              format_real(span) + "): no step would be made");
  const double steps = std::round(span / step);
  const double most = budget_of(config, Budget::max_steps_key, Budget{}.max_steps);
  if (!(steps <= most))
    config.fail(step_key, "a step of " + format_real(step) + " over " + span_key + " = " + format_real(span) +
                              " makes " + format_real(steps) + " steps, over the budget " +
                              std::string(Budget::max_steps_key) + " = " + format_real(most) +
                              "; take a longer step or raise the budget");
  return static_cast<long>(steps);
}

void planned_bodies(const Config& config, double bodies, const std::string& key, const std::string& what) {
  const double most = budget_of(config, Budget::max_bodies_key, Budget{}.max_bodies);
  if (!(bodies <= most))
    config.fail(key, "the run would hold " + format_real(std::round(bodies)) + " " + what + ", over the budget " +
                         std::string(Budget::max_bodies_key) + " = " + format_real(most) +
                         "; make the system smaller or raise the budget");
}

void planned_memory(const Config& config, double bytes, const std::string& key, const std::string& what) {
  const double most = budget_of(config, Budget::max_memory_key, Budget{}.max_memory);
  if (!(bytes <= most))
    config.fail(key, "the run would hold at least " + format_real(std::round(bytes)) + " bytes of " + what +
                         ", over the budget " + std::string(Budget::max_memory_key) + " = " + format_real(most) +
                         " bytes; make the system smaller or raise the budget");
}

Table Run::table(const std::string& name, const std::string& description, std::vector<Column> columns,
                 Planned planned) {
  if (columns.empty()) throw std::logic_error("a table needs columns: " + name);
  for (const auto& f : files_)
    if (f.name == name) throw std::logic_error("data file written twice: " + name);
  // A plan is only checked: the rows are charged as they are written.
  if (planned.rows > 0)
    check_budget(planned.rows, planned.rows * bytes_per_value * static_cast<double>(columns.size()), planned.key);
  if (discarding_) {
    files_.push_back({name, description, columns});
    return Table(*this, name, std::move(columns), nullptr);
  }
  const fs::path file = temporary_ / name;
  std::FILE* f = std::fopen(file.c_str(), "w");
  if (!f) throw IoError(io_message("cannot write", file.string()));
  auto out = std::shared_ptr<std::FILE>(f, [](std::FILE* s) { std::fclose(s); });
  std::fprintf(f, "# schema: cm-tsv 1\n# run: %s\n# %s\n# columns: ", id_.c_str(), description.c_str());
  for (std::size_t i = 0; i < columns.size(); ++i)
    std::fprintf(f, "%s%s[%s]", i ? "\t" : "", columns[i].name.c_str(), columns[i].unit.c_str());
  std::fputc('\n', f);
  files_.push_back({name, description, columns});
  streams_.push_back(out);
  return Table(*this, file, std::move(columns), std::move(out));
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

namespace {

// gnuplot names for the columns of every table: `<table>_<column>` (letters, digits and _).
std::string gnuplot_name(const std::string& text) {
  std::string s;
  for (unsigned char c : text) s.push_back(std::isalnum(c) ? static_cast<char>(c) : '_');
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
  return s;
}

void write_file(const fs::path& file, const std::string& text) {
  std::FILE* out = std::fopen(file.c_str(), "w");
  if (!out) throw IoError(io_message("cannot write", file.string()));
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  if (std::fclose(out) != 0 || !ok) throw IoError(io_message("cannot write", file.string()));
}

}  // namespace

void Run::commit() {
  if (discarding_) return;
  using nlohmann::ordered_json;
  const auto& p = provenance();
  const auto values = config_.effective();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - program_start_steady()).count();

  ordered_json j;
  j["schema"] = "cm-run 1";
  j["paper"] = identity_.paper;
  j["study"] = identity_.study;
  j["run_id"] = id_;
  j["solver"] = {
      {"name", identity_.solver}, {"version", p.version}, {"revision", p.revision}, {"modified", p.modified}};
  j["build"] = {{"type", p.build_type},   {"compiler", p.compiler}, {"flags", p.flags},
                {"sundials", p.sundials}, {"eigen", p.eigen},       {"boost", p.boost}};
  ordered_json config_values = ordered_json::object();
  for (const auto& [k, v] : values) config_values[k] = v;
  ordered_json no_data = ordered_json::array();
  const auto data_values = config_.effective(true);
  for (const auto& [k, v] : values)
    if (!data_values.count(k)) no_data.push_back(k);
  j["config"] = {{"file", invocation_.config_file},
                 {"bases", invocation_.config_bases},
                 {"hash", sha256_hex(serialise(data_values))},
                 {"values", config_values},
                 {"not_hashed", no_data}};
  j["command_line"] = invocation_.command_line;
  j["start_utc"] = utc(program_start());
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
  if (!reads_.empty()) j["reads"] = reads_;
  ordered_json files = ordered_json::array();
  std::ostringstream columns_gp;
  columns_gp << "# generated: the column of every data file of run " << id_ << ", by name\n";
  for (const auto& f : files_) {
    ordered_json cols = ordered_json::array();
    const std::string table = gnuplot_name(fs::path(f.name).stem().string());
    for (std::size_t i = 0; i < f.columns.size(); ++i) {
      cols.push_back(f.columns[i].name + "[" + f.columns[i].unit + "]");
      columns_gp << table << "_" << gnuplot_name(f.columns[i].name) << " = " << i + 1 << "\n";
    }
    files.push_back({{"name", f.name}, {"description", f.description}, {"columns", cols}});
  }
  j["files"] = files;

  for (const auto& weak : streams_)
    if (auto stream = weak.lock())
      if (std::fflush(stream.get()) != 0 || std::ferror(stream.get()))
        throw IoError(io_message("cannot write the data files in", temporary_.string()));
  write_file(temporary_ / "columns.gp", columns_gp.str());
  write_file(temporary_ / "run.json", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");

  // Into place, atomically: into an empty place, or exchanged with the earlier run of the same
  // study (checked again now: the output may have changed since the run started). With a store,
  // the place is <store>/<run id> (an earlier run there has the same id: the same solver, source
  // and data configuration), and the output then becomes a link to it.
  const fs::path place = store_.empty() ? target_ : store_ / id_;
  // From here a stop signal is held: once the run is in place the process ends with 0, never by
  // a signal with its run committed; a commit that fails answers a held signal after all.
  hold_stop_signals();
  struct ReleaseOnFailure {
    bool failed = true;
    ~ReleaseOnFailure() {
      if (failed) release_stop_signals();
    }
  } release;
  for (int attempt = 0;; ++attempt) {
    if (attempt == commit_attempts)
      throw IoError("--output: '" + place.string() + "' kept changing while this run tried to commit");
    if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, place.c_str(), RENAME_NOREPLACE) == 0) break;
    if (errno != EEXIST && errno != ENOTEMPTY) throw IoError(io_message("cannot move the run into", place.string()));
    check_replaceable(place, identity_.paper, identity_.study);
    if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, place.c_str(), RENAME_EXCHANGE) == 0) {
      std::error_code ec;
      fs::remove_all(temporary_, ec);  // now the earlier run
      break;
    }
    if (errno != ENOENT) throw IoError(io_message("cannot replace", place.string()));
  }
  committed_ = true;
  release.failed = false;
  if (!store_.empty()) {
    point_to(target_, place, [this] { check_replaceable(target_, identity_.paper, identity_.study, store_); });
  }
  if (!quiet_) {
    std::cerr << identity_.solver << ": run " << id_ << " written to " << place.string();
    if (!store_.empty()) std::cerr << ", named by " << target_.string();
    std::cerr << "\n";
  }
}

// ---------------------------------------------------------------------------------------
// Progress

Progress::Progress(std::string what, double t0, double t1, bool quiet, std::string quantity)
    : what_(std::move(what)),
      quantity_(std::move(quantity)),
      t0_(t0),
      t1_(t1),
      quiet_(quiet),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(double t) { update(t, std::string()); }

void Progress::update(double t, const std::string& detail) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(2)) return;
  last_ = now;
  const double fraction = t1_ > t0_ ? (t - t0_) / (t1_ - t0_) : 1.0;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0.0;
  std::fprintf(stderr, "%s: %s %.6g of %.6g (%.0f%%, about %.0f s left)%s%s\n", what_.c_str(), quantity_.c_str(), t,
               t1_, 100.0 * fraction, left, detail.empty() ? "" : "; ", detail.c_str());
  printed_ = true;
}

Progress::~Progress() {
  if (printed_ && !quiet_) std::fprintf(stderr, "%s: done\n", what_.c_str());
}

}  // namespace cm
