// The tool kit (core/tool.hpp): the usage generated from the declarations, the required keys
// checked before the tool runs (exit 2, naming the key), and run() called with what it asks for.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/tool.hpp"

namespace {

/// A tool with a required text, a required list and two optional keys.
class Demo {
 public:
  static constexpr cm::ToolInfo info{"cm_demo", "A demonstration tool", "Exit status: 0 ran, 2 bad input.",
                                     "[--quiet]"};
  static inline int runs = 0;
  static inline bool quiet = false;

  void declare(cm::Config& config) {
    config.add("depth", &depth_, "how deep");
    config.add("input", &input_, "the file to read").required("the file to read");
    config.add("runs", &runs_, "the runs").required();
    config.add("mode", &mode_, "how").choices({"fast", "slow"});
    config.add("dry-run", &dry_run_, "only say what would be done");
  }

  int run(const cm::Invocation& invocation) {
    ++runs;
    quiet = invocation.quiet;
    return input_ == "fail" ? 1 : 0;
  }

 private:
  std::string input_, mode_ = "fast";
  std::vector<std::string> runs_;
  long depth_ = 3;
  bool dry_run_ = false;
};

/// A tool whose run takes nothing and refuses nothing.
class Plain {
 public:
  static constexpr cm::ToolInfo info{"cm_plain", "A plain tool", "Exit status: 0 ran."};
  void declare(cm::Config& config) { config.add("x", &x_, "a number"); }
  int run() { return x_ > 1.0 ? 0 : 1; }

 private:
  double x_ = 0.0;
};

int run_tool(std::vector<std::string> words, std::string* out = nullptr, std::string* err = nullptr) {
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int status = cm::tool_main<Demo>(static_cast<int>(argv.size()), argv.data());
  const std::string o = testing::internal::GetCapturedStdout(), e = testing::internal::GetCapturedStderr();
  if (out) *out = o;
  if (err) *err = e;
  return status;
}

TEST(ToolKit, UsageIsGeneratedFromTheDeclarationsRequiredKeysFirst) {
  cm::Config config(Demo::info.name, Demo::info.summary);
  Demo demo;
  demo.declare(config);
  EXPECT_EQ(config.usage_line(),
            "usage: cm_demo --input=VALUE --runs=A,... [--depth=N] [--mode=fast|slow] [--dry-run]");
  EXPECT_EQ(cm::tool_usage(config, Demo::info),
            "usage: cm_demo --input=VALUE --runs=A,... [--depth=N] [--mode=fast|slow] [--dry-run] [--quiet]\n"
            "Exit status: 0 ran, 2 bad input.");
}

TEST(ToolKit, HelpShowsTheGeneratedUsageAndRunsNothing) {
  Demo::runs = 0;
  std::string out;
  EXPECT_EQ(run_tool({"cm_demo", "--help"}, &out), 0);
  EXPECT_NE(out.find("cm_demo: A demonstration tool"), std::string::npos) << out;
  EXPECT_NE(out.find("usage: cm_demo --input=VALUE --runs=A,... [--depth=N]"), std::string::npos) << out;
  EXPECT_NE(out.find("Exit status: 0 ran, 2 bad input."), std::string::npos) << out;
  EXPECT_NE(out.find("--dry-run  (default false)"), std::string::npos) << out;
  EXPECT_EQ(Demo::runs, 0);
}

TEST(ToolKit, ARequiredKeyMissingIsBadInputNamingIt) {
  Demo::runs = 0;
  std::string err;
  EXPECT_EQ(run_tool({"cm_demo", "--runs=a"}, nullptr, &err), cm::exit_bad_input);
  EXPECT_NE(err.find("cm_demo: error: input: required: the file to read"), std::string::npos) << err;
  EXPECT_EQ(run_tool({"cm_demo", "--input=f", "--runs="}, nullptr, &err), cm::exit_bad_input);
  EXPECT_NE(err.find("error: runs: required (value from the command line)"), std::string::npos) << err;
  EXPECT_EQ(run_tool({"cm_demo", "--input=", "--runs=a"}, nullptr, &err), cm::exit_bad_input);
  EXPECT_NE(err.find("error: input: required: the file to read"), std::string::npos) << err;
  EXPECT_EQ(Demo::runs, 0);  // refused before it runs
}

TEST(ToolKit, RunGetsTheInvocationAndGivesTheExitStatus) {
  Demo::runs = 0;
  EXPECT_EQ(run_tool({"cm_demo", "--input=f", "--runs=a,b", "--quiet"}), 0);
  EXPECT_TRUE(Demo::quiet);
  EXPECT_EQ(run_tool({"cm_demo", "--input=fail", "--runs=a"}), 1);
  EXPECT_FALSE(Demo::quiet);
  EXPECT_EQ(Demo::runs, 2);
  std::string err;
  EXPECT_EQ(run_tool({"cm_demo", "--input=f", "--runs=a", "--mode=medium"}, nullptr, &err), cm::exit_bad_input);
  EXPECT_NE(err.find("mode"), std::string::npos) << err;
}

TEST(ToolKit, ARunWithoutArgumentsIsCalledToo) {
  std::vector<std::string> words{"cm_plain", "--x=2"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  EXPECT_EQ(cm::tool_main<Plain>(static_cast<int>(argv.size()), argv.data()), 0);
  words[1] = "--x=0.5";
  argv = {words[0].data(), words[1].data()};
  EXPECT_EQ(cm::tool_main<Plain>(static_cast<int>(argv.size()), argv.data()), 1);
}

}  // namespace
