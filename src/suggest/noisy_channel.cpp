#include "spellcheck/suggest/noisy_channel.hpp"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/settings.hpp"

namespace spellcheck {

namespace {

bool vowel(char32_t c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

}  // namespace

std::string phonetic_key(const char32_t* w, size_t n) {
  std::string key;
  auto at = [&](size_t i) -> char32_t { return i < n ? w[i] : 0; };
  auto front_vowel = [](char32_t c) { return c == 'e' || c == 'i' || c == 'y'; };
  auto put = [&](char c) {
    if (key.empty() || key.back() != c) key.push_back(c);
  };
  size_t i = 0;
  // Silent first letters.
  if (n >= 2) {
    const char32_t a = w[0], b = w[1];
    if (((a == 'k' || a == 'g' || a == 'p') && b == 'n') || (a == 'w' && b == 'r') || (a == 'p' && b == 's')) i = 1;
    else if (a == 'w' && b == 'h') {
      put('W');
      i = 2;
    }
  }
  if (i < n && i == 0 && vowel(w[0])) {
    put('A');
    i = 1;
  }
  for (; i < n; ++i) {
    const char32_t c = w[i], next = at(i + 1);
    if (c > 'z') {
      key.push_back('?');
      continue;
    }
    if (i > 0 && c == w[i - 1] && c != 'c') continue;  // doubled letters sound once
    switch (c) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
        if (!key.empty() && key.back() != '_') key.push_back('_');  // a vowel separates, then collapses
        break;
      case 'b':
        if (!(i > 0 && w[i - 1] == 'm' && i + 1 == n)) put('B');
        break;
      case 'c':
        if (next == 'h') {
          put('X');
          ++i;
        } else if (front_vowel(next)) {
          put('S');
        } else {
          put('K');
        }
        break;
      case 'd':
        if (next == 'g' && front_vowel(at(i + 2))) {
          put('J');
          ++i;
        } else {
          put('T');
        }
        break;
      case 'g':
        if (next == 'h' && !vowel(at(i + 2))) {
          ++i;  // silent gh (night, though)
        } else if (next == 'n') {
          // gn: silent g
        } else if (front_vowel(next)) {
          put('J');
        } else {
          put('K');
        }
        break;
      case 'h':
        if (i > 0 && vowel(w[i - 1]) && !vowel(next)) break;
        put('H');
        break;
      case 'k':
        if (!(i > 0 && w[i - 1] == 'c')) put('K');
        break;
      case 'p':
        if (next == 'h') {
          put('F');
          ++i;
        } else {
          put('P');
        }
        break;
      case 'q': put('K'); break;
      case 's':
        if (next == 'h') {
          put('X');
          ++i;
        } else if (next == 'i' && (at(i + 2) == 'o' || at(i + 2) == 'a')) {
          put('X');
        } else {
          put('S');
        }
        break;
      case 't':
        if (next == 'i' && (at(i + 2) == 'o' || at(i + 2) == 'a')) {
          put('X');
        } else if (next == 'h') {
          put('0');
          ++i;
        } else {
          put('T');
        }
        break;
      case 'v': put('F'); break;
      case 'w':
      case 'y':
        if (vowel(next)) put(c == 'w' ? 'W' : 'Y');
        break;
      case 'x':
        put('K');
        put('S');
        break;
      case 'z': put('S'); break;
      default:
        if (c >= 'a' && c <= 'z') put(static_cast<char>(c - 32));
        else if (c != '\'' && c != '-') key.push_back(static_cast<char>(c));
    }
  }
  // Vowel marks only separated consonants: drop them.
  std::string out;
  for (const char ch : key)
    if (ch != '_' && (out.empty() || out.back() != ch)) out.push_back(ch);
  return out;
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
