// Document reader: any cut of the stream among "ranks" (calls for rank r of p
// in one process, unioned), any thread count and any work-unit / buffer size
// gives exactly the words, counts and first positions of one plain pass.
// Real files under a temp dir.
#include "spellcheck/input/document_reader.hpp"

#include <doctest/doctest.h>
#include <omp.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/text_filters.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/input/tokenizer.hpp"

#include "reference/reference_text.hpp"
#include "sanitized.hpp"
#include "temp_files.hpp"

namespace fs = std::filesystem;
using namespace spellcheck;
using spellcheck::testing::kSweepStride;
using spellcheck::testing::TempDir;
using spellcheck::testing::write;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Stat {
  uint64_t count = 0;
  uint64_t first = UINT64_MAX;
  bool operator==(const Stat&) const = default;
};

struct Result {
  std::map<std::string, Stat> words;
  uint64_t tokens = 0, numbers = 0, longs = 0, bytes = 0;
  bool operator==(const Result&) const = default;
};

void add(Result& r, const LocalWords& lw) {
  REQUIRE(lw.counts.size() == lw.words.size());
  REQUIRE(lw.first_pos.size() == lw.words.size());
  REQUIRE(lw.hashes.size() == lw.words.size());
  uint64_t sum = 0;
  for (size_t i = 0; i < lw.words.size(); ++i) {
    const std::string w(lw.words[i]);
    REQUIRE(lw.hashes[i] == word_hash(w));
    Stat& s = r.words[w];
    s.count += lw.counts[i];
    s.first = std::min(s.first, lw.first_pos[i]);
    sum += lw.counts[i];
  }
  REQUIRE(sum == lw.tokens);
  r.tokens += lw.tokens;
  r.numbers += lw.skipped_numbers;
  r.longs += lw.skipped_long;
  r.bytes += lw.bytes_read;
}

// The plain pass: every file read whole and tokenized in one go. With
// filtered (--filter url,digits): URLs blanked in the whole file by the
// reference's rule first, and tokens with a digit counted as numbers.
Result one_pass(const InputPlan& plan, size_t max_len, bool filtered) {
  Result r;
  for (size_t f = 0; f < plan.files.size(); ++f) {
    std::string text = slurp(plan.files[f].path);
    if (filtered) reference::blank_urls(text);
    TokenCounts c;
    for_each_token(text, [&](std::string_view w, size_t off) {
      if (filtered && has_ascii_digit(w)) {
        ++c.skipped_numbers;
        return;
      }
      if (!keep_token(w, max_len, c)) return;
      Stat& s = r.words[std::string(w)];
      ++s.count;
      s.first = std::min(s.first, plan.offsets[f] + off);
    });
    r.tokens += c.tokens;
    r.numbers += c.skipped_numbers;
    r.longs += c.skipped_long;
  }
  r.bytes = plan.total_bytes();
  return r;
}

Result plain_pass(const InputPlan& plan, size_t max_len) { return one_pass(plan, max_len, false); }
Result filtered_reference(const InputPlan& plan, size_t max_len) { return one_pass(plan, max_len, true); }

// The stream [0, total) cut among p "ranks" at random places (in order).
std::vector<uint64_t> random_cuts(std::mt19937_64& rng, uint64_t total, int p) {
  std::vector<uint64_t> cuts{0, total};
  for (int k = 1; k < p; ++k) cuts.push_back(rng() % (total + 1));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

Result cut_at(const InputPlan& plan, const std::vector<uint64_t>& cuts, size_t max_len, int threads,
              const ReaderTuning& tuning) {
  Result r;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const auto ranges = stream_ranges(plan, cuts[k], cuts[k + 1]);
    add(r, collect_range_words(plan, ranges, max_len, threads, {}, tuning));
  }
  return r;
}

// A field of /proc/self/status in KiB ("VmRSS:", "VmHWM:"), or -1.
long status_kib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, field.size(), field) == 0) return std::stol(line.substr(field.size()));
  return -1;
}

// The peak resident memory of f() itself, in KiB above what was resident
// when it started: the kernel's high-water mark is reset to the current
// RSS first (clear_refs 5), so no earlier peak of this process can hide
// f's (ru_maxrss is the lifetime peak). -1 when the mark cannot be reset.
long phase_peak_kib(const std::function<void()>& f) {
  bool reset = false;
  {
    std::ofstream c("/proc/self/clear_refs");
    reset = static_cast<bool>(c << "5" << std::flush);
  }
  const long base = status_kib("VmRSS:");
  f();
  const long hwm = status_kib("VmHWM:");
  if (!reset || base < 0 || hwm < 0) {
    MESSAGE("cannot reset the peak RSS here (/proc/self/clear_refs): not measured");
    return -1;
  }
  return hwm - base;
}

const std::string Q = "\xE2\x80\x99";  // U+2019

// A small collection with every awkward case near every byte.
void make_collection(const fs::path& d) {
  write(d / "a/prose.txt",
        "It's a truth universally acknowledged, that a single man in possession\r\n"
        "of a good fortune, must be in want of a wife. Don" +
            Q +
            "t 'tis dogs' don''t\n"
            "3rd 0x1F 1999 42 caf\xC3\xA9 na\xC3\xAFve \xE4\xB8\xAD\xE6\x96\x87\xE3\x80\x82\xE6\x97\xA5\xE6\x9C\xAC "
            "rock" +
            Q + "n" + Q + "roll it" + Q + Q + "s \xF0\x9F\x98\x80smile\xF0\x9F\x98\x80 end\n");
  write(d / "a/empty.txt", "");
  write(d / "b/bad-utf8.bin", std::string("ab\xC3\x28\xE4\xB8 cd\xED\xA0\x80"
                                          "ef \xF4\x90\x80\x80gh\x80\x80\x80ij\xF0\x9F\x98") +
                                  std::string(3, '\0') + "kl\xC3");
  write(d / "b/long.txt", "short " + std::string(150, 'x') + " " + std::string(100, '7') + " mid " +
                              std::string(90, 'y') + "'" + std::string(40, 'z') + Q + "w tail" + std::string(70, 'q'));
  write(d / "b/no-separators.txt", std::string(300, 'k'));
  write(d / "c/cjk.txt",
        "\xE4\xB8\x80\xE4\xBA\x8C\xE4\xB8\x89\xE3\x80\x81\xE5\x9B\x9B\xE4\xBA\x94\xE3\x80\x82"
        "\xE5\x85\xAD\xE4\xB8\x83\xE5\x85\xAB\xE4\xB9\x9D\xE5\x8D\x81\xE7\x99\xBE");
  write(d / "c/one-byte.txt", "a");
  write(d / "c/words.txt", "the the The THE the' 'the th" + Q + "e\nthe\n");
}

}  // namespace

TEST_CASE("one pass equals the plain reference; counts and first positions") {
  TempDir t;
  make_collection(t.path);
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  for (size_t max_len : {size_t{64}, size_t{8}, size_t{120}}) {
    CAPTURE(max_len);
    const Result ref = plain_pass(plan, max_len);
    CHECK(ref.words.count("Don't") == 1);
    CHECK(ref.words.count("rock'n'roll") == (max_len >= 11 ? 1 : 0));
    Result one;
    add(one, collect_document_words(plan, 0, 1, max_len, 1));
    CHECK(one == ref);
    for (int threads = 1; threads <= 3; ++threads) {
      Result r;
      add(r, collect_document_words(plan, 0, 1, max_len, threads, {}, ReaderTuning{5, 64}));
      CHECK(r == ref);
    }
  }
  const Result ref = plain_pass(plan, 64);
  CHECK(ref.longs == 4);    // 150 x, 90y'40z'w, tail+70q, 300 k
  CHECK(ref.numbers == 3);  // 1999 42 and 100 sevens
}

TEST_CASE("two ranks cut at every byte offset, small buffers, 1-3 threads") {
  TempDir t;
  make_collection(t.path);
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  const uint64_t total = plan.total_bytes();
  for (size_t max_len : {size_t{64}, size_t{6}}) {
    const Result ref = plain_pass(plan, max_len);
    for (uint64_t x = 0; x <= total; x += kSweepStride) {
      CAPTURE(x);
      // (3 threads on the 2-core test machine only now and then: OpenMP
      // threads spin-wait, which oversubscribed makes every call slow.)
      const int threads = x % 400 == 7 ? 3 : 1 + static_cast<int>(x % 2);
      const ReaderTuning tuning{x % 5 == 0 ? size_t{0} : size_t{1 + x % 37}, x % 2 ? size_t{1} << 20 : size_t{40}};
      REQUIRE(cut_at(plan, {0, x, total}, max_len, threads, tuning) == ref);
    }
  }
}

TEST_CASE("3 and 4 ranks at random cuts; collect_document_words for rank r of p") {
  TempDir t;
  make_collection(t.path);
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  const uint64_t total = plan.total_bytes();
  const Result ref = plain_pass(plan, 64);
  std::mt19937_64 rng(99);
  for (int it = 0; it < 400; ++it) {
    const int p = 3 + it % 2;
    const std::vector<uint64_t> cuts = random_cuts(rng, total, p);
    CAPTURE(it);
    const ReaderTuning tuning{static_cast<size_t>(rng() % 50), rng() % 2 ? size_t{100} : size_t{1} << 16};
    REQUIRE(cut_at(plan, cuts, 64, it % 200 == 3 ? 3 : 1 + it % 2, tuning) == ref);
  }
  for (int p = 1; p <= 4; ++p)
    for (int threads = 1; threads <= 3; ++threads) {
      Result r;
      for (int rank = 0; rank < p; ++rank) add(r, collect_document_words(plan, rank, p, 64, threads));
      CHECK(r == ref);
      Result small;
      for (int rank = 0; rank < p; ++rank)
        add(small, collect_document_words(plan, rank, p, 64, threads, {}, ReaderTuning{3, 16}));
      CHECK(small == ref);
    }
}

TEST_CASE("--filter url,digits: any cut, buffer and thread count gives the filtered reference") {
  TempDir t;
  make_collection(t.path);
  std::string urls;
  for (int k = 0; k < 40; ++k)
    urls += "see http://example.com/p" + std::to_string(k) + "?q=a&b=c and/or mail user" + std::to_string(k) +
            "@example.org or /usr/lib/x86 at 10:30, mp3 19xx C:\\dir\\file words\n";
  urls += "tail" + std::string(5000, 'u') + "@x.y end\n";  // a run longer than a filter holds
  write(t.path / "d/urls.txt", urls);
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  const uint64_t total = plan.total_bytes();
  const Result ref = filtered_reference(plan, 64);
  REQUIRE(ref.words.count("and") == 1);
  REQUIRE(ref.words.count("example") == 0);
  REQUIRE(ref.words.count("usr") == 0);
  REQUIRE(ref.words.count("mp3") == 0);
  ReaderTuning tuning;
  add_filter_list(tuning.filters, "url,digits");
  Result one;
  add(one, collect_document_words(plan, 0, 1, 64, 1, {}, tuning));
  CHECK(one == ref);
  std::mt19937_64 rng(5);
  for (int it = 0; it < 300; ++it) {
    CAPTURE(it);
    const int p = 2 + it % 3;
    const std::vector<uint64_t> cuts = random_cuts(rng, total, p);
    tuning.unit_bytes = static_cast<size_t>(rng() % 3000);
    tuning.buffer_bytes = rng() % 2 ? size_t{100} : size_t{1} << 16;
    REQUIRE(cut_at(plan, cuts, 64, 1 + it % 2, tuning) == ref);
  }
}

TEST_CASE("empty files and empty directories") {
  TempDir t;
  fs::create_directories(t.path / "e/f");
  write(t.path / "e/z.txt", "");
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  for (int p = 1; p <= 3; ++p)
    for (int r = 0; r < p; ++r) {
      const LocalWords lw = collect_document_words(plan, r, p, 64, 2);
      CHECK(lw.words.empty());
      CHECK(lw.tokens == 0);
      CHECK(lw.bytes_read == 0);
    }
  CHECK(resolve_locations(plan, {}).empty());
}

TEST_CASE("progress reports reach the share size") {
  TempDir t;
  make_collection(t.path);
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  uint64_t last = 0, tot = 0;
  int calls = 0;
  const LocalWords lw = collect_document_words(
      plan, 0, 1, 64, 1,
      [&](uint64_t d, uint64_t n) {
        CHECK(d >= last);
        last = d;
        tot = n;
        ++calls;
      },
      ReaderTuning{64, 1 << 16});
  CHECK(calls > 1);
  CHECK(last == plan.total_bytes());
  CHECK(tot == plan.total_bytes());
  CHECK(lw.bytes_read == plan.total_bytes());
}

TEST_CASE("a team smaller than asked: nested in an active region, dynamic teams") {
  // OMP_THREAD_LIMIT, OMP_DYNAMIC and nesting give teams smaller than
  // num_threads asks for; per-thread state must follow the real team.
  TempDir t;
  make_collection(t.path);
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  const Result ref = plain_pass(plan, 64);
  const std::vector<uint64_t> positions{0, 7, plan.total_bytes() - 1};
  const std::vector<Location> want = resolve_locations(plan, positions, 1);
  const int saved_levels = omp_get_max_active_levels();
  const int saved_dynamic = omp_get_dynamic();
  for (int dynamic = 0; dynamic <= 1; ++dynamic) {
    CAPTURE(dynamic);
    omp_set_dynamic(dynamic);
    omp_set_max_active_levels(1);  // regions inside the one below get one thread
    std::vector<LocalWords> got(2), got_merge(2);
    std::vector<std::vector<Location>> where(2);
    std::vector<std::string> errors(2);
    std::vector<char> ran(2, 0);
#pragma omp parallel num_threads(2)
    {
      const size_t me = static_cast<size_t>(omp_get_thread_num());
      ran[me] = 1;
      try {
        got[me] = collect_document_words(plan, 0, 1, 64, 4, {}, ReaderTuning{5, 64});
        got_merge[me] = collect_document_words(plan, 0, 1, 64, 8, {}, ReaderTuning{7, 64, 0});  // partitioned merge
        where[me] = resolve_locations(plan, positions, 4);
      } catch (const std::exception& e) {
        errors[me] = e.what();
      }
    }
    omp_set_max_active_levels(saved_levels);
    CHECK(ran[0]);
    for (size_t i = 0; i < 2; ++i) {
      if (!ran[i]) continue;  // the outer team too may be one thread (OMP_THREAD_LIMIT=1)
      CHECK(errors[i] == "");
      Result r, m;
      add(r, got[i]);
      add(m, got_merge[i]);
      CHECK(r == ref);
      CHECK(m == ref);
      CHECK(where[i] == want);
    }
    // Not nested: a dynamic team may have fewer threads than the 8 asked.
    Result r;
    add(r, collect_document_words(plan, 0, 1, 64, 8, {}, ReaderTuning{3, 64, 0}));
    CHECK(r == ref);
  }
  omp_set_dynamic(saved_dynamic);
}

TEST_CASE("an exception in any worker thread reaches the caller") {
  // Files vanish after planning: whichever thread meets one first, its
  // InputError comes out of the call (an exception left in an OpenMP
  // region would terminate the process).
  TempDir t;
  for (int f = 0; f < 30; ++f) {
    std::string name = "f", text = "word ";
    name += std::to_string(100 + f);
    text += std::to_string(f);
    text += " more words\n";
    write(t.path / name, text);
  }
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  for (const char* f : {"f105", "f117", "f129"}) fs::remove(t.path / f);
  std::vector<uint64_t> starts;  // one position in each file
  for (size_t f = 0; f < plan.files.size(); ++f) starts.push_back(plan.offsets[f] + 1);
  for (int threads = 1; threads <= 4; ++threads) {
    CAPTURE(threads);
    for (size_t unit : {size_t{8}, size_t{0}}) {
      CAPTURE(unit);
      CHECK_THROWS_AS(collect_document_words(plan, 0, 1, 64, threads, {}, ReaderTuning{unit, 64}), InputError);
      CHECK_THROWS_AS(resolve_locations(plan, starts, threads), InputError);
    }
  }
  int calls = 0;  // and from the progress callback
  CHECK_THROWS_WITH_AS(collect_document_words(
                           plan, 0, 1, 64, 1,
                           [&](uint64_t, uint64_t) {
                             if (++calls == 1) throw std::runtime_error("stop");
                           },
                           ReaderTuning{8, 64}),
                       "stop", std::runtime_error);
}

TEST_CASE("a file that cannot be read any more is named in an InputError") {
  TempDir t;
  write(t.path / "a.txt", "alpha beta");
  write(t.path / "b.txt", "gamma");
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  fs::remove(t.path / "b.txt");
  const std::string b = (t.path / "b.txt").string();
  CHECK_THROWS_WITH_AS(collect_document_words(plan, 0, 1, 64, 2),
                       ("cannot read '" + b + "': No such file or directory").c_str(), InputError);
  if (::geteuid() != 0) {
    write(t.path / "b.txt", "gamma");
    fs::permissions(t.path / "b.txt", fs::perms::none);
    CHECK_THROWS_WITH_AS(collect_document_words(plan, 0, 1, 64, 1),
                         ("cannot read '" + b + "': Permission denied").c_str(), InputError);
    fs::permissions(t.path / "b.txt", fs::perms::owner_all);
  }
  // A file that shrank: reading stops at its end, no error.
  write(t.path / "b.txt", "gam");
  const LocalWords lw = collect_document_words(plan, 0, 1, 64, 1);
  CHECK(lw.tokens == 3);
}

TEST_CASE("resolve_locations: file, 1-based line and byte column") {
  TempDir t;
  write(t.path / "a.txt", "one two\nthree\r\n\n  four");
  write(t.path / "b.txt", "");
  write(t.path / "c.txt", "x\n\xC3\xA9t\xC3\xA9 y");
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  const std::string a = (t.path / "a.txt").string(), c = (t.path / "c.txt").string();
  const uint64_t cb = plan.offsets[2];
  const std::vector<uint64_t> pos{4, 0, 8, cb + 2, 18, cb + 0, 8, cb + 8};
  const auto loc = resolve_locations(plan, pos, 2);
  CHECK(loc ==
        std::vector<Location>{{a, 1, 5}, {a, 1, 1}, {a, 2, 1}, {c, 2, 1}, {a, 4, 3}, {c, 1, 1}, {a, 2, 1}, {c, 2, 7}});
  // First positions of the reader resolve to the token's place.
  const LocalWords lw = collect_document_words(plan, 0, 1, 64, 1);
  std::map<std::string, Location> where;
  const auto l2 = resolve_locations(plan, lw.first_pos);
  for (size_t i = 0; i < lw.words.size(); ++i) where[std::string(lw.words[i])] = l2[i];
  CHECK(where["four"] == Location{a, 4, 3});
  CHECK(where["y"] == Location{c, 2, 7});
  CHECK(where["\xC3\xA9t\xC3\xA9"] == Location{c, 2, 1});
  const std::vector<uint64_t> bad{plan.total_bytes()};
  CHECK_THROWS_AS(resolve_locations(plan, bad), std::out_of_range);
}

TEST_CASE("the phase peak meter sees a phase's own peak, not an earlier one") {
  {  // an earlier, larger peak: ru_maxrss would hide everything below it
    std::vector<char> big(96u << 20, 1);
    CHECK(big[12345] == 1);
  }
  const long idle = phase_peak_kib([] {});
  if (idle < 0) return;
  CHECK(idle < 2 * 1024);
  const long touched = phase_peak_kib([] {
    std::vector<char> v(48u << 20);
    for (size_t i = 0; i < v.size(); i += 4096) v[i] = 1;
    CHECK(v[4096] == 1);
  });
  MESSAGE("idle phase " << idle << " KiB, 48 MiB phase " << touched << " KiB");
  CHECK(touched >= 40 * 1024);
}

// The two big cases' thread counts: under a sanitizer two threads only
// (the runs that merge thread tables; the cases above run one thread).
constexpr int kFirstThreads = kSweepStride > 1 ? 2 : 1;

TEST_CASE("huge line and huge token: bounded memory, same counts") {
  TempDir t;
  {  // 24 MB of words on one line, with one 8 MB token inside; a 3 MB number.
    std::ofstream out(t.path / "huge.txt", std::ios::binary);
    const char* ws[] = {"alpha ", "beta, ", "gamma\t", "delta'", "epsilon "};
    std::string block;
    for (size_t i = 0; block.size() < (1u << 16); ++i) block += ws[i % 5];
    for (int k = 0; k < 128; ++k) out << block;
    out << ' ' << std::string(8u << 20, 'w') << ' ';
    for (int k = 0; k < 128; ++k) out << block;
    std::ofstream(t.path / "num.txt", std::ios::binary) << std::string(3u << 20, '5') << " x";
  }
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  std::vector<Result> runs;
  const long peak = phase_peak_kib([&] {
    for (int p = 1; p <= 3; ++p)
      for (int threads = kFirstThreads; threads <= 2; ++threads) {
        Result r;
        for (int rank = 0; rank < p; ++rank) add(r, collect_document_words(plan, rank, p, 64, threads));
        runs.push_back(r);
      }
  });
  MESSAGE("peak RSS of the reads: " << peak << " KiB");
  REQUIRE(runs.size() == (kFirstThreads == 1 ? 6 : 3));
#if !defined(__SANITIZE_ADDRESS__)
  if (peak >= 0) CHECK(peak < 16 * 1024);  // KiB: far below the 27 MB input
#endif
  const Result ref = plain_pass(plan, 64);
  CHECK(ref.longs == 1);
  CHECK(ref.numbers == 1);
  for (const Result& r : runs) CHECK(r == ref);
}

TEST_CASE("many distinct words of all lengths: table growth and the partitioned merge") {
  TempDir t;
  std::mt19937_64 rng(5);
  const char* alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::vector<std::string> vocab;
  for (int i = 0; i < 120000; ++i) {
    std::string w;
    const size_t len = 1 + rng() % 40;
    for (size_t k = 0; k < len; ++k) w += alpha[rng() % 52 + (k > 0 ? rng() % 11 : 0)];
    vocab.push_back(w);
  }
  for (int f = 0; f < 3; ++f) {
    std::string s;
    for (int i = 0; i < 150000; ++i) {
      s += vocab[rng() % 2 == 0 ? rng() % vocab.size() : rng() % 50];
      s += rng() % 10 == 0 ? "\n" : " ";
    }
    write(t.path / std::to_string(f), s);
  }
  const std::vector<std::string> in{t.path.string()};
  const InputPlan plan = make_input_plan(in);
  const Result ref = plain_pass(plan, 30);
  CHECK(ref.words.size() > 66000);
  CHECK(ref.longs > 0);
  for (int p = 1; p <= 2; ++p)
    for (int threads = kFirstThreads; threads <= 2; ++threads) {
      for (size_t serial_below : {size_t{0}, size_t{1} << 30}) {  // partitioned merge, serial merge
        Result r;
        for (int rank = 0; rank < p; ++rank)
          add(r, collect_document_words(plan, rank, p, 30, threads, {}, ReaderTuning{1 << 16, 1 << 20, serial_below}));
        CHECK(r == ref);
      }
    }
  Result many;  // many threads: more merge partitions (7 bits)
  add(many, collect_document_words(plan, 0, 1, 30, 24, {}, ReaderTuning{1 << 14, 1 << 16, 0}));
  CHECK(many == ref);
}

namespace {

// --per-document's counts of one plain pass: a plain file is a document; a
// line of a JSON Lines file a record, its "text" member (plain ASCII here)
// the text and its "id" member its name. Known words are left out of the
// word counts (not of tokens and words).
struct DocFigures {
  std::string id;
  uint64_t tokens = 0, words = 0;
  std::map<std::string, uint64_t> counts;
  bool operator==(const DocFigures&) const = default;
};
using Docs = std::map<std::pair<uint32_t, uint64_t>, DocFigures>;  // by (file, offset)

std::string member(std::string_view line, const std::string& name) {
  const std::string key = "\"" + name + "\":\"";
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return {};
  const size_t from = at + key.size();
  return std::string(line.substr(from, line.find('"', from) - from));
}

void count_text(DocFigures& d, const std::string& text, size_t max_len, const KnownWords& known) {
  TokenCounts c;
  for_each_token(text, [&](std::string_view w, size_t) {
    if (keep_token(w, max_len, c) && !known.probably_correct(w)) ++d.counts[std::string(w)];
  });
  d.tokens += c.tokens + c.skipped_numbers + c.skipped_long;
  d.words += c.tokens;
}

Docs documents_reference(const InputPlan& plan, size_t max_len, const KnownWords& known) {
  Docs docs;
  for (uint32_t f = 0; f < plan.files.size(); ++f) {
    const std::string text = slurp(plan.files[f].path);
    if (plan.files[f].format != CorpusFormat::jsonl) {
      count_text(docs[{f, 0}], text, max_len, known);
      continue;
    }
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find('\n', at), text.size());
      const std::string_view line = std::string_view(text).substr(at, end - at);
      if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
        DocFigures& d = docs[{f, at}];
        d.id = member(line, "id");
        count_text(d, member(line, "text"), max_len, known);
      }
      at = end + 1;
    }
  }
  return docs;
}

void add_documents(Docs& docs, const DocumentParts& parts) {
  for (const DocumentPart& p : parts.parts) {
    DocFigures& d = docs[{p.file, p.offset}];
    if (p.record) d.id = p.id;
    d.tokens += p.tokens;
    d.words += p.words;
    for (uint64_t k = p.words_from; k < p.words_to; ++k) d.counts[std::string(parts.word[k])] += parts.count[k];
  }
}

}  // namespace

TEST_CASE("--per-document: the parts of every document, from any cut, sum to its counts") {
  TempDir t;
  make_collection(t.path);
  std::string jsonl;
  std::mt19937_64 rng(11);
  const std::vector<std::string> vocabulary{"the", "The", "cat", "sat", "on", "mat", "teh", "recieve", "42", "x86"};
  for (int r = 0; r < 300; ++r) {
    if (r % 37 == 5) jsonl += "\n";  // blank lines are no records
    std::string text;
    for (size_t k = rng() % 12; k > 0; --k) text += vocabulary[rng() % vocabulary.size()] + " ";
    jsonl += "{\"id\":\"r" + std::to_string(r) + "\",\"text\":\"" + text + "\"}\n";
  }
  write(t.path / "d/records.jsonl", jsonl);
  const std::vector<std::string> in{t.path.string()};
  InputPlan plan = make_input_plan(in);
  ReaderTuning tuning;
  tuning.documents = true;
  tuning.formats.id_field = "id";
  set_markup(plan, tuning.filters, tuning.formats);
  // "the" and "cat" are dictionary entries: Capitalised "The" is known too.
  const KnownWords known({word_hash("the"), word_hash("cat")}, {word_hash("the"), word_hash("cat")});
  for (const bool with_known : {false, true}) {
    CAPTURE(with_known);
    const KnownWords none;
    const Docs ref = documents_reference(plan, 64, with_known ? known : none);
    REQUIRE(ref.size() == plan.files.size() - 1 + 300);  // the plain files, 300 records
    CHECK(ref.at({static_cast<uint32_t>(plan.files.size() - 1), 0}).id == "r0");
    tuning.known = with_known ? &known : nullptr;
    const uint64_t total = plan.total_bytes();
    for (int it = 0; it < 40; ++it) {
      CAPTURE(it);
      const int p = 1 + it % 4;
      const std::vector<uint64_t> cuts = random_cuts(rng, total, p);
      tuning.unit_bytes = static_cast<size_t>(rng() % 3000);
      Docs got;
      for (size_t k = 0; k + 1 < cuts.size(); ++k)
        add_documents(
            got,
            collect_range_words(plan, stream_ranges(plan, cuts[k], cuts[k + 1]), 64, 1 + it % 2, {}, tuning).documents);
      // A plain file no range read a token of has no part (the writer lists it).
      for (const auto& [key, d] : ref)
        if (!got.count(key) && d.tokens == 0) got[key] = d;
      REQUIRE(got == ref);
    }
  }
}
