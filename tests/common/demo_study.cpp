// A study of no paper, for the tests of the study kit itself (tests/common/test_kit.sh): it writes
// a table of demo.rows rows, optionally printing to stdout and sleeping first, so that signals,
// races, budgets and the run id can be exercised on a real process.
//
//   cm_demo_study --demo.rows=10 --output try/demo
#include <chrono>
#include <cstdio>
#include <thread>

#include "common/study.hpp"

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
  }

  void run(cm::Run& run) {
    std::this_thread::sleep_for(std::chrono::duration<double>(sleep_));
    auto table =
        run.table("rows.tsv", "i and value", {{"i", "1"}, {"value", "m"}}, {static_cast<double>(rows_), "demo.rows"});
    for (long i = 0; i < rows_; ++i) table.row({static_cast<double>(i), value_});
    for (long i = 0; i < print_; ++i) std::printf("line %ld\n", i);
    run.scalar("rows", static_cast<double>(rows_));
  }

 private:
  long rows_ = 3, print_ = 0, threads_ = 1;
  double value_ = 1.5, sleep_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<DemoStudy>(argc, argv); }
