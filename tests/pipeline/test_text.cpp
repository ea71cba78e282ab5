// Unit tests of the file helpers: a missing file is bad input, a file that exists but cannot be
// read, or an output that cannot be written, is an I/O error with the system's reason, and a
// failed write leaves nothing behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "scratch.hpp"
#include "tools/text.hpp"

namespace {

using namespace cm::pipeline;

using Files = cm::pipeline::test_support::ScratchTest;

/// The message of the exception of type E that `f` throws, or "" when it throws none.
template <class E, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// A standard error to two significant digits, as the report shows it beside a mean: a whole
// number without an exponent from 10 to 10^6, %.2g elsewhere.
TEST(FormatError, TwoSignificantDigits) {
  EXPECT_EQ(format_error(382.0042), "380");
  EXPECT_EQ(format_error(1234.5), "1200");
  EXPECT_EQ(format_error(10.0), "10");
  EXPECT_EQ(format_error(0.0028689), "0.0029");
  EXPECT_EQ(format_error(4.2), "4.2");
  EXPECT_EQ(format_error(2.5e6), "2.5e+06");
}

TEST_F(Files, WritesAtomicallyAndReadsBack) {
  write_atomic(dir_ / "sub" / "a.tsv", "one\ntwo\n");
  EXPECT_EQ(read_text(dir_ / "sub" / "a.tsv", "out"), "one\ntwo\n");
  write_atomic(dir_ / "sub" / "a.tsv", "three\n");
  EXPECT_EQ(read_text(dir_ / "sub" / "a.tsv", "out"), "three\n");
  EXPECT_EQ(visible_subdirectories(dir_ / "sub").size(), 0u);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_ / "sub")) files += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1u);  // no temporary left behind
}

TEST_F(Files, AMissingFileIsBadInput) {
  EXPECT_EQ(message_of<cm::InputError>([&] { read_text(dir_ / "no_such.tsv", "published"); }),
            "published: file '" + (dir_ / "no_such.tsv").string() + "' not found");
  EXPECT_EQ(message_of<cm::InputError>([&] { read_text(dir_, "published"); }),
            "published: '" + dir_.string() + "' is not a regular file");
}

TEST_F(Files, AFileThatCannotBeReadIsAnIoError) {
  // /proc/self/mem is a regular file that opens, but reading at offset 0 (unmapped) fails with EIO.
  EXPECT_EQ(message_of<cm::IoError>([] { read_text("/proc/self/mem", "published"); }),
            "published: cannot read '/proc/self/mem': Input/output error");
}

TEST_F(Files, AnOutputThatCannotBeWrittenIsAnIoErrorAndLeavesNothing) {
  std::ofstream(dir_ / "file") << "x";
  const std::string message = message_of<cm::IoError>([&] { write_atomic(dir_ / "file" / "out.tsv", "x"); });
  EXPECT_EQ(message, "cannot create the directory of '" + (dir_ / "file" / "out.tsv").string() + "': Not a directory");
  // A directory in the way of the rename: the temporary file is removed again.
  std::filesystem::create_directories(dir_ / "taken" / "inside");
  EXPECT_NE(message_of<cm::IoError>([&] { write_atomic(dir_ / "taken", "x"); }).find("cannot move into place"),
            std::string::npos);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 2u);  // file and taken, no .taken.partial-<pid>
}

TEST_F(Files, HiddenDirectoriesAreNotListed) {
  for (const char* d : {"disk", "ball", ".disk.partial-12", ".ball.old-13"})
    std::filesystem::create_directories(dir_ / d);
  std::ofstream(dir_ / "notes.txt") << "x";
  const auto dirs = visible_subdirectories(dir_);
  ASSERT_EQ(dirs.size(), 2u);
  EXPECT_EQ(dirs[0].filename(), "ball");
  EXPECT_EQ(dirs[1].filename(), "disk");
  EXPECT_TRUE(hidden(".disk.partial-12"));
  EXPECT_FALSE(hidden("disk"));
}

}  // namespace
