#include "tools/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "core/errors.hpp"
#include "core/run_reader.hpp"
#include "core/store.hpp"
#include "core/text.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

std::string sha256_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(io_message("cannot read", file.string()));
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot start a SHA-256");
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    if (in.gcount() > 0) EVP_DigestUpdate(context.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw IoError(io_message("cannot read", file.string()));
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(context.get(), digest.data(), &size);
  std::string hex;
  char two[3];
  for (unsigned int i = 0; i < size; ++i) {
    std::snprintf(two, sizeof two, "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

std::vector<fs::path> files_below(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) files.push_back(fs::relative(it->path(), dir));
  }
  if (ec) throw_io_error("cannot list", dir, ec);
  std::sort(files.begin(), files.end());
  return files;
}

std::string first_line_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>/dev/null").c_str(), "r"), ::pclose);
  if (!pipe) return "unknown";
  char line[512] = {};
  if (!std::fgets(line, sizeof line, pipe.get())) return "unknown";
  std::string text = line;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  // Read the rest, so that the program is not killed by a closed pipe.
  while (std::fgets(line, sizeof line, pipe.get())) {
  }
  return text.empty() ? "unknown" : text;
}

std::vector<IndexLine> read_index(const fs::path& index) {
  std::vector<IndexLine> result;
  std::error_code ec;
  if (!fs::exists(index, ec)) return result;
  std::size_t number = 0;
  for (const std::string& line : lines(read_text(index, "archives"))) {
    ++number;
    if (line.empty()) continue;
    const auto fields = split(line, '\t');
    if (fields.size() != 3)
      throw InputError(index.string() + ":" + std::to_string(number) +
                       ": not <archive id> TAB <run id> TAB <paper>/<study>");
    result.push_back({fields[0], fields[1], fields[2]});
  }
  return result;
}

bool is_study_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_archive_path(const std::string& path) {
  const auto parts = split(path, '/');
  if (path.empty() || parts.size() > 16) return false;
  for (const std::string& part : parts) {
    if (part.empty() || part.size() > 128 || part == "." || part == "..") return false;
    for (char c : part)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '+' && c != '-') return false;
  }
  return true;
}

namespace {

// Closes a file descriptor when it goes.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// The name of a member below cm-archive/, checked: "" for cm-archive/ itself.
std::string member_path(const std::string& name) {
  std::string path = name;
  while (!path.empty() && path.back() == '/') path.pop_back();  // a folder's member ends in '/'
  if (path == archive_top) return "";
  const std::string prefix = archive_top + "/";
  if (!path.starts_with(prefix)) throw Damage("'" + name + "': a member outside " + archive_top + "/");
  path = path.substr(prefix.size());
  if (!is_archive_path(path))
    throw Damage("'" + name + "': not a name the project writes (a '..', '.', or an odd character)");
  return path;
}

}  // namespace

void unpack_archive(const fs::path& archive, const fs::path& into, std::uintmax_t max_bytes) {
  std::unique_ptr<struct archive, decltype(&archive_read_free)> reader(archive_read_new(), archive_read_free);
  if (!reader) throw std::runtime_error("libarchive: cannot start a reader");
  archive_read_support_filter_gzip(reader.get());
  archive_read_support_format_tar(reader.get());
  if (archive_read_open_filename(reader.get(), archive.c_str(), 1 << 16) != ARCHIVE_OK)
    throw Damage("does not unpack: " + std::string(archive_error_string(reader.get())));
  const fs::path top = into / archive_top;
  std::uintmax_t used = 0;
  std::set<std::string> seen;
  std::array<char, 1 << 16> buffer{};
  auto charge = [&](std::uintmax_t bytes, const std::string& name) {
    used += bytes;
    if (used > max_bytes)
      throw Damage("'" + name + "': unpacking it would write more than max_bytes (" + std::to_string(max_bytes) +
                   " bytes); an archive this large is refused unless --max_bytes allows it");
  };
  for (;;) {
    struct archive_entry* entry = nullptr;
    const int r = archive_read_next_header(reader.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK) throw Damage("does not unpack: " + std::string(archive_error_string(reader.get())));
    const char* raw = archive_entry_pathname(entry);
    const std::string name = raw ? raw : "";
    const std::string path = member_path(name);
    charge(512, name);
    if (archive_entry_hardlink(entry)) throw Damage("'" + name + "': a hard link (an archive holds no links)");
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFLNK) throw Damage("'" + name + "': a symbolic link (an archive holds no links)");
    if (type != AE_IFREG && type != AE_IFDIR)
      throw Damage("'" + name + "': a device, FIFO or socket (an archive holds files and folders only)");
    if (!seen.insert(path).second) throw Damage("'" + name + "': a member twice");
    const fs::path target = path.empty() ? top : top / path;
    std::error_code ec;
    if (type == AE_IFDIR) {
      fs::create_directories(target, ec);
      if (ec) throw Damage("'" + name + "': cannot be a folder here (" + ec.message() + ")");
      continue;
    }
    fs::create_directories(target.parent_path(), ec);
    if (ec) throw Damage("'" + name + "': its folder cannot be made (" + ec.message() + ")");
    Descriptor out{::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)};
    if (out.fd < 0) {
      if (errno == EEXIST || errno == EISDIR || errno == ELOOP || errno == ENOTDIR)
        throw Damage("'" + name + "': clashes with another member");
      throw IoError(io_message("cannot create", target.string()));
    }
    for (;;) {
      const la_ssize_t n = archive_read_data(reader.get(), buffer.data(), buffer.size());
      if (n == 0) break;
      if (n < 0) throw Damage("'" + name + "' does not unpack: " + std::string(archive_error_string(reader.get())));
      charge(static_cast<std::uintmax_t>(n), name);
      for (la_ssize_t done = 0; done < n;) {
        const ssize_t w = ::write(out.fd, buffer.data() + done, static_cast<std::size_t>(n - done));
        if (w < 0) {
          if (errno == EINTR) continue;
          throw IoError(io_message("cannot write", target.string()));
        }
        done += w;
      }
    }
  }
  if (!fs::is_directory(fs::symlink_status(top))) throw Damage("no " + archive_top + "/ folder");
}

void check_unpacked(const fs::path& top) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(top, ec)))
    throw Damage(top.string() + ": not a folder (a link, or missing)");
  for (fs::recursive_directory_iterator it(top, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string relative = fs::relative(it->path(), top).string();
    const auto status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_symlink(status)) throw Damage(relative + ": a link (an archive holds no links)");
    if (!fs::is_directory(status) && !fs::is_regular_file(status))
      throw Damage(relative + ": a device, FIFO or socket (an archive holds files and folders only)");
    if (!is_archive_path(relative)) throw Damage(relative + ": not a name the project writes");
  }
  if (ec) throw_io_error("cannot list", top, ec);
}

namespace {

// A field of a manifest object, of the type asked, or Damage naming it.
const nlohmann::json& field(const nlohmann::json& object, const char* name, const std::string& where) {
  if (!object.is_object() || !object.contains(name)) throw Damage("manifest.json: " + where + " has no '" + name + "'");
  return object[name];
}
std::string text_field(const nlohmann::json& object, const char* name, const std::string& where) {
  const auto& value = field(object, name, where);
  if (!value.is_string()) throw Damage("manifest.json: " + where + "." + name + " is not a string");
  return value.get<std::string>();
}

}  // namespace

Manifest parse_manifest(const std::string& text) {
  nlohmann::json j;
  try {
    j = parse_json(text, "manifest.json");
  } catch (const InputError& e) {
    throw Damage(e.what());
  }
  const std::string schema = text_field(j, "schema", "the manifest");
  if (schema != archive_schema)
    throw Damage("manifest.json: schema '" + schema + "', not '" + archive_schema +
                 "' (an archive of another version: re-archive its runs with this one)");
  Manifest m;
  const auto& files = field(j, "files", "the manifest");
  const auto& runs = field(j, "runs", "the manifest");
  if (!files.is_array() || !runs.is_array()) throw Damage("manifest.json: files and runs must be arrays");
  std::set<std::string> paths;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string where = "files[" + std::to_string(i) + "]";
    ManifestFile f{text_field(files[i], "path", where), text_field(files[i], "sha256", where), 0};
    if (!is_archive_path(f.path))
      throw Damage("manifest.json: " + where + ".path '" + f.path + "' is not a name the project writes");
    if (f.path == "manifest.json" || f.path == "SHA256SUMS")
      throw Damage("manifest.json: " + where + " lists " + f.path);
    if (!is_run_id(f.sha256)) throw Damage("manifest.json: " + where + ".sha256 is not 64 hex digits");
    const auto& bytes = field(files[i], "bytes", where);
    if (!bytes.is_number_unsigned()) throw Damage("manifest.json: " + where + ".bytes is not a size");
    f.bytes = bytes.get<std::uintmax_t>();
    if (!paths.insert(f.path).second) throw Damage("manifest.json: " + f.path + " is listed twice");
    m.files.push_back(f);
  }
  std::set<std::string> studies;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string where = "runs[" + std::to_string(i) + "]";
    ManifestRun r{text_field(runs[i], "paper", where), text_field(runs[i], "study", where),
                  text_field(runs[i], "run_id", where), text_field(runs[i], "solver", where)};
    for (const auto& [name, value] :
         {std::pair<const char*, const std::string*>{"paper", &r.paper}, {"study", &r.study}, {"solver", &r.solver}})
      if (!is_study_name(*value))
        throw Damage("manifest.json: " + where + "." + name + " '" + *value + "' is not a name of [a-z0-9_]");
    if (!is_run_id(r.run_id)) throw Damage("manifest.json: " + where + ".run_id is not a run id (64 hex digits)");
    if (!studies.insert(r.paper + "/" + r.study).second)
      throw Damage("manifest.json: " + r.paper + "/" + r.study + " has two runs");
    m.runs.push_back(r);
  }
  return m;
}

std::string sha256sums_text(const std::vector<ManifestFile>& files) {
  std::string sums;
  for (const auto& f : files) sums += f.sha256 + "  " + f.path + "\n";
  return sums;
}

std::string archive_id_in_name(const fs::path& archive) {
  std::string name = fs::path(archive).lexically_normal().filename().string();
  if (name.empty()) name = fs::path(archive).lexically_normal().parent_path().filename().string();
  const std::string suffix = ".tar.gz";
  if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
  return is_run_id(name) ? name : "";
}

namespace {

// A configuration key as the solvers declare them: words of letters (either case: the papers'
// notation, A and b of paper 001's conic study), digits and underscores, joined by dots. Nothing
// else reaches a re-run's command line as a key.
bool is_key(const std::string& key) {
  if (key.empty() || key.size() > 128) return false;
  for (const std::string& word : split(key, '.'))
    if (word.empty() || word.size() > 64 || !std::all_of(word.begin(), word.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        }))
      return false;
  return true;
}

// Whether a configuration value stays inside the re-run's tree when a solver reads it as a path
// (or a list of paths): no item of it absolute, from a home folder, or through "..".
bool stays_inside(const std::string& value) {
  for (const std::string& item : split(value, ',')) {
    const std::string path = trim(item);
    if (path.starts_with('/') || path.starts_with('~')) return false;
    for (const std::string& part : split(path, '/'))
      if (part == "..") return false;
  }
  return true;
}

}  // namespace

ArchivedRun check_archived_run(const ManifestRun& entry, const fs::path& top, const std::set<std::string>& listed) {
  const std::string where = "runs/" + entry.run_id;
  if (!listed.count(where + "/run.json")) throw Damage(where + "/run.json: not in the manifest");
  ArchivedRun r{entry, {}, {}, {}, {}, 0};
  try {
    r.run = parse_run_json(read_text(top / where / "run.json", "archive"), where + "/run.json");
  } catch (const InputError& e) {
    throw Damage(e.what());
  }
  const auto& run = r.run;
  if (run["run_id"] != entry.run_id || run.value("paper", "") != entry.paper || run.value("study", "") != entry.study)
    throw Damage(where + "/run.json: its run id, paper or study is not the manifest's");
  if (json_text(run, {"solver", "name"}, "") != entry.solver)
    throw Damage(where + "/run.json: its solver is not the manifest's");
  std::set<std::string> own{"run.json", "columns.gp"};
  for (const auto& file : run.value("files", nlohmann::json::array())) {
    if (!file.is_object() || !file.contains("name") || !file["name"].is_string())
      throw Damage(where + "/run.json: a file without a name");
    const std::string name = file["name"].get<std::string>();
    if (!is_archive_path(name) || name.find('/') != std::string::npos || !listed.count(where + "/" + name))
      throw Damage(where + "/run.json: the file '" + name + "' is not a file of the run in the manifest");
    r.files.push_back(name);
    own.insert(name);
  }
  // The run's folder holds what a solver writes and nothing else (cm_archive copies no other).
  for (const std::string& path : listed)
    if (path.starts_with(where + "/") && !own.count(path.substr(where.size() + 1)))
      throw Damage(path + ": not a file of the run (run.json, columns.gp or a data file its run.json lists)");
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
  if (run.contains("reads"))  // parse_run_json checked: an object of arrays of run ids
    for (const auto& [key, ids] : run["reads"].items()) {
      if (!is_key(key)) throw Damage(where + "/run.json: reads." + key + " is not a configuration key");
      for (const auto& read : ids) r.reads.emplace_back(key, read.get<std::string>());
    }
  const auto& stats = run.value("statistics", nlohmann::json::object());
  if (stats.contains("mpi") && stats["mpi"].contains("ranks")) {
    const double ranks = stats["mpi"]["ranks"].get<double>();  // a number: parse_run_json checked it
    if (!(ranks >= 1 && ranks <= 1e6 && ranks == std::floor(ranks)))
      throw Damage(where + "/run.json: statistics.mpi.ranks is not a number of ranks");
    r.ranks = static_cast<long>(ranks);
  }
  return r;
}

CheckedArchive check_archive(const fs::path& archive, const std::string& id, const fs::path& unpack_into,
                             std::uintmax_t max_bytes) {
  CheckedArchive a;
  // Steps 1 and 2: unpacked (or the unpacked folder checked), and the manifest is the id.
  try {
    if (fs::is_directory(archive)) {
      a.top = archive / archive_top;
      check_unpacked(a.top);
    } else {
      unpack_archive(archive, unpack_into, max_bytes);
      a.top = unpack_into / archive_top;
    }
    if (!fs::is_regular_file(fs::symlink_status(a.top / "manifest.json")))
      throw Damage("no " + archive_top + "/manifest.json");
    const std::string content_id = sha256_file(a.top / "manifest.json");
    if (content_id != id)
      throw Damage("the SHA-256 of its manifest is " + content_id + ", not the archive id " + id +
                   ": the manifest was changed, or this is another archive");
    a.manifest = parse_manifest(read_text(a.top / "manifest.json", "archive"));
  } catch (const Damage& e) {
    a.damage.push_back(archive.string() + ": " + e.what());
    return a;
  }
  // Step 3: every file as listed, no other file, and every run's names and values.
  std::set<std::string> listed{"manifest.json", "SHA256SUMS"};
  for (const auto& file : a.manifest.files) {
    listed.insert(file.path);
    const fs::path here = a.top / file.path;
    if (!fs::is_regular_file(fs::symlink_status(here))) {
      a.damage.push_back(file.path + ": missing");
    } else if (fs::file_size(here) != file.bytes || sha256_file(here) != file.sha256) {
      a.damage.push_back(file.path + ": changed (its size or SHA-256 differs from the manifest)");
    }
  }
  if (!fs::is_regular_file(fs::symlink_status(a.top / "SHA256SUMS")) ||
      read_text(a.top / "SHA256SUMS", "archive") != sha256sums_text(a.manifest.files))
    a.damage.push_back("SHA256SUMS: not the manifest's hashes");
  for (const fs::path& file : files_below(a.top))
    if (!listed.count(file.string())) a.damage.push_back(file.string() + ": not in the manifest");
  if (!a.damage.empty()) return a;
  try {
    for (const auto& entry : a.manifest.runs) a.runs.push_back(check_archived_run(entry, a.top, listed));
  } catch (const Damage& e) {
    a.damage.push_back(e.what());
    a.runs.clear();
  }
  return a;
}

}  // namespace cm::pipeline
