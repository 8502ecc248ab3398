#pragma once
// Document mode, local part: this rank's share of the collection is read
// (pread, bounded chunks: a few MB per thread whatever the input), tokenized
// by OpenMP threads into thread-local distinct-word tables, and merged into
// one list of distinct words with occurrence counts and first positions.
// No MPI: the caller routes the words.
//
// Ownership of tokens at cuts: every cut position c (between ranks, or
// between work units inside a rank) is snapped forward to snap(c), the first
// position >= c holding a safe split byte (is_safe_split), or the end of the
// file. A range [b, e) owns the tokens whose first byte lies in
// [snap(b), snap(e)); as no token spans a safe split byte, this gives every
// token to exactly one range, however the stream is cut.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spellcheck/common/text_filters.hpp"
#include "spellcheck/common/word_list.hpp"
#include "spellcheck/input/document_parts.hpp"
#include "spellcheck/input/input_plan.hpp"
#include "spellcheck/input/known_words.hpp"
#include "spellcheck/input/line_marks.hpp"
#include "spellcheck/input/token_observer.hpp"

namespace spellcheck {

struct LocalWords {
  WordList words;                   // distinct words (no particular order)
  std::vector<uint64_t> hashes;     // hashes[i] = word_hash(words[i])
  std::vector<uint64_t> counts;     // occurrences of words[i] in this share
  std::vector<uint64_t> first_pos;  // stream position (InputPlan offsets) of its first occurrence here
  uint64_t tokens = 0;              // words kept (sum of counts)
  uint64_t skipped_numbers = 0;     // digits-only tokens
  uint64_t skipped_long = 0;        // tokens longer than max_word_length
  uint64_t bytes_read =
      0;  // bytes of this share before snapping, compressed files decoded (sums to the total over ranks)
  std::vector<std::string> binary_paths;      // compressed files with InputFile::check_binary found binary, skipped
  uint64_t malformed_records = 0;             // JSON lines, WARC records the corpus filters could not read
  std::vector<uint64_t> malformed_positions;  // stream positions of the first of them (ascending)
  // With ReaderTuning::line_marks (for --report): first_mark[i] places
  // first_pos[i] within the line counts of its work unit (line_marks.hpp),
  // and line_units sums up every unit this share owns.
  std::vector<uint64_t> first_mark;
  std::vector<LineUnit> line_units;
  // With ReaderTuning::documents: each document's (part's) counts, its
  // words as indices into words. Records are given line marks (and
  // line_units their units) for their names.
  DocumentParts documents;
};

// Called now and then from one thread: bytes of the share done, share size.
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

struct ReaderTuning {
  size_t unit_bytes = 0;                        // work unit size (0: from share size and threads)
  size_t buffer_bytes = 1u << 20;               // read buffer per thread (raised to >= 2*max_word_length + 64)
  size_t serial_merge_words = size_t{1} << 18;  // fewer distinct words (sum over threads): merged serially
  bool line_marks = false;                      // count lines while tokenizing (LocalWords::first_mark)
  bool documents = false;                       // count per document too (LocalWords::documents)
  const KnownWords* known = nullptr;            // ... leaving these words out (known_words.hpp)
  TextFilters filters{};                        // --filter (each file's markup: InputFile::markup)
  InputFormats formats{};                       // --input-format and its options (InputFile::format)
  TokenObserver* observer = nullptr;            // shown every token (token_observer.hpp)
  bool count_words = true;                      // false: tokens only shown to the observer, no words counted
};

// Rank `rank` of `ranks`: reads split_stream(plan, rank, ranks). threads <= 0:
// OpenMP's default. Throws InputError naming a file that cannot be read.
LocalWords collect_document_words(const InputPlan& plan, int rank, int ranks, size_t max_word_length, int threads,
                                  const ProgressFn& progress = {}, const ReaderTuning& tuning = {});

// The same, added to bit by bit: ranges of files, and pieces of stream
// inputs as they arrive (stream_input.hpp); the thread tables live on
// between calls and are merged once, by finish(). Calls come from one
// thread (each may run an OpenMP team).
class WordCollector {
 public:
  WordCollector(size_t max_word_length, int threads, const ReaderTuning& tuning = {});
  ~WordCollector();
  WordCollector(const WordCollector&) = delete;
  WordCollector& operator=(const WordCollector&) = delete;

  // Ranges of plan's files, each snapped at both ends as above; positions
  // are plan's stream positions.
  void add_ranges(const InputPlan& plan, std::span<const ByteRange> ranges, const ProgressFn& progress = {});
  // Bytes [origin, origin + bytes.size()) of stream input
  // plan.files[file_index]: they start at offset 0 or at a safe split byte
  // and end right before one or at the stream's end (stream_reader.hpp), so
  // the piece owns exactly the tokens it holds.
  void add_piece(const InputPlan& plan, uint32_t file_index, uint64_t origin, std::string_view bytes);
  // The words of all that was added (once).
  LocalWords finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The same for arbitrary ranges (each snapped at both ends as above).
LocalWords collect_range_words(const InputPlan& plan, std::span<const ByteRange> ranges, size_t max_word_length,
                               int threads, const ProgressFn& progress = {}, const ReaderTuning& tuning = {});

// Stream positions -> file, line, column (same order as positions). Each
// needed file prefix is read once: the re-reading way, kept as the tests'
// reference for line marks (line_marks.hpp), which need no second read. Throws InputError for an unreadable file,
// std::out_of_range for a position past the end of the stream.
std::vector<Location> resolve_locations(const InputPlan& plan, std::span<const uint64_t> positions, int threads = 0);

}  // namespace spellcheck
