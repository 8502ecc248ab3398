#include "spellcheck/suggest/noisy_channel.hpp"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/settings.hpp"

namespace spellcheck {

namespace {

bool vowel(char32_t c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }
bool front_vowel(char32_t c) { return c == 'e' || c == 'i' || c == 'y'; }

// phonetic_key runs for every dictionary entry when the index is built:
// its pieces below are forced inline into its loop over the letters (GCC
// leaves code_letter out of line otherwise, a call per letter).

// Letter i of the word w[0, n), or 0 past its end.
[[gnu::always_inline]] inline char32_t letter(const char32_t* w, size_t n, size_t i) { return i < n ? w[i] : 0; }

// Appends a consonant's code unless the key already ends with it.
[[gnu::always_inline]] inline void put(std::string& key, char c) {
  if (key.empty() || key.back() != c) key.push_back(c);
}

// Where coding starts: after a silent first letter (kn, gn, pn, wr, ps),
// wh coded as W, a first vowel as A.
[[gnu::always_inline]] inline size_t code_start(const char32_t* w, size_t n, std::string& key) {
  size_t i = 0;
  if (n >= 2) {
    const char32_t a = w[0], b = w[1];
    if (((a == 'k' || a == 'g' || a == 'p') && b == 'n') || (a == 'w' && b == 'r') || (a == 'p' && b == 's')) i = 1;
    else if (a == 'w' && b == 'h') {
      put(key, 'W');
      i = 2;
    }
  }
  if (i < n && i == 0 && vowel(w[0])) {
    put(key, 'A');
    i = 1;
  }
  return i;
}

// The letters whose sound depends on the letters after them: each returns
// how many of those went into its sound too.
[[gnu::always_inline]] inline size_t code_c(std::string& key, char32_t next) {
  if (next == 'h') {
    put(key, 'X');
    return 1;
  }
  put(key, front_vowel(next) ? 'S' : 'K');
  return 0;
}
[[gnu::always_inline]] inline size_t code_d(const char32_t* w, size_t n, size_t i, std::string& key) {
  if (letter(w, n, i + 1) == 'g' && front_vowel(letter(w, n, i + 2))) {
    put(key, 'J');
    return 1;
  }
  put(key, 'T');
  return 0;
}
[[gnu::always_inline]] inline size_t code_g(const char32_t* w, size_t n, size_t i, std::string& key) {
  const char32_t next = letter(w, n, i + 1);
  if (next == 'h' && !vowel(letter(w, n, i + 2))) return 1;  // silent gh (night, though)
  if (next == 'n') return 0;                                 // gn: silent g
  put(key, front_vowel(next) ? 'J' : 'K');
  return 0;
}
[[gnu::always_inline]] inline size_t code_s(const char32_t* w, size_t n, size_t i, std::string& key) {
  const char32_t next = letter(w, n, i + 1);
  if (next == 'h') {
    put(key, 'X');
    return 1;
  }
  put(key, next == 'i' && (letter(w, n, i + 2) == 'o' || letter(w, n, i + 2) == 'a') ? 'X' : 'S');
  return 0;
}
[[gnu::always_inline]] inline size_t code_t(const char32_t* w, size_t n, size_t i, std::string& key) {
  const char32_t next = letter(w, n, i + 1);
  if (next == 'i' && (letter(w, n, i + 2) == 'o' || letter(w, n, i + 2) == 'a')) {
    put(key, 'X');
    return 0;
  }
  if (next == 'h') {
    put(key, '0');
    return 1;
  }
  put(key, 'T');
  return 0;
}

// Codes letter i of w[0, n) onto key: a consonant sound, '_' where a vowel
// separates two. Returns how many of the letters after it it used up.
[[gnu::always_inline]] inline size_t code_letter(const char32_t* w, size_t n, size_t i, std::string& key) {
  const char32_t c = w[i], next = letter(w, n, i + 1);
  if (c > 'z') {
    key.push_back('?');
    return 0;
  }
  if (i > 0 && c == w[i - 1] && c != 'c') return 0;  // doubled letters sound once
  switch (c) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u':
      if (!key.empty() && key.back() != '_') key.push_back('_');  // a vowel separates, then collapses
      return 0;
    case 'b':
      if (!(i > 0 && w[i - 1] == 'm' && i + 1 == n)) put(key, 'B');
      return 0;
    case 'c': return code_c(key, next);
    case 'd': return code_d(w, n, i, key);
    case 'g': return code_g(w, n, i, key);
    case 'h':
      if (i > 0 && vowel(w[i - 1]) && !vowel(next)) return 0;
      put(key, 'H');
      return 0;
    case 'k':
      if (!(i > 0 && w[i - 1] == 'c')) put(key, 'K');
      return 0;
    case 'p':
      if (next == 'h') {
        put(key, 'F');
        return 1;
      }
      put(key, 'P');
      return 0;
    case 'q': put(key, 'K'); return 0;
    case 's': return code_s(w, n, i, key);
    case 't': return code_t(w, n, i, key);
    case 'v': put(key, 'F'); return 0;
    case 'w':
    case 'y':
      if (vowel(next)) put(key, c == 'w' ? 'W' : 'Y');
      return 0;
    case 'x':
      put(key, 'K');
      put(key, 'S');
      return 0;
    case 'z': put(key, 'S'); return 0;
    default:
      if (c >= 'a' && c <= 'z') put(key, static_cast<char>(c - 32));
      else if (c != '\'' && c != '-') key.push_back(static_cast<char>(c));
      return 0;
  }
}

// Vowel marks only separated consonants: dropped, and the codes they kept
// apart collapse.
std::string without_vowel_marks(const std::string& key) {
  std::string out;
  for (const char ch : key)
    if (ch != '_' && (out.empty() || out.back() != ch)) out.push_back(ch);
  return out;
}

}  // namespace

std::string phonetic_key(const char32_t* w, size_t n) {
  std::string key;
  for (size_t i = code_start(w, n, key); i < n; ++i) i += code_letter(w, n, i, key);
  return without_vowel_marks(key);
}

int64_t channel_prior(uint64_t frequency, uint64_t collection_count, const ChannelWeights& w) {
  int64_t s = std::llround(1000.0 * w.prior_weight * std::log(static_cast<double>(frequency) + w.prior_floor));
  if (collection_count > 0)
    s += std::llround(1000.0 * w.collection_weight * std::log(1.0 + static_cast<double>(collection_count)));
  return s;
}

int64_t channel_score(const EditProfile& e, int sound_distance, uint64_t frequency, uint64_t collection_count,
                      bool capital_mismatch, const ChannelWeights& w) {
  return channel_prior(frequency, collection_count, w) + channel_evidence(e, sound_distance, capital_mismatch, w);
}

int64_t channel_evidence(const EditProfile& e, int sound_distance, bool capital_mismatch, const ChannelWeights& w) {
  int64_t s = 0;
  s -= static_cast<int64_t>(e.transpositions) * w.transposition;
  s -= static_cast<int64_t>(e.substitutions) * w.substitution;
  s -= static_cast<int64_t>(e.keyboard_substitutions) * w.keyboard_substitution;
  s -= static_cast<int64_t>(e.vowel_substitutions) * w.vowel_substitution;
  s -= static_cast<int64_t>(e.insertions) * w.insertion;
  s -= static_cast<int64_t>(e.double_insertions) * w.double_insertion;
  s -= static_cast<int64_t>(e.deletions) * w.deletion;
  s -= static_cast<int64_t>(e.double_deletions) * w.double_deletion;
  s -= static_cast<int64_t>(e.first_letter) * w.first_letter;
  if (sound_distance == 0) s += w.same_sound;
  else if (sound_distance == 1) s += w.near_sound;
  if (e.distance == 0) s += w.case_only;
  if (capital_mismatch) s -= w.capital_mismatch;
  return s;
}

ChannelWeights parse_channel_weights(const std::string& spec, ChannelWeights w) {
  std::string_view rest = spec;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) throw UsageError("channel weight '" + std::string(item) + "' needs name=value");
    const std::string name(item.substr(0, eq)), value(item.substr(eq + 1));
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') throw UsageError("channel weight " + name + " needs a number");
    const int iv = static_cast<int>(std::lround(v));
    if (name == "prior_weight") w.prior_weight = v;
    else if (name == "prior_floor") w.prior_floor = v;
    else if (name == "collection_weight") w.collection_weight = v;
    else if (name == "transposition") w.transposition = iv;
    else if (name == "substitution") w.substitution = iv;
    else if (name == "keyboard_substitution") w.keyboard_substitution = iv;
    else if (name == "vowel_substitution") w.vowel_substitution = iv;
    else if (name == "insertion") w.insertion = iv;
    else if (name == "double_insertion") w.double_insertion = iv;
    else if (name == "deletion") w.deletion = iv;
    else if (name == "double_deletion") w.double_deletion = iv;
    else if (name == "first_letter") w.first_letter = iv;
    else if (name == "same_sound") w.same_sound = iv;
    else if (name == "near_sound") w.near_sound = iv;
    else if (name == "case_only") w.case_only = iv;
    else if (name == "capital_mismatch") w.capital_mismatch = iv;
    else if (name == "likely_replacement") w.likely_replacement = iv;
    else throw UsageError("unknown channel weight '" + name + "'");
  }
  return w;
}

const ChannelWeights& channel_weights() {
  static const ChannelWeights w = [] {
    const char* spec = settings::channel_weights();
    return spec ? parse_channel_weights(spec, ChannelWeights{}) : ChannelWeights{};
  }();
  return w;
}

const ChannelWeights& language_channel_weights() {
  static const ChannelWeights w = [] {
    ChannelWeights base;
    base.prior_weight = 0.3;
    base.first_letter = 1000;
    const char* spec = settings::channel_weights();
    return spec ? parse_channel_weights(spec, base) : base;
  }();
  return w;
}

}  // namespace spellcheck
