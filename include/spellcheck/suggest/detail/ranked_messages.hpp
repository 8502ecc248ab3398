#pragma once
// The three messages of a ranked lookup round (ranked_lookup.hpp), each
// with one encoder and one decoder. A decoder is a view over received
// bytes: it reads the fixed fields and knows where the message ends, so a
// receiver walks a buffer of them without copying.
//
//   WordRun        [u32 n] then n times [u32 number][u32 length][bytes]:
//                  a run of words that share their deletes (their numbers
//                  are their places in the asker's round)
//   DeleteRequest  asker -> owners of deletes: a WordRun, [u32 na][u32
//                  nf][u32 ns], then na deletes for the table of every
//                  bucket, nf for the frequent buckets' table, ns of the
//                  phonetic key, u64 each, and with ns > 0 the packed key
//   BucketForward  delete owners -> bucket owners: [u32 asker], the
//                  request's WordRun as it came, [u32 nb][u32 nf][u32 ne],
//                  then nb buckets, nf buckets found only through the
//                  frequent table, ne sound-alike entries, u32 each
//   OwnerReply     bucket owners -> asker: [u32 number][u8 accepted][u32
//                  count], then per candidate [i64 score][u8
//                  distance][u32 length][bytes]
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_list.hpp"

namespace spellcheck::ranked_messages {

using wire::append_le;
using wire::peek_le;
using wire::read_le;

// Words[first, last) of `words` (the round's, from `offset`), numbered by
// their place in the round.
inline void encode_word_run(std::string& s, const WordList& words, size_t offset, size_t first, size_t last) {
  append_le(s, static_cast<uint32_t>(last - first));
  for (size_t j = first; j < last; ++j) {
    const std::string_view w = words[offset + j];
    append_le(s, static_cast<uint32_t>(j));
    append_le(s, static_cast<uint32_t>(w.size()));
    s.append(w);
  }
}

// A received WordRun, read word by word.
class WordRun {
 public:
  explicit WordRun(const char* at) : next_(at) { size_ = read_le<uint32_t>(next_); }
  uint32_t size() const { return size_; }
  // The next word, its number in `number`.
  std::string_view next(uint32_t& number) {
    number = read_le<uint32_t>(next_);
    const uint32_t len = read_le<uint32_t>(next_);
    const std::string_view w(next_, len);
    next_ += len;
    return w;
  }
  // Where the run that starts at `at` ends.
  static const char* skip(const char* at) {
    const char* c = at;
    for (uint32_t n = read_le<uint32_t>(c); n > 0; --n) {
      c += 4;  // the number
      c += read_le<uint32_t>(c);
    }
    return c;
  }
  // The number of the first word of the run at `at`.
  static uint32_t first_number(const char* at) { return peek_le<uint32_t>(at + 4); }

 private:
  const char* next_;
  uint32_t size_ = 0;
};

// The lists of deletes a request carries, in this order.
struct DeleteLists {
  std::span<const uint64_t> every_bucket, frequent, sound;
};

inline void encode_delete_request(std::string& s, const WordList& words, size_t offset, size_t first, size_t last,
                                  const DeleteLists& deletes, uint64_t sound_key) {
  encode_word_run(s, words, offset, first, last);
  append_le(s, static_cast<uint32_t>(deletes.every_bucket.size()));
  append_le(s, static_cast<uint32_t>(deletes.frequent.size()));
  append_le(s, static_cast<uint32_t>(deletes.sound.size()));
  for (const auto list : {deletes.every_bucket, deletes.frequent, deletes.sound})
    for (const uint64_t h : list) append_le(s, h);
  if (!deletes.sound.empty()) append_le(s, sound_key);
}

struct DeleteRequest {
  const char* words = nullptr;  // its WordRun
  const char* words_end = nullptr;
  uint32_t na = 0, nf = 0, ns = 0;  // deletes for each table
  const char* deletes = nullptr;    // na + nf + ns, in that order
  uint64_t sound_key = 0;           // the typo's packed phonetic key (ns > 0)
  const char* end = nullptr;

  static DeleteRequest parse(const char* at) {
    DeleteRequest r;
    r.words = at;
    const char* c = r.words_end = WordRun::skip(at);
    r.na = read_le<uint32_t>(c);
    r.nf = read_le<uint32_t>(c);
    r.ns = read_le<uint32_t>(c);
    r.deletes = c;
    c += r.deletes_count() * 8;
    if (r.ns > 0) r.sound_key = read_le<uint64_t>(c);
    r.end = c;
    return r;
  }
  uint64_t deletes_count() const { return na + static_cast<uint64_t>(nf) + ns; }
  // The k-th delete over all three lists.
  uint64_t delete_at(uint64_t k) const { return peek_le<uint64_t>(deletes + k * 8); }
  std::string_view words_bytes() const { return {words, static_cast<size_t>(words_end - words)}; }
};

// The references a forward carries (bucket numbers or entries, under 2^32).
struct ForwardLists {
  std::span<const uint64_t> buckets, frequent_only, sound_entries;
};

inline void encode_bucket_forward(std::string& s, uint32_t asker, std::string_view word_run, const ForwardLists& refs) {
  append_le(s, asker);
  s.append(word_run);
  append_le(s, static_cast<uint32_t>(refs.buckets.size()));
  append_le(s, static_cast<uint32_t>(refs.frequent_only.size()));
  append_le(s, static_cast<uint32_t>(refs.sound_entries.size()));
  for (const auto list : {refs.buckets, refs.frequent_only, refs.sound_entries})
    for (const uint64_t x : list) append_le(s, static_cast<uint32_t>(x));
}

struct BucketForward {
  uint32_t asker = 0;
  const char* words = nullptr;  // its WordRun
  uint32_t nb = 0, nf = 0, ne = 0;
  const char* refs = nullptr;  // nb + nf + ne, in that order
  const char* end = nullptr;

  static BucketForward parse(const char* at) {
    BucketForward f;
    const char* c = at;
    f.asker = read_le<uint32_t>(c);
    f.words = c;
    c = WordRun::skip(c);
    f.nb = read_le<uint32_t>(c);
    f.nf = read_le<uint32_t>(c);
    f.ne = read_le<uint32_t>(c);
    f.refs = c;
    f.end = c + (f.nb + static_cast<uint64_t>(f.nf) + f.ne) * 4;
    return f;
  }
  // The k-th reference over all three lists.
  uint32_t ref_at(uint64_t k) const { return peek_le<uint32_t>(refs + k * 4); }
  // The asker and the number of the first word: the key of the request
  // the forward came from (every forward of a request carries its words).
  static uint64_t request_key(const char* at) {
    return (static_cast<uint64_t>(peek_le<uint32_t>(at)) << 32) | WordRun::first_number(at + 4);
  }
};

inline void encode_reply_head(std::string& s, uint32_t number, bool accepted, uint32_t candidates) {
  append_le(s, number);
  append_le(s, static_cast<uint8_t>(accepted));
  append_le(s, candidates);
}
inline void encode_reply_candidate(std::string& s, std::string_view spelled, int64_t score, uint8_t distance) {
  append_le(s, score);
  append_le(s, distance);
  append_le(s, static_cast<uint32_t>(spelled.size()));
  s.append(spelled);
}

struct OwnerReply {
  uint32_t number = 0;
  bool accepted = false;
  uint32_t count = 0;
  const char* candidates = nullptr;
  const char* end = nullptr;

  // The fixed fields only (end stays null).
  static OwnerReply head(const char* at) {
    OwnerReply r;
    const char* c = at;
    r.number = read_le<uint32_t>(c);
    r.accepted = read_le<uint8_t>(c) != 0;
    r.count = read_le<uint32_t>(c);
    r.candidates = c;
    return r;
  }
  static OwnerReply parse(const char* at) {
    OwnerReply r = head(at);
    const char* c = r.candidates;
    for (uint32_t j = 0; j < r.count; ++j) {
      c += 9;  // score, distance
      c += read_le<uint32_t>(c);
    }
    r.end = c;
    return r;
  }
  // f(spelled, score, distance) for each candidate, best first.
  template <class F>
  void each_candidate(F&& f) const {
    const char* c = candidates;
    for (uint32_t j = 0; j < count; ++j) {
      const auto score = read_le<int64_t>(c);
      const auto distance = read_le<uint8_t>(c);
      const auto len = read_le<uint32_t>(c);
      f(std::string_view(c, len), score, distance);
      c += len;
    }
  }
};

}  // namespace spellcheck::ranked_messages
