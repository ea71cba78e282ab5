// Unit tests of cm_cite (tools/cite_tool.hpp): a run found by a prefix of its id in the store and
// the archive indexes, its provenance read back, and the BibTeX and plain citations, character for
// character.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scratch.hpp"
#include "tools/cite_tool.hpp"

namespace {

namespace fs = std::filesystem;
using cm::pipeline::Cited;
using cm::pipeline::IndexLine;

const std::string stored = "abcdef01" + std::string(56, '1');    // in the store
const std::string archived = "abcdef02" + std::string(56, '2');  // in an archive only
const std::string archive_id = std::string(64, 'f');

Cited archived_run() {
  Cited run;
  run.id = stored;
  run.paper = "dem";
  run.study = "spin";
  run.version = "0.1.0";
  run.revision = "0123456789abcdef0123456789abcdef01234567";
  run.date = "2026-03-04";
  run.archive = archive_id;
  return run;
}

TEST(CiteFormat, Bibtex) {
  EXPECT_EQ(cm::pipeline::bibtex_citation(archived_run()),
            "@misc{cm-run-abcdef011111,\n"
            "  title        = {Contact mechanics reproductions: run dem/spin},\n"
            "  author       = {{The contact mechanics reproductions project}},\n"
            "  year         = {2026},\n"
            "  version      = {0.1.0},\n"
            "  note         = {Run id " +
                stored + "; software version 0.1.0, revision 0123456789abcdef0123456789abcdef01234567; archive " +
                archive_id + "},\n  howpublished = {archive " + archive_id + ".tar.gz}\n}\n\n");
}

TEST(CiteFormat, PlainText) {
  EXPECT_EQ(cm::pipeline::plain_citation(archived_run()),
            "The contact mechanics reproductions project (2026). Run dem/spin, run id " + stored +
                ". Software version 0.1.0, revision 0123456789abcdef0123456789abcdef01234567. Archive " + archive_id +
                ".tar.gz.\n");
}

TEST(CiteFormat, NotArchivedModifiedUndated) {
  Cited run = archived_run();
  run.archive.clear();
  run.modified = true;
  run.date = "?";
  const std::string bibtex = cm::pipeline::bibtex_citation(run);
  EXPECT_NE(bibtex.find("  year         = {n.d.},\n"), std::string::npos) << bibtex;
  EXPECT_NE(bibtex.find("revision 0123456789abcdef0123456789abcdef01234567 (modified tree)},\n"), std::string::npos)
      << bibtex;
  EXPECT_NE(bibtex.find("  howpublished = {run store, not archived yet}\n}\n\n"), std::string::npos) << bibtex;
  EXPECT_EQ(bibtex.find("archive"), bibtex.find("archived yet")) << bibtex;  // "not archived yet" alone
  EXPECT_EQ(cm::pipeline::plain_citation(run),
            "The contact mechanics reproductions project (n.d.). Run dem/spin, run id " + stored +
                ". Software version 0.1.0, revision 0123456789abcdef0123456789abcdef01234567 (modified tree).\n");
}

class CiteLookup : public cm::pipeline::test_support::ScratchTest {
 protected:
  void SetUp() override {
    ScratchTest::SetUp();
    store_ = dir_ / "runs";
    fs::create_directories(store_ / stored);
    std::ofstream(store_ / stored / "run.json")
        << R"({"schema": "cm-run 1", "paper": "dem", "study": "spin", "run_id": ")" << stored
        << R"(", "start_utc": "2026-03-04T05:06:07Z", "scalars": {},
             "solver": {"name": "dem_spin", "version": "0.2.0", "revision": "r1", "modified": true}})";
    fs::create_directories(store_ / "not-a-run");
    index_ = {{archive_id, archived, "friction/exact"}, {archive_id, stored, "dem/spin"}};
  }
  fs::path store_;
  std::vector<IndexLine> index_;
};

TEST_F(CiteLookup, APrefixNamesTheRunsOfStoreAndIndex) {
  EXPECT_EQ(cm::pipeline::runs_named("abcdef01", store_, index_), std::vector<std::string>{stored});
  EXPECT_EQ(cm::pipeline::runs_named("abcdef02", store_, index_), std::vector<std::string>{archived});
  EXPECT_EQ(cm::pipeline::runs_named("abcdef0", store_, index_), (std::vector<std::string>{stored, archived}));
  EXPECT_TRUE(cm::pipeline::runs_named("abcdef03", store_, index_).empty());
}

TEST_F(CiteLookup, ProvenanceFromTheStoreOrTheIndex) {
  const Cited in_store = cm::pipeline::cited_run(stored, store_, index_);
  EXPECT_EQ(in_store.paper, "dem");
  EXPECT_EQ(in_store.study, "spin");
  EXPECT_EQ(in_store.version, "0.2.0");
  EXPECT_EQ(in_store.revision, "r1");
  EXPECT_TRUE(in_store.modified);
  EXPECT_EQ(in_store.date, "2026-03-04");
  EXPECT_EQ(in_store.archive, archive_id);

  const Cited in_archive = cm::pipeline::cited_run(archived, store_, index_);
  EXPECT_EQ(in_archive.paper, "friction");
  EXPECT_EQ(in_archive.study, "exact");
  EXPECT_EQ(in_archive.version, "?");
  EXPECT_EQ(in_archive.date, "?");
  EXPECT_EQ(in_archive.archive, archive_id);
}

}  // namespace
