#include "common/options.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/run.hpp"

namespace po = boost::program_options;

namespace cm {

namespace {

// The shortest text that reads back as the same double (0.9, not 0.90000000000000002).
std::string format_real(double x) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, separator)) parts.push_back(trim(part));
  if (!s.empty() && s.back() == separator) parts.push_back("");
  return parts;
}

// A small recursive-descent evaluator for real values:
//   expr := term (('+'|'-') term)* ; term := unary (('*'|'/') unary)* ;
//   unary := ('+'|'-') unary | power ; power := primary ('^' unary)? ;
//   primary := number | 'pi' | name '(' expr ')' | '(' expr ')'
class Expression {
 public:
  Expression(const std::string& key, const std::string& text) : key_(key), text_(text) {}

  double evaluate() {
    if (trim(text_).empty()) fail("empty value");
    const double value = expr();
    skip();
    if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_) + "'");
    if (!std::isfinite(value)) fail("not a finite number");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(key_ + ": cannot read '" + text_ + "' as a real number (" + why +
                     "); allowed: numbers, pi, + - * / ^, parentheses, sqrt sin cos exp log");
  }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  double expr() {
    double v = term();
    for (;;) {
      if (accept('+'))
        v += term();
      else if (accept('-'))
        v -= term();
      else
        return v;
    }
  }
  double term() {
    double v = unary();
    for (;;) {
      if (accept('*')) {
        v *= unary();
      } else if (accept('/')) {
        const double d = unary();
        if (d == 0.0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  double unary() {
    if (accept('-')) return -unary();
    if (accept('+')) return unary();
    return power();
  }
  double power() {
    const double base = primary();
    if (accept('^')) return std::pow(base, unary());
    return base;
  }
  double primary() {
    skip();
    if (accept('(')) {
      const double v = expr();
      if (!accept(')')) fail("missing ')'");
      return v;
    }
    if (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) {
      std::size_t end = pos_;
      while (end < text_.size() && std::isalnum(static_cast<unsigned char>(text_[end]))) ++end;
      const std::string name = text_.substr(pos_, end - pos_);
      pos_ = end;
      if (name == "pi") return pi;
      double (*function)(double) = nullptr;
      if (name == "sqrt") function = [](double x) { return std::sqrt(x); };
      if (name == "sin") function = [](double x) { return std::sin(x); };
      if (name == "cos") function = [](double x) { return std::cos(x); };
      if (name == "exp") function = [](double x) { return std::exp(x); };
      if (name == "log") function = [](double x) { return std::log(x); };
      if (!function) fail("unknown name '" + name + "'");
      if (!accept('(')) fail("'(' expected after " + name);
      const double argument = expr();
      if (!accept(')')) fail("missing ')'");
      return function(argument);
    }
    if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
      const char* begin = text_.c_str() + pos_;
      char* end = nullptr;
      const double v = std::strtod(begin, &end);
      if (end == begin) fail("number expected");
      pos_ += static_cast<std::size_t>(end - begin);
      return v;
    }
    fail(pos_ < text_.size() ? "unexpected '" + text_.substr(pos_) + "'" : "value ends early");
  }

  std::string key_, text_;
  std::size_t pos_ = 0;
};

bool parse_bool(const std::string& key, const std::string& raw) {
  std::string v = trim(raw);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  throw InputError(key + ": '" + raw + "' is not a flag; allowed: true, false, yes, no, on, off, 1, 0");
}

}  // namespace

double parse_real(const std::string& key, const std::string& text) { return Expression(key, text).evaluate(); }

bool Range::contains(double x) const {
  if (!std::isfinite(x)) return false;
  if (lo_open ? !(x > lo) : !(x >= lo)) return false;
  if (hi_open ? !(x < hi) : !(x <= hi)) return false;
  return true;
}

std::string Range::describe() const {
  auto bound = [](double b) { return std::isinf(b) ? std::string(b < 0 ? "-inf" : "inf") : format_real(b); };
  return std::string(lo_open || std::isinf(lo) ? "(" : "[") + bound(lo) + ", " + bound(hi) +
         (hi_open || std::isinf(hi) ? ")" : "]");
}

Config::Config(std::string solver, std::string paper, std::string study, std::string summary)
    : solver_(std::move(solver)), paper_(std::move(paper)), study_(std::move(study)), summary_(std::move(summary)) {
  output_ = "results/" + paper_ + "/" + study_;
}

void Config::add_real(const std::string& key, double fallback, const std::string& unit, const std::string& help,
                      Range range) {
  add_reals(key, {fallback}, unit, help, range, 1);
  keys_.at(key).kind = Kind::real;
}

void Config::add_reals(const std::string& key, const std::vector<double>& fallback, const std::string& unit,
                       const std::string& help, Range range, std::optional<std::size_t> size) {
  if (keys_.count(key)) throw std::logic_error("key declared twice: " + key);
  Key k{Kind::reals, unit, help, range, size, 0, 0, {}, "", fallback, 0, "", ""};
  for (double v : fallback)
    if (!range.contains(v)) throw std::logic_error("default of " + key + " outside its range");
  k.fallback_text = canonical(k);
  keys_.emplace(key, std::move(k));
  order_.push_back(key);
}

void Config::add_integer(const std::string& key, long fallback, const std::string& help, long lo, long hi) {
  if (keys_.count(key)) throw std::logic_error("key declared twice: " + key);
  Key k{Kind::integer, "1", help, Range::closed(double(lo), double(hi)), {}, lo, hi, {}, "", {}, fallback, "", ""};
  k.fallback_text = canonical(k);
  keys_.emplace(key, std::move(k));
  order_.push_back(key);
}

void Config::add_flag(const std::string& key, bool fallback, const std::string& help) {
  if (keys_.count(key)) throw std::logic_error("key declared twice: " + key);
  Key k{Kind::flag, "", help, Range::any(), {}, 0, 1, {}, "", {}, fallback ? 1 : 0, "", ""};
  k.fallback_text = canonical(k);
  keys_.emplace(key, std::move(k));
  order_.push_back(key);
}

void Config::add_choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed,
                        const std::string& help) {
  if (keys_.count(key)) throw std::logic_error("key declared twice: " + key);
  if (std::find(allowed.begin(), allowed.end(), fallback) == allowed.end())
    throw std::logic_error("default of " + key + " not among its choices");
  Key k{Kind::choice, "", help, Range::any(), {}, 0, 0, allowed, fallback, {}, 0, fallback, ""};
  keys_.emplace(key, std::move(k));
  order_.push_back(key);
}

void Config::add_text(const std::string& key, const std::string& fallback, const std::string& help) {
  if (keys_.count(key)) throw std::logic_error("key declared twice: " + key);
  Key k{Kind::text, "", help, Range::any(), {}, 0, 0, {}, fallback, {}, 0, fallback, ""};
  keys_.emplace(key, std::move(k));
  order_.push_back(key);
}

void Config::assumption(const std::string& key, const std::string& note) {
  auto it = keys_.find(key);
  if (it == keys_.end()) throw std::logic_error("assumption on an undeclared key: " + key);
  it->second.note = note;
}

std::string Config::canonical(const Key& k) {
  switch (k.kind) {
    case Kind::real:
    case Kind::reals: {
      std::string s;
      for (std::size_t i = 0; i < k.values.size(); ++i) {
        if (i) s.push_back(',');
        s.append(format_real(k.values[i]));
      }
      return s;
    }
    case Kind::integer:
      return std::to_string(k.ivalue);
    case Kind::flag:
      return k.ivalue ? "true" : "false";
    case Kind::choice:
    case Kind::text:
      return k.svalue;
  }
  return "";
}

void Config::set(const std::string& key, const std::string& raw) {
  Key& k = keys_.at(key);
  const std::string value = trim(raw);
  switch (k.kind) {
    case Kind::real:
    case Kind::reals: {
      std::vector<double> values;
      if (!value.empty() || k.kind == Kind::real)
        for (const std::string& item : split(value, ',')) values.push_back(parse_real(key, item));
      if (k.kind == Kind::real && values.size() != 1) fail(key, "one real number expected, got '" + raw + "'");
      if (k.size && values.size() != *k.size)
        fail(key, std::to_string(*k.size) + " comma-separated values expected, got " + std::to_string(values.size()));
      for (double v : values)
        if (!k.range.contains(v))
          fail(key, "value " + format_real(v) + " outside the allowed range " + k.range.describe());
      k.values = std::move(values);
      break;
    }
    case Kind::integer: {
      long v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty())
        fail(key, "'" + raw + "' is not an integer");
      if (v < k.ilo || v > k.ihi)
        fail(key, "value " + value + " outside [" + std::to_string(k.ilo) + ", " + std::to_string(k.ihi) + "]");
      k.ivalue = v;
      break;
    }
    case Kind::flag:
      k.ivalue = parse_bool(key, value) ? 1 : 0;
      break;
    case Kind::choice: {
      if (std::find(k.allowed.begin(), k.allowed.end(), value) == k.allowed.end()) {
        std::string list;
        for (const auto& a : k.allowed) list += (list.empty() ? "" : ", ") + a;
        fail(key, "'" + raw + "' is not allowed; choose one of: " + list);
      }
      k.svalue = value;
      break;
    }
    case Kind::text:
      k.svalue = value;
      break;
  }
}

bool Config::parse(int argc, const char* const* argv) {
  // The command line as given, for the provenance.
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.find_first_of(" \t'\"") != std::string::npos) a = "'" + a + "'";
    command_line_ += (i ? " " : "") + a;
  }

  po::options_description generic("general options");
  generic.add_options()("help,h", "print every key with its default, unit and range")(
      "version", "print the version and source revision")("config", po::value<std::string>(),
                                                           "INI file of keys ([section] key = value)")(
      "output", po::value<std::string>(), "run directory to write")("quiet", "no progress lines");
  po::options_description keys("keys");
  for (const auto& name : order_) keys.add_options()(name.c_str(), po::value<std::string>());
  po::options_description all;
  all.add(generic).add(keys);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing).run(), vm);
    if (vm.count("help")) {
      std::cout << help_text();
      return false;
    }
    if (vm.count("version")) {
      const auto& p = provenance();
      std::cout << solver_ << " " << p.version << " (revision " << p.revision << (p.modified ? ", modified" : "")
                << ")\n";
      return false;
    }
    if (vm.count("config")) {
      config_file_ = vm["config"].as<std::string>();
      if (!std::filesystem::is_regular_file(config_file_))
        throw InputError("config file '" + config_file_ + "' not found (--config)");
      std::ifstream in(config_file_);
      if (!in) throw InputError("config file '" + config_file_ + "' cannot be read (--config)");
      // Stored after the command line, so the command line overrides the file.
      po::store(po::parse_config_file(in, keys, false), vm);
    }
  } catch (const po::unknown_option& e) {
    std::string where = config_file_.empty() ? "the command line" : "the command line or " + config_file_;
    throw InputError("unknown key '" + e.get_option_name() + "' in " + where);
  } catch (const po::multiple_occurrences& e) {
    throw InputError("key '" + e.get_option_name() + "' given twice");
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  if (vm.count("output")) {
    output_ = vm["output"].as<std::string>();
    if (trim(output_).empty()) throw InputError("--output: empty directory name");
    // One executable may serve several studies: the run is named after its directory.
    auto name = std::filesystem::path(output_).lexically_normal();
    if (name.filename().empty()) name = name.parent_path();
    if (name.filename().empty() || name.filename() == "." || name.filename() == "..")
      throw InputError("--output: '" + output_ + "' does not name a run directory");
    study_ = name.filename().string();
  }
  quiet_ = vm.count("quiet") > 0;
  for (const auto& name : order_)
    if (vm.count(name)) set(name, vm[name].as<std::string>());
  return true;
}

const Config::Key& Config::get(const std::string& key, Kind kind) const {
  auto it = keys_.find(key);
  if (it == keys_.end()) throw std::logic_error("undeclared key read: " + key);
  const bool ok = it->second.kind == kind || (kind == Kind::reals && it->second.kind == Kind::real) ||
                  (kind == Kind::text && it->second.kind == Kind::choice);
  if (!ok) throw std::logic_error("key read as the wrong type: " + key);
  return it->second;
}

double Config::real(const std::string& key) const { return get(key, Kind::real).values.at(0); }
std::vector<double> Config::reals(const std::string& key) const { return get(key, Kind::reals).values; }
long Config::integer(const std::string& key) const { return get(key, Kind::integer).ivalue; }
bool Config::flag(const std::string& key) const { return get(key, Kind::flag).ivalue != 0; }
const std::string& Config::text(const std::string& key) const { return get(key, Kind::text).svalue; }

void Config::fail(const std::string& key, const std::string& message) const { throw InputError(key + ": " + message); }

std::map<std::string, std::string> Config::effective() const {
  std::map<std::string, std::string> values;
  for (const auto& [name, k] : keys_) values[name] = canonical(k);
  return values;
}

std::vector<Assumption> Config::assumptions() const {
  std::vector<Assumption> list;
  for (const auto& [name, k] : keys_)
    if (!k.note.empty()) list.push_back({name, canonical(k), k.note});
  return list;
}

std::string Config::help_text() const {
  std::ostringstream out;
  out << solver_ << ": " << summary_ << "\n\n";
  if (usage_.empty())
    out << "usage: " << solver_ << " [--config FILE] [--KEY=VALUE ...] [--output DIR] [--quiet]\n"
        << "       " << solver_ << " --help | --version\n\n"
        << "The command line overrides the file; INI sections give the dotted names ([model] m0 = 1 is model.m0).\n"
        << "Default output: " << output_ << " (written atomically). Exit status: 0 ok, 2 bad input, 3 numerical "
        << "failure.\n";
  else
    out << usage_ << (usage_.back() == '\n' ? "" : "\n");
  out << "\nkeys:\n";
  for (const auto& name : order_) {
    const Key& k = keys_.at(name);
    out << "  --" << name << "  (default " << (k.fallback_text.empty() ? "\"\"" : k.fallback_text) << ")";
    if (!k.unit.empty() && k.unit != "1") out << " [" << k.unit << "]";
    if (k.kind == Kind::real || k.kind == Kind::reals) {
      if (k.range.lo != Range::any().lo || k.range.hi != Range::any().hi) out << " in " << k.range.describe();
      if (k.size && *k.size > 1) out << ", " << *k.size << " values";
      if (!k.size) out << ", a comma-separated list";
    }
    if (k.kind == Kind::integer) out << " in [" << k.ilo << ", " << k.ihi << "]";
    if (k.kind == Kind::choice) {
      out << " one of:";
      for (const auto& a : k.allowed) out << " " << a;
    }
    out << "\n      " << k.help << "\n";
    if (!k.note.empty()) out << "      assumption: " << k.note << "\n";
  }
  return out.str();
}

}  // namespace cm
