#include "spellcheck/output/per_document.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "spellcheck/common/wire.hpp"
#include "spellcheck/output/detail/json.hpp"

namespace spellcheck {

namespace {

// A document (or part of one) as rank 0 sums it.
struct DocumentFigures {
  uint32_t file = 0;
  uint64_t offset = 0;
  bool record = false;
  bool binary = false;
  std::string_view id;  // (views into the gathered bytes)
  uint64_t position = 0, mark = 0;
  bool whole = false;  // read whole by one rank: wrong holds its top words only
  uint64_t tokens = 0, words = 0, misspelled = 0, distinct = 0;
  std::vector<std::pair<std::string_view, uint64_t>> wrong;  // reported words, occurrences
};

// Every rank's listed words (ReportedWords), on every rank.
struct ListedWords {
  WordList words;
  std::unordered_set<std::string_view> set;  // views into words
  bool contains(std::string_view w) const { return !set.empty() && set.count(w) != 0; }
};

void gather_listed(const mpi::Comm& comm, const WordList& mine, ListedWords& out) {
  out.words.bytes = mpi::broadcast(comm, mpi::gather_bytes(comm, mine.bytes).bytes);
  out.words.index();
  out.set.reserve(out.words.size());
  for (size_t i = 0; i < out.words.size(); ++i) out.set.insert(out.words[i]);
}

using WordCount = std::pair<std::string_view, uint64_t>;

// The first n of words in the output's order: most occurrences first, ties
// byte-wise; the rest dropped.
template <class Pair>
void keep_top(std::vector<Pair>& words, size_t n) {
  n = std::min(n, words.size());
  std::partial_sort(
      words.begin(), words.begin() + static_cast<std::ptrdiff_t>(n), words.end(),
      [](const Pair& a, const Pair& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  words.resize(n);
}

// A document this rank read all of: no other rank has a part of it (a
// record lies in one work unit; a plain file may be cut between ranks).
bool read_whole_here(const DocumentPart& p, const InputPlan& plan, const std::vector<ByteRange>& share) {
  if (p.record) return true;
  const InputFile& f = plan.files[p.file];
  return !f.stream && std::any_of(share.begin(), share.end(), [&](const ByteRange& r) {
    return r.file_index == p.file && r.begin == 0 && r.end >= f.size;
  });
}

// This rank's parts summed per document, their misspelled words picked
// out, for rank 0: a document read whole here goes with its top words
// only, one cut between ranks with all of them (rank 0 adds them up).
std::string encode_parts(const DocumentParts& parts, const ReportedWords& reported, const ListedWords& listed,
                         const InputPlan& plan, const std::vector<ByteRange>& share, size_t top) {
  const WordList& words = parts.word;
  const auto is_reported = [&](std::string_view w) { return reported.all_but_listed != listed.contains(w); };
  std::vector<size_t> order(parts.parts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const DocumentPart &x = parts.parts[a], &y = parts.parts[b];
    return x.file != y.file ? x.file < y.file : x.offset < y.offset;
  });
  std::string out;
  std::vector<std::pair<std::string_view, uint64_t>> counted;  // word, occurrences
  std::vector<WordCount> wrong_words;
  for (size_t g = 0; g < order.size();) {
    const DocumentPart& p = parts.parts[order[g]];
    uint64_t tokens = 0, judged = 0;
    bool binary = false;
    counted.clear();
    size_t e = g;
    for (; e < order.size() && parts.parts[order[e]].file == p.file && parts.parts[order[e]].offset == p.offset; ++e) {
      const DocumentPart& q = parts.parts[order[e]];
      tokens += q.tokens;
      judged += q.words;
      binary |= q.binary;
      for (uint64_t k = q.words_from; k < q.words_to; ++k)
        if (is_reported(words[k])) counted.emplace_back(words[k], parts.count[k]);
    }
    // A part's words are distinct; those of several parts are summed.
    if (e - g > 1) std::sort(counted.begin(), counted.end());
    g = e;
    wrong_words.clear();
    uint64_t misspelled = 0;
    for (const auto& [w, c] : counted) {
      misspelled += c;
      if (!wrong_words.empty() && wrong_words.back().first == w) wrong_words.back().second += c;
      else wrong_words.emplace_back(w, c);
    }
    const uint64_t distinct = wrong_words.size();
    const bool whole = read_whole_here(p, plan, share);
    if (whole) keep_top(wrong_words, top);
    wire::append_le<uint32_t>(out, p.file);
    wire::append_le<uint64_t>(out, p.offset);
    wire::append_le<uint8_t>(out, static_cast<uint8_t>(p.record | binary << 1 | whole << 2));
    wire::append_le<uint64_t>(out, p.id.size());
    out += p.id;
    for (const uint64_t v : {p.position, p.mark, tokens, judged, misspelled, distinct, uint64_t{wrong_words.size()}})
      wire::append_le<uint64_t>(out, v);
    for (const auto& [w, c] : wrong_words) {
      wire::append_le<uint64_t>(out, w.size());
      out += w;
      wire::append_le<uint64_t>(out, c);
    }
  }
  return out;
}

std::vector<DocumentFigures> decode_parts(std::string_view bytes) {
  static constexpr const char* kWhat = "per-document parts";
  std::vector<DocumentFigures> out;
  for (size_t at = 0; at < bytes.size();) {
    DocumentFigures d;
    d.file = wire::read_le_at<uint32_t>(bytes, at, kWhat);
    d.offset = wire::read_le_at<uint64_t>(bytes, at, kWhat);
    const auto flags = wire::read_le_at<uint8_t>(bytes, at, kWhat);
    d.record = (flags & 1) != 0;
    d.binary = (flags & 2) != 0;
    d.whole = (flags & 4) != 0;
    d.id = wire::read_bytes_at(bytes, at, wire::read_le_at<uint64_t>(bytes, at, kWhat), kWhat);
    for (uint64_t* v : {&d.position, &d.mark, &d.tokens, &d.words, &d.misspelled, &d.distinct})
      *v = wire::read_le_at<uint64_t>(bytes, at, kWhat);
    const auto n = wire::read_le_at<uint64_t>(bytes, at, kWhat);
    for (uint64_t k = 0; k < n; ++k) {
      const std::string_view w = wire::read_bytes_at(bytes, at, wire::read_le_at<uint64_t>(bytes, at, kWhat), kWhat);
      d.wrong.emplace_back(w, wire::read_le_at<uint64_t>(bytes, at, kWhat));
    }
    out.push_back(std::move(d));
  }
  return out;
}

// The parts of one document (same file and offset) summed into the first.
void sum_into(DocumentFigures& into, DocumentFigures&& part) {
  into.tokens += part.tokens;
  into.words += part.words;
  into.misspelled += part.misspelled;
  into.binary |= part.binary;
  if (into.id.empty()) into.id = part.id;
  into.wrong.insert(into.wrong.end(), part.wrong.begin(), part.wrong.end());
}

// Parts sorted by (file, offset) and summed: one entry a document.
// A document's wrong words become its top ones, in order.
std::vector<DocumentFigures> sum_parts(std::vector<DocumentFigures> parts, size_t top) {
  std::vector<std::pair<std::pair<uint32_t, uint64_t>, size_t>> order(parts.size());  // (file, offset), index
  for (size_t i = 0; i < parts.size(); ++i) order[i] = {{parts[i].file, parts[i].offset}, i};
  std::sort(order.begin(), order.end());
  std::vector<DocumentFigures> docs;
  docs.reserve(parts.size());
  for (const auto& [key, i] : order) {
    DocumentFigures& p = parts[i];
    if (!docs.empty() && docs.back().file == p.file && docs.back().offset == p.offset)
      sum_into(docs.back(), std::move(p));
    else docs.push_back(std::move(p));
  }
  // A document cut between ranks: its words summed over the parts.
  for (DocumentFigures& d : docs) {
    if (d.whole) continue;
    std::sort(d.wrong.begin(), d.wrong.end());
    std::vector<std::pair<std::string_view, uint64_t>> merged;
    for (const auto& w : d.wrong) {
      if (!merged.empty() && merged.back().first == w.first) merged.back().second += w.second;
      else merged.push_back(w);
    }
    d.wrong = std::move(merged);
    d.distinct = d.wrong.size();
    keep_top(d.wrong, top);
  }
  return docs;
}

void append_line(std::string& out, std::string_view name, const DocumentFigures& d) {
  out += "{\"document\":";
  append_json_string(out, name);
  for (const auto& [key, v] : {std::pair<const char*, uint64_t>{"tokens", d.tokens},
                               {"words", d.words},
                               {"misspelled", d.misspelled},
                               {"distinct_misspelled", d.distinct}}) {
    out += ",\"";
    out += key;
    out += "\":";
    out += std::to_string(v);
  }
  out += ",\"in_dictionary\":";
  if (d.words == 0) {
    out += "null";
  } else {
    char share[32];
    std::snprintf(share, sizeof share, "%.4f",
                  static_cast<double>(d.words - d.misspelled) / static_cast<double>(d.words));
    out += share;
  }
  const auto& order = d.wrong;  // the top words, in order (sum_parts)
  out += ",\"top\":[";
  for (size_t k = 0; k < order.size(); ++k) {
    if (k) out += ',';
    out += '[';
    append_json_string(out, order[k].first);
    out += ',';
    out += std::to_string(order[k].second);
    out += ']';
  }
  out += "]}\n";
}

// Rank 0: the documents in input order. A plain file is a document even
// when no reader saw a token of it (an empty file).
std::string format_documents(const InputPlan& plan, const LineTable& lines, std::vector<DocumentFigures> docs) {
  std::string out;
  size_t d = 0;
  for (uint32_t f = 0; f < plan.files.size(); ++f) {
    const InputFile& file = plan.files[f];
    if (file.format == CorpusFormat::text) {
      DocumentFigures empty;
      const bool seen = d < docs.size() && docs[d].file == f;
      const DocumentFigures& doc = seen ? docs[d] : empty;
      if (!doc.binary) append_line(out, file.path, doc);
    }
    for (; d < docs.size() && docs[d].file == f; ++d) {
      const DocumentFigures& doc = docs[d];
      if (!doc.record || doc.binary) continue;
      append_line(
          out, !doc.id.empty() ? doc.id : file.path + ":" + std::to_string(lines.locate(doc.position, doc.mark).line),
          doc);
    }
  }
  return out;
}

}  // namespace

std::string per_document_lines(const mpi::Comm& comm, const InputPlan& plan, const LineTable& lines,
                               const DocumentParts& parts, const ReportedWords& reported, size_t top) {
  ListedWords listed;
  gather_listed(comm, *reported.listed, listed);
  const std::vector<ByteRange> share = split_stream(plan, comm.rank(), comm.size());
  const mpi::Gathered all = mpi::gather_bytes(comm, encode_parts(parts, reported, listed, plan, share, top));
  if (comm.rank() != 0) return {};
  return format_documents(plan, lines, sum_parts(decode_parts(all.bytes), top));
}

}  // namespace spellcheck
