// The options layer: expressions, ranges, lists, bound fields, the INI file and command-line
// precedence, the errors (with the key, file and line named) that become exit status 2, and a
// fuzz test of the parser.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/options.hpp"

namespace {

struct Fields {
  double m0 = 1.0;
  std::vector<double> theta{0.0, 0.0};
  std::vector<double> range{-1.0, 1.0};
  long n = 10;
  bool stop = false;
  std::string method = "a";
  std::vector<std::string> names{"x"};
  std::vector<long> counts{1, 2};
  double rtol = 1e-10;
  enum class Rule { best, paper } rule = Rule::best;
};

struct Demo {
  Fields f;
  cm::Config c{"demo", "a demonstration"};
  Demo() {
    c.add("model.m0", &f.m0, "mass").unit("kg").range(cm::Range::positive());
    c.add("ic.theta", &f.theta, "angles").unit("rad").size(2);
    c.add("grid.range", &f.range, "an interval").increasing().size(2);
    c.add("grid.n", &f.n, "points").range(cm::Range::closed(1, 1000)).assumption("ASSUMED: not stated");
    c.add("event.stop", &f.stop, "stop at the event");
    c.add("solver.method", &f.method, "method").choices({"a", "b"});
    c.add("plot.names", &f.names, "curves").choices({"x", "y", "z"});
    c.add("grid.counts", &f.counts, "counts").range(cm::Range::at_least(0));
    c.add("solver.rtol", &f.rtol, "relative tolerance").range(cm::Range::positive());
    c.add_choice("solver.rule", &f.rule, {{"best", Fields::Rule::best}, {"paper", Fields::Rule::paper}}, "rule");
  }
  cm::Invocation parse(std::vector<std::string> args) {
    std::vector<const char*> argv{"demo"};
    for (const auto& a : args) argv.push_back(a.c_str());
    return c.parse(int(argv.size()), argv.data());
  }
};

std::string write_ini(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string error_of(Demo& d, std::vector<std::string> args) {
  try {
    d.parse(std::move(args));
  } catch (const cm::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Options, ExpressionsAreExactToRounding) {
  EXPECT_EQ(cm::parse_real("k", "19/30"), 19.0 / 30.0);
  EXPECT_EQ(cm::parse_real("k", "-pi/2"), -cm::pi / 2);
  EXPECT_EQ(cm::parse_real("k", "2^-3"), 0.125);
  EXPECT_EQ(cm::parse_real("k", "1e-3"), 1e-3);
  EXPECT_EQ(cm::parse_real("k", ".5"), 0.5);
  EXPECT_EQ(cm::parse_real("k", "sqrt(2)"), std::sqrt(2.0));
}

TEST(Options, MalformedNumbersAreRefusedNamingTheKey) {
  for (const std::string text : {"0x10", "1.2.3", "5m", "nan", "inf", "1e999", "1e-320", "", "1e", "(1", "1)", "1/0",
                                 "log(0)", "sqrt(-1)", "--", "1,2"}) {
    SCOPED_TRACE(text);
    try {
      cm::parse_real("the.key", text);
      ADD_FAILURE() << "accepted";
    } catch (const cm::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("the.key"), std::string::npos) << e.what();
    }
  }
}

TEST(Options, DeepNestingIsRefusedNotACrash) {
  const std::string deep = std::string(60000, '(') + "1e-9" + std::string(60000, ')');
  EXPECT_THROW(cm::parse_real("verify.rtol", deep), cm::InputError);
  const std::string minus(60000, '-');
  EXPECT_THROW(cm::parse_real("verify.rtol", minus + "1"), cm::InputError);
  EXPECT_EQ(cm::parse_real("k", "((((1))))"), 1.0);  // modest nesting is fine
}

TEST(Options, DefaultsAreTheFieldsAndOverridesReachThem) {
  Demo d;
  d.parse({"--model.m0=2.5", "--ic.theta=pi, -pi/2", "--grid.n=10^2", "--event.stop", "--solver.method=b",
           "--plot.names=y,z", "--solver.rule=paper", "--grid.counts=3,4,5"});
  EXPECT_EQ(d.f.m0, 2.5);
  EXPECT_EQ(d.f.theta, (std::vector<double>{cm::pi, -cm::pi / 2}));
  EXPECT_EQ(d.f.n, 100);
  EXPECT_TRUE(d.f.stop);  // a bare flag is true
  EXPECT_EQ(d.f.method, "b");
  EXPECT_EQ(d.f.names, (std::vector<std::string>{"y", "z"}));
  EXPECT_EQ(d.f.rule, Fields::Rule::paper);
  EXPECT_EQ(d.f.counts, (std::vector<long>{3, 4, 5}));
  EXPECT_EQ(d.f.rtol, 1e-10);  // untouched default
  EXPECT_EQ(d.c.effective().at("solver.rule"), "paper");
  ASSERT_EQ(d.c.assumptions().size(), 1u);
  EXPECT_EQ(d.c.assumptions()[0].value, "100");
}

TEST(Options, AnEmptyListIsGivenAsKeyEquals) {
  Demo d;
  d.parse({"--grid.counts="});
  EXPECT_TRUE(d.f.counts.empty());
  Demo e;
  EXPECT_NE(error_of(e, {"--model.m0="}).find("model.m0"), std::string::npos);  // a real needs a value
}

TEST(Options, CommandLineOverridesTheFile) {
  const auto ini =
      write_ini("cm_test_options.ini", "[model]\nm0 = 3   # a comment\n\n; a comment line\n[grid]\nn = 7\n");
  Demo d;
  const auto inv = d.parse({"--config", ini, "--grid.n=9", "--output", "x/y", "--quiet"});
  EXPECT_EQ(d.f.m0, 3.0);
  EXPECT_EQ(d.f.n, 9);
  EXPECT_EQ(inv.config_file, ini);
  EXPECT_EQ(inv.output, "x/y");
  EXPECT_TRUE(inv.quiet);
}

TEST(Options, BadValuesAreRefusedNamingTheKey) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--model.m0=-1"}, "model.m0"},
      {{"--model.m0=0"}, "model.m0"},
      {{"--ic.theta=1"}, "ic.theta"},
      {{"--ic.theta=1,nan"}, "ic.theta"},
      {{"--grid.range=6,-6"}, "grid.range"},
      {{"--grid.n=2.5"}, "grid.n"},
      {{"--grid.n=0x10"}, "grid.n"},
      {{"--grid.n=1e6"}, "grid.n"},
      {{"--event.stop=maybe"}, "event.stop"},
      {{"--solver.method=c"}, "solver.method"},
      {{"--plot.names=y,,z"}, "plot.names"},
      {{"--plot.names=w"}, "plot.names"},
      {{"--grid.counts=-1"}, "grid.counts"},
      {{"--solver.rule=none"}, "solver.rule"},
      {{"--model.m0=1,2"}, "model.m0"},
      {{"--no.such=1"}, "no.such"},
      {{"stray.ini"}, "stray.ini"},
      {{"--model.m0=1", "--model.m0=2"}, "model.m0"},
      {{"--solver.rtol=1e-400"}, "solver.rtol"},
      {{"--config", "no_such_file.ini"}, "no_such_file.ini"},
  };
  for (const auto& [args, key] : cases) {
    Demo d;
    const std::string message = error_of(d, args);
    EXPECT_NE(message.find(key), std::string::npos) << args.front() << " gave: '" << message << "'";
  }
}

TEST(Options, FileErrorsNameTheFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"[model\nm0 = 1\n", ":1:"},          {"[model]\nm0 1\n", ":2:"},
      {"[model]\nm0 = 1\nm0 = 2\n", ":3:"}, {"[model]\nmo = 1\n", "did you mean 'model.m0'"},
      {"[model]\nm0 = -1\n", ":2"},
  };
  for (const auto& [text, expected] : cases) {
    const auto ini = write_ini("cm_test_options_bad.ini", text);
    Demo d;
    const std::string message = error_of(d, {"--config", ini});
    EXPECT_NE(message.find("cm_test_options_bad.ini"), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << text << " gave: " << message;
  }
}

// A config on a base: the base's keys first, the file's over them, the command line over both; the
// effective values (what the run id hashes) are those of the flattened copy.
TEST(Options, AConfigBuildsOnItsBases) {
  const auto dir = std::filesystem::temp_directory_path() / "cm_test_options_bases";
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "base.ini") << "[model]\nm0 = 3\n[grid]\nn = 7\n[solver]\nmethod = b\n";
  std::ofstream(dir / "middle.ini") << "[config]\nbase = base.ini\n[grid]\nn = 8\n";
  std::ofstream(dir / "sub" / "top.ini") << "[model]\nm0 = 4\n[config]\nbase = ../middle.ini\n";
  std::ofstream(dir / "flat.ini") << "[model]\nm0 = 4\n[grid]\nn = 8\n[solver]\nmethod = b\n";
  Demo layered, flat;
  const auto inv = layered.parse({"--config", (dir / "sub" / "top.ini").string()});
  flat.parse({"--config", (dir / "flat.ini").string()});
  EXPECT_EQ(layered.f.m0, 4.0);
  EXPECT_EQ(layered.f.n, 8);
  EXPECT_EQ(layered.f.method, "b");
  EXPECT_EQ(layered.c.effective(true), flat.c.effective(true));
  EXPECT_EQ(inv.config_bases, (std::vector<std::string>{(dir / "middle.ini").string(), (dir / "base.ini").string()}));
  Demo overridden;
  overridden.parse({"--config", (dir / "sub" / "top.ini").string(), "--grid.n=9"});
  EXPECT_EQ(overridden.f.n, 9);
  Demo plain;
  EXPECT_TRUE(plain.parse({"--config", (dir / "base.ini").string()}).config_bases.empty());
}

TEST(Options, BadBasesAreRefusedNamingTheFileAndKey) {
  const auto dir = std::filesystem::temp_directory_path() / "cm_test_options_bad_bases";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "self.ini") << "[config]\nbase = self.ini\n";
  std::ofstream(dir / "a.ini") << "[config]\nbase = b.ini\n";
  std::ofstream(dir / "b.ini") << "[grid]\nn = 2\n[config]\nbase = a.ini\n";
  std::ofstream(dir / "unknown.ini") << "[model]\nm0 = 2\nmo = 1\n";
  std::ofstream(dir / "on_unknown.ini") << "[config]\nbase = unknown.ini\n";
  std::ofstream(dir / "on_nothing.ini") << "[config]\nbase = nothing.ini\n";
  std::ofstream(dir / "twice.ini") << "[config]\nbase = a.ini\nbase = b.ini\n";
  std::ofstream(dir / "bad_value.ini") << "[model]\nm0 = -1\n";
  std::ofstream(dir / "on_bad_value.ini") << "[config]\nbase = bad_value.ini\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"self.ini", "self.ini:2: config.base"},
      {"a.ini", "b.ini:4: config.base"},
      {"on_unknown.ini", "unknown.ini:3: unknown key 'model.mo'"},
      {"on_nothing.ini", "on_nothing.ini:2: config.base"},
      {"twice.ini", "twice.ini:3: key 'config.base' given twice"},
      {"on_bad_value.ini", "bad_value.ini:2"},
  };
  for (const auto& [file, expected] : cases) {
    Demo d;
    const std::string message = error_of(d, {"--config", (dir / file).string()});
    EXPECT_NE(message.find(expected), std::string::npos) << file << " gave: " << message;
  }
}

// A chain of 10,000 bases (each file the base of the one before) was read by one call per base,
// each comparing the new base with every earlier one: 5,000 took a minute, 6,500 overflowed the
// stack. It is refused at the first base over the limit, naming the file and line that names it.
TEST(Options, ALongChainOfBasesIsRefusedNamingTheFileAndLine) {
  const auto dir = std::filesystem::temp_directory_path() / "cm_test_options_long_chain";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  constexpr int files = 10'000;
  for (int i = 0; i < files; ++i) {
    std::ofstream out(dir / ("c" + std::to_string(i) + ".ini"));
    out << "[grid]\nn = 2\n";
    if (i + 1 < files) out << "[config]\nbase = c" << i + 1 << ".ini\n";
  }
  Demo d;
  const std::string message = error_of(d, {"--config", (dir / "c0.ini").string()});
  EXPECT_NE(message.find(":4: config.base"), std::string::npos) << message;
  EXPECT_NE(message.find("at most"), std::string::npos) << message;
  // A chain within the limit is read whole, the nearest file that sets a key winning.
  std::ofstream(dir / "c9989.ini") << "[config]\nbase = c9990.ini\n";
  std::ofstream(dir / "c9990.ini") << "[grid]\nn = 5\n[config]\nbase = c9991.ini\n";
  Demo near;
  EXPECT_EQ(near.parse({"--config", (dir / "c9989.ini").string()}).config_bases.size(), 10u);
  EXPECT_EQ(near.f.n, 5);
  std::filesystem::remove_all(dir);
}

TEST(Options, PhysicsKeysAreListed) {
  Demo d;
  double length = 1.0;
  d.c.add("channel.length", &length, "length").physics();
  d.c.add("model.r", &length, "radius").physics();
  EXPECT_EQ(d.c.physics_keys(), (std::vector<std::string>{"channel.length", "model.r"}));
}

TEST(Options, ChecksAcrossKeysRunAfterParsing) {
  Demo d;
  d.c.check([&] {
    if (d.f.n > 50 && d.f.stop) d.c.fail("grid.n", "at most 50 with event.stop");
  });
  EXPECT_NE(error_of(d, {"--grid.n=60", "--event.stop=true"}).find("grid.n: at most 50"), std::string::npos);
}

TEST(Options, NoDataKeysAreLeftOutOfTheDataConfiguration) {
  Demo d;
  long threads = 1;
  d.c.add("output.threads", &threads, "threads").no_data();
  d.parse({"--output.threads=4"});
  EXPECT_EQ(threads, 4);
  EXPECT_EQ(d.c.effective().count("output.threads"), 1u);
  EXPECT_EQ(d.c.effective(true).count("output.threads"), 0u);
}

TEST(Options, HelpListsEveryKeyWithDefaultUnitAndRange) {
  Demo d;
  const std::string help = d.c.help_text();
  for (const std::string key : {"model.m0", "ic.theta", "grid.n", "event.stop", "solver.method", "solver.rule"})
    EXPECT_NE(help.find("--" + key), std::string::npos) << key;
  EXPECT_NE(help.find("[kg]"), std::string::npos);
  EXPECT_NE(help.find("(0, inf)"), std::string::npos);
  EXPECT_NE(help.find("assumption: ASSUMED: not stated"), std::string::npos);
}

TEST(Options, DeclarationMistakesAreBugs) {
  cm::Config c("demo", "x");
  double x = -1.0;
  EXPECT_THROW(c.add("x", &x, "x").range(cm::Range::positive()), std::logic_error);  // default outside
  double y = 0.0;
  c.add("y", &y, "y");
  EXPECT_THROW(c.add("y", &y, "y again"), std::logic_error);
}

// Random junk, random nesting and random keys: the parser either accepts or throws InputError;
// it never crashes, hangs or throws anything else. 20000 cases keep the test under a second.
TEST(Options, FuzzTheParser) {
  std::mt19937_64 random(20261123);
  const std::string alphabet = "0123456789.eE+-*/^()pisqrtcoxlgn, \t=#[]abc\x01\xff";
  for (int i = 0; i < 20000; ++i) {
    const std::size_t length = random() % 40;
    std::string text;
    for (std::size_t j = 0; j < length; ++j) text.push_back(alphabet[random() % alphabet.size()]);
    if (i % 100 == 0) text = std::string(random() % 5000, '(') + text + std::string(random() % 5000, ')');
    try {
      const double v = cm::parse_real("fuzz", text);
      EXPECT_TRUE(std::isfinite(v)) << text;
    } catch (const cm::InputError&) {
    }
    Demo d;
    const std::vector<std::string> keys{
        "--model.m0=", "--ic.theta=", "--grid.n=", "--plot.names=", "--grid.range=", "--event.stop=", "--", ""};
    try {
      d.parse({keys[random() % keys.size()] + text});
    } catch (const cm::InputError&) {
    }
  }
}

TEST(Options, AListThatNeedsValuesRefusesTheEmptyList) {
  std::vector<double> eps{0.1, 1.0};
  std::vector<double> extra{};
  cm::Config c{"demo", "a demonstration"};
  c.add("verify.eps", &eps, "eps of the sweep").nonempty();
  c.add("seeds.extra", &extra, "further seeds (none: only the first)");
  std::vector<const char*> argv{"demo", "--verify.eps="};
  try {
    c.parse(int(argv.size()), argv.data());
    ADD_FAILURE() << "the empty list was accepted";
  } catch (const cm::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("verify.eps"), std::string::npos) << e.what();
  }
  cm::Config d{"demo", "a demonstration"};
  d.add("verify.eps", &eps, "eps of the sweep").nonempty();
  d.add("seeds.extra", &extra, "further seeds (none: only the first)");
  std::vector<const char*> fine{"demo", "--seeds.extra=", "--verify.eps=0.3"};
  d.parse(int(fine.size()), fine.data());  // a list without nonempty() may be empty
  EXPECT_TRUE(extra.empty());
  EXPECT_EQ(eps, std::vector<double>{0.3});
  EXPECT_NE(d.help_text().find("of at least one value"), std::string::npos);
}
