// The run writer: content-derived ids, atomic directories, run.json and the data files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/run.hpp"

namespace fs = std::filesystem;

namespace {

cm::Config make_config(const fs::path& out, const std::string& m0 = "1") {
  cm::Config c("demo", "paper", "study", "a demonstration");
  c.add_real("model.m0", 1.0, "kg", "mass", cm::Range::positive());
  c.assumption("model.m0", "ASSUMED: for the test");
  std::vector<std::string> args{"demo", "--output", out.string(), "--quiet", "--model.m0=" + m0};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  c.parse(int(argv.size()), argv.data());
  return c;
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
    cm::Run run(config);
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
}

TEST(Run, FailureLeavesNothingBehind) {
  const auto root = scratch("failure");
  const auto config = make_config(root / "study");
  try {
    cm::Run run(config);
    auto t = run.table("data.tsv", "a test table", {{"t", "s"}});
    t.row({1.0});
    throw cm::NumericalError("integration failed");
  } catch (const cm::NumericalError&) {
  }
  EXPECT_TRUE(fs::is_empty(root));
}

TEST(Run, ReplacesAnOlderRun) {
  const auto root = scratch("replace");
  for (const char* m0 : {"1", "2"}) {
    const auto config = make_config(root / "study", m0);
    cm::Run run(config);
    run.scalar("m0", config.real("model.m0"));
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
  cm::Run r1(a1), r2(a2), r3(b);
  EXPECT_EQ(r1.id(), r2.id());  // the output directory is not content
  EXPECT_NE(r1.id(), r3.id());
  EXPECT_EQ(r1.id().size(), 16u);
}

TEST(Run, RowOfWrongWidthIsABug) {
  const auto config = make_config(scratch("width") / "study");
  cm::Run run(config);
  auto t = run.table("data.tsv", "a test table", {{"t", "s"}, {"x", "m"}});
  EXPECT_THROW(t.row({1.0}), std::logic_error);
}
