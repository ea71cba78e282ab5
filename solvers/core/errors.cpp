#include "core/errors.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>

namespace cm {

std::string io_message(const std::string& what, const std::string& file) {
  return what + " '" + file + "': " + std::strerror(errno);
}

int guarded_main(const char* program, const std::function<int()>& body) {
  const std::string name = std::filesystem::path(program ? program : "solver").filename().string();
  try {
    return body();
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s: error: %s\n(%s --help lists every key)\n", name.c_str(), e.what(), name.c_str());
    return exit_bad_input;
  } catch (const NumericalError& e) {
    std::fprintf(stderr, "%s: numerical failure: %s\n", name.c_str(), e.what());
    return exit_numerical;
  } catch (const IoError& e) {
    std::fprintf(stderr, "%s: I/O error: %s\n", name.c_str(), e.what());
    return exit_io;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory\n", name.c_str());
    return exit_internal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", name.c_str(), e.what());
    return exit_internal;
  }
}

}  // namespace cm
