#include "tools/bench.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "core/errors.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

std::vector<BenchCommand> parse_bench_list(const std::string& text, const std::string& name) {
  std::vector<BenchCommand> commands;
  std::set<std::string> names;
  const std::vector<std::string> all = lines(text);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string line = trim(all[i]);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = name + ":" + std::to_string(i + 1) + ": ";
    const std::size_t tab = all[i].find('\t');
    if (tab == std::string::npos) throw InputError(where + "expected 'name<TAB>command'");
    BenchCommand c{trim(all[i].substr(0, tab)), trim(all[i].substr(tab + 1))};
    if (c.name.empty() || !std::all_of(c.name.begin(), c.name.end(), [](char ch) {
          return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        })) {
      throw InputError(where + "name '" + c.name + "' must be letters, digits and _");
    }
    if (c.command.empty()) throw InputError(where + "empty command for '" + c.name + "'");
    if (!names.insert(c.name).second) throw InputError(where + "name '" + c.name + "' appears twice");
    commands.push_back(std::move(c));
  }
  if (commands.empty()) throw InputError(name + ": no commands");
  return commands;
}

double median(std::vector<double> sample) {
  if (sample.empty()) throw std::invalid_argument("median of an empty sample");
  std::sort(sample.begin(), sample.end());
  const std::size_t n = sample.size();
  return n % 2 == 1 ? sample[n / 2] : 0.5 * (sample[n / 2 - 1] + sample[n / 2]);
}

}  // namespace cm::pipeline
