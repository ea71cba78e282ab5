#include "tools/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "tools/text.hpp"

extern char** environ;

namespace cm::pipeline {

namespace {

int spawn_and_wait(const std::vector<std::string>& argv, const posix_spawn_file_actions_t* actions) {
  if (argv.empty()) throw InputError("run_program: no program");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], actions, nullptr, args.data(), environ);
  if (rc != 0) throw InputError(argv[0] + ": cannot be started (" + std::strerror(rc) + ")");
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw InputError(argv[0] + ": waiting for it failed (" + std::strerror(errno) + ")");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

int run_program(const std::vector<std::string>& argv) { return spawn_and_wait(argv, nullptr); }

int run_program_in(const std::vector<std::string>& argv, const std::string& cwd, const std::string& log) {
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(io_message("cannot create", log));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  struct Release {
    posix_spawn_file_actions_t* actions;
    int fd;
    ~Release() {
      posix_spawn_file_actions_destroy(actions);
      ::close(fd);
    }
  } release{&actions, fd};
  if (posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO) != 0 ||
      posix_spawn_file_actions_adddup2(&actions, fd, STDERR_FILENO) != 0 ||
      posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str()) != 0)
    throw IoError("cannot prepare to start " + argv.front());
  return spawn_and_wait(argv, &actions);
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
