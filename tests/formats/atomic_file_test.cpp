// Atomic output files: a signal that ends the process removes the temporary files of live writes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

namespace fs = std::filesystem;

size_t temp_files_in(const fs::path& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().find(".tmp.") != std::string::npos;
  return n;
}

TEST(AtomicFile, TerminatingSignalRemovesLiveTemporaryFiles) {
  for (int sig : {SIGTERM, SIGINT}) {
    test::ScratchDir dir;
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      install_temp_file_cleanup();
      AtomicFile a(dir.path("a.nnp"));
      AtomicFile b(dir.path("b.onnx"));
      a.write("partial");
      if (temp_files_in(dir.dir()) != 2) ::_exit(3);
      std::raise(sig);
      ::_exit(4);  // not reached: the handler ends the process by the same signal
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(temp_files_in(dir.dir()), 0u);
    EXPECT_FALSE(fs::exists(dir.path("a.nnp")));
  }
}

TEST(AtomicFile, CommittedFileIsNotRemovedBySignalCleanup) {
  test::ScratchDir dir;
  write_file_atomic(dir.path("done.txt"), "x");
  remove_live_temp_files();
  EXPECT_TRUE(fs::exists(dir.path("done.txt")));
  EXPECT_EQ(temp_files_in(dir.dir()), 0u);
}

}  // namespace
}  // namespace nn::formats
