#include "spellcheck/dictionary/compiled_dictionary.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

namespace {

constexpr char kMagic[16] = {'s', 'p', 'e', 'l', 'l', 'c', 'h', 'e', 'c', 'k', '-', 'd', 'i', 'c', 't', '\n'};

struct Header {
  char magic[16];
  uint32_t format;
  uint32_t buckets;
  uint64_t entries;
  uint64_t file_bytes;
  uint64_t meta_bytes;
  uint64_t hunspell_bytes;  // a hunspell dictionary's section, after the hashes (0: none)
  uint64_t ranked_bytes;    // the ranked index's section, at the end (0: none)
  uint64_t meta_digest;
};
static_assert(sizeof(Header) == 72);

// The meta block's digest, seeded with the header's fields before it: a
// changed header field is damage too.
uint64_t meta_digest(const Header& h, std::string_view meta) {
  return XXH3_64bits_withSeed(meta.data(), meta.size(), XXH3_64bits(&h, offsetof(Header, meta_digest)));
}

void put_words(std::string& out, const uint64_t* words, size_t n) {
  wire::append_le<uint64_t>(out, n);
  out.append(reinterpret_cast<const char*>(words), n * sizeof(uint64_t));
}

// A bucket's digest: its words' bytes, seeded with its hashes' digest.
uint64_t bucket_digest(std::string_view words, const uint64_t* hashes, size_t n) {
  return XXH3_64bits_withSeed(words.data(), words.size(), XXH3_64bits(hashes, n * sizeof(uint64_t)));
}

// Reads the meta block front to back; a read past its end is damage.
class MetaReader {
 public:
  MetaReader(std::string_view bytes, const std::string& name) : b_(bytes), name_(name) {}
  template <class T>
  T value() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  uint64_t count(size_t each) {
    const auto n = value<uint64_t>();
    if (n > (b_.size() - at_) / each) damaged("a table longer than the file");
    return n;
  }
  void take(void* dest, size_t n) {
    if (n > b_.size() - at_) damaged("a table longer than the file");
    std::memcpy(dest, b_.data() + at_, n);
    at_ += n;
  }
  [[noreturn]] void damaged(const std::string& what) const {
    throw InputError(name_ + ": a damaged compiled dictionary (" + what + "); compile it again");
  }

 private:
  std::string_view b_;
  const std::string& name_;
  size_t at_ = 0;
};

// Closes a descriptor on every way out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

BucketRange owned_buckets(int rank, int ranks, uint32_t buckets) {
  // Rank r owns the low 32 bits [ceil(r 2^32 / p), ceil((r + 1) 2^32 / p)).
  const auto p = static_cast<uint64_t>(ranks);
  const uint64_t from = ((static_cast<uint64_t>(rank) << 32) + p - 1) / p;
  const uint64_t to = ((static_cast<uint64_t>(rank + 1) << 32) + p - 1) / p;
  if (from >= to) return {};
  return {static_cast<uint32_t>((from * buckets) >> 32), static_cast<uint32_t>((((to - 1) * buckets) >> 32) + 1)};
}

bool is_compiled_dictionary(const std::string& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) return false;
  char magic[sizeof kMagic];
  return ::pread(f.fd, magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
         std::memcmp(magic, kMagic, sizeof magic) == 0;
}

namespace {

// The entries bucket by bucket, by (hash, bytes) within a bucket (an order
// that does not depend on how the compile job was split), and where each
// bucket starts.
struct Bucketed {
  std::string words;
  std::vector<uint64_t> hashes;
  std::vector<uint64_t> first_entry, first_byte;  // per bucket, and one past the last
};

Bucketed bucketed(const WordList& entries, const std::vector<uint64_t>& hashes, uint32_t buckets) {
  std::vector<uint64_t> order(entries.size());
  std::iota(order.begin(), order.end(), uint64_t{0});
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    const uint32_t ba = compiled_bucket(hashes[a], buckets), bb = compiled_bucket(hashes[b], buckets);
    if (ba != bb) return ba < bb;
    if (hashes[a] != hashes[b]) return hashes[a] < hashes[b];
    return entries[a] < entries[b];
  });
  Bucketed out{{},
               std::vector<uint64_t>(entries.size()),
               std::vector<uint64_t>(buckets + 1, 0),
               std::vector<uint64_t>(buckets + 1, 0)};
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t b = compiled_bucket(hashes[order[k]], buckets);
    out.words.append(entries[order[k]]);
    out.words.push_back('\n');
    out.hashes[k] = hashes[order[k]];
    out.first_entry[b + 1] = k + 1;
    out.first_byte[b + 1] = out.words.size();
  }
  for (uint32_t b = 1; b <= buckets; ++b) {  // empty buckets start where the last ended
    out.first_entry[b] = std::max(out.first_entry[b], out.first_entry[b - 1]);
    out.first_byte[b] = std::max(out.first_byte[b], out.first_byte[b - 1]);
  }
  return out;
}

// The meta block: the description, the filters, the bucket tables.
std::string meta_block(const Bucketed& e, const CompiledFilters& filters, std::string_view description) {
  std::string meta;
  wire::append_le<uint64_t>(meta, description.size());
  meta.append(description);
  wire::append_le<uint64_t>(meta, filters.bloom->bytes() / BloomFilter::kBlockBytes);
  meta.append(reinterpret_cast<const char*>(filters.bloom->data()), filters.bloom->bytes());
  put_words(meta, filters.trigrams->data(), filters.trigrams->words());
  put_words(meta, filters.affixes->data(), filters.affixes->words());
  for (const uint64_t v : e.first_entry) wire::append_le<uint64_t>(meta, v);
  for (const uint64_t v : e.first_byte) wire::append_le<uint64_t>(meta, v);
  for (size_t b = 0; b + 1 < e.first_entry.size(); ++b) {
    const std::string_view w = std::string_view(e.words).substr(e.first_byte[b], e.first_byte[b + 1] - e.first_byte[b]);
    wire::append_le<uint64_t>(
        meta, bucket_digest(w, e.hashes.data() + e.first_entry[b], e.first_entry[b + 1] - e.first_entry[b]));
  }
  return meta;
}

}  // namespace

std::string compiled_dictionary_bytes(const WordList& entries, const std::vector<uint64_t>& hashes,
                                      const CompiledFilters& filters, uint32_t buckets, std::string_view description,
                                      std::string_view hunspell_section, std::string_view ranked_section) {
  const Bucketed e = bucketed(entries, hashes, buckets);
  const std::string meta = meta_block(e, filters, description);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format = kCompiledFormat;
  h.buckets = buckets;
  h.entries = entries.size();
  h.meta_bytes = meta.size();
  h.hunspell_bytes = hunspell_section.size();
  h.ranked_bytes = ranked_section.size();
  h.file_bytes =
      sizeof h + meta.size() + e.words.size() + e.hashes.size() * sizeof(uint64_t) + h.hunspell_bytes + h.ranked_bytes;
  h.meta_digest = meta_digest(h, meta);
  std::string out;
  out.reserve(h.file_bytes);
  wire::append_struct(out, h);
  out += meta;
  out += e.words;
  out.append(reinterpret_cast<const char*>(e.hashes.data()), e.hashes.size() * sizeof(uint64_t));
  out += hunspell_section;
  out += ranked_section;
  return out;
}

namespace {

Header read_header(const ReadAt& read, uint64_t size, const std::string& name) {
  Header h{};
  if (size < sizeof h || !read(0, sizeof h, reinterpret_cast<char*>(&h)))
    throw InputError(name + ": a truncated compiled dictionary (" + std::to_string(size) + " bytes, its header " +
                     std::to_string(sizeof h) + ")");
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) throw InputError(name + ": not a compiled dictionary");
  if (h.format != kCompiledFormat)
    throw InputError(name + ": a compiled dictionary of format " + std::to_string(h.format) + ", this program reads " +
                     std::to_string(kCompiledFormat) + "; compile it again");
  if (h.file_bytes != size)
    throw InputError(name + ": a truncated compiled dictionary (" + std::to_string(size) + " bytes of " +
                     std::to_string(h.file_bytes) + ")");
  if (h.buckets == 0 || h.buckets > kMaxCompiledBuckets || (h.buckets & (h.buckets - 1)) != 0 ||
      h.meta_bytes > size - sizeof h || h.ranked_bytes > size - sizeof h - h.meta_bytes ||
      h.hunspell_bytes > size - sizeof h - h.meta_bytes - h.ranked_bytes)
    throw InputError(name + ": a damaged compiled dictionary (its header); compile it again");
  return h;
}

// Reads the filters and the bucket tables (checked against the digest).
void read_meta(MetaReader& m, CompiledShare& out, std::vector<uint64_t>& first_entry, std::vector<uint64_t>& first_byte,
               std::vector<uint64_t>& digests) {
  out.description.resize(m.count(1));
  m.take(out.description.data(), out.description.size());
  const uint64_t blocks = m.count(BloomFilter::kBlockBytes);
  out.bloom = BloomFilter(1, blocks);
  m.take(out.bloom.data(), blocks * BloomFilter::kBlockBytes);
  if (m.count(sizeof(uint64_t)) != out.trigrams.words()) m.damaged("its trigram filter");
  m.take(out.trigrams.data(), out.trigrams.words() * sizeof(uint64_t));
  out.affixes = AffixFilter::of_words(m.count(sizeof(uint64_t)));
  m.take(out.affixes.data(), out.affixes.words() * sizeof(uint64_t));
  for (auto* table : {&first_entry, &first_byte})
    for (uint64_t& v : *table) v = m.value<uint64_t>();
  for (uint64_t& v : digests) v = m.value<uint64_t>();
}

// The entries of buckets [r.first, r.last), those rank owns kept.
void read_buckets(const ReadAt& read, const std::string& name, const Header& h, BucketRange r,
                  const std::vector<uint64_t>& first_entry, const std::vector<uint64_t>& first_byte,
                  const std::vector<uint64_t>& digests, int rank, int ranks, CompiledShare& out) {
  const uint64_t words_at = sizeof(Header) + h.meta_bytes;
  const uint64_t hashes_at = words_at + first_byte[h.buckets];
  std::string words(first_byte[r.last] - first_byte[r.first], '\0');
  std::vector<uint64_t> hashes(first_entry[r.last] - first_entry[r.first]);
  const auto read_some = [&](uint64_t at, size_t n, char* dest) { return n == 0 || read(at, n, dest); };
  if (!read_some(words_at + first_byte[r.first], words.size(), words.data()) ||
      !read_some(hashes_at + first_entry[r.first] * sizeof(uint64_t), hashes.size() * sizeof(uint64_t),
                 reinterpret_cast<char*>(hashes.data())))
    throw InputError(name + ": a truncated compiled dictionary");
  for (uint32_t b = r.first; b < r.last; ++b) {
    const std::string_view w =
        std::string_view(words).substr(first_byte[b] - first_byte[r.first], first_byte[b + 1] - first_byte[b]);
    const uint64_t* hb = hashes.data() + (first_entry[b] - first_entry[r.first]);
    if (bucket_digest(w, hb, first_entry[b + 1] - first_entry[b]) != digests[b])
      throw InputError(name + ": a damaged compiled dictionary (bucket " + std::to_string(b) +
                       "'s digest differs); compile it again");
  }
  out.entries.bytes = std::move(words);
  out.entries.index();
  if (out.entries.size() != hashes.size() || (!out.entries.bytes.empty() && out.entries.bytes.back() != '\n'))
    throw InputError(name + ": a damaged compiled dictionary (its words); compile it again");
  // The buckets at the range's ends may hold hashes of the next rank's.
  size_t kept = 0;
  for (size_t i = 0; i < hashes.size(); ++i) kept += owner_of(hashes[i], ranks) == rank;
  if (kept == hashes.size()) {
    out.hashes = std::move(hashes);
    return;
  }
  WordList mine;
  for (size_t i = 0; i < hashes.size(); ++i)
    if (owner_of(hashes[i], ranks) == rank) {
      mine.push_back(out.entries[i]);
      out.hashes.push_back(hashes[i]);
    }
  out.entries = std::move(mine);
}

}  // namespace

CompiledShare read_compiled_share(const ReadAt& read, uint64_t size, const std::string& name, int rank, int ranks) {
  const Header h = read_header(read, size, name);
  if (static_cast<uint64_t>(ranks) > h.buckets)
    throw InputError(name + ": compiled with " + std::to_string(h.buckets) + " buckets, it serves at most " +
                     std::to_string(h.buckets) + " ranks (this run has " + std::to_string(ranks) +
                     "); compile it with --buckets " + std::to_string(std::bit_ceil(static_cast<uint32_t>(ranks))));
  std::string meta(h.meta_bytes, '\0');
  if (!meta.empty() && !read(sizeof h, meta.size(), meta.data()))
    throw InputError(name + ": a truncated compiled dictionary");
  if (meta_digest(h, meta) != h.meta_digest)
    throw InputError(name + ": a damaged compiled dictionary (its tables' digest differs); compile it again");
  CompiledShare out;
  out.total_entries = h.entries;
  out.buckets = h.buckets;
  std::vector<uint64_t> first_entry(h.buckets + 1), first_byte(h.buckets + 1), digests(h.buckets);
  MetaReader m(meta, name);
  read_meta(m, out, first_entry, first_byte, digests);
  const uint64_t word_bytes = size - sizeof h - h.meta_bytes - h.hunspell_bytes - h.ranked_bytes;
  out.ranked_at = size - h.ranked_bytes;
  out.ranked_bytes = h.ranked_bytes;
  out.hunspell_at = out.ranked_at - h.hunspell_bytes;
  out.hunspell_bytes = h.hunspell_bytes;
  for (uint32_t b = 0; b < h.buckets; ++b)
    if (first_entry[b] > first_entry[b + 1] || first_byte[b] > first_byte[b + 1]) m.damaged("its bucket table");
  if (first_entry[0] != 0 || first_byte[0] != 0 || first_entry[h.buckets] != h.entries ||
      h.entries > word_bytes / sizeof(uint64_t) || first_byte[h.buckets] != word_bytes - h.entries * sizeof(uint64_t))
    m.damaged("its bucket table");
  read_buckets(read, name, h, owned_buckets(rank, ranks, h.buckets), first_entry, first_byte, digests, rank, ranks,
               out);
  return out;
}

ReadAt file_reader(const std::string& path, uint64_t& size) {
  auto f = std::make_shared<Fd>();
  f->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (f->fd < 0 || ::fstat(f->fd, &st) != 0) throw InputError(path + ": " + std::strerror(errno));
  size = static_cast<uint64_t>(st.st_size);
  return [f, path](uint64_t offset, size_t n, char* dest) {
    for (size_t got = 0; got < n;) {
      const ssize_t r = ::pread(f->fd, dest + got, n - got, static_cast<off_t>(offset + got));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) throw InputError(path + ": " + std::strerror(errno));
      if (r == 0) return false;
      got += static_cast<size_t>(r);
    }
    return true;
  };
}

CompiledShare read_compiled_dictionary(const std::string& path, int rank, int ranks) {
  uint64_t size = 0;
  const ReadAt read = file_reader(path, size);
  return read_compiled_share(read, size, path, rank, ranks);
}

}  // namespace spellcheck
