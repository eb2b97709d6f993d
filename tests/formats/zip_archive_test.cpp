// Zip wrapper: round trip, STORED entries, unsafe member names, truncated and corrupt archives.
#include "formats/common/zip_archive.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats_test_util.hpp"

namespace nn::formats {
namespace {

using test::error_of;
using test::ScratchDir;

// Replaces every occurrence of from with to (same length) in bytes: edits local and central headers.
std::string patch(std::string bytes, const std::string& from, const std::string& to) {
  EXPECT_EQ(from.size(), to.size());
  size_t count = 0;
  for (size_t pos = bytes.find(from); pos != std::string::npos; pos = bytes.find(from, pos + 1)) {
    bytes.replace(pos, from.size(), to);
    ++count;
  }
  EXPECT_EQ(count, 2u) << "expected the name in the local and the central header";
  return bytes;
}

TEST(ZipArchive, RoundTripKeepsOrderAndStoresUncompressed) {
  ScratchDir dir;
  std::string big(100000, 'a');
  write_zip(dir.path("x.zip"),
            {{"nnp_version.txt", "0.1\n"}, {"network.nntxt", "network {}\n"}, {"big.bin", big}});
  ZipReader zip = ZipReader::open_file(dir.path("x.zip"));
  ASSERT_EQ(zip.names(), (std::vector<std::string>{"nnp_version.txt", "network.nntxt", "big.bin"}));
  EXPECT_EQ(zip.read("nnp_version.txt"), "0.1\n");
  EXPECT_EQ(zip.read(2), big);
  EXPECT_TRUE(zip.contains("network.nntxt"));
  EXPECT_FALSE(zip.contains("parameter.h5"));
  // STORED: the archive is larger than the repetitive payload (deflate would shrink it to ~100 bytes).
  EXPECT_GT(std::filesystem::file_size(dir.path("x.zip")), big.size());
  EXPECT_NE(error_of([&] { zip.read("missing.txt"); }).find("no member 'missing.txt'"), std::string::npos);
}

TEST(ZipArchive, OpenFromMemory) {
  std::string bytes = build_zip({{"a.txt", "hello"}});
  ZipReader zip = ZipReader::open_memory(bytes, "mem.zip");
  EXPECT_EQ(zip.read("a.txt"), "hello");
}

TEST(ZipArchive, RejectsUnsafeNamesWhenReading) {
  const std::string base = build_zip({{"aa/x", "data"}, {"ok.txt", "1"}});
  struct Case {
    std::string name, problem;
  };
  for (const Case& c : {Case{"../x", "'..' path component"}, Case{"/a/x", "absolute path"},
                        Case{"C:/x", "drive letter"}, Case{"a\\..", "'..' path component"}}) {
    std::string bytes = patch(base, "aa/x", c.name);
    std::string msg = error_of([&] { ZipReader::open_memory(bytes, "evil.nnp"); });
    EXPECT_NE(msg.find("'evil.nnp'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'" + c.name + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.problem), std::string::npos) << msg;
  }
}

TEST(ZipArchive, RejectsUnsafeNamesWhenWriting) {
  EXPECT_NE(error_of([] { build_zip({{"../up", "x"}}); }).find("'..' path component"), std::string::npos);
  EXPECT_NE(error_of([] { build_zip({{"/etc/x", "x"}}); }).find("absolute path"), std::string::npos);
  EXPECT_NE(error_of([] { build_zip({{"", "x"}}); }).find("empty name"), std::string::npos);
}

TEST(ZipArchive, TruncatedArchiveIsAnError) {
  ScratchDir dir;
  std::string bytes = build_zip({{"network.nntxt", std::string(5000, 'n')}});
  write_file_atomic(dir.path("cut.nnp"), bytes.substr(0, bytes.size() / 2));
  std::string msg = error_of([&] { ZipReader::open_file(dir.path("cut.nnp")); });
  EXPECT_NE(msg.find("cut.nnp'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a valid zip archive"), std::string::npos) << msg;
}

TEST(ZipArchive, CorruptDataFailsTheCrcCheck) {
  std::string bytes = build_zip({{"a.txt", "0123456789abcdef"}});
  size_t pos = bytes.find("0123456789abcdef");
  ASSERT_NE(pos, std::string::npos);
  bytes[pos + 3] = 'X';
  ZipReader zip = ZipReader::open_memory(bytes, "crc.zip");
  std::string msg = error_of([&] { zip.read("a.txt"); });
  EXPECT_NE(msg.find("'crc.zip': member 'a.txt'"), std::string::npos) << msg;
}

TEST(ZipArchive, ImplausibleDeclaredSizeIsRefusedBeforeAllocating) {
  std::string bytes = build_zip({{"a.txt", "hello"}});
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = char((v >> (8 * i)) & 0xff);
  };
  size_t local = bytes.find("PK\x03\x04");
  size_t central = bytes.find("PK\x01\x02");
  ASSERT_EQ(local, 0u);
  ASSERT_NE(central, std::string::npos);
  put32(local + 22, 0xF0000000u);    // local header: uncompressed size
  put32(central + 24, 0xF0000000u);  // central directory: uncompressed size
  std::string msg = error_of([&] {
    ZipReader zip = ZipReader::open_memory(bytes, "bomb.nnp");
    zip.read("a.txt");
  });
  EXPECT_NE(msg.find("'bomb.nnp': member 'a.txt': declared size 4026531840 is implausible"), std::string::npos)
      << msg;
}

TEST(ZipArchive, MissingFile) {
  EXPECT_NE(error_of([] { ZipReader::open_file("/nonexistent/dir/m.nnp"); }).find("cannot open"),
            std::string::npos);
}

TEST(AtomicFile, ReplacesTargetAndLeavesNoTemporaryOnFailure) {
  ScratchDir dir;
  write_file_atomic(dir.path("out.txt"), "first");
  write_file_atomic(dir.path("out.txt"), "second");
  EXPECT_EQ(read_file(dir.path("out.txt")), "second");
  {
    AtomicFile file(dir.path("never.txt"));
    file.write("partial");
    EXPECT_TRUE(std::filesystem::exists(file.temp_path()));
    EXPECT_NE(file.temp_path().find("never.txt.tmp."), std::string::npos);
  }  // destroyed without commit
  EXPECT_FALSE(std::filesystem::exists(dir.path("never.txt")));
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.dir())) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
  EXPECT_NE(error_of([&] { write_file_atomic(dir.path("no/such/dir/x"), "x"); }).find("temporary file"),
            std::string::npos);
}

}  // namespace
}  // namespace nn::formats
