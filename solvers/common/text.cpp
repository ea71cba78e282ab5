#include "common/text.hpp"

#include <charconv>
#include <system_error>

namespace cm {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  if (s.empty()) return parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = s.find(separator, begin);
    parts.push_back(trim(s.substr(begin, end == std::string::npos ? std::string::npos : end - begin)));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return parts;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? separator : "") + parts[i];
  return s;
}

std::string format_real(double x) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

}  // namespace cm
