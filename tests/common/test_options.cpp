// The options layer: expressions, ranges, lists, the INI file and command-line precedence,
// and the errors (with the key named) that become exit status 2.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/options.hpp"

namespace {

cm::Config make_config() {
  cm::Config c("demo", "paper", "study", "a demonstration");
  c.add_real("model.m0", 1.0, "kg", "mass", cm::Range::positive());
  c.add_reals("ic.theta", {0.0, 0.0}, "rad", "angles", cm::Range::any(), 2);
  c.add_integer("grid.n", 10, "points", 1, 1000);
  c.add_flag("event.stop", false, "stop at the event");
  c.add_choice("solver.method", "a", {"a", "b"}, "method");
  c.add_real("solver.rtol", 1e-10, "1", "relative tolerance", cm::Range::positive());
  c.assumption("grid.n", "ASSUMED: not stated");
  return c;
}

bool parse(cm::Config& c, std::vector<std::string> args) {
  std::vector<const char*> argv{"demo"};
  for (const auto& a : args) argv.push_back(a.c_str());
  return c.parse(int(argv.size()), argv.data());
}

std::string write_ini(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(Options, ExpressionsAreExactToRounding) {
  EXPECT_EQ(cm::parse_real("k", "19/30"), 19.0 / 30.0);
  EXPECT_EQ(cm::parse_real("k", "-pi/2"), -cm::pi / 2);
  EXPECT_EQ(cm::parse_real("k", "2.5e-3"), 2.5e-3);
  EXPECT_EQ(cm::parse_real("k", "sqrt(2)/2"), std::sqrt(2.0) / 2);
  EXPECT_EQ(cm::parse_real("k", "2^3 - (1 + 1) * 3"), 2.0);
  EXPECT_EQ(cm::parse_real("k", " -  4 "), -4.0);
}

TEST(Options, ExpressionErrorsNameTheKey) {
  for (const char* bad : {"nan", "inf", "1/0", "", "1 +", "abc", "(1", "1 2", "sqrt 2"}) {
    try {
      cm::parse_real("model.m0", bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const cm::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("model.m0"), std::string::npos) << e.what();
    }
  }
}

TEST(Options, DefaultsAndOverrides) {
  auto c = make_config();
  ASSERT_TRUE(parse(c, {"--model.m0=2.5", "--ic.theta", "-pi/2, pi", "--event.stop=yes", "--solver.method=b"}));
  EXPECT_EQ(c.real("model.m0"), 2.5);
  EXPECT_EQ(c.reals("ic.theta"), (std::vector<double>{-cm::pi / 2, cm::pi}));
  EXPECT_TRUE(c.flag("event.stop"));
  EXPECT_EQ(c.text("solver.method"), "b");
  EXPECT_EQ(c.integer("grid.n"), 10);
  EXPECT_EQ(c.output_dir(), "results/paper/study");
  const auto assumptions = c.assumptions();
  ASSERT_EQ(assumptions.size(), 1u);
  EXPECT_EQ(assumptions[0].key, "grid.n");
  EXPECT_EQ(assumptions[0].value, "10");
}

TEST(Options, CommandLineOverridesTheFile) {
  const auto ini = write_ini("cm_test_options.ini", "[model]\nm0 = 3\n[grid]\nn = 7\n");
  auto c = make_config();
  ASSERT_TRUE(parse(c, {"--config", ini, "--grid.n=9", "--output", "somewhere"}));
  EXPECT_EQ(c.real("model.m0"), 3.0);
  EXPECT_EQ(c.integer("grid.n"), 9);
  EXPECT_EQ(c.output_dir(), "somewhere");
  EXPECT_EQ(c.study(), "somewhere");  // the run is named after its directory
  EXPECT_EQ(c.config_file(), ini);
  EXPECT_EQ(c.effective().at("model.m0"), "3");
}

TEST(Options, BadInputIsRefusedNamingTheKey) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--model.m0=-1"}, "model.m0"},          // negative mass
      {{"--model.m0=nan"}, "model.m0"},         // NaN
      {{"--solver.rtol=0"}, "solver.rtol"},     // zero tolerance
      {{"--ic.theta=1"}, "ic.theta"},           // wrong list length
      {{"--grid.n=0"}, "grid.n"},               // out of range
      {{"--grid.n=2.5"}, "grid.n"},             // not an integer
      {{"--solver.method=c"}, "solver.method"}, // not a choice
      {{"--event.stop=maybe"}, "event.stop"},   // not a flag
      {{"--model.mass=1"}, "model.mass"},       // unknown key
      {{"--model.m"}, "model.m"},               // no guessing of abbreviations
      {{"--config", "no-such-file.ini"}, "no-such-file.ini"},
  };
  for (const auto& [args, named] : cases) {
    auto c = make_config();
    try {
      parse(c, args);
      ADD_FAILURE() << "accepted " << args.front();
    } catch (const cm::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  }
}

TEST(Options, UnknownKeyInTheFile) {
  const auto ini = write_ini("cm_test_unknown.ini", "[model]\nmass = 3\n");
  auto c = make_config();
  try {
    parse(c, {"--config", ini});
    ADD_FAILURE() << "accepted an unknown key in the file";
  } catch (const cm::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("model.mass"), std::string::npos) << e.what();
  }
}

TEST(Options, HelpListsEveryKeyWithDefaultAndUnit) {
  auto c = make_config();
  const auto help = c.help_text();
  for (const char* key : {"--model.m0", "--ic.theta", "--grid.n", "--event.stop", "--solver.method"})
    EXPECT_NE(help.find(key), std::string::npos) << key;
  EXPECT_NE(help.find("[kg]"), std::string::npos);
  EXPECT_NE(help.find("assumption: ASSUMED"), std::string::npos);
}
