// reference_spellcheck -- a serial, deliberately naive implementation of
// ../shared/SPEC.md, used only by the tests to produce expected outputs.
//
//   reference_spellcheck [--words] [--max-word-length N] [-o FILE]
//                        [--report TSV] [--filter url,digits] DICTIONARY INPUT...
//
// --report (document mode) writes spellcheck's occurrence report: per
// misspelled word in output order, its occurrences and the file:line:column
// (1-based, column in bytes) of its first token in the collection (files
// in byte-wise path order, each read once). --filter url blanks URLs, e-mail
// addresses and paths (hunspell's rule, reference_text.hpp); --filter
// digits drops tokens holding a digit.
//   reference_spellcheck --suggest ranked --max-distance D --top K
//                        --no-sound-alikes [--frequencies FILE]
//                        [--rare-distance R] [--two-edits-from N] [--words]
//                        ... DICTIONARY INPUT...
//
// The second form (tests/cmake/suite_ranked.cmake) lists, for each SPEC-
// misspelled word that ranked mode does not accept by case, EVERY entry
// within OSA distance D over case-folded code points, shown in the word's
// case pattern, byte-wise: the candidate SET that spellcheck ranks (the
// tests compare sets, since the reference does not rank; --top is ignored).
// With a non-empty frequency list (`word count` lines), an entry whose
// folded form has no positive count is a candidate within min(R, D) only
// (R: 1 unless given). A word of fewer than N folded code points (N: 6
// unless given; 0: none) has candidates within min(1, D) only.
//
//   reference_spellcheck --per-document FILE [--per-document-top N]
//                        [--suggest ranked] [--max-word-length N]
//                        [--filter url,digits] DICTIONARY INPUT...
//
// The third form (tests/per_document.sh) writes FILE, and only FILE (no -o,
// no --report: ranked candidate sets are slow and not needed for it), as
// JSON Lines, one object per input file in byte-wise path order, named by
// its path as --report names it:
//   {"document":NAME,"tokens":T,"words":W,"misspelled":M,
//    "distinct_misspelled":D,"in_dictionary":S,"top":[["word",c],...]}
// (one line, no spaces outside strings). T: every token after --filter url;
// W: the tokens judged (not digits only, not over --max-word-length, none
// with a digit under --filter digits); M, D: occurrences and distinct words
// of the words the main output lists (ranked: less those ranked mode
// accepts by case); S: (W - M) / W as "%.4f", null when W is 0; top: the
// document's N (default 5) most frequent of those, most occurrences first,
// ties byte-wise. Strings escape '"' and '\' with a backslash, bytes below
// 0x20 as \u00xx.
//
// It shares no code with src/ and is written to be obviously correct, not
// fast: a std::set dictionary, every edit-distance-one string generated and
// looked up, a std::set of candidates per word, one sort of the lines.
// C++20 standard library only.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "reference_text.hpp"

namespace fs = std::filesystem;
using namespace reference;

namespace {

constexpr std::size_t kDefaultMaxWordLength = 64;
const std::string kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

// ---------------------------------------------------------------------------
// Dictionary and the case rule
// ---------------------------------------------------------------------------

std::set<std::string> load_dictionary(const std::string& path) {
  std::set<std::string> dictionary;
  for (const std::string& line : split_lines(read_whole_file(path))) {
    std::string entry = clean_line(line);
    if (!entry.empty()) dictionary.insert(entry);
  }
  if (dictionary.empty()) throw Failure("dictionary '" + path + "' has no entry");
  return dictionary;
}

// SPEC "Which words are correct": w is an entry, or w with its first byte
// lowered (ASCII A-Z only) is an entry.
bool in_dictionary(const std::set<std::string>& dictionary, const std::string& word) {
  if (dictionary.count(word) > 0) return true;
  if (!word.empty() && word[0] >= 'A' && word[0] <= 'Z') {
    std::string lowered = word;
    lowered[0] = static_cast<char>(lowered[0] - 'A' + 'a');
    return dictionary.count(lowered) > 0;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Words, candidates, output
// ---------------------------------------------------------------------------

struct Config {
  bool words_mode = false;
  bool filter_urls = false;    // --filter url
  bool filter_digits = false;  // --filter digits: tokens with a digit are not words
  std::size_t max_word_length = kDefaultMaxWordLength;
  std::string output;                // empty: stdout
  std::string report;                // empty: none
  std::string per_document;          // empty: none (see the top of the file)
  std::size_t per_document_top = 5;  // --per-document-top
  std::string dictionary;
  std::vector<std::string> inputs;
  // --suggest ranked (see the top of the file)
  bool ranked = false;
  int max_distance = 2;
  bool no_sound_alikes = false;
  std::string frequencies;  // empty: none
  int rare_distance = 1;
  std::size_t two_edits_from = 6;  // shorter typos: one edit at most
};

// Document mode: whether a token is a word to judge (SPEC.md's skips, and
// --filter digits).
bool is_judged(const Config& config, const std::string& token) {
  if (only_ascii_digits(token) || token.size() > config.max_word_length) return false;
  return !(config.filter_digits && has_ascii_digit(token));
}

// The distinct words of all inputs, after the skips SPEC.md lists.
std::set<std::string> collect_words(const Config& config) {
  std::set<std::string> words;
  for (const std::string& file : list_input_files(config.inputs)) {
    std::string text = read_whole_file(file);
    if (config.words_mode) {
      for (const std::string& line : split_lines(text)) {
        std::string word = clean_line(line);
        if (!word.empty() && word.size() <= config.max_word_length) words.insert(word);
      }
    } else {
      std::vector<std::string> tokens;
      if (config.filter_urls) blank_urls(text);
      tokenize(text, tokens);
      for (const std::string& token : tokens) {
        if (is_judged(config, token)) words.insert(token);
      }
    }
  }
  return words;
}

// --report: occurrences and the first location of every word.
struct Occurrences {
  std::size_t count = 0;
  std::string first;  // "path:line:column"
};

std::map<std::string, Occurrences> collect_occurrences(const Config& config) {
  std::map<std::string, Occurrences> out;
  std::vector<std::string> files = list_input_files(config.inputs);
  files.erase(std::unique(files.begin(), files.end()), files.end());  // a file named twice is read once
  for (const std::string& file : files) {
    std::string text = read_whole_file(file);
    if (config.filter_urls) blank_urls(text);  // in place: positions stay
    std::vector<std::string> tokens;
    std::vector<std::size_t> starts;
    tokenize(text, tokens, &starts);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const std::string& token = tokens[i];
      if (!is_judged(config, token)) continue;
      Occurrences& o = out[token];
      if (o.count++ > 0) continue;
      // Counted from the file's start each time: slow, obviously right.
      std::size_t line = 1, line_start = 0;
      for (std::size_t k = 0; k < starts[i]; ++k)
        if (text[k] == '\n') {
          ++line;
          line_start = k + 1;
        }
      o.first = file + ":" + std::to_string(line) + ":" + std::to_string(starts[i] - line_start + 1);
    }
  }
  return out;
}

// Every string at edit distance exactly one (over kAlphabet) that is in the
// dictionary.
std::set<std::string> candidates_for(const std::set<std::string>& dictionary, const std::string& word) {
  std::vector<std::string> edits;
  for (std::size_t i = 0; i < word.size(); ++i) {  // deletions
    edits.push_back(word.substr(0, i) + word.substr(i + 1));
  }
  for (std::size_t i = 0; i < word.size(); ++i) {  // substitutions
    for (char c : kAlphabet) {
      if (c == word[i]) continue;
      std::string edited = word;
      edited[i] = c;
      edits.push_back(edited);
    }
  }
  for (std::size_t i = 0; i <= word.size(); ++i) {  // insertions
    for (char c : kAlphabet) {
      edits.push_back(word.substr(0, i) + std::string(1, c) + word.substr(i));
    }
  }
  std::set<std::string> candidates;
  for (const std::string& edited : edits) {
    if (in_dictionary(dictionary, edited)) candidates.insert(edited);
  }
  return candidates;
}

std::string make_ranked_output(const Config& config);

std::string make_output(const Config& config) {
  if (config.ranked) return make_ranked_output(config);
  std::set<std::string> dictionary = load_dictionary(config.dictionary);
  std::set<std::string> words = collect_words(config);

  struct Line {
    std::string word;
    std::set<std::string> candidates;  // std::set iterates byte-wise ascending
  };
  std::vector<Line> lines;
  for (const std::string& word : words) {
    if (!in_dictionary(dictionary, word)) lines.push_back({word, candidates_for(dictionary, word)});
  }
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (a.candidates.size() != b.candidates.size()) return a.candidates.size() < b.candidates.size();
    return a.word < b.word;
  });

  std::string out;
  for (const Line& line : lines) {
    out += line.word;
    out += ": ";
    for (const std::string& candidate : line.candidates) {
      out += ' ';
      out += candidate;
    }
    out += '\n';
  }
  if (!config.report.empty()) {
    const std::map<std::string, Occurrences> occurrences = collect_occurrences(config);
    std::string tsv = "word\toccurrences\tfirst_location\tcandidates\n";
    for (const Line& line : lines) {
      const Occurrences& o = occurrences.at(line.word);
      tsv += line.word + "\t" + std::to_string(o.count) + "\t" + o.first + "\t";
      bool first = true;
      for (const std::string& candidate : line.candidates) {
        if (!first) tsv += ' ';
        tsv += candidate;
        first = false;
      }
      tsv += '\n';
    }
    std::ofstream file(config.report, std::ios::binary | std::ios::trunc);
    file.write(tsv.data(), static_cast<std::streamsize>(tsv.size()));
    if (!file) throw Failure("cannot write '" + config.report + "'");
  }
  return out;
}

// ---------------------------------------------------------------------------
// Ranked mode: candidate sets (--suggest ranked)
// ---------------------------------------------------------------------------

// Code points as the ranked mode sees them: valid UTF-8 decodes as usual;
// every byte that does not start a valid sequence (truncated, overlong,
// surrogate, above U+10FFFF, a stray continuation byte) is one code point of
// its own, U+DC00 + byte, and encodes back as that byte.
std::vector<std::uint32_t> ranked_code_points(const std::string& s) {
  std::vector<std::uint32_t> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t c = 0;
    if (b < 0x80) {
      len = 1, c = b;
    } else if (b >= 0xC2 && b <= 0xDF) {
      len = 2, c = b & 0x1Fu;
    } else if (b >= 0xE0 && b <= 0xEF) {
      len = 3, c = b & 0x0Fu;
    } else if (b >= 0xF0 && b <= 0xF4) {
      len = 4, c = b & 0x07u;
    }
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const unsigned char x = static_cast<unsigned char>(s[i + k]);
      if ((x & 0xC0) != 0x80) ok = false;
      c = (c << 6) | (x & 0x3Fu);
    }
    if (ok && len == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) ok = false;
    if (ok && len == 4 && (c < 0x10000 || c > 0x10FFFF)) ok = false;
    if (ok) {
      out.push_back(c);
      i += len;
    } else {
      out.push_back(0xDC00 + b);
      i += 1;
    }
  }
  return out;
}

std::string ranked_encode(const std::vector<std::uint32_t>& w) {
  std::string s;
  for (std::uint32_t c : w) {
    if (c >= 0xDC80 && c <= 0xDCFF) {
      s += static_cast<char>(c - 0xDC00);
    } else {
      append_utf8(s, c);
    }
  }
  return s;
}

// Capital -> small letter, the simple mappings ranked mode folds: ASCII,
// Latin-1 (U+00C0-U+00DE but U+00D7), Latin Extended-A pairs, Greek and
// Cyrillic capitals. Written out pair by pair from the Unicode charts.
const std::map<std::uint32_t, std::uint32_t>& ranked_lower_of() {
  static const std::map<std::uint32_t, std::uint32_t> table = [] {
    std::map<std::uint32_t, std::uint32_t> t;
    for (std::uint32_t c = 'A'; c <= 'Z'; ++c) t[c] = c + 0x20;
    for (std::uint32_t c = 0xC0; c <= 0xDE; ++c)
      if (c != 0xD7) t[c] = c + 0x20;
    // Latin Extended-A: capital then small, except where the chart says
    // otherwise (U+0130 dotted I, U+0131 dotless i, U+0138 kra, U+0149,
    // U+017F long s have no simple pair; U+0178 Y diaeresis pairs with U+00FF).
    for (std::uint32_t c = 0x100; c <= 0x12E; c += 2) t[c] = c + 1;
    for (std::uint32_t c = 0x132; c <= 0x136; c += 2) t[c] = c + 1;
    for (std::uint32_t c = 0x139; c <= 0x147; c += 2) t[c] = c + 1;
    for (std::uint32_t c = 0x14A; c <= 0x176; c += 2) t[c] = c + 1;
    t[0x178] = 0xFF;
    for (std::uint32_t c = 0x179; c <= 0x17D; c += 2) t[c] = c + 1;
    for (std::uint32_t c = 0x391; c <= 0x3A9; ++c)
      if (c != 0x3A2) t[c] = c + 0x20;
    for (std::uint32_t c = 0x400; c <= 0x40F; ++c) t[c] = c + 0x50;
    for (std::uint32_t c = 0x410; c <= 0x42F; ++c) t[c] = c + 0x20;
    return t;
  }();
  return table;
}

const std::map<std::uint32_t, std::uint32_t>& ranked_upper_of() {
  static const std::map<std::uint32_t, std::uint32_t> table = [] {
    std::map<std::uint32_t, std::uint32_t> t;
    for (const auto& [up, low] : ranked_lower_of()) t[low] = up;
    return t;
  }();
  return table;
}

std::uint32_t ranked_fold(std::uint32_t c) {
  const auto it = ranked_lower_of().find(c);
  return it == ranked_lower_of().end() ? c : it->second;
}
std::uint32_t ranked_upper(std::uint32_t c) {
  const auto it = ranked_upper_of().find(c);
  return it == ranked_upper_of().end() ? c : it->second;
}
bool ranked_is_capital(std::uint32_t c) { return ranked_lower_of().count(c) > 0; }
bool ranked_is_letter(std::uint32_t c) { return ranked_is_capital(c) || ranked_upper_of().count(c) > 0; }

std::vector<std::uint32_t> ranked_folded(const std::string& s) {
  std::vector<std::uint32_t> w = ranked_code_points(s);
  for (auto& c : w) c = ranked_fold(c);
  return w;
}

// Restricted Damerau-Levenshtein (optimal string alignment), the full table.
int ranked_osa(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

enum class RankedCase { lower, title, upper, mixed };

// lower: no capital; title: the first letter is the only capital; upper:
// two or more letters, all capitals; mixed: the rest.
RankedCase ranked_case_of(const std::vector<std::uint32_t>& w) {
  std::size_t letters = 0, capitals = 0;
  bool first_is_capital = false;
  for (std::uint32_t c : w) {
    if (!ranked_is_letter(c)) continue;
    if (letters == 0) first_is_capital = ranked_is_capital(c);
    ++letters;
    if (ranked_is_capital(c)) ++capitals;
  }
  if (capitals == 0) return RankedCase::lower;
  if (letters >= 2 && capitals == letters) return RankedCase::upper;
  if (capitals == 1 && first_is_capital) return RankedCase::title;
  return RankedCase::mixed;
}

// An entry as ranked mode displays it for a typo of case pattern p: upper
// raises every letter, title the first letter, lower and mixed keep it.
std::string ranked_display(const std::string& entry, RankedCase p) {
  std::vector<std::uint32_t> w = ranked_code_points(entry);
  bool first = true;
  for (auto& c : w) {
    if (!ranked_is_letter(c)) continue;
    if (p == RankedCase::upper || (p == RankedCase::title && first)) c = ranked_upper(c);
    first = false;
  }
  return ranked_encode(w);
}

// The folded form of every entry.
std::set<std::vector<std::uint32_t>> ranked_folded_entries(const std::set<std::string>& dictionary) {
  std::set<std::vector<std::uint32_t>> folded;
  for (const std::string& e : dictionary) folded.insert(ranked_folded(e));
  return folded;
}

// Ranked mode accepts a word in capitals or title case of an entry.
bool ranked_accepts_by_case(const std::set<std::vector<std::uint32_t>>& folded_entries, const std::string& word) {
  const RankedCase pattern = ranked_case_of(ranked_code_points(word));
  if (pattern != RankedCase::upper && pattern != RankedCase::title) return false;
  return folded_entries.count(ranked_folded(word)) > 0;
}

std::string make_ranked_output(const Config& config) {
  if (!config.no_sound_alikes)
    throw Failure("--suggest ranked: the reference has no sound-alikes, pass --no-sound-alikes");
  std::set<std::string> dictionary = load_dictionary(config.dictionary);
  std::set<std::string> words = collect_words(config);
  std::vector<std::pair<std::string, std::vector<std::uint32_t>>> entries;
  for (const std::string& e : dictionary) entries.emplace_back(e, ranked_folded(e));
  const std::set<std::vector<std::uint32_t>> folded_entries = ranked_folded_entries(dictionary);
  // Folded forms with a positive count in the frequency list.
  std::set<std::vector<std::uint32_t>> frequent;
  bool any_frequency = false;
  if (!config.frequencies.empty()) {
    for (const std::string& line : split_lines(read_whole_file(config.frequencies))) {
      const std::string l = clean_line(line);
      if (l.empty()) continue;
      any_frequency = true;
      const std::size_t sep = l.find_first_of(" \t");
      if (sep == std::string::npos) throw Failure("frequency line without a count: '" + l + "'");
      const std::string count = clean_line(l.substr(sep + 1));
      if (count.find_first_not_of('0') != std::string::npos) frequent.insert(ranked_folded(l.substr(0, sep)));
    }
  }
  const int rare = any_frequency ? std::min(config.rare_distance, config.max_distance) : config.max_distance;

  struct Line {
    std::string word;
    std::set<std::string> candidates;
  };
  std::vector<Line> lines;
  for (const std::string& word : words) {
    // Correct, or capitals or title case of an entry (accepted): no line.
    if (in_dictionary(dictionary, word) || ranked_accepts_by_case(folded_entries, word)) continue;
    const std::vector<std::uint32_t> folded = ranked_folded(word);
    const RankedCase pattern = ranked_case_of(ranked_code_points(word));
    Line line{word, {}};
    for (const auto& e : entries) {
      const int d = ranked_osa(folded, e.second);
      const int max_d = folded.size() < config.two_edits_from ? std::min(1, config.max_distance) : config.max_distance;
      if (d > max_d) continue;
      if (d > rare && frequent.count(e.second) == 0) continue;
      const std::string shown = ranked_display(e.first, pattern);
      if (shown != word) line.candidates.insert(shown);
    }
    lines.push_back(std::move(line));
  }
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (a.candidates.size() != b.candidates.size()) return a.candidates.size() < b.candidates.size();
    return a.word < b.word;
  });
  std::string out;
  for (const Line& line : lines) {
    out += line.word;
    out += ": ";
    for (const std::string& c : line.candidates) {
      out += ' ';
      out += c;
    }
    out += '\n';
  }
  return out;
}

// ---------------------------------------------------------------------------
// --per-document: one JSON line per input file
// ---------------------------------------------------------------------------

// The distinct words the main output lists.
std::set<std::string> reported_words(const Config& config) {
  const std::set<std::string> dictionary = load_dictionary(config.dictionary);
  std::set<std::vector<std::uint32_t>> folded_entries;
  if (config.ranked) folded_entries = ranked_folded_entries(dictionary);
  std::set<std::string> reported;
  for (const std::string& word : collect_words(config)) {
    if (in_dictionary(dictionary, word)) continue;
    if (config.ranked && ranked_accepts_by_case(folded_entries, word)) continue;
    reported.insert(word);
  }
  return reported;
}

struct DocumentCounts {
  std::size_t tokens = 0;
  std::size_t words = 0;
  std::map<std::string, std::size_t> misspelled;  // reported word -> occurrences here
};

DocumentCounts count_document(const Config& config, const std::string& file, const std::set<std::string>& reported) {
  std::string text = read_whole_file(file);
  if (config.filter_urls) blank_urls(text);
  std::vector<std::string> tokens;
  tokenize(text, tokens);
  DocumentCounts counts;
  counts.tokens = tokens.size();
  for (const std::string& token : tokens) {
    if (!is_judged(config, token)) continue;
    ++counts.words;
    if (reported.count(token) > 0) ++counts.misspelled[token];
  }
  return counts;
}

// A JSON string: '"' and '\' escaped with a backslash, bytes below 0x20 as
// \u00xx, the rest as is.
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string per_document_line(const std::string& name, const DocumentCounts& counts, std::size_t top) {
  std::vector<std::pair<std::string, std::size_t>> by_count(counts.misspelled.begin(), counts.misspelled.end());
  std::sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) {
    if (a.second != b.second) return a.second > b.second;
    return a.first < b.first;
  });
  std::size_t misspelled = 0;
  for (const auto& [word, count] : by_count) misspelled += count;
  std::string in_dictionary = "null";
  if (counts.words > 0) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.4f",
                  static_cast<double>(counts.words - misspelled) / static_cast<double>(counts.words));
    in_dictionary = ratio;
  }
  std::string line = "{\"document\":" + json_string(name) + ",\"tokens\":" + std::to_string(counts.tokens) +
                     ",\"words\":" + std::to_string(counts.words) + ",\"misspelled\":" + std::to_string(misspelled) +
                     ",\"distinct_misspelled\":" + std::to_string(by_count.size()) +
                     ",\"in_dictionary\":" + in_dictionary + ",\"top\":[";
  for (std::size_t i = 0; i < by_count.size() && i < top; ++i) {
    if (i > 0) line += ',';
    line += "[" + json_string(by_count[i].first) + "," + std::to_string(by_count[i].second) + "]";
  }
  return line + "]}\n";
}

void write_per_document(const Config& config) {
  const std::set<std::string> reported = reported_words(config);
  std::vector<std::string> files = list_input_files(config.inputs);
  files.erase(std::unique(files.begin(), files.end()), files.end());  // a file named twice is one document
  std::string jsonl;
  for (const std::string& file : files)
    jsonl += per_document_line(file, count_document(config, file, reported), config.per_document_top);
  std::ofstream out(config.per_document, std::ios::binary | std::ios::trunc);
  out.write(jsonl.data(), static_cast<std::streamsize>(jsonl.size()));
  out.close();
  if (!out) {
    std::error_code ec;
    if (fs::is_regular_file(config.per_document, ec)) fs::remove(config.per_document, ec);  // not a folder named so
    throw Failure("cannot write '" + config.per_document + "'");
  }
}

// ---------------------------------------------------------------------------
// Command line

// ---------------------------------------------------------------------------

std::size_t parse_length(const std::string& text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw Failure("--max-word-length wants a positive integer, got '" + text + "'");
  unsigned long long value = 0;
  try {
    value = std::stoull(text);
  } catch (const std::exception&) {
    throw Failure("--max-word-length is out of range: '" + text + "'");
  }
  if (value == 0) throw Failure("--max-word-length must be at least 1");
  return static_cast<std::size_t>(value);
}

std::size_t parse_count(const std::string& name, const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw Failure(name + " wants a count, got '" + text + "'");
  return std::stoul(text);
}

Config parse_arguments(int argc, char** argv) {
  Config config;
  std::vector<std::string> positional;
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string& name) {
      if (i + 1 >= argc) throw Failure(name + " needs a value");
      return std::string(argv[++i]);
    };
    if (options_done || arg.empty() || arg[0] != '-' || arg == "-") {
      positional.push_back(arg);
    } else if (arg == "--") {
      options_done = true;
    } else if (arg == "--words") {
      config.words_mode = true;
    } else if (arg == "--filter") {
      // url and digits only: markup is filtered before (tests/input/filter_text).
      std::stringstream list(value(arg));
      for (std::string name; std::getline(list, name, ',');) {
        if (name == "url") config.filter_urls = true;
        else if (name == "digits") config.filter_digits = true;
        else if (name != "none") throw std::runtime_error("--filter: url, digits or none, got '" + name + "'");
      }
    } else if (arg == "--hidden" || arg == "--binary") {
      // The reference reads every regular file of a folder (SPEC.md's walk):
      // what spellcheck does with these two.
    } else if (arg == "--max-word-length") {
      config.max_word_length = parse_length(value(arg));
    } else if (arg.rfind("--max-word-length=", 0) == 0) {
      config.max_word_length = parse_length(arg.substr(std::string("--max-word-length=").size()));
    } else if (arg == "--suggest") {
      const std::string v = value(arg);
      if (v == "ranked") config.ranked = true;
      else if (v != "spec") throw Failure("--suggest must be spec or ranked, got '" + v + "'");
    } else if (arg == "--max-distance") {
      const std::string v = value(arg);
      if (v != "1" && v != "2") throw Failure("--max-distance must be 1 or 2, got '" + v + "'");
      config.max_distance = v[0] - '0';
    } else if (arg == "--top") {
      value(arg);  // the reference lists every candidate
    } else if (arg == "--no-sound-alikes") {
      config.no_sound_alikes = true;
    } else if (arg == "--frequencies") {
      config.frequencies = value(arg);
    } else if (arg == "--rare-distance") {
      const std::string v = value(arg);
      if (v != "0" && v != "1" && v != "2") throw Failure("--rare-distance must be 0, 1 or 2, got '" + v + "'");
      config.rare_distance = v[0] - '0';
    } else if (arg == "--two-edits-from") {
      const std::string v = value(arg);
      if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos)
        throw Failure("--two-edits-from must be a count, got '" + v + "'");
      config.two_edits_from = std::stoul(v);
    } else if (arg == "-o" || arg == "--output") {
      config.output = value(arg);
    } else if (arg == "--report") {
      config.report = value(arg);
    } else if (arg == "--per-document") {
      config.per_document = value(arg);
    } else if (arg == "--per-document-top") {
      config.per_document_top = parse_count(arg, value(arg));
    } else if (arg == "-h" || arg == "--help") {
      std::cout << "usage: reference_spellcheck [--words] [--max-word-length N] [-o FILE] "
                   "DICTIONARY INPUT...\n";
      std::exit(0);
    } else {
      throw Failure("unknown option '" + arg + "'");
    }
  }
  if (positional.size() < 2) throw Failure("want a DICTIONARY and at least one INPUT");
  config.dictionary = positional[0];
  config.inputs.assign(positional.begin() + 1, positional.end());
  if (!config.report.empty() && (config.words_mode || config.ranked))
    throw Failure("--report is for the SPEC document mode only");
  if (!config.per_document.empty() && config.words_mode) throw Failure("--per-document needs document mode");
  if (!config.per_document.empty() && (!config.output.empty() || !config.report.empty()))
    throw Failure("--per-document writes that file only: no -o, no --report");
  return config;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Config config = parse_arguments(argc, argv);
    if (!config.per_document.empty()) {
      write_per_document(config);
      return 0;
    }
    std::string out = make_output(config);
    if (config.output.empty()) {
      std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
      std::cout.flush();
      if (!std::cout) throw Failure("cannot write to stdout");
    } else {
      std::ofstream file(config.output, std::ios::binary | std::ios::trunc);
      file.write(out.data(), static_cast<std::streamsize>(out.size()));
      file.close();
      if (!file) {
        std::error_code ec;
        fs::remove(config.output, ec);
        throw Failure("cannot write '" + config.output + "'");
      }
    }
    return 0;
  } catch (const Failure& e) {
    std::cerr << "reference_spellcheck: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "reference_spellcheck: error: " << e.what() << "\n";
    return 2;
  }
}
