// The run writer: content-derived ids, atomic directories, run.json and the data files.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/run.hpp"
#include "core/text.hpp"

namespace fs = std::filesystem;

namespace {

// A configured study: its keys, its fields and the command line it was given.
struct Setup {
  double m0 = 1.0;
  cm::Config config{"demo", "a demonstration"};
  cm::Invocation invocation;
  cm::RunIdentity identity{"demo", "paper", "study"};
};

std::unique_ptr<Setup> make_config(const fs::path& out, const std::string& m0 = "1") {
  auto s = std::make_unique<Setup>();
  s->config.add("model.m0", &s->m0, "mass").unit("kg").range(cm::Range::positive()).assumption("ASSUMED: for the test");
  std::vector<std::string> args{"demo", "--output", out.string(), "--quiet", "--model.m0=" + m0};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  s->invocation = s->config.parse(int(argv.size()), argv.data());
  return s;
}

fs::path scratch(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("cm_test_run_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(Run, CommitWritesRunJsonAndData) {
  const auto root = scratch("commit");
  const auto config = make_config(root / "study");
  std::string id;
  {
    cm::Run run(config->config, config->identity, config->invocation);
    id = run.id();
    auto t = run.table("data.tsv", "a test table", {{"t", "s"}, {"x", "m"}});
    t.row({0.0, 0.1});
    t.row({1.0, 1.0 / 3.0});
    run.scalar("answer", 42.0, "1");
    run.scalar("missing", std::nan(""), "1");
    run.statistics("integrator", {{"steps", 12}});
    EXPECT_FALSE(fs::exists(root / "study"));  // nothing visible before commit
    run.commit();
  }
  ASSERT_TRUE(fs::exists(root / "study" / "run.json"));
  std::ifstream in(root / "study" / "run.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["schema"], "cm-run 1");
  EXPECT_EQ(j["run_id"], id);
  EXPECT_EQ(j["scalars"]["answer"]["value"], 42.0);
  EXPECT_TRUE(j["scalars"]["missing"]["value"].is_null());
  EXPECT_EQ(j["config"]["values"]["model.m0"], "1");
  EXPECT_EQ(j["assumptions"][0]["key"], "model.m0");
  EXPECT_EQ(j["statistics"]["integrator"]["steps"], 12);
  std::ifstream data(root / "study" / "data.tsv");
  std::string line, last;
  std::getline(data, line);
  EXPECT_EQ(line, "# schema: cm-tsv 1");
  while (std::getline(data, line)) last = line;
  EXPECT_EQ(last, "1\t0.33333333333333331");  // %.17g round-trips the double
  // no temporary directories left behind
  for (const auto& e : fs::directory_iterator(root)) EXPECT_EQ(e.path().filename(), "study");
  // columns.gp names every column for gnuplot
  std::ifstream columns(root / "study" / "columns.gp");
  std::string text((std::istreambuf_iterator<char>(columns)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("data_t = 1\n"), std::string::npos);
  EXPECT_NE(text.find("data_x = 2\n"), std::string::npos);
}

TEST(Run, FailureLeavesNothingBehind) {
  const auto root = scratch("failure");
  const auto config = make_config(root / "study");
  try {
    cm::Run run(config->config, config->identity, config->invocation);
    auto t = run.table("data.tsv", "a test table", {{"t", "s"}});
    t.row({1.0});
    throw cm::NumericalError("integration failed");
  } catch (const cm::NumericalError&) {
  }
  EXPECT_TRUE(fs::is_empty(root));
}

// A stop signal that comes once the run is in place no longer ends the process: it ends with 0,
// so that nothing takes a complete run for a failed one. (In a child process: the signal's
// handler is the process's, and the held state stays for the rest of it.)
TEST(Run, ASignalOnceTheRunIsCommittedEndsNothing) {
  const auto root = scratch("held_signal");
  const auto config = make_config(root / "study");
  const pid_t child = ::fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    cm::Run run(config->config, config->identity, config->invocation);
    run.scalar("answer", 42.0, "1");
    run.commit();
    std::raise(SIGTERM);
    std::_Exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_TRUE(fs::exists(root / "study" / "run.json"));
}

TEST(Run, ReplacesAnOlderRun) {
  const auto root = scratch("replace");
  for (const char* m0 : {"1", "2"}) {
    const auto config = make_config(root / "study", m0);
    cm::Run run(config->config, config->identity, config->invocation);
    run.scalar("m0", config->m0);
    run.commit();
  }
  std::ifstream in(root / "study" / "run.json");
  EXPECT_EQ(nlohmann::json::parse(in)["scalars"]["m0"]["value"], 2.0);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(root)) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(Run, IdDependsOnTheConfigurationOnly) {
  const auto a1 = make_config(scratch("id1") / "x", "1");
  const auto a2 = make_config(scratch("id2") / "y", "1");
  const auto b = make_config(scratch("id3") / "z", "2");
  cm::Run r1(a1->config, a1->identity, a1->invocation), r2(a2->config, a2->identity, a2->invocation),
      r3(b->config, b->identity, b->invocation);
  EXPECT_EQ(r1.id(), r2.id());  // the output directory is not content
  EXPECT_NE(r1.id(), r3.id());
  EXPECT_EQ(r1.id().size(), 64u);  // SHA-256, hex
  const auto other = make_config(scratch("id4") / "w", "1");
  other->identity.study = "other";
  cm::Run r4(other->config, other->identity, other->invocation);
  EXPECT_NE(r1.id(), r4.id());  // two studies, two ids
}

TEST(Run, RowOfWrongWidthIsABug) {
  const auto config = make_config(scratch("width") / "study");
  cm::Run run(config->config, config->identity, config->invocation);
  auto t = run.table("data.tsv", "a test table", {{"t", "s"}, {"x", "m"}});
  EXPECT_THROW(t.row({1.0}), std::logic_error);
}

TEST(Run, RefusesWhatIsNotAnEarlierRunOfTheStudy) {
  const auto root = scratch("refuse");
  fs::create_directories(root / "thesis");
  std::ofstream(root / "thesis" / "chapter1.tex") << "mine";
  std::ofstream(root / "notes.txt") << "mine";
  for (const char* name : {"thesis", "notes.txt"}) {
    const auto config = make_config(root / name);
    EXPECT_THROW(cm::Run(config->config, config->identity, config->invocation), cm::InputError) << name;
  }
  EXPECT_TRUE(fs::exists(root / "thesis" / "chapter1.tex"));
  EXPECT_TRUE(fs::exists(root / "notes.txt"));
  // another study's run
  const auto first = make_config(root / "run");
  {
    cm::Run run(first->config, first->identity, first->invocation);
    run.commit();
  }
  auto second = make_config(root / "run");
  second->identity.study = "another";
  EXPECT_THROW(cm::Run(second->config, second->identity, second->invocation), cm::InputError);
  EXPECT_TRUE(fs::exists(root / "run" / "run.json"));
}

TEST(Run, APlannedTableOverTheBudgetIsRefusedBeforeWriting) {
  const auto config = make_config(scratch("budget") / "study");
  cm::Run run(config->config, config->identity, config->invocation, cm::Budget{1000, 1L << 30});
  try {
    run.table("big.tsv", "too big", {{"x", "1"}}, {1e300, "curve.step_deg"});
    ADD_FAILURE() << "accepted";
  } catch (const cm::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("curve.step_deg"), std::string::npos) << e.what();
  }
  auto t = run.table("small.tsv", "small", {{"x", "1"}}, {10, "n"});
  for (int i = 0; i < 1000; ++i) t.row({1.0});
  EXPECT_THROW(t.row({1.0}), cm::InputError);  // the 1001st row: over output.max_rows
}

TEST(Run, PlannedWorkIsCountedAgainstTheBudgetsBeforeAnyIsDone) {
  const auto config = make_config(scratch("work") / "study");
  const cm::Config& c = config->config;  // a program without the budget keys: the defaults of Budget
  EXPECT_EQ(cm::planned_steps(c, 5.0, 1e-4, "solver.dt", "time.t_end"), 50000);
  EXPECT_EQ(cm::planned_steps(c, 1.0, 1.0, "solver.dt", "time.t_end"), 1);
  auto message = [&](const std::function<void()>& plan) {
    try {
      plan();
    } catch (const cm::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // a step longer than the run makes no step; one of 1e-300 s would never end
  EXPECT_NE(message([&] { cm::planned_steps(c, 5.0, 10.0, "solver.dt", "time.t_end"); }).find("solver.dt"),
            std::string::npos);
  const std::string tiny = message([&] { cm::planned_steps(c, 5.0, 1e-300, "solver.dt", "time.t_end"); });
  EXPECT_NE(tiny.find("solver.dt"), std::string::npos) << tiny;
  EXPECT_NE(tiny.find("run.max_steps"), std::string::npos) << tiny;
  EXPECT_NE(message([&] { cm::planned_bodies(c, 6e7, "particles.spacing", "spheres"); }).find("run.max_bodies"),
            std::string::npos);
  EXPECT_EQ(message([&] { cm::planned_bodies(c, 1e6, "particles.n", "spheres"); }), "accepted");
  EXPECT_NE(message([&] { cm::planned_memory(c, 1e12, "particles.n", "states"); }).find("particles.n"),
            std::string::npos);
}
