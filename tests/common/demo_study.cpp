// A study of no paper, for the tests of the study kit itself (tests/common/test_kit.sh): it writes
// a table of demo.rows rows, optionally printing to stdout and sleeping first, so that signals,
// races, budgets and the run id can be exercised on a real process. With demo.from it goes on from
// an earlier run of itself (its rows continue that run's count), as a channel goes on from a saved
// frame: the run id then names the run it read. Its scalar mean (demo.value) carries a standard
// error se_mean, as a channel's averages carry their batch-means errors (cm_verify --batch_means).
//
//   cm_demo_study --demo.rows=10 --output try/demo
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "core/study.hpp"

namespace {

class DemoStudy {
 public:
  static constexpr cm::StudyInfo info{"cm_demo_study", "selftest", "demo", "A demonstration study of the kit"};

  void declare(cm::Config& c) {
    c.add("demo.rows", &rows_, "rows of the table").range(cm::Range::closed(0, 1e15));
    c.add("demo.value", &value_, "a real written in every row").unit("m").range(cm::Range::positive());
    c.add("demo.sleep", &sleep_, "seconds to sleep before writing").unit("s").range(cm::Range::closed(0, 60));
    c.add("demo.print", &print_, "lines to print on stdout after the rows").range(cm::Range::closed(0, 1e7));
    c.add("demo.threads", &threads_, "a thread count that cannot change the data")
        .range(cm::Range::closed(0, 64))
        .no_data();
    c.add("demo.from", &from_, "a run of this study to go on from (its rows continue that run's), or none").names_run();
  }

  void run(cm::Run& run) {
    std::this_thread::sleep_for(std::chrono::duration<double>(sleep_));
    long first = 0;  // the rows of the run gone on from
    if (from_ != "none") {
      std::ifstream in(from_ + "/rows.tsv");
      if (!in) throw cm::InputError("demo.from: no rows.tsv in '" + from_ + "'");
      for (std::string line; std::getline(in, line);)
        if (!line.empty() && line.front() != '#') ++first;
    }
    auto table =
        run.table("rows.tsv", "i and value", {{"i", "1"}, {"value", "m"}}, {static_cast<double>(rows_), "demo.rows"});
    for (long i = first; i < first + rows_; ++i) table.row({static_cast<double>(i), value_});
    for (long i = 0; i < print_; ++i) std::printf("line %ld\n", i);
    run.scalar("rows", static_cast<double>(rows_));
    run.scalar("mean", value_, "m");
    run.scalar("se_mean", 0.01 * value_, "m");  // as if from batch means: 1 % of the value
  }

 private:
  long rows_ = 3, print_ = 0, threads_ = 1;
  double value_ = 1.5, sleep_ = 0.0;
  std::string from_ = "none";
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<DemoStudy>(argc, argv); }
