// Unit tests of cm_query (tools/query_tool.hpp): the one value asked of a run, as printed (a number
// as it reads back exactly, null for a scalar written as null, a text as it is), and the refusal
// naming the key and what the run lacks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "scratch.hpp"
#include "tools/query_tool.hpp"

namespace {

using cm::pipeline::Answer;
using cm::pipeline::Question;

class QueryAnswer : public cm::pipeline::test_support::ScratchTest {
 protected:
  void SetUp() override {
    ScratchTest::SetUp();
    // A bench's run: its folder is not named after its study.
    run_ = (dir_ / "run-folder").string();
    std::filesystem::create_directories(run_);
    std::ofstream(dir_ / "run-folder" / "run.json") << R"({"schema": "cm-run 1", "paper": "dem", "study": "bench",
        "run_id": "0123", "wall_time_s": 2.5,
        "config": {"values": {"particles.n": "64", "grid": "7"}},
        "statistics": {"cost_rot": {"cpu_seconds": 0.1, "steps": 3}},
        "scalars": {"ratio": {"value": 0.30000000000000004}, "gap": {"value": null}, "n": {"value": 1e21}}})";
  }
  Answer ask(const Question& question) const { return cm::pipeline::answer(question, run_); }
  std::string run_;
};

TEST_F(QueryAnswer, NumbersReadBackExactly) {
  EXPECT_EQ(ask({.scalar = "ratio"}).value, "0.30000000000000004");
  EXPECT_EQ(ask({.scalar = "n"}).value, "1e+21");
  EXPECT_EQ(ask({.scalar = "gap"}).value, "null");
  EXPECT_EQ(ask({.statistic = "cost_rot.cpu_seconds"}).value, "0.10000000000000001");
  EXPECT_EQ(ask({.statistic = "cost_rot.steps"}).value, "3");
  EXPECT_EQ(ask({.field = "wall_time_s"}).value, "2.5");
  EXPECT_TRUE(ask({.scalar = "ratio"}).refused_key.empty());
}

TEST_F(QueryAnswer, TextsAsTheyAre) {
  EXPECT_EQ(ask({.key = "particles.n"}).value, "64");
  EXPECT_EQ(ask({.field = "run_id"}).value, "0123");
  EXPECT_EQ(ask({.field = "study"}).value, "bench");
  EXPECT_EQ(ask({.field = "paper"}).value, "dem");
}

TEST_F(QueryAnswer, WhatTheRunLacksIsRefusedNamingTheKey) {
  const Answer scalar = ask({.scalar = "nope"});
  EXPECT_EQ(scalar.refused_key, "scalar");
  EXPECT_EQ(scalar.refusal, "the run at '" + run_ + "' has no scalar nope");
  EXPECT_TRUE(scalar.value.empty());

  EXPECT_EQ(ask({.statistic = "cost_rot.wall"}).refusal, "the run at '" + run_ + "' has no statistic cost_rot.wall");
  EXPECT_EQ(ask({.statistic = "cost_rot"}).refused_key, "statistic");        // no name after the group
  EXPECT_EQ(ask({.statistic = "cost.rot.steps"}).refused_key, "statistic");  // the group holds no dot
  EXPECT_EQ(ask({.key = "particles.m"}).refused_key, "key");
  EXPECT_EQ(ask({.key = "particles.m"}).refusal, "the run at '" + run_ + "' has no key particles.m");
}

TEST_F(QueryAnswer, TheFirstQuestionGivenIsAnswered) {
  EXPECT_EQ((Question{.scalar = "ratio", .field = "study"}).asked(), 2);
  EXPECT_EQ((Question{.key = "grid"}).asked(), 1);
  EXPECT_EQ(Question{}.asked(), 0);
  EXPECT_EQ(ask({.scalar = "ratio", .key = "grid"}).value, "0.30000000000000004");
  EXPECT_EQ(ask({.statistic = "cost_rot.steps", .key = "grid"}).value, "3");
}

TEST_F(QueryAnswer, NoRunThereIsBadInput) {
  EXPECT_THROW(cm::pipeline::answer({.scalar = "ratio"}, (dir_ / "no-such").string()), cm::InputError);
}

}  // namespace
