// Unit tests of what an archive from elsewhere may name: the grammar of paths, papers, studies and
// solvers, and the manifest's fields, each of the wrong type or outside the grammar refused as
// Damage (cm_verify's exit 65), never as an internal error.
#include <gtest/gtest.h>

#include <string>

#include "tools/archive.hpp"

namespace {

using namespace cm::pipeline;

const std::string hash(64, 'a');

// A manifest of one file and one run, with `change` applied to its text.
std::string manifest(const std::string& from = "", const std::string& to = "") {
  std::string text = R"({"schema": "cm-archive 2",
    "files": [{"path": "runs/)" +
                     std::string(64, 'b') + R"(/run.json", "sha256": ")" + hash + R"(", "bytes": 10}],
    "runs": [{"paper": "selftest", "study": "demo", "run_id": ")" +
                     std::string(64, 'b') + R"(", "solver": "cm_demo_study"}]})";
  if (!from.empty()) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string damage_of(const std::string& text) {
  try {
    parse_manifest(text);
  } catch (const Damage& e) {
    return e.what();
  }
  return "";
}

TEST(ArchiveNames, PathsOfTheProjectOnly) {
  for (const char* good : {"CITATION.cff", ".zenodo.json", "runs/0123/run.json", "configs/maxdiss/quick/channel.ini",
                           "reports/maxdiss/figures/fig3.png"})
    EXPECT_TRUE(is_archive_path(good)) << good;
  for (const char* bad : {"", "/etc/passwd", "../x", "a/../b", "a/./b", ".", "..", "a//b", "a/", "a b", "a\\b",
                          "a/b\nc", "~/x", "a:b", "a*b"})
    EXPECT_FALSE(is_archive_path(bad)) << bad;
  EXPECT_FALSE(is_archive_path(std::string(129, 'a')));
  std::string deep = "a";
  for (int i = 0; i < 16; ++i) deep += "/a";
  EXPECT_FALSE(is_archive_path(deep));
}

TEST(ArchiveNames, StudyNamesOfTheProjectOnly) {
  for (const char* good : {"maxdiss", "channel_mpi_bench_weak", "md_channel", "fig10"})
    EXPECT_TRUE(is_study_name(good)) << good;
  for (const char* bad : {"", "..", "../x", "a/b", "A", "a-b", "a.b", "a b"}) EXPECT_FALSE(is_study_name(bad)) << bad;
  EXPECT_FALSE(is_study_name(std::string(65, 'a')));
}

TEST(ArchiveManifest, AGoodOneIsRead) {
  const Manifest m = parse_manifest(manifest());
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_EQ(m.files[0].bytes, 10u);
  ASSERT_EQ(m.runs.size(), 1u);
  EXPECT_EQ(m.runs[0].solver, "cm_demo_study");
  EXPECT_EQ(sha256sums_text(m.files), hash + "  runs/" + std::string(64, 'b') + "/run.json\n");
}

TEST(ArchiveManifest, EveryFieldOfTheWrongTypeOrGrammarIsDamage) {
  const std::string b64(64, 'b');
  const std::vector<std::pair<std::string, std::string>> changes = {
      {"\"cm-archive 2\"", "\"cm-archive 1\""},
      {"\"cm-archive 2\"", "2"},
      {"\"files\": [", "\"files\": \"x\", \"old\": ["},
      {"\"runs\": [", "\"runs\": {}, \"old\": ["},
      {"\"bytes\": 10", "\"bytes\": \"10\""},
      {"\"bytes\": 10", "\"bytes\": -10"},
      {"\"bytes\": 10", "\"bytes\": 1.5"},
      {"\"sha256\": \"" + hash, "\"sha256\": \"" + hash.substr(1) + "g"},
      {"\"path\": \"runs/", "\"path\": \"../runs/"},
      {"\"path\": \"runs/", "\"path\": 5, \"p\": \"runs/"},
      {"\"paper\": \"selftest\"", "\"paper\": \"../../victim\""},
      {"\"paper\": \"selftest\"", "\"paper\": 5"},
      {"\"study\": \"demo\"", "\"study\": \"x/../../y\""},
      {"\"run_id\": \"" + b64, "\"run_id\": \"../" + b64.substr(3)},
      {"\"solver\": \"cm_demo_study\"", "\"solver\": \"/bin/sh\""},
      {"\"solver\": \"cm_demo_study\"", "\"solver\": null"},
      {"{\"schema\"", "[{\"schema\""},
  };
  for (const auto& [from, to] : changes) {
    std::string text = manifest(from, to);
    if (to.starts_with("[")) text += "]";
    EXPECT_NE(damage_of(text), "") << from << " -> " << to;
  }
  EXPECT_NE(damage_of("not json"), "");
  EXPECT_NE(damage_of("{\"schema\": \"cm-archive 2\"}"), "");
}

TEST(ArchiveManifest, AFileOrAStudyTwiceIsDamage) {
  std::string text = manifest();
  const auto files = text.find("\"files\": [") + 10;
  const auto end = text.find(']', files);
  const std::string one = text.substr(files, end - files);
  EXPECT_NE(damage_of(text.substr(0, files) + one + ", " + one + text.substr(end)), "");
  const auto runs = text.find("\"runs\": [") + 9;
  const auto runs_end = text.find(']', runs);
  const std::string run = text.substr(runs, runs_end - runs);
  EXPECT_NE(damage_of(text.substr(0, runs) + run + ", " + run + text.substr(runs_end)), "");
}

}  // namespace
