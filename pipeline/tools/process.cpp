#include "tools/process.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/errors.hpp"
#include "tools/text.hpp"

extern char** environ;

namespace cm::pipeline {

int run_program(const std::vector<std::string>& argv) {
  if (argv.empty()) throw InputError("run_program: no program");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (rc != 0) throw InputError(argv[0] + ": cannot be started (" + std::strerror(rc) + ")");
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw InputError(argv[0] + ": waiting for it failed (" + std::strerror(errno) + ")");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

int run_shell(const std::string& command) { return run_program({"/bin/sh", "-c", command}); }

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  for (const std::string& dir : split(path, ':')) {
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace cm::pipeline
