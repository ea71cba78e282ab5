#include "core/options.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "core/provenance.hpp"
#include "core/text.hpp"

namespace po = boost::program_options;

namespace cm {

namespace {

// Nesting deeper than this is refused rather than risking the stack: no sensible value of a key
// needs more than a handful of parentheses.
constexpr int max_nesting = 100;
// Integers are held in doubles while parsed; beyond 2^53 not every integer is representable.
constexpr double max_exact_integer = 9007199254740992.0;
// The line of an INI file that names its base: `[config] base = FILE`.
const std::string base_key = "config.base";
// The most bases one config file builds on. The deepest chain in configs/ is 2 (a steady run on
// a channel preset on its paper's defaults); 32 leaves room for presets of presets, and refuses a
// chain made by accident or on purpose (thousands) before it costs time.
constexpr std::size_t max_config_bases = 32;

// A small recursive-descent evaluator for real values:
//   expr := term (('+'|'-') term)* ; term := unary (('*'|'/') unary)* ;
//   unary := ('+'|'-') unary | power ; power := primary ('^' unary)? ;
//   primary := number | 'pi' | name '(' expr ')' | '(' expr ')'
//   number := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]  (decimal only)
class Expression {
 public:
  Expression(const std::string& key, const std::string& text) : key_(key), text_(text) {}

  double evaluate() {
    if (trim(text_).empty()) fail("empty value");
    const double value = expr();
    skip();
    if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_) + "'");
    if (!std::isfinite(value)) fail("not a finite number");
    if (value != 0.0 && std::fabs(value) < std::numeric_limits<double>::min())
      fail("below the smallest normal number 2.2e-308: a subnormal loses precision");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    std::string shown = text_.size() > 60 ? text_.substr(0, 60) + "..." : text_;
    throw InputError(key_ + ": cannot read '" + shown + "' as a real number (" + why +
                     "); allowed: decimal numbers, pi, + - * / ^, parentheses, sqrt sin cos exp log");
  }
  struct Depth {
    explicit Depth(Expression& e) : e_(e) {
      if (++e_.depth_ > max_nesting) e_.fail("nested deeper than " + std::to_string(max_nesting) + " levels");
    }
    ~Depth() { --e_.depth_; }
    Expression& e_;
  };
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
    Depth depth(*this);
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
    Depth depth(*this);
    if (accept('-')) return -unary();
    if (accept('+')) return unary();
    return power();
  }
  double power() {
    const double base = primary();
    if (accept('^')) return std::pow(base, unary());
    return base;
  }
  bool digit_at(std::size_t i) const { return i < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i])); }
  double number() {
    const std::size_t begin = pos_;
    while (digit_at(pos_)) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      while (digit_at(pos_)) ++pos_;
    }
    if (pos_ == begin + (text_[begin] == '.' ? 1 : 0)) fail("number expected");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t e = pos_ + 1;
      if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
      if (!digit_at(e)) fail("exponent expected after '" + text_.substr(begin, pos_ + 1 - begin) + "'");
      pos_ = e;
      while (digit_at(pos_)) ++pos_;
    }
    // A letter or a second point glued to the number ("0x10", "1.2.3", "5m") is not a number.
    if (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.'))
      fail("unexpected '" + text_.substr(pos_) + "' after the number '" + text_.substr(begin, pos_ - begin) + "'");
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text_.data() + begin, text_.data() + pos_, v);
    if (ec == std::errc::result_out_of_range) {
      // from_chars reports overflow and underflow alike; tell them apart by the exponent's sign.
      const bool underflow = text_.find_first_of("eE", begin) < pos_ && text_.find('-', begin) < pos_;
      fail(underflow ? "too small for a double" : "too large for a double");
    }
    if (ec != std::errc() || end != text_.data() + pos_) fail("number expected");
    return v;
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
      const double v = function(argument);
      if (!std::isfinite(v)) fail(name + " of " + format_real(argument) + " is not a finite number");
      return v;
    }
    if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.'))
      return number();
    fail(pos_ < text_.size() ? "unexpected '" + text_.substr(pos_) + "'" : "value ends early");
  }

  std::string key_, text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

bool parse_bool(const std::string& key, const std::string& raw) {
  std::string v = trim(raw);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  throw InputError(key + ": '" + raw + "' is not a flag; allowed: true, false, yes, no, on, off, 1, 0");
}

// Levenshtein distance, for "did you mean" on an unknown key.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string quote_argument(std::string a) {
  if (a.find_first_of(" \t'\"$`\\") == std::string::npos && !a.empty()) return a;
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

double parse_real(const std::string& key, const std::string& text) { return Expression(key, text).evaluate(); }

// ---------------------------------------------------------------------------------------
// Range

bool Range::contains(double x) const {
  if (!std::isfinite(x)) return false;
  if (lo_open ? !(x > lo) : !(x >= lo)) return false;
  if (hi_open ? !(x < hi) : !(x <= hi)) return false;
  return true;
}

bool Range::bounded() const { return lo != any().lo || hi != any().hi; }

std::string Range::describe() const {
  auto bound = [](double b) { return std::isinf(b) ? std::string(b < 0 ? "-inf" : "inf") : format_real(b); };
  return std::string(lo_open || std::isinf(lo) ? "(" : "[") + bound(lo) + ", " + bound(hi) +
         (hi_open || std::isinf(hi) ? ")" : "]");
}

// ---------------------------------------------------------------------------------------
// KeyBuilder

KeyBuilder& KeyBuilder::unit(const std::string& unit) {
  config_.key(key_).unit = unit;
  return *this;
}

KeyBuilder& KeyBuilder::range(Range range) {
  auto& k = config_.key(key_);
  if (k.kind == Config::Kind::flag || k.kind == Config::Kind::text || k.kind == Config::Kind::names)
    throw std::logic_error("a range on a key that is not numeric: " + key_);
  k.range = range;
  for (double v : k.numbers)
    if (!range.contains(v)) throw std::logic_error("default of " + key_ + " outside its range " + range.describe());
  return *this;
}

KeyBuilder& KeyBuilder::size(std::size_t n) {
  auto& k = config_.key(key_);
  if (k.kind != Config::Kind::reals && k.kind != Config::Kind::integers && k.kind != Config::Kind::names)
    throw std::logic_error("a size on a key that is not a list: " + key_);
  const std::size_t have = k.kind == Config::Kind::names ? k.texts.size() : k.numbers.size();
  if (have != n) throw std::logic_error("default of " + key_ + " does not have " + std::to_string(n) + " values");
  k.size = n;
  return *this;
}

KeyBuilder& KeyBuilder::increasing() {
  auto& k = config_.key(key_);
  if (k.kind != Config::Kind::reals && k.kind != Config::Kind::integers)
    throw std::logic_error("increasing() on a key that is not a numeric list: " + key_);
  k.increasing = true;
  for (std::size_t i = 1; i < k.numbers.size(); ++i)
    if (!(k.numbers[i] > k.numbers[i - 1])) throw std::logic_error("default of " + key_ + " does not increase");
  return *this;
}

KeyBuilder& KeyBuilder::nonempty() {
  auto& k = config_.key(key_);
  if (k.kind != Config::Kind::reals && k.kind != Config::Kind::integers && k.kind != Config::Kind::names)
    throw std::logic_error("nonempty() on a key that is not a list: " + key_);
  if ((k.kind == Config::Kind::names ? k.texts.empty() : k.numbers.empty()))
    throw std::logic_error("default of " + key_ + " is empty");
  k.nonempty = true;
  return *this;
}

KeyBuilder& KeyBuilder::choices(const std::vector<std::string>& allowed) {
  auto& k = config_.key(key_);
  if (k.kind != Config::Kind::text && k.kind != Config::Kind::names)
    throw std::logic_error("choices on a key that is not text: " + key_);
  for (const auto& t : k.texts)
    if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())
      throw std::logic_error("default of " + key_ + " is not among its choices");
  k.allowed = allowed;
  return *this;
}

KeyBuilder& KeyBuilder::assumption(const std::string& note) {
  config_.key(key_).note = note;
  return *this;
}

KeyBuilder& KeyBuilder::no_data() {
  config_.key(key_).affects_data = false;
  return *this;
}

KeyBuilder& KeyBuilder::physics() {
  config_.key(key_).physics = true;
  return *this;
}

KeyBuilder& KeyBuilder::required(const std::string& what) {
  auto& k = config_.key(key_);
  k.required = true;
  k.required_what = what;
  return *this;
}

KeyBuilder& KeyBuilder::names_run() {
  auto& k = config_.key(key_);
  if (k.kind != Config::Kind::text && k.kind != Config::Kind::names)
    throw std::logic_error(key_ + ": only a text or a list of names can name runs");
  k.names_run = true;
  return *this;
}

// ---------------------------------------------------------------------------------------
// Declaration

Config::Config(std::string program, std::string summary) : program_(std::move(program)), summary_(std::move(summary)) {}

Config::Key& Config::key(const std::string& name) {
  auto it = keys_.find(name);
  if (it == keys_.end()) throw std::logic_error("undeclared key: " + name);
  return it->second;
}

KeyBuilder Config::declare(const std::string& name, Key k) {
  if (name.empty() || name.find_first_of(" \t=[]#") != std::string::npos)
    throw std::logic_error("not a key name: '" + name + "'");
  if (keys_.count(name)) throw std::logic_error("key declared twice: " + name);
  if (name == base_key) throw std::logic_error(base_key + " names a config's base; it is not a key");
  k.origin = "default";
  keys_.emplace(name, std::move(k));
  order_.push_back(name);
  return KeyBuilder(*this, name);
}

KeyBuilder Config::add(const std::string& name, double* field, const std::string& help) {
  Key k{};
  k.kind = Kind::real;
  k.help = help;
  k.numbers = {*field};
  k.store = [field](const Key& s) { *field = s.numbers.at(0); };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, std::vector<double>* field, const std::string& help) {
  Key k{};
  k.kind = Kind::reals;
  k.help = help;
  k.numbers = *field;
  k.store = [field](const Key& s) { *field = s.numbers; };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, long* field, const std::string& help) {
  Key k{};
  k.kind = Kind::integer;
  k.help = help;
  k.numbers = {static_cast<double>(*field)};
  k.range = Range::closed(-max_exact_integer, max_exact_integer);
  k.store = [field](const Key& s) { *field = static_cast<long>(s.numbers.at(0)); };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, int* field, const std::string& help) {
  Key k{};
  k.kind = Kind::integer;
  k.help = help;
  k.numbers = {static_cast<double>(*field)};
  k.range = Range::closed(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  k.store = [field](const Key& s) { *field = static_cast<int>(s.numbers.at(0)); };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, std::vector<long>* field, const std::string& help) {
  Key k{};
  k.kind = Kind::integers;
  k.help = help;
  for (long v : *field) k.numbers.push_back(static_cast<double>(v));
  k.range = Range::closed(-max_exact_integer, max_exact_integer);
  k.store = [field](const Key& s) {
    field->clear();
    for (double v : s.numbers) field->push_back(static_cast<long>(v));
  };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, std::vector<int>* field, const std::string& help) {
  Key k{};
  k.kind = Kind::integers;
  k.help = help;
  for (int v : *field) k.numbers.push_back(static_cast<double>(v));
  k.range = Range::closed(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  k.store = [field](const Key& s) {
    field->clear();
    for (double v : s.numbers) field->push_back(static_cast<int>(v));
  };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, bool* field, const std::string& help) {
  Key k{};
  k.kind = Kind::flag;
  k.help = help;
  k.flag = *field;
  k.store = [field](const Key& s) { *field = s.flag; };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, std::string* field, const std::string& help) {
  Key k{};
  k.kind = Kind::text;
  k.help = help;
  k.texts = {*field};
  k.store = [field](const Key& s) { *field = s.texts.at(0); };
  return declare(name, std::move(k));
}

KeyBuilder Config::add(const std::string& name, std::vector<std::string>* field, const std::string& help) {
  Key k{};
  k.kind = Kind::names;
  k.help = help;
  k.texts = *field;
  k.store = [field](const Key& s) { *field = s.texts; };
  return declare(name, std::move(k));
}

// ---------------------------------------------------------------------------------------
// Values

std::string Config::suggestion(const std::string& unknown) const {
  std::string hint;
  std::size_t best = 4;  // suggest only close names: at most 3 edits away
  for (const auto& known : order_)
    if (const std::size_t d = distance(unknown, known); d < best) best = d, hint = known;
  return hint.empty() ? "" : " (did you mean '" + hint + "'?)";
}

std::string Config::canonical(const Key& k) {
  switch (k.kind) {
    case Kind::real:
    case Kind::reals:
    case Kind::integer:
    case Kind::integers: {
      const bool integral = k.kind == Kind::integer || k.kind == Kind::integers;
      std::vector<std::string> parts;
      for (double v : k.numbers) parts.push_back(integral ? std::to_string(static_cast<long long>(v)) : format_real(v));
      return join(parts, ",");
    }
    case Kind::flag:
      return k.flag ? "true" : "false";
    case Kind::text:
      return k.texts.at(0);
    case Kind::names:
      return join(k.texts, ",");
  }
  return "";
}

void Config::fail(const std::string& name, const std::string& message) const {
  auto it = keys_.find(name);
  const std::string origin =
      it != keys_.end() && it->second.origin != "default" ? " (value from " + it->second.origin + ")" : "";
  throw InputError(name + ": " + message + origin);
}

void Config::validate(const std::string& name, const Key& k) const {
  const bool integral = k.kind == Kind::integer || k.kind == Kind::integers;
  for (double v : k.numbers) {
    if (integral && v != std::floor(v)) fail(name, "value " + format_real(v) + " is not an integer");
    if (!k.range.contains(v))
      fail(name, "value " + format_real(v) + " outside the allowed range " + k.range.describe());
  }
  if (k.size && (k.kind == Kind::names ? k.texts.size() : k.numbers.size()) != *k.size)
    fail(name, std::to_string(*k.size) + " comma-separated values expected, got " +
                   std::to_string(k.kind == Kind::names ? k.texts.size() : k.numbers.size()));
  if (k.nonempty && (k.kind == Kind::names ? k.texts.empty() : k.numbers.empty()))
    fail(name, "needs at least one value, got an empty list");
  if (k.increasing)
    for (std::size_t i = 1; i < k.numbers.size(); ++i)
      if (!(k.numbers[i] > k.numbers[i - 1]))
        fail(name, "values must increase strictly (" + format_real(k.numbers[i - 1]) + " then " +
                       format_real(k.numbers[i]) + ")");
  if (!k.allowed.empty())
    for (const auto& t : k.texts)
      if (std::find(k.allowed.begin(), k.allowed.end(), t) == k.allowed.end())
        fail(name, "'" + t + "' is not allowed; choose " + (k.kind == Kind::names ? "from" : "one of") + ": " +
                       join(k.allowed, ", "));
}

void Config::set(const std::string& name, const std::string& raw, const std::string& origin) {
  Key& k = keys_.at(name);
  k.origin = origin;
  const std::string value = trim(raw);
  switch (k.kind) {
    case Kind::real:
    case Kind::integer:
      if (value.find(',') != std::string::npos) fail(name, "one value expected, got the list '" + raw + "'");
      k.numbers = {parse_real(name, value)};
      break;
    case Kind::reals:
    case Kind::integers:
      k.numbers.clear();
      if (!value.empty())  // an empty value is the empty list
        for (const std::string& item : split(value, ',')) k.numbers.push_back(parse_real(name, trim(item)));
      break;
    case Kind::flag:
      k.flag = parse_bool(name, value);
      break;
    case Kind::text:
      k.texts = {value};
      break;
    case Kind::names:
      k.texts.clear();
      if (!value.empty())  // an empty value is the empty list
        for (const std::string& item : split(value, ',')) k.texts.push_back(trim(item));
      for (const auto& t : k.texts)
        if (t.empty()) fail(name, "empty name in the list '" + raw + "'");
      break;
  }
  validate(name, k);
}

// The INI file: `[section]` lines give the prefix `section.`; `key = value`; `#` starts a comment
// (anywhere on a line), `;` a comment line; `[config] base = FILE` names the file read before it,
// whose keys this file's override. Every problem names the file and the line.
Config::IniFile Config::read_one(const std::string& file) const {
  std::ifstream in(file);
  if (!in) throw InputError("--config: " + io_message("cannot read", file));
  IniFile ini;
  std::string line, section;
  std::map<std::string, std::size_t> seen;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = file + ":" + std::to_string(number);
    if (line.find('\0') != std::string::npos) throw InputError(where + ": not a text file (a NUL byte)");
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line = trim(line);
    if (line.empty() || line[0] == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') throw InputError(where + ": a section line must end with ']': '" + line + "'");
      section = trim(line.substr(1, line.size() - 2));
      if (section.empty() || section.find_first_of(" \t[]=") != std::string::npos)
        throw InputError(where + ": '" + line + "' is not a section name");
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string::npos)
      throw InputError(where + ": '" + line + "' is neither '[section]' nor 'key = value'");
    const std::string short_name = trim(line.substr(0, equals));
    if (short_name.empty()) throw InputError(where + ": a value without a key name");
    const std::string name = section.empty() ? short_name : section + "." + short_name;
    if (name != base_key && !keys_.count(name))
      throw InputError(where + ": unknown key '" + name + "'" + suggestion(name));
    if (const auto [it, fresh] = seen.emplace(name, number); !fresh)
      throw InputError(where + ": key '" + name + "' given twice (first on line " + std::to_string(it->second) + ")");
    if (name == base_key) {
      ini.base = trim(line.substr(equals + 1));
      ini.base_where = where;
      if (ini.base.empty()) throw InputError(where + ": " + base_key + ": empty; name the file this one builds on");
      continue;
    }
    ini.values[name] = {trim(line.substr(equals + 1)), where};
  }
  if (in.bad()) throw IoError("--config: " + io_message("error reading", file));
  return ini;
}

// The file and its bases, one after the other (never a call per base: a chain as long as a user
// makes it cannot overflow the stack), each file checked against those read before it by its
// device and inode, once.
void Config::read_file(const std::string& file, std::map<std::string, std::pair<std::string, std::string>>& values,
                       std::vector<std::string>& chain) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError("--config: file '" + file + "' not found (or not a regular file)");
  std::set<std::pair<dev_t, ino_t>> read;
  std::vector<IniFile> files;  // the file first, its farthest base last
  std::string next = file;
  for (;;) {
    struct stat identity {};
    if (::stat(next.c_str(), &identity) == 0) read.insert({identity.st_dev, identity.st_ino});
    chain.push_back(next);
    files.push_back(read_one(next));
    const IniFile& ini = files.back();
    if (ini.base.empty()) break;
    // A base is named from the folder of the file that names it.
    const std::string path = (std::filesystem::path(next).parent_path() / ini.base).lexically_normal().string();
    if (!std::filesystem::is_regular_file(path, ec))
      throw InputError(ini.base_where + ": " + base_key + ": file '" + path + "' not found (or not a regular file)");
    if (::stat(path.c_str(), &identity) == 0 && read.count({identity.st_dev, identity.st_ino}))
      throw InputError(ini.base_where + ": " + base_key + ": '" + path +
                       "' is read already, a cycle of bases: " + join(chain, " -> ") + " -> " + path);
    if (chain.size() > max_config_bases)
      throw InputError(ini.base_where + ": " + base_key + ": '" + path + "' would be the base number " +
                       std::to_string(chain.size()) + " of '" + file + "'; at most " +
                       std::to_string(max_config_bases) + " bases are read");
    next = path;
  }
  for (auto it = files.rbegin(); it != files.rend(); ++it)  // each file overrides its bases
    for (auto& [name, value] : it->values) values[name] = std::move(value);
}

Invocation Config::parse(int argc, const char* const* argv) {
  Invocation run;
  for (int i = 0; i < argc; ++i) run.command_line += (i ? " " : "") + quote_argument(argv[i]);

  po::options_description generic("general options");
  generic.add_options()("help,h", "print every key with its default, unit and range")(
      "version", "print the version and source revision")("config", po::value<std::string>(),
                                                          "INI file of keys ([section] key = value)")(
      "output", po::value<std::string>(), "run directory to write")("quiet", "no progress lines");
  po::options_description keys("keys");
  for (const auto& name : order_) {
    if (keys_.at(name).kind == Kind::flag)
      keys.add_options()(name.c_str(), po::value<std::string>()->implicit_value("true"));  // a bare --flag
    else
      keys.add_options()(name.c_str(), po::value<std::string>());
  }
  po::options_description all;
  all.add(generic).add(keys);

  // `--key=` gives a key the empty value (an empty list: no masses); Boost refuses an empty
  // adjacent value, so those words are taken out here and set below.
  std::vector<const char*> words;
  std::map<std::string, std::string> empties;
  for (int i = 0; i < argc; ++i) {
    const std::string word = argv[i];
    if (i > 0 && word.size() > 3 && word.rfind("--", 0) == 0 && word.back() == '=' &&
        keys_.count(word.substr(2, word.size() - 3))) {
      if (!empties.emplace(word.substr(2, word.size() - 3), "").second)
        throw InputError("'" + word.substr(0, word.size() - 1) + "' given twice on the command line");
      continue;
    }
    words.push_back(argv[i]);
  }

  po::variables_map vm;
  try {
    const auto parsed = po::command_line_parser(static_cast<int>(words.size()), words.data())
                            .options(all)
                            .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
                            .run();
    for (const auto& option : parsed.options)
      if (option.position_key >= 0) {
        const std::string word = option.original_tokens.empty() ? "" : option.original_tokens.front();
        throw InputError("unexpected argument '" + word + "': every value is given as --KEY=VALUE" +
                         (word.size() > 4 && word.substr(word.size() - 4) == ".ini"
                              ? " (did you mean --config " + word + "?)"
                              : ""));
      }
    po::store(parsed, vm);
  } catch (const po::unknown_option& e) {
    std::string name = e.get_option_name();
    while (!name.empty() && name.front() == '-') name.erase(0, 1);
    if (const auto equals = name.find('='); equals != std::string::npos) name.erase(equals);
    throw InputError("unknown key '" + name + "' on the command line" + suggestion(name));
  } catch (const po::multiple_occurrences& e) {
    throw InputError("'" + e.get_option_name() + "' given twice on the command line");
  } catch (const po::error& e) {
    throw InputError(std::string("command line: ") + e.what());
  }
  if (vm.count("help")) {
    run.help = true;
    std::cout << help_text();
    return run;
  }
  if (vm.count("version")) {
    run.version = true;
    const auto& p = provenance();
    std::cout << program_ << " " << p.version << " (revision " << p.revision << (p.modified ? ", modified" : "")
              << ")\n";
    return run;
  }
  std::map<std::string, std::pair<std::string, std::string>> values;  // key -> (text, origin)
  if (vm.count("config")) {
    run.config_file = vm["config"].as<std::string>();
    std::vector<std::string> chain;
    read_file(run.config_file, values, chain);
    run.config_bases.assign(chain.begin() + 1, chain.end());
  }
  for (const auto& name : order_)
    if (vm.count(name)) values[name] = {vm[name].as<std::string>(), "the command line"};  // overrides the file
  for (const auto& [name, empty] : empties) {
    if (vm.count(name)) throw InputError("'--" + name + "' given twice on the command line");
    values[name] = {empty, "the command line"};
  }
  if (vm.count("output")) {
    run.output = vm["output"].as<std::string>();
    if (trim(run.output).empty()) throw InputError("--output: empty directory name");
  }
  run.quiet = vm.count("quiet") > 0;
  for (const auto& [name, value] : values) set(name, value.first, value.second);
  for (const auto& name : order_) keys_.at(name).store(keys_.at(name));
  for (const auto& check : checks_) check();
  return run;
}

std::map<std::string, std::vector<std::string>> Config::run_references() const {
  std::map<std::string, std::vector<std::string>> references;
  for (const auto& [name, k] : keys_) {
    if (!k.names_run) continue;
    auto& runs = references[name];
    for (const std::string& text : k.texts)
      if (!text.empty() && text != "none") runs.push_back(text);
    if (runs.empty()) references.erase(name);
  }
  return references;
}

std::vector<std::string> Config::physics_keys() const {
  std::vector<std::string> names;
  for (const auto& [name, k] : keys_)
    if (k.physics) names.push_back(name);
  return names;
}

std::map<std::string, std::string> Config::effective(bool data_only) const {
  std::map<std::string, std::string> values;
  for (const auto& [name, k] : keys_)
    if (!data_only || k.affects_data) values[name] = canonical(k);
  return values;
}

double Config::number(const std::string& name) const {
  const auto it = keys_.find(name);
  if (it == keys_.end()) throw std::logic_error("undeclared key: " + name);
  if (it->second.kind != Kind::real && it->second.kind != Kind::integer)
    throw std::logic_error("not a real or integer key: " + name);
  return it->second.numbers.at(0);
}

std::vector<Assumption> Config::assumptions() const {
  std::vector<Assumption> list;
  for (const auto& [name, k] : keys_)
    if (!k.note.empty()) list.push_back({name, canonical(k), k.note});
  return list;
}

void Config::check_required() const {
  for (const auto& name : order_) {
    const Key& k = keys_.at(name);
    const bool empty = (k.kind == Kind::text && (k.texts.empty() || k.texts.front().empty())) ||
                       (k.kind == Kind::names && k.texts.empty()) ||
                       ((k.kind == Kind::reals || k.kind == Kind::integers) && k.numbers.empty());
    if (k.required && empty) fail(name, k.required_what.empty() ? "required" : "required: " + k.required_what);
  }
}

std::string Config::usage_line() const {
  const auto word = [&](const std::string& name) {
    const Key& k = keys_.at(name);
    switch (k.kind) {
      case Kind::flag:
        return "--" + name;
      case Kind::real:
        return "--" + name + "=X";
      case Kind::integer:
        return "--" + name + "=N";
      case Kind::reals:
        return "--" + name + "=X,...";
      case Kind::integers:
        return "--" + name + "=N,...";
      case Kind::names:
        return "--" + name + "=A,...";
      case Kind::text:
        break;
    }
    std::vector<std::string> allowed;
    for (const auto& choice : k.allowed)
      if (!choice.empty()) allowed.push_back(choice);
    return "--" + name + "=" + (allowed.empty() ? "VALUE" : join(allowed, "|"));
  };
  std::string line = "usage: " + program_;
  for (const auto& name : order_)
    if (keys_.at(name).required) line += " " + word(name);
  for (const auto& name : order_)
    if (!keys_.at(name).required) line += " [" + word(name) + "]";
  return line;
}

std::string Config::help_text() const {
  std::ostringstream out;
  out << program_ << ": " << summary_ << "\n\n";
  if (usage_.empty())
    out << "usage: " << program_ << " [--config FILE] [--KEY=VALUE ...] [--output DIR] [--quiet]\n"
        << "       " << program_ << " --help | --version\n\n"
        << "The command line overrides the file; INI sections give the dotted names ([model] m0 = 1 is model.m0).\n"
        << "Default output: " << (default_output_.empty() ? "none" : default_output_)
        << " (written atomically; only an earlier run of the same study is ever replaced).\n"
        << "Exit status: 0 ok, 2 bad input, 3 numerical failure, 74 I/O error.\n";
  else
    out << usage_ << (usage_.back() == '\n' ? "" : "\n");
  out << "\nkeys:\n";
  for (const auto& name : order_) {
    const Key& k = keys_.at(name);
    const std::string fallback = canonical(k);
    out << "  --" << name << "  (default " << (fallback.empty() ? "\"\"" : fallback) << ")";
    if (!k.unit.empty() && k.unit != "1") out << " [" << k.unit << "]";
    const bool list = k.kind == Kind::reals || k.kind == Kind::integers || k.kind == Kind::names;
    if (k.kind != Kind::integer && k.kind != Kind::integers && k.range.bounded()) out << " in " << k.range.describe();
    if ((k.kind == Kind::integer || k.kind == Kind::integers) &&
        (k.range.lo > -max_exact_integer || k.range.hi < max_exact_integer))
      out << " in " << k.range.describe() << ", integer";
    if (list) out << (k.size ? ", " + std::to_string(*k.size) + " values" : std::string(", a comma-separated list"));
    if (k.nonempty) out << " of at least one value";
    if (k.increasing) out << ", increasing";
    if (k.kind == Kind::flag) out << " (a bare --" << name << " is true)";
    if (!k.allowed.empty()) out << (list ? " from:" : " one of:") << " " << join(k.allowed, " ");
    out << "\n      " << k.help << "\n";
    if (!k.note.empty()) out << "      assumption: " << k.note << "\n";
  }
  return out.str();
}

}  // namespace cm
