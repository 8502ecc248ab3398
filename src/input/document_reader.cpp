#include "spellcheck/input/document_reader.hpp"

#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/first_error.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/input/detail/byte_source.hpp"
#include "spellcheck/input/detail/filter_chain.hpp"
#include "spellcheck/input/detail/jsonl_filter.hpp"
#include "spellcheck/input/detail/word_table.hpp"
#include "spellcheck/input/tokenizer.hpp"

namespace spellcheck {

namespace {

// ---------------------------------------------------------------------------
// A file's bytes: this rank's share of a stream input, a compressed file
// decoded, or the file itself.
std::unique_ptr<ByteSource> open_source(const InputFile& file) {
  if (file.memory.owner) return memory_source(file.memory.bytes, file.memory_origin, file.path);
  return open_input(file.path, file.codec);
}

// Where a range may be cut: before a safe split byte (no token holds one);
// with the url filter, before white space only (a URL holds safe split
// bytes, and its tokens are judged on the whole of it); in a JSON Lines
// file, at line ends (a record is one line).
enum class CutRule : uint8_t { safe, space, line };

CutRule cut_rule(const InputFile& file, const TextFilters& filters) {
  if (file.format == CorpusFormat::jsonl) return CutRule::line;
  return filters.url ? CutRule::space : CutRule::safe;
}

size_t find_cut(const unsigned char* p, size_t n, CutRule rule) {
  size_t k = 0;
  switch (rule) {
    case CutRule::line: {
      const void* nl = std::memchr(p, '\n', n);
      return nl ? static_cast<size_t>(static_cast<const unsigned char*>(nl) - p) : n;
    }
    case CutRule::space:
      while (k < n && !is_space_split(p[k])) ++k;
      return k;
    default:
      while (k < n && !is_safe_split(p[k])) ++k;
      return k;
  }
}

// Newlines of the unit being tokenized, counted lazily: only up to the
// positions that need a mark (first occurrences) and, before bytes leave the
// buffer, up to there; so every byte is counted once, by memchr.
class LineCounter {
 public:
  // The unit's owned bytes start at stream position `begin`.
  void start(uint64_t begin) {
    counted_ = line_start_ = unit_begin_ = begin;
    newlines_ = 0;
  }
  // The buffer now holds stream bytes from `at` on.
  void see(const unsigned char* buf, uint64_t at) {
    buf_ = buf;
    buf_at_ = at;
  }
  // Counts up to stream position `to` (its bytes must be in the buffer).
  void advance(uint64_t to) {
    const unsigned char* p = buf_ + (counted_ - buf_at_);
    const unsigned char* const e = buf_ + (to - buf_at_);
    while (p < e) {
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(e - p));
      if (!nl) break;
      p = static_cast<const unsigned char*>(nl) + 1;
      ++newlines_;
      line_start_ = buf_at_ + static_cast<uint64_t>(p - buf_);
    }
    counted_ = std::max(counted_, to);
  }
  uint64_t mark(uint64_t pos) {
    advance(pos);
    return make_line_mark(newlines_, pos - (newlines_ > 0 ? line_start_ : unit_begin_));
  }
  // The unit, counted to its end: file offsets from stream positions.
  LineUnit unit(uint64_t file_index, uint64_t stream_base) const {
    return {file_index, unit_begin_ - stream_base, newlines_, newlines_ > 0 ? line_start_ - stream_base : 0};
  }

 private:
  const unsigned char* buf_ = nullptr;
  uint64_t buf_at_ = 0, counted_ = 0, line_start_ = 0, unit_begin_ = 0, newlines_ = 0;
};

// Words go to the table in batches: first every key is computed and its
// slot prefetched, then the lookups run. Looking words up as the tokenizer
// finds them serialises the cache misses: the tokenizer's branches on token
// boundaries mispredict, and the lookup of the next token waits for them.
class Batcher {
 public:
  // lines: mark first occurrences with their line (or nullptr). Positions
  // past last_pos are recorded as last_pos (compressed files: their span).
  // watch: also shown every token (observer, thread number), and counting
  // words or not.
  struct Watch {
    TokenObserver* observer = nullptr;
    int thread = 0;
    bool count_words = true;
  };
  // text: the text the tokens come from, and before_text the byte before
  // it (0: none), for the observer's ObservedToken::before.
  Batcher(WordTable& t, LineCounter* lines, uint64_t last_pos, const Watch& watch, const char* text,
          uint8_t before_text)
      : t_(t),
        lines_(lines),
        last_pos_(last_pos),
        documents_(t.with_documents()),
        watch_(watch),
        text_(text),
        before_text_(before_text) {}

  // p[0, len + kPad) must stay readable until flush().
  void add(const char* p, size_t len, uint64_t pos) {
    toks_[n_++] = {p, static_cast<uint32_t>(len), pos};
    if (n_ == kBatch) flush();
  }

  // A token that is a normalised copy, valid during the call only: added
  // now (out of line: rare).
  // before: the byte before it in the text (0: none).
  [[gnu::noinline]] void add_copy(std::string_view tok, uint64_t pos, uint8_t before) {
    if (lines_ || watch_.observer) flush();  // marks are taken, tokens shown, in position order
    const WordKey key = key_of(tok);
    if (watch_.observer) show(&key, &pos, &before, 1);
    if (!watch_.count_words) return;
    const uint64_t at = std::min(pos, last_pos_);
    if (const WordTable::Slot* s = documents_ ? t_.add_in_document(key, at) : t_.add(key, at); s && lines_)
      t_.set_mark(s, lines_->mark(pos));
  }

  void flush() {
    WordKey keys[kBatch];
    for (size_t i = 0; i < n_; ++i) {
      keys[i] = key_padded(toks_[i].p, toks_[i].len);
      if (watch_.count_words) t_.prefetch(keys[i].h);
    }
    if (watch_.observer) [[unlikely]] {
      uint64_t pos[kBatch];
      uint8_t before[kBatch];
      for (size_t i = 0; i < n_; ++i) {
        pos[i] = toks_[i].pos;
        before[i] = toks_[i].p > text_ ? static_cast<uint8_t>(toks_[i].p[-1]) : before_text_;
      }
      show(keys, pos, before, n_);
      if (!watch_.count_words) {
        n_ = 0;
        return;
      }
    }
    if (documents_) {
      for (size_t i = 0; i < n_; ++i)
        if (const WordTable::Slot* s = t_.add_in_document(keys[i], std::min(toks_[i].pos, last_pos_)); s && lines_)
          t_.set_mark(s, lines_->mark(toks_[i].pos));
    } else if (lines_) {
      for (size_t i = 0; i < n_; ++i)
        if (const WordTable::Slot* s = t_.add(keys[i], std::min(toks_[i].pos, last_pos_)))
          t_.set_mark(s, lines_->mark(toks_[i].pos));
    } else {
      for (size_t i = 0; i < n_; ++i) t_.add(keys[i], std::min(toks_[i].pos, last_pos_));
    }
    n_ = 0;
  }

 private:
  static constexpr size_t kBatch = 128;
  struct Tok {
    const char* p;
    uint32_t len;
    uint64_t pos;
  };

  // The tokens to the observer, with their marks when lines are counted.
  [[gnu::noinline]] void show(const WordKey* keys, const uint64_t* pos, const uint8_t* before, size_t n) {
    // (Marks are taken once, in position order: when words are counted,
    // their first occurrences take them.)
    const bool marks = lines_ && !watch_.count_words;
    ObservedToken seen[kBatch];
    for (size_t i = 0; i < n; ++i) {
      seen[i] = {exact_token_hash(keys[i]),        context_token_hash(keys[i]),        std::min(pos[i], last_pos_),
                 marks ? lines_->mark(pos[i]) : 0, static_cast<uint32_t>(keys[i].len), before[i]};
    }
    watch_.observer->tokens(watch_.thread, seen, n);
  }

  WordTable& t_;
  LineCounter* lines_;
  uint64_t last_pos_;
  bool documents_;
  Watch watch_;
  const char* text_;
  uint8_t before_text_;
  Tok toks_[kBatch];
  size_t n_ = 0;
};

// Reads past a token's end by up to 16 bytes (key_padded): the read buffer
// has that much slack after its capacity.
constexpr size_t kPad = 16;

struct ThreadState {
  WordTable table;
  TokenCounts counts;
  std::unique_ptr<unsigned char[]> buf;  // not zeroed: 1 MB per thread and call
  size_t cap;
  std::vector<LineUnit> line_units;       // with line marks: the units done
  uint64_t decoded_bytes = 0;             // bytes of compressed files read whole
  std::vector<std::string> binary_paths;  // compressed files skipped as binary
  uint64_t malformed = 0;                 // records a corpus filter could not read
  std::vector<uint64_t> malformed_at;     // ... the first ones' stream positions
  DocumentParts documents;                // with documents
  const KnownWords* known = nullptr;      // words not counted per document
  bool part_open = false;                 // documents.parts.back() is being counted
  TokenCounts part_start;                 // counts when it began
  Batcher::Watch watch;                   // the observer, if any, and this thread's number
  uint8_t before_text = 0;                // the byte before the text tokenized next (0: a file's start)

  ThreadState(size_t c, bool line_marks, bool per_document)
      : table(1024, 0, line_marks, per_document), buf(new unsigned char[c + kPad]), cap(c) {}

  bool per_document() const { return table.with_documents(); }
  static uint64_t all_tokens(const TokenCounts& c) { return c.tokens + c.skipped_numbers + c.skipped_long; }

  // Counts what follows as part p of a document (closing the open one).
  void begin_part(DocumentPart p) {
    end_part();
    p.words_from = documents.word.size();
    documents.parts.push_back(std::move(p));
    table.start_document();
    part_start = counts;
    part_open = true;
  }
  void end_part() {
    if (!part_open) return;
    DocumentPart& p = documents.parts.back();
    p.tokens = all_tokens(counts) - all_tokens(part_start);
    p.words = counts.tokens - part_start.tokens;
    const auto is_known = [&](const std::string_view* words, size_t n, uint8_t* out) {
      if (known) known->probably_correct(words, n, out);
    };
    table.end_document(is_known, [&](std::string_view w, uint64_t n) {
      documents.word.push_back(w);
      documents.count.push_back(n);
    });
    p.words_to = documents.word.size();
    part_open = false;
  }
};

// A record the corpus filter announced, not yet reached by the tokenizer.
struct PendingRecord {
  uint64_t at;  // its first byte's file offset
  std::string id;
};

// With --per-document: the records of a range as its filters find them,
// each counted as a document part of its own from its first byte on; a
// file without records is one part.
class RecordParts {
 public:
  // The range starts at file offset `from` of plan file `file`.
  RecordParts(ThreadState& ts, FilterChain& chain, const InputFormats& formats, uint32_t file, uint64_t from)
      : ts_(ts), file_(file) {
    if (!ts.per_document()) return;
    records_ = chain.on_record(
        [this, from](uint64_t offset, std::string_view id) {
          pending_.push_back({from + offset, std::string(id)});
        },
        formats.id_field);
    if (records_) return;
    // A plain file is one part per thread: the units of it the thread reads
    // one after the other are counted together (fewer, bigger parts).
    const bool going_on = ts.part_open && !ts.documents.parts.back().record && ts.documents.parts.back().file == file;
    if (!going_on) ts.begin_part({.file = file});
  }
  RecordParts(const RecordParts&) = delete;
  RecordParts& operator=(const RecordParts&) = delete;

  bool active() const { return records_; }
  // The range is done: its last record counted (a plain file's part stays
  // open for the thread's next unit).
  void finish() {
    if (records_) ts_.end_part();
  }
  // The first record not reached, at or before file offset `before` (else
  // nullptr).
  const PendingRecord* next(uint64_t before) const {
    return next_ < pending_.size() && pending_[next_].at < before ? &pending_[next_] : nullptr;
  }
  // Starts counting the next record: at stream position pos (its mark).
  void begin_next(uint64_t pos, uint64_t mark) {
    PendingRecord& r = pending_[next_++];
    ts_.begin_part(
        {.file = file_, .offset = r.at, .record = true, .id = std::move(r.id), .position = pos, .mark = mark});
    if (next_ == pending_.size()) {
      pending_.clear();
      next_ = 0;
    }
  }

 private:
  ThreadState& ts_;
  uint32_t file_;
  bool records_ = false;
  std::vector<PendingRecord> pending_;
  size_t next_ = 0;
};

// The most a read adds to the buffer: a round's bytes stay in the core's
// cache between the filters and the tokenizer, however big the buffer is
// (a JSON Lines record may need megabytes; most rounds do not).
constexpr size_t kFillStep = size_t{1} << 20;

// One range's bytes in the thread's read buffer: buf[0, len) holds the
// file's bytes from offset buf_off on, read ahead as tokenizing needs them.
// fsize bounds the reads, end is the range's end (UINT64_MAX for both when
// the file is read whole).
class RangeBuffer {
 public:
  RangeBuffer(const InputFile& file, unsigned char* buffer, size_t capacity, uint64_t begin, uint64_t fsize,
              uint64_t end, CutRule cuts)
      : buf(buffer), cap(capacity), buf_off(begin), src_(open_source(file)), fsize_(fsize), end_(end), cuts_(cuts) {}

  // Reads on after the valid bytes, about as far as needed: to a little past
  // the range's end, then on in moderate steps while looking for the cut
  // after it.
  void fill() {
    const uint64_t at = buf_off + len;
    if (at >= fsize_) {
      eof = true;
      return;
    }
    const uint64_t want_end = end_ > UINT64_MAX - 256 ? UINT64_MAX : std::max(end_ + 256, at + 4096);
    const size_t want = static_cast<size_t>(std::min<uint64_t>({cap - len, fsize_ - at, want_end - at, kFillStep}));
    const size_t got = src_->read_at(at, buf + len, want);
    len += got;
    if (got < want || buf_off + len >= fsize_) eof = true;
  }

  // snap(begin): drops the bytes before the first safe split byte. False
  // when that is at or past the range's end: snap(begin) == snap(end),
  // nothing is owned.
  bool snap_begin() {
    for (;;) {
      fill();
      const size_t k = find_cut(buf, len, cuts_);
      if (k < len) {
        std::memmove(buf, buf + k, len - k);
        buf_off += k;
        len -= k;
        break;
      }
      buf_off += len;
      len = 0;
      if (eof) return false;
    }
    return buf_off < end_;
  }

  // grep's rule, on the decoded start: a NUL byte in the first
  // kBinaryCheckBytes.
  bool binary_start() {
    while (!eof && len < kBinaryCheckBytes) fill();
    return std::memchr(buf, 0, std::min(len, kBinaryCheckBytes)) != nullptr;
  }

  // How much of the buffer this round tokenizes: up to snap(end) once that
  // is in the buffer (then at_end), else all of it (at_end at the file's end).
  size_t stop(bool& at_end) {
    size_t stop = len;
    at_end = eof;
    if (end_ < fsize_ && buf_off + len > end_) {
      const size_t from = std::max<size_t>(safe_from_, end_ > buf_off ? static_cast<size_t>(end_ - buf_off) : 0);
      const size_t k = from + find_cut(buf + from, len - from, cuts_);
      if (k < len) {
        stop = k;
        at_end = true;
      } else {
        safe_from_ = len;
      }
    }
    return stop;
  }

  // Drops buf[0, done), tokenized or skipped.
  void drop(size_t done) {
    std::memmove(buf, buf + done, len - done);
    buf_off += done;
    len -= done;
    safe_from_ = safe_from_ > done ? safe_from_ - done : 0;
  }

  unsigned char* const buf;
  const size_t cap;
  size_t len = 0;    // valid bytes in buf
  uint64_t buf_off;  // file offset of buf[0]
  bool eof = false;  // nothing more to read

 private:
  const std::unique_ptr<ByteSource> src_;
  const uint64_t fsize_, end_;
  const CutRule cuts_;
  size_t safe_from_ = 0;  // where to look on for snap(end) in buf
};

// A token longer than half the buffer (so longer than max_len): not kept,
// but skipped to its end over as many rounds as it takes.
struct LongTokenSkip {
  bool active = false;
  bool digits = false;  // a number (counted apart from long words)

  // Skips the token's tail at the start of text; pos: where it ends, or
  // where text does. False while the token goes on past text.
  bool finish(std::string_view text, bool at_end, TokenCounts& counts, size_t& pos) {
    const TailScan t = scan_token_tail(text, at_end, digits);
    pos = t.pos;
    if (!t.ended) return false;
    ++(digits ? counts.skipped_numbers : counts.skipped_long);
    active = false;
    return true;
  }

  // Starts on the open token at t0 (up to stop): how many bytes it
  // consumes at once, its first character. (The next round scans its tail
  // with scan_token_tail, which carries at most 7 bytes.)
  size_t start(const unsigned char* t0, const unsigned char* stop) {
    const int wl = tok_detail::word_char_len(t0, stop);
    digits = static_cast<unsigned char>(*t0 - '0') <= 9;
    active = true;
    return static_cast<size_t>(std::max(wl, 1));
  }
};

// Tokenizes text (at stream position base) into the table, in batches;
// returns where the scan stopped (the start of an open token unless
// at_end). Inlined into process_range's loop, with the token handler
// inlined into the tokenizer's (the rare copies go out of line): a call per
// token cost a tenth of the ingest time.
[[gnu::always_inline]] inline size_t tokenize_text(ThreadState& ts, LineCounter* lines, uint64_t last_pos,
                                                   std::string_view text, bool at_end, uint64_t base, size_t max_len,
                                                   bool digits) {
  TokenCounts& counts = ts.counts;
  const char* const lo = text.data();
  const char* const hi = lo + text.size();
  Batcher batch(ts.table, lines, last_pos, ts.watch, lo, ts.before_text);
  auto on_token = [&](std::string_view tok, size_t off) __attribute__((always_inline)) {
    if (!keep_token(tok, max_len, counts)) return;
    if (tok.data() >= lo && tok.data() < hi) [[likely]]
      batch.add(tok.data(), tok.size(), base + off);
    else  // a normalised copy, gone after this call
      batch.add_copy(tok, base + off, off > 0 ? static_cast<uint8_t>(lo[off - 1]) : ts.before_text);
  };
  const size_t done = digits ? scan_tokens_skipping_digits(text, at_end, on_token, counts.skipped_numbers)
                             : scan_tokens(text, at_end, on_token);
  batch.flush();
  return done;
}

// tokenize_text, with the document parts of --per-document: text is cut
// where records start (no token spans one: a record starts a line), each
// record counted as its own part. file_at: text's first byte's file offset.
size_t tokenize_parts(ThreadState& ts, LineCounter* lines, RecordParts& parts, LineCounter& record_lines,
                      uint64_t last_pos, std::string_view text, bool at_end, uint64_t base, uint64_t file_at,
                      size_t max_len, bool digits) {
  size_t from = 0;
  if (parts.active())
    while (const PendingRecord* r = parts.next(file_at + text.size())) {
      const size_t cut = std::max<size_t>(from, r->at > file_at ? static_cast<size_t>(r->at - file_at) : 0);
      if (cut > from)
        tokenize_text(ts, lines, last_pos, text.substr(from, cut - from), true, base + from, max_len, digits);
      if (cut > 0) ts.before_text = static_cast<uint8_t>(text[cut - 1]);
      from = cut;
      parts.begin_next(std::min(base + from, last_pos), record_lines.mark(base + from));
    }
  return from + tokenize_text(ts, lines, last_pos, text.substr(from), at_end, base + from, max_len, digits);
}

// A range's malformed records (its filters saw it from stream position
// `from` on) into the thread's count.
void note_malformed(ThreadState& ts, const FilterChain& chain, uint64_t from) {
  const MarkupFilter::Malformed* m = chain.malformed();
  if (!m) return;
  ts.malformed += m->count;
  for (const uint64_t offset : m->first)
    if (ts.malformed_at.size() < MarkupFilter::kMalformedKept) ts.malformed_at.push_back(from + offset);
}

// Bytes [begin, limit) of a file, or to its end (fewer when it is shorter),
// with kPad bytes of slack after them.
std::string read_from(const InputFile& file, uint64_t begin, uint64_t limit) {
  const std::unique_ptr<ByteSource> src = open_source(file);
  std::string bytes;
  size_t len = 0;
  for (;;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(std::max<size_t>(len, 1u << 16), limit - begin - len));
    bytes.resize(len + want + kPad);
    const size_t got = want ? src->read_at(begin + len, reinterpret_cast<unsigned char*>(bytes.data()) + len, want) : 0;
    len += got;
    if (got < want || got == 0) break;
  }
  bytes.resize(len);
  bytes.reserve(len + kPad);
  return bytes;
}

// A file whose filter needs all of it at once (a Markdown parser): read
// whole (never cut: InputFile::uncut), filtered, tokenized.
void process_whole_file(ThreadState& ts, const InputFile& file, uint64_t stream_base, uint64_t file_end,
                        const ByteRange& r, size_t max_len, FilterChain& chain, const InputFormats& formats,
                        bool digits) {
  const bool whole = file.whole();
  std::string bytes = read_from(file, r.begin, whole ? UINT64_MAX : r.end);
  if (file.check_binary && std::string_view(bytes).substr(0, kBinaryCheckBytes).find('\0') != std::string_view::npos) {
    ts.binary_paths.push_back(file.path);
    if (ts.per_document()) {
      ts.end_part();
      ts.documents.parts.push_back({.file = r.file_index, .binary = true});
    }
    return;
  }
  RecordParts parts(ts, chain, formats, r.file_index, r.begin);
  auto* const buf = reinterpret_cast<unsigned char*>(bytes.data());
  chain.run(buf, bytes.size(), true);
  LineCounter line_counter;
  const bool count_lines = ts.table.with_marks() || parts.active();
  LineCounter* const lines = ts.table.with_marks() ? &line_counter : nullptr;
  const uint64_t base = stream_base + r.begin;
  if (count_lines) {
    line_counter.start(base);
    line_counter.see(buf, base);
  }
  ts.before_text = 0;
  tokenize_parts(ts, lines, parts, line_counter, whole ? file_end - 1 : UINT64_MAX, bytes, true, base, r.begin, max_len,
                 digits);
  parts.finish();
  note_malformed(ts, chain, base);
  if (whole) ts.decoded_bytes += bytes.size();
  if (count_lines) {
    line_counter.advance(base + bytes.size());
    ts.line_units.push_back(line_counter.unit(r.file_index, stream_base));
  }
}

// Tokens whose first byte lies in [snap(r.begin), snap(r.end)) of one file,
// `file` (plan.files[r.file_index], or a piece of it in memory), which
// starts at stream position stream_base and ends before file_end.
void process_range(ThreadState& ts, const InputFile& file, uint64_t stream_base, uint64_t file_end, const ByteRange& r,
                   size_t max_len, const TextFilters& filters, const InputFormats& formats) {
  if (r.begin >= r.end) return;
  if (ts.watch.observer) ts.watch.observer->unit_begins(ts.watch.thread, r.file_index, r.begin, r.end);
  FilterChain chain(file, filters, formats);
  if (chain.whole_file())
    return process_whole_file(ts, file, stream_base, file_end, r, max_len, chain, formats, filters.digits);
  // The planned size bounds every reader alike; a compressed file is read to
  // its end, whatever its decoded size (positions past its span are clamped).
  const bool whole = file.whole();
  const uint64_t fsize = whole ? UINT64_MAX : file.size;
  const uint64_t end = whole ? UINT64_MAX : r.end;
  const uint64_t last_pos = whole ? file_end - 1 : UINT64_MAX;
  if (r.begin >= fsize) return;
  RangeBuffer in(file, ts.buf.get(), ts.cap, r.begin, fsize, end, cut_rule(file, filters));

  // 1. snap(begin): skip to the first safe split byte at or after it.
  if (r.begin > 0 && !in.snap_begin()) return;
  if (file.check_binary && in.binary_start()) {
    ts.binary_paths.push_back(file.path);
    if (ts.per_document()) {
      ts.end_part();
      ts.documents.parts.push_back({.file = r.file_index, .binary = true});
    }
    return;
  }
  RecordParts parts(ts, chain, formats, r.file_index, in.buf_off);
  LineCounter line_counter;
  // Lines are counted for the words' marks (--report) and the records' names.
  const bool count_lines = ts.table.with_marks() || parts.active();
  LineCounter* const lines = ts.table.with_marks() ? &line_counter : nullptr;
  if (count_lines) line_counter.start(stream_base + in.buf_off);
  const uint64_t filtered_from = stream_base + in.buf_off;

  // 2. Filter and tokenize up to snap(end), streaming.
  LongTokenSkip skip;
  ts.before_text = 0;  // (a range after a file's start begins at a safe split byte: no token at its first byte)
  for (;;) {
    if (!in.eof && in.len < in.cap) in.fill();
    bool at_end;
    const size_t stop = in.stop(at_end);
    const size_t ready = chain.empty() ? stop : chain.run(in.buf, stop, at_end);
    const std::string_view text(reinterpret_cast<const char*>(in.buf), ready);
    if (count_lines) line_counter.see(in.buf, stream_base + in.buf_off);
    size_t done = 0;
    if (!skip.active || skip.finish(text, at_end, ts.counts, done)) {
      if (done > 0) ts.before_text = in.buf[done - 1];
      done += tokenize_parts(ts, lines, parts, line_counter, last_pos, text.substr(done), at_end,
                             stream_base + in.buf_off + done, in.buf_off + done, max_len, filters.digits);
      if (at_end) {
        parts.finish();
        note_malformed(ts, chain, filtered_from);
        if (whole) ts.decoded_bytes += in.buf_off + stop;
        if (count_lines) {
          line_counter.advance(stream_base + in.buf_off + stop);
          ts.line_units.push_back(line_counter.unit(r.file_index, stream_base));
        }
        return;
      }
      // An open token of more than cap/2 > max_len bytes: skip to its end.
      if (ready - done > in.cap / 2) done += skip.start(in.buf + done, in.buf + ready);
    }
    if (count_lines) line_counter.advance(stream_base + in.buf_off + done);  // before those bytes leave
    if (done > 0) ts.before_text = in.buf[done - 1];
    in.drop(done);
    chain.dropped(done);
  }
}

// Writes a table's words to out, from index `at` and word byte `byte_at`.
void emit_table(const WordTable& t, LocalWords& out, size_t at, size_t byte_at) {
  char* bytes = out.words.bytes.data();
  t.for_each([&](std::string_view w, const WordTable::Slot& s) {
    out.words.starts[at] = byte_at;
    std::memcpy(bytes + byte_at, w.data(), w.size());
    bytes[byte_at + w.size()] = '\n';
    byte_at += w.size() + 1;
    out.hashes[at] = word_hash(w);
    out.counts[at] = WordTable::count_of(s);
    out.first_pos[at] = s.first;
    if (!out.first_mark.empty()) out.first_mark[at] = t.mark_of(s);
    ++at;
  });
}

template <class V>
void resize_huge(V& v, size_t n) {
  v.reserve(n);
  hint_huge_pages(v.data(), n * sizeof(v[0]));
  v.resize(n);
}

void size_output(LocalWords& out, size_t words, size_t bytes, bool line_marks) {
  resize_huge(out.words.bytes, bytes);
  resize_huge(out.words.starts, words);
  resize_huge(out.hashes, words);
  resize_huge(out.counts, words);
  resize_huge(out.first_pos, words);
  if (line_marks) resize_huge(out.first_mark, words);
}

// Adds a word of another table (with its first position's mark).
void merge_word(WordTable& into, const WordKey& key, const WordTable::Slot& s, const WordTable& from) {
  if (const WordTable::Slot* m = into.add(key, s.first, WordTable::count_of(s)); m && into.with_marks())
    into.set_mark(m, from.mark_of(s));
}

// The threads' document parts, in one list.
DocumentParts document_parts(const std::vector<std::unique_ptr<ThreadState>>& states) {
  DocumentParts all;
  for (const auto& st : states) {
    DocumentParts& mine = st->documents;
    const uint64_t shift = all.word.size();
    for (DocumentPart& p : mine.parts) {
      p.words_from += shift;
      p.words_to += shift;
      all.parts.push_back(std::move(p));
    }
    all.word.append(std::move(mine.word));
    all.count.insert(all.count.end(), mine.count.begin(), mine.count.end());
    mine = DocumentParts();
  }
  return all;
}

}  // namespace

struct WordCollector::Impl {
  size_t max_word_length;
  int threads;  // team size asked for
  ReaderTuning tuning;
  size_t cap;
  // One state per thread number, made by that thread when it first works;
  // a team may be smaller than asked (OMP_THREAD_LIMIT, OMP_DYNAMIC, a
  // nested region): states no thread made are dropped in finish().
  std::vector<std::unique_ptr<ThreadState>> states;
  uint64_t bytes_read = 0;

  ThreadState& state(int tid) {
    auto& st = states[static_cast<size_t>(tid)];
    if (!st) {
      st = std::make_unique<ThreadState>(cap, tuning.line_marks, tuning.documents);
      st->known = tuning.known;
      st->watch = {tuning.observer, tid, tuning.count_words};
    }
    return *st;
  }

  // Tokenizes units (ranges of file `file_of(u)`) in a team of up to
  // `threads` threads; progress(done, total work) now and then.
  template <class FileOf, class Work>
  void run_units(const std::vector<ByteRange>& units, FileOf&& file_of, Work&& work, uint64_t total,
                 const ProgressFn& progress) {
    if (units.empty()) return;
    const int nt = static_cast<int>(std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(threads), units.size())));
    std::atomic<uint64_t> done{0};
    FirstError err;
    const long n_units = static_cast<long>(units.size());
    const auto one = [&](int tid, const ByteRange& u) {
      err.run([&] {
        const auto [file, base, end] = file_of(u);
        process_range(state(tid), *file, base, end, u, max_word_length, tuning.filters, tuning.formats);
      });
      const uint64_t d = done.fetch_add(work(u)) + work(u);
      if (tid == 0 && progress) err.run([&] { progress(d, total); });
    };
    if (nt == 1) {  // no team for one thread (a stream piece at a time)
      for (const ByteRange& u : units)
        if (!err.failed()) one(0, u);
    } else {
#pragma omp parallel num_threads(nt)
      {
        const int tid = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
        for (long i = 0; i < n_units; ++i)
          if (!err.failed()) one(tid, units[static_cast<size_t>(i)]);
      }
    }
    err.rethrow();
  }

  LocalWords finish();

  // Read buffers of at least `bytes` (a JSON Lines record must fit whole).
  void fit_buffers(size_t bytes) {
    if (bytes <= cap) return;
    cap = bytes;
    for (auto& st : states)
      if (st) {
        st->buf.reset(new unsigned char[cap + kPad]);
        st->cap = cap;
      }
  }
};

WordCollector::WordCollector(size_t max_word_length, int threads, const ReaderTuning& tuning)
    : impl_(std::make_unique<Impl>()) {
  impl_->max_word_length = max_word_length;
  impl_->threads = threads > 0 ? threads : omp_get_max_threads();
  impl_->tuning = tuning;
  // Room for a filter's held bytes besides a whole token: a full buffer
  // always has bytes to drop.
  impl_->cap =
      std::max({tuning.buffer_bytes, 2 * max_word_length + 64, tuning.filters.any() ? 4 * kMarkupMaxHeld : size_t{0}});
  impl_->states.resize(static_cast<size_t>(impl_->threads));
}

WordCollector::~WordCollector() = default;

void WordCollector::add_ranges(const InputPlan& plan, std::span<const ByteRange> ranges, const ProgressFn& progress) {
  Impl& im = *impl_;
  for (const ByteRange& r : ranges)
    if (plan.files[r.file_index].format == CorpusFormat::jsonl) im.fit_buffers(kMaxLineBytes + 1);
  // Work of a range: its bytes, or a compressed file's bytes on disk.
  const auto work = [&](const ByteRange& r) {
    const InputFile& f = plan.files[r.file_index];
    return f.whole() ? f.disk_bytes : r.end - r.begin;
  };
  uint64_t total = 0;
  for (const ByteRange& r : ranges) {
    total += work(r);
    if (!plan.files[r.file_index].whole()) im.bytes_read += r.end - r.begin;
  }
  size_t unit = im.tuning.unit_bytes;
  if (unit == 0)
    unit =
        static_cast<size_t>(std::clamp<uint64_t>(total / (static_cast<uint64_t>(im.threads) * 8), 64u << 10, 8u << 20));
  std::vector<ByteRange> units;
  for (const ByteRange& r : ranges) {
    if (plan.files[r.file_index].uncut()) {  // never cut: one unit
      units.push_back(r);
      continue;
    }
    for (uint64_t b = r.begin; b < r.end; b += unit)
      units.push_back({r.file_index, b, std::min<uint64_t>(r.end, b + unit)});
  }
  const auto file_of = [&](const ByteRange& u) {
    return std::tuple{&plan.files[u.file_index], plan.offsets[u.file_index], plan.offsets[u.file_index + 1]};
  };
  im.run_units(units, file_of, work, total, progress);
}

void WordCollector::add_piece(const InputPlan& plan, uint32_t file_index, uint64_t origin, std::string_view bytes) {
  Impl& im = *impl_;
  if (bytes.empty()) return;
  im.bytes_read += bytes.size();
  // The piece as a file that ends where it does: its end is a safe split
  // byte or the stream's end, so its last token ends there either way.
  InputFile piece;
  piece.path = plan.files[file_index].path;
  piece.size = origin + bytes.size();
  piece.memory = HeldBytes{std::shared_ptr<const void>(bytes.data(), [](const void*) {}), bytes};
  piece.memory_origin = origin;
  piece.markup = plan.files[file_index].markup;
  piece.format = plan.files[file_index].format;
  if (piece.format == CorpusFormat::jsonl) im.fit_buffers(kMaxLineBytes + 1);
  size_t unit = im.tuning.unit_bytes;
  if (unit == 0) unit = std::max<size_t>(bytes.size() / (static_cast<size_t>(im.threads) * 2) + 1, 64u << 10);
  if (piece.uncut()) unit = bytes.size();  // a filter's state runs through the piece
  std::vector<ByteRange> units;
  for (uint64_t b = origin; b < piece.size; b += unit)
    units.push_back({file_index, b, std::min<uint64_t>(piece.size, b + unit)});
  const auto file_of = [&](const ByteRange&) {
    return std::tuple{&piece, plan.offsets[file_index], plan.offsets[file_index + 1]};
  };
  im.run_units(units, file_of, [](const ByteRange& u) { return u.end - u.begin; }, bytes.size(), {});
}

LocalWords WordCollector::finish() { return impl_->finish(); }

LocalWords WordCollector::Impl::finish() {
  LocalWords out;
  out.bytes_read = bytes_read;
  FirstError err;
  std::erase_if(states, [](const std::unique_ptr<ThreadState>& s) { return !s; });
  if (states.empty()) return out;
  if (tuning.documents) {
    for (const auto& s : states) s->end_part();  // the plain files' parts still open
    out.documents = document_parts(states);
  }
  int nt = static_cast<int>(states.size());

  for (const auto& s : states) {
    out.line_units.insert(out.line_units.end(), s->line_units.begin(), s->line_units.end());
    out.bytes_read += s->decoded_bytes;
    out.binary_paths.insert(out.binary_paths.end(), s->binary_paths.begin(), s->binary_paths.end());
    out.tokens += s->counts.tokens;
    out.skipped_numbers += s->counts.skipped_numbers;
    out.skipped_long += s->counts.skipped_long;
    out.malformed_records += s->malformed;
    out.malformed_positions.insert(out.malformed_positions.end(), s->malformed_at.begin(), s->malformed_at.end());
  }
  std::sort(out.malformed_positions.begin(), out.malformed_positions.end());

  if (nt == 1) {
    const WordTable& t = states[0]->table;
    size_output(out, t.size(), t.word_bytes() + t.size(), tuning.line_marks);
    emit_table(t, out, 0, 0);
    return out;
  }

  // Merge: partition words by the top hash bits (a slot range of every
  // thread table); each partition is merged by one thread, then copied to
  // its place in the output. About 4 partitions a thread: few and big
  // tables (huge pages) yet balanced.
  const int kPartBits = std::clamp(static_cast<int>(std::bit_width(static_cast<unsigned>(4 * nt - 1))), 3, 8);
  const size_t kParts = size_t{1} << kPartBits;
  size_t all = 0;
  for (const auto& st : states) all += st->table.size();
  if (all < tuning.serial_merge_words) {
    // Few words: into the biggest table, serially (a parallel merge costs
    // more in thread wake-ups and fresh memory than it saves).
    size_t big = 0;
    for (size_t t = 1; t < states.size(); ++t)
      if (states[t]->table.size() > states[big]->table.size()) big = t;
    WordTable& m = states[big]->table;
    for (size_t t = 0; t < states.size(); ++t) {
      if (t == big) continue;
      const WordTable& from = states[t]->table;
      from.for_each([&](std::string_view w, const WordTable::Slot& s) { merge_word(m, key_of(w), s, from); });
      states[t].reset();
    }
    size_output(out, m.size(), m.word_bytes() + m.size(), tuning.line_marks);
    emit_table(m, out, 0, 0);
    return out;
  }
  std::vector<std::unique_ptr<WordTable>> merged(kParts);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (long k = 0; k < static_cast<long>(kParts); ++k) {
    err.run([&] {
      auto m = std::make_unique<WordTable>(all / kParts + all / (4 * kParts) + 16, kPartBits, tuning.line_marks);
      for (const auto& st : states)
        st->table.for_each_in_part(
            static_cast<size_t>(k), kPartBits,
            [&](const WordKey& key, const WordTable::Slot& s) { merge_word(*m, key, s, st->table); });
      merged[static_cast<size_t>(k)] = std::move(m);
    });
  }
  err.rethrow();
  states.clear();

  std::vector<size_t> word_at(kParts + 1, 0), byte_at(kParts + 1, 0);
  for (size_t k = 0; k < kParts; ++k) {
    word_at[k + 1] = word_at[k] + merged[k]->size();
    byte_at[k + 1] = byte_at[k] + merged[k]->word_bytes() + merged[k]->size();
  }
  size_output(out, word_at[kParts], byte_at[kParts], tuning.line_marks);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (long k = 0; k < static_cast<long>(kParts); ++k) {
    err.run([&] {
      emit_table(*merged[static_cast<size_t>(k)], out, word_at[static_cast<size_t>(k)],
                 byte_at[static_cast<size_t>(k)]);
      merged[static_cast<size_t>(k)].reset();
    });
  }
  err.rethrow();
  return out;
}

LocalWords collect_range_words(const InputPlan& plan, std::span<const ByteRange> ranges, size_t max_word_length,
                               int threads, const ProgressFn& progress, const ReaderTuning& tuning) {
  WordCollector collector(max_word_length, threads, tuning);
  collector.add_ranges(plan, ranges, progress);
  return collector.finish();
}

LocalWords collect_document_words(const InputPlan& plan, int rank, int ranks, size_t max_word_length, int threads,
                                  const ProgressFn& progress, const ReaderTuning& tuning) {
  const std::vector<ByteRange> ranges = split_stream(plan, rank, ranks);
  return collect_range_words(plan, ranges, max_word_length, threads, progress, tuning);
}

std::vector<Location> resolve_locations(const InputPlan& plan, std::span<const uint64_t> positions, int threads) {
  std::vector<Location> out(positions.size());
  if (positions.empty()) return out;
  const uint64_t total = plan.total_bytes();
  std::vector<std::pair<uint64_t, size_t>> order(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] >= total) throw std::out_of_range("resolve_locations: position past the end of the input");
    order[i] = {positions[i], i};
  }
  std::sort(order.begin(), order.end());
  // Groups of positions in the same file: [group[g], group[g+1]).
  std::vector<size_t> group;
  std::vector<size_t> group_file;
  for (size_t i = 0; i < order.size(); ++i) {
    const size_t f = plan.file_at(order[i].first);
    if (group_file.empty() || group_file.back() != f) {
      group.push_back(i);
      group_file.push_back(f);
    }
  }
  group.push_back(order.size());

  const int nt = threads > 0 ? threads : omp_get_max_threads();
  FirstError err;
#pragma omp parallel num_threads(std::max(1, std::min <int>(nt, static_cast <int>(group_file.size()))))
  {
    std::vector<unsigned char> buf;
    err.run([&] { buf.resize(1 << 20); });
#pragma omp for schedule(dynamic, 1)
    for (long g = 0; g < static_cast<long>(group_file.size()); ++g) {
      err.run([&] {
        const size_t f = group_file[static_cast<size_t>(g)];
        const InputFile& file = plan.files[f];
        const uint64_t base = plan.offsets[f];
        const std::unique_ptr<ByteSource> src = open_source(file);
        uint64_t line = 1, line_start = 0;  // line of the scanned prefix, offset where it starts
        uint64_t chunk_off = 0;
        size_t chunk_len = 0;
        uint64_t scanned = 0;  // file bytes [0, scanned) counted
        for (size_t i = group[static_cast<size_t>(g)]; i < group[static_cast<size_t>(g) + 1]; ++i) {
          const uint64_t target = order[i].first - base;
          while (scanned < target) {
            if (scanned >= chunk_off + chunk_len) {
              chunk_off = scanned;
              chunk_len = src->read_at(chunk_off, buf.data(), std::min<uint64_t>(buf.size(), target - scanned));
              if (chunk_len == 0) throw InputError("cannot read '" + file.path + "': file shrank while reading");
            }
            const unsigned char* p = buf.data() + (scanned - chunk_off);
            const unsigned char* e = buf.data() + std::min<uint64_t>(chunk_len, target - chunk_off);
            while (p < e) {
              const void* nl = std::memchr(p, '\n', static_cast<size_t>(e - p));
              if (!nl) {
                p = e;
                break;
              }
              p = static_cast<const unsigned char*>(nl) + 1;
              ++line;
              line_start = chunk_off + static_cast<uint64_t>(p - buf.data());
            }
            scanned = chunk_off + static_cast<uint64_t>(e - buf.data());
          }
          out[order[i].second] = Location{file.path, line, target - line_start + 1};
        }
      });
    }
  }
  err.rethrow();
  return out;
}

}  // namespace spellcheck
