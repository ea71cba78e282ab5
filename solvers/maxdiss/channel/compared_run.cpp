// compare.with: one channel run's Table 2 against another's (compared_run.hpp).
#include "maxdiss/channel/compared_run.hpp"

#include <cmath>
#include <cstdio>

#include "core/errors.hpp"
#include "core/run_reader.hpp"

namespace md::granular {

void ComparedRun::declare(cm::Config& c) {
  c.add("compare.with", &name_,
        "a run of the same channel over the same window whose Table 2 this run's is compared with, or none")
      .names_run();
}

void ComparedRun::check(cm::Config& c, const std::map<std::string, std::string>& values) {
  if (!asked()) return;
  const SavedRun other = load_channel_run(name_, "compare.with");
  require_same_channel(other, values, "compare.with");
  for (const char* key : {"time.t_end", "average.t_start", "sample.every"})
    if (other.config.at(key) != values.at(key))
      c.fail("compare.with", std::string("the run compared with has another ") + key + " (" + other.config.at(key) +
                                 "): the windows must be the same");
  other_ = other;
  sweep_order_ = values.at("nbgs.order");
}

void ComparedRun::write(cm::Run& run, const std::vector<ContactLaw>& laws, const PerLaw<Outcome>& outcome,
                        const ChannelSetup& setup) const {
  const cm::TsvData other = cm::read_tsv(other_->dir / "table2.tsv");
  bool same = other.columns.size() == table2_columns.size();
  for (std::size_t q = 0; same && q < table2_columns.size(); ++q)
    same = other.columns[q].name == table2_columns[q].name;
  if (!same) throw cm::InputError("compare.with: the table2.tsv of the run compared with has other columns");
  std::string text;
  for (ContactLaw law : laws) {
    const std::vector<double> mine = table2_row(outcome[law], setup.channel);
    for (const auto& row : other.rows) {
      if (row[0] != static_cast<double>(law)) continue;
      text += std::string(text.empty() ? "" : "; ") + name(law) + ":";
      for (std::size_t q = 0; q < mine.size(); ++q) {
        const std::string& quantity = table2_columns[q + 1].name;
        const double diff = (mine[q] - row[q + 1]) / std::fabs(row[q + 1]);
        run.scalar(quantity + "_rel_diff_" + name(law), diff);
        char item[160];
        std::snprintf(item, sizeof item, "%s %s %.6g against %.6g (%+.2f %%)", q ? "," : "", quantity.c_str(), mine[q],
                      row[q + 1], 100.0 * diff);
        text += item;
      }
    }
  }
  if (text.empty()) throw cm::InputError("compare.with: the run compared with simulated none of this run's laws");
  run.note("Table 2 of this run (" + std::to_string(setup.ranks) + " rank(s), mpi.grid " +
           std::to_string(setup.subdomains[0]) + "," + std::to_string(setup.subdomains[1]) + "," +
           std::to_string(setup.subdomains[2]) + ", nbgs.order " + sweep_order_ + ") against run " + other_->run_id +
           " (study " + other_->study + ", " + other_->solver + "), over the same window: " + text);
}

}  // namespace md::granular
