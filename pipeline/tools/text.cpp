#include "tools/text.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "common/errors.hpp"

namespace cm::pipeline {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      fields.emplace_back(text.substr(start));
      return fields;
    }
    fields.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? separator : "") + items[i];
  return text;
}

std::string trim(std::string_view text) {
  const char* blanks = " \t\r\n";
  const std::size_t first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(blanks);
  return std::string(text.substr(first, last - first + 1));
}

std::optional<double> to_double(std::string_view text) {
  const std::string s(text);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  // Overflow to infinity is refused; underflow to a subnormal or zero is a value.
  if (errno == ERANGE && std::isinf(x)) return std::nullopt;
  return x;
}

std::string format_g(double x, int digits) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

std::string format_full(double x) { return format_g(x, 17); }

std::string read_text(const std::filesystem::path& file, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw InputError(what + ": file '" + file.string() + "' not found");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(what + ": file '" + file.string() + "' cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(what + ": error reading '" + file.string() + "'");
  return text.str();
}

void write_atomic(const std::filesystem::path& file, const std::string& content) {
  const std::filesystem::path parent = file.parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::filesystem::path temporary = file;
  temporary += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write '" + temporary.string() + "'");
    out << content;
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(temporary);
      throw std::runtime_error("error writing '" + temporary.string() + "'");
    }
  }
  std::filesystem::rename(temporary, file);
}

std::string plural(std::size_t n, const std::string& singular, const std::string& plural_form) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural_form);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result = split(text, '\n');
  if (!result.empty() && result.back().empty()) result.pop_back();
  for (std::string& line : result) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  return result;
}

}  // namespace cm::pipeline
