// BlobWriter and BlobReader through a real file: what is written reads back
// the same, with the same digest, across the buffer's edge and the direct
// path for big arrays; a file cut short or holding a size beyond its end is
// a BlobError, never a read past the end.
#include "spellcheck/common/blob.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "temp_files.hpp"

using namespace spellcheck;

namespace {

struct Pair {
  uint64_t a;
  uint32_t b, c;
};

struct Content {
  uint32_t small = 7;
  std::string text = std::string(3000, 'x') + "end";
  std::vector<uint64_t> big;
  std::vector<Pair> pairs;
  std::vector<char32_t> empty;
};

Content make_content() {
  Content c;
  c.big.resize(300000);  // 2.4 MB: past the 1 MiB buffer, read and written directly
  std::iota(c.big.begin(), c.big.end(), uint64_t{1} << 40);
  for (uint32_t i = 0; i < 5000; ++i) c.pairs.push_back(Pair{i * 3ULL, i, ~i});
  return c;
}

uint64_t write_file(const std::string& path, const Content& c) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  BlobWriter w(fd);
  w.value(c.small);
  w.string(c.text);
  w.array(c.big);
  w.array(c.pairs);
  w.array(c.empty);
  const uint64_t digest = w.digest();
  w.value(digest);
  w.flush();
  ::close(fd);
  return digest;
}

uint64_t file_size(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return static_cast<uint64_t>(st.st_size);
}

}  // namespace

TEST_CASE("A blob reads back what was written, with the same digest") {
  spellcheck::testing::TempDir dir;
  const std::string path = dir.str("blob");
  const Content c = make_content();
  const uint64_t digest = write_file(path, c);
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  BlobReader r(fd, file_size(path));
  Content got;
  got.small = r.value<uint32_t>();
  r.string(got.text);
  r.array(got.big);
  r.array(got.pairs);
  got.empty.push_back(U'x');
  r.array(got.empty);
  CHECK(r.digest() == digest);
  CHECK(r.value<uint64_t>() == digest);
  CHECK(r.remaining() == 0);
  CHECK_THROWS_AS(r.value<uint8_t>(), BlobError);
  ::close(fd);
  CHECK(got.small == c.small);
  CHECK(got.text == c.text);
  CHECK(got.big == c.big);
  REQUIRE(got.pairs.size() == c.pairs.size());
  size_t same = 0;
  for (size_t i = 0; i < c.pairs.size(); ++i)
    same += got.pairs[i].a == c.pairs[i].a && got.pairs[i].b == c.pairs[i].b && got.pairs[i].c == c.pairs[i].c;
  CHECK(same == c.pairs.size());
  CHECK(got.empty.empty());
}

TEST_CASE("A blob cut short, or with a size past its end, is a BlobError") {
  spellcheck::testing::TempDir dir;
  const std::string path = dir.str("blob");
  write_file(path, make_content());
  const uint64_t full = file_size(path);
  // Cut inside the big array (read directly), inside the buffered part,
  // and just before the last byte.
  for (const uint64_t keep : {full / 2, uint64_t{2000}, full - 1}) {
    CAPTURE(keep);
    REQUIRE(::truncate(path.c_str(), static_cast<off_t>(keep)) == 0);
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    BlobReader r(fd, keep);
    std::string text;
    std::vector<uint64_t> big;
    std::vector<Pair> pairs;
    std::vector<char32_t> empty;
    auto read_all = [&] {
      r.value<uint32_t>();
      r.string(text);
      r.array(big);
      r.array(pairs);
      r.array(empty);
      r.value<uint64_t>();
    };
    CHECK_THROWS_AS(read_all(), BlobError);
    ::close(fd);
    write_file(path, make_content());
  }
  // A size field far beyond the file: refused before any allocation.
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
    REQUIRE(fd >= 0);
    BlobWriter w(fd);
    w.value<uint64_t>(uint64_t{1} << 60);
    w.flush();
    ::close(fd);
    const int in = ::open(path.c_str(), O_RDONLY);
    BlobReader r(in, file_size(path));
    std::vector<uint64_t> v;
    CHECK_THROWS_AS(r.array(v), BlobError);
    ::close(in);
  }
}
