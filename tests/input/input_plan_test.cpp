// INPUT expansion (directories, links, loops, errors), plan serialization,
// and the split of the virtual byte stream among ranks.
#include "spellcheck/input/input_plan.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "spellcheck/common/errors.hpp"

#include "temp_files.hpp"

namespace fs = std::filesystem;
using namespace spellcheck;
using spellcheck::testing::TempDir;
using spellcheck::testing::write;

namespace {

std::vector<std::string> paths(const InputPlan& plan) {
  std::vector<std::string> out;
  for (const auto& f : plan.files) out.push_back(f.path);
  return out;
}

InputPlan plan_of(std::vector<std::string> inputs) { return make_input_plan(inputs); }

InputPlan synthetic(const std::vector<uint64_t>& sizes) {
  InputPlan p;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string name = "f";  // (not "f" + ...: a GCC 12 -Wrestrict false positive)
    name += std::to_string(i);
    InputFile f;
    f.path = name;
    f.size = sizes[i];
    p.files.push_back(f);
  }
  finish_input_plan(p);
  return p;
}

bool running_as_root() { return ::geteuid() == 0; }

}  // namespace

TEST_CASE("a directory is every regular file under it, byte-wise sorted") {
  TempDir t;
  write(t.path / "b.txt", "bb");
  write(t.path / "a.txt", "a");
  write(t.path / "B.txt", "BBB");
  write(t.path / "sub/z.txt", "zzzz");
  write(t.path / "sub/deeper/x", "");
  write(t.path / "a-b", "xx");
  write(t.path / "\xC3\xA9.txt", "e");  // sorts after ASCII
  fs::create_directories(t.path / "empty/dir");
  const InputPlan p = plan_of({t.str()});
  const std::string d = t.str() + "/";
  CHECK(paths(p) == std::vector<std::string>{d + "B.txt", d + "a-b", d + "a.txt", d + "b.txt", d + "sub/deeper/x",
                                             d + "sub/z.txt", d + "\xC3\xA9.txt"});
  CHECK(p.offsets == std::vector<uint64_t>{0, 3, 5, 6, 8, 8, 12, 13});
  CHECK(p.total_bytes() == 13);
  CHECK(p.files[5].size == 4);
  // A trailing slash does not double.
  CHECK(paths(plan_of({t.str() + "/"})) == paths(p));
}

TEST_CASE("files named directly; several inputs merged, sorted and deduplicated") {
  TempDir t;
  write(t.path / "d/2", "22");
  write(t.path / "d/1", "1");
  write(t.path / "0", "000");
  const InputPlan p = plan_of({t.str("d"), t.str("0"), t.str("d/1")});
  CHECK(paths(p) == std::vector<std::string>{t.str("0"), t.str("d/1"), t.str("d/2")});
  CHECK(p.total_bytes() == 6);
}

TEST_CASE("empty inputs") {
  TempDir t;
  fs::create_directories(t.path / "e");
  write(t.path / "z", "");
  CHECK(plan_of({t.str("e")}).files.empty());
  CHECK(plan_of({t.str("e")}).total_bytes() == 0);
  const InputPlan p = plan_of({t.str("z")});
  CHECK(p.files.size() == 1);
  CHECK(p.total_bytes() == 0);
  for (int r = 0; r < 3; ++r) CHECK(split_stream(p, r, 3).empty());
}

TEST_CASE("links: files read, directories not followed, loops and broken links harmless") {
  TempDir t;
  write(t.path / "real/f.txt", "hello");
  write(t.path / "other/g.txt", "x");
  fs::create_directories(t.path / "top");
  fs::create_symlink(t.path / "real/f.txt", t.path / "top/link-to-file");
  fs::create_directory_symlink(t.path / "other", t.path / "top/link-to-dir");
  fs::create_directory_symlink(t.path / "top", t.path / "top/loop");
  fs::create_directory_symlink("..", t.path / "top/up");
  fs::create_symlink(t.path / "nowhere", t.path / "top/broken");
  write(t.path / "top/plain", "ab");
  const InputPlan p = plan_of({t.str("top")});
  CHECK(paths(p) == std::vector<std::string>{t.str("top/link-to-file"), t.str("top/plain")});
  CHECK(p.files[0].size == 5);
  // A link to a directory named on the command line is followed.
  CHECK(paths(plan_of({t.str("top/link-to-dir")})) == std::vector<std::string>{t.str("top/link-to-dir") + "/g.txt"});
  // Whole tree (holds the loop links): terminates.
  CHECK(plan_of({t.str()}).files.size() == 4);
}

TEST_CASE("missing or unreadable inputs throw InputError naming the path") {
  TempDir t;
  const std::string missing = t.str("no-such-file");
  CHECK_THROWS_WITH_AS(plan_of({missing}), ("cannot read '" + missing + "': No such file or directory").c_str(),
                       InputError);
  if (!running_as_root()) {
    write(t.path / "locked.txt", "x");
    fs::permissions(t.path / "locked.txt", fs::perms::none);
    const std::string locked = t.str("locked.txt");
    CHECK_THROWS_WITH_AS(plan_of({locked}), ("cannot read '" + locked + "': Permission denied").c_str(), InputError);
    CHECK_THROWS_WITH_AS(plan_of({t.str()}), ("cannot read '" + locked + "': Permission denied").c_str(), InputError);
    fs::permissions(t.path / "locked.txt", fs::perms::owner_all);

    write(t.path / "sub/closed/x", "x");
    fs::permissions(t.path / "sub/closed", fs::perms::none);
    const std::string closed = t.str("sub/closed");
    CHECK_THROWS_WITH_AS(plan_of({t.str("sub")}), ("cannot read '" + closed + "': Permission denied").c_str(),
                         InputError);
    fs::permissions(t.path / "sub/closed", fs::perms::owner_all);
  }
  // A device is a stream input (read by a thread, here empty), not an error.
  InputPlan dev = plan_of({"/dev/null"});
  REQUIRE(dev.files.size() == 1);
  CHECK(dev.files[0].stream);
  CHECK(dev.files[0].reader);
  finish_stream_reads(dev);
  CHECK(!dev.files[0].reader);
  CHECK(dev.files[0].memory.owner);
  CHECK(dev.files[0].size == 0);
}

TEST_CASE("walks leave out hidden entries, --exclude globs and binary files; named paths are read") {
  TempDir t;
  write(t.path / "a.txt", "text");
  write(t.path / ".dot.txt", "hidden file");
  write(t.path / ".git/config", "hidden folder");
  write(t.path / "sub/.cache/x.txt", "hidden folder below");
  write(t.path / "img.png", std::string("PNG\0\0data", 10));
  write(t.path / "late-nul.txt", std::string(5000, 'a') + std::string(1, '\0'));  // NUL after the first block
  write(t.path / "build/out.o", "excluded folder");
  write(t.path / "notes.log", "excluded by name");
  write(t.path / "sub/keep.txt", "kept");
  const std::string d = t.str() + "/";

  PlanOptions o;
  o.exclude = {"build", "*.log"};
  const InputPlan p = make_input_plan(std::vector<std::string>{t.str()}, o);
  CHECK(paths(p) == std::vector<std::string>{d + "a.txt", d + "late-nul.txt", d + "sub/keep.txt"});
  CHECK(p.skipped_binary == 1);
  CHECK(p.binary_paths == std::vector<std::string>{d + "img.png"});
  CHECK(p.skipped_hidden == 3);
  CHECK(p.skipped_excluded == 2);

  // A glob with a '/' matches the whole path.
  o.exclude = {"*/sub/*"};
  CHECK(paths(make_input_plan(std::vector<std::string>{t.str()}, o)) ==
        std::vector<std::string>{d + "a.txt", d + "build/out.o", d + "late-nul.txt", d + "notes.log"});

  // --hidden and --binary: every regular file, as SPEC.md's walk.
  PlanOptions all;
  all.hidden = all.binary = true;
  const InputPlan q = make_input_plan(std::vector<std::string>{t.str()}, all);
  CHECK(q.files.size() == 9);
  CHECK(q.skipped_binary + q.skipped_hidden + q.skipped_excluded == 0);

  // Named on the command line: read, binary and hidden alike.
  CHECK(paths(plan_of({d + "img.png", d + ".dot.txt", d + ".git"})) ==
        std::vector<std::string>{d + ".dot.txt", d + ".git/config", d + "img.png"});
}

TEST_CASE("compressed files are found by their magic bytes and get a span of positions") {
  TempDir t;
  write(t.path / "plain.txt", "BZh is not bzip2 without a digit");
  write(t.path / "looks.gz", "not gzip at all");
  write(t.path / "noext", std::string("\x28\xB5\x2F\xFD", 4) + "zstd frame (corrupt, not read here)");
  // Named: planned without decoding.
  const InputPlan p = plan_of({t.str("plain.txt"), t.str("looks.gz"), t.str("noext")});
  REQUIRE(p.files.size() == 3);
  CHECK(p.files[0].codec == Codec::none);  // looks.gz
  CHECK(p.files[1].codec == Codec::zstd);  // noext
  CHECK(p.files[1].disk_bytes == 39);
  CHECK(p.files[1].size == compressed_span(39));
  CHECK(p.files[1].weight() == 39);
  CHECK(p.files[2].codec == Codec::none);
  // In a walk a compressed file is not decoded while planning: the reader
  // checks its decoded start for binary (and finds it corrupt).
  const InputPlan walked = plan_of({t.str()});
  REQUIRE(walked.files.size() == 3);
  CHECK(walked.files[1].check_binary);
  CHECK(!walked.files[0].check_binary);
  CHECK(!p.files[1].check_binary);
  CHECK(deserialize_input_plan(serialize_input_plan(walked)).files[1].check_binary);
}

TEST_CASE("split_stream: compressed files go whole to one rank, balanced by bytes on disk") {
  InputPlan p = synthetic({1000, 0, 0, 500});
  for (size_t i : {1, 2}) {
    p.files[i].codec = Codec::gzip;
    p.files[i].disk_bytes = 250;
    p.files[i].size = compressed_span(250);
  }
  finish_input_plan(p);
  // Weights 1000, 250, 250, 500: total 2000.
  CHECK(split_stream(p, 0, 2) == std::vector<ByteRange>{{0, 0, 1000}});
  CHECK(split_stream(p, 1, 2) ==
        std::vector<ByteRange>{{1, 0, compressed_span(250)}, {2, 0, compressed_span(250)}, {3, 0, 500}});
  CHECK(split_stream(p, 0, 4) == std::vector<ByteRange>{{0, 0, 500}});
  CHECK(split_stream(p, 2, 4) == std::vector<ByteRange>{{1, 0, compressed_span(250)}, {2, 0, compressed_span(250)}});
  CHECK(split_stream(p, 3, 4) == std::vector<ByteRange>{{3, 0, 500}});
  // Every file exactly once over the ranks, whatever their number.
  for (int ranks = 1; ranks <= 9; ++ranks) {
    std::vector<int> seen(4, 0);
    for (int r = 0; r < ranks; ++r)
      for (const ByteRange& b : split_stream(p, r, ranks))
        if (p.files[b.file_index].whole()) ++seen[b.file_index];
    CHECK(seen[1] == 1);
    CHECK(seen[2] == 1);
  }
}

TEST_CASE("split_stream: a compressed file of no weight at the end still goes to a rank (found by fuzz_input_plan)") {
  InputPlan p = synthetic({1000, 0});
  p.files[1].codec = Codec::gzip;
  p.files[1].disk_bytes = 0;
  p.files[1].size = compressed_span(0);
  finish_input_plan(p);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    int seen = 0;
    for (int r = 0; r < ranks; ++r)
      for (const ByteRange& b : split_stream(p, r, ranks)) seen += b.file_index == 1 ? 1 : 0;
    CHECK(seen == 1);
  }
}

TEST_CASE("serialize / deserialize round trip") {
  InputPlan p = synthetic({5, 0, 123456789012ULL, 7});
  p.files[2].path = std::string("we\nird\0path", 11);
  p.files[1].codec = Codec::xz;
  p.files[1].disk_bytes = 77;
  p.files[1].size = compressed_span(77);
  p.files[3].stream = true;
  finish_input_plan(p);
  p.skipped_binary = 3;
  p.skipped_hidden = 4;
  p.skipped_excluded = 5;
  const std::string s = serialize_input_plan(p);
  const InputPlan q = deserialize_input_plan(s);
  REQUIRE(q.files.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(q.files[i].path == p.files[i].path);
    CHECK(q.files[i].size == p.files[i].size);
    CHECK(q.files[i].codec == p.files[i].codec);
    CHECK(q.files[i].disk_bytes == p.files[i].disk_bytes);
    CHECK(q.files[i].stream == p.files[i].stream);
  }
  CHECK(q.skipped_binary == 3);
  CHECK(q.skipped_hidden == 4);
  CHECK(q.skipped_excluded == 5);
  CHECK(q.offsets == p.offsets);
  CHECK(deserialize_input_plan(serialize_input_plan(InputPlan{})).files.empty());
  CHECK_THROWS(deserialize_input_plan(s.substr(0, s.size() - 1)));
  CHECK_THROWS(deserialize_input_plan(s + "x"));
  CHECK_THROWS(deserialize_input_plan("garbage"));
  // A compressed file whose span does not follow from its size on disk would
  // go to no rank: such a plan was not made here.
  InputPlan bad = p;
  bad.files[1].size = 5;
  CHECK_THROWS(deserialize_input_plan(serialize_input_plan(bad)));
  // Nor one whose size on disk times 64 wraps round to its span (2^63 +
  // 2^34 bytes -> 2^40; found by fuzz_input_plan: it split the stream wrong).
  bad.files[1].disk_bytes = (uint64_t{1} << 63) + (uint64_t{1} << 34);
  bad.files[1].size = compressed_span(bad.files[1].disk_bytes);
  CHECK(bad.files[1].size == uint64_t{1} << 40);
  CHECK_THROWS(deserialize_input_plan(serialize_input_plan(bad)));
}

TEST_CASE("a plan whose sizes wrap round 2^64 is refused (found by fuzz_input_plan)") {
  CHECK_NOTHROW(synthetic({UINT64_MAX - 5, 5}));  // exactly 2^64 - 1 bytes: fine
  InputPlan wraps;
  wraps.files.resize(2);
  wraps.files[0].path = "a";
  wraps.files[0].size = UINT64_MAX - 5;
  wraps.files[1].path = "b";
  wraps.files[1].size = 6;
  CHECK_THROWS_AS(finish_input_plan(wraps), InputError);
  // The same sizes as they would come off the wire, offsets never computed.
  std::string bytes = serialize_input_plan(synthetic({UINT64_MAX - 5, 5}));
  // The last file "f1": size, disk bytes, kind, length, then its 2 bytes.
  const size_t second_size = bytes.size() - 2 - 4 * 8;
  const uint64_t six = 6;
  bytes.replace(second_size, 8, reinterpret_cast<const char*>(&six), 8);
  CHECK_THROWS_AS(deserialize_input_plan(bytes), InputError);
}

TEST_CASE("split_stream: contiguous, covering, about equal shares") {
  std::mt19937_64 rng(7);
  for (int it = 0; it < 300; ++it) {
    std::vector<uint64_t> sizes(1 + rng() % 12);
    for (auto& s : sizes) s = rng() % 4 == 0 ? 0 : rng() % (it % 3 == 0 ? 5 : 100000);
    const InputPlan p = synthetic(sizes);
    const int ranks = 1 + static_cast<int>(rng() % 9);
    uint64_t expect = 0;  // next stream byte
    for (int r = 0; r < ranks; ++r) {
      const auto rs = split_stream(p, r, ranks);
      uint64_t share = 0;
      for (const ByteRange& b : rs) {
        CHECK(b.begin < b.end);
        CHECK(b.end <= p.files[b.file_index].size);
        CHECK(p.offsets[b.file_index] + b.begin == expect);
        expect = p.offsets[b.file_index] + b.end;
        share += b.end - b.begin;
      }
      CHECK(share >= p.total_bytes() / static_cast<uint64_t>(ranks));
      CHECK(share <= p.total_bytes() / static_cast<uint64_t>(ranks) + 1);
    }
    CHECK(expect == p.total_bytes());
  }
}

TEST_CASE("split_stream: big files cut mid-file, small files grouped") {
  const InputPlan p = synthetic({1000, 10, 10, 0, 10, 970});
  CHECK(split_stream(p, 0, 2) == std::vector<ByteRange>{{0, 0, 1000}});
  CHECK(split_stream(p, 1, 2) == std::vector<ByteRange>{{1, 0, 10}, {2, 0, 10}, {4, 0, 10}, {5, 0, 970}});
  CHECK(split_stream(p, 0, 4) == std::vector<ByteRange>{{0, 0, 500}});
  CHECK(split_stream(p, 1, 4) == std::vector<ByteRange>{{0, 500, 1000}});
  CHECK(split_stream(p, 2, 4) == std::vector<ByteRange>{{1, 0, 10}, {2, 0, 10}, {4, 0, 10}, {5, 0, 470}});
  CHECK(split_stream(p, 3, 4) == std::vector<ByteRange>{{5, 470, 970}});
  CHECK(split_stream(p, 0, 1) == std::vector<ByteRange>{{0, 0, 1000}, {1, 0, 10}, {2, 0, 10}, {4, 0, 10}, {5, 0, 970}});
  // More ranks than bytes: some get nothing.
  const InputPlan tiny = synthetic({2});
  CHECK(split_stream(tiny, 0, 4).empty());
  CHECK(split_stream(tiny, 1, 4) == std::vector<ByteRange>{{0, 0, 1}});
  CHECK_THROWS(split_stream(tiny, 4, 4));
  CHECK(p.file_at(0) == 0);
  CHECK(p.file_at(999) == 0);
  CHECK(p.file_at(1000) == 1);
  CHECK(p.file_at(1020) == 4);  // empty file 3 skipped
  CHECK(p.file_at(1030) == 5);
}
