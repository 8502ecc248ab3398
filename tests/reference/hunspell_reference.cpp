// hunspell_reference -- the serial reference for hunspell dictionaries
// (SPEC.md, "Hunspell dictionaries"), used only by the tests: SPEC.md's
// tokenizer (reference_text.hpp), and hunspell itself (libhunspell,
// Hunspell::spell) to judge every word and every candidate.
//
//   hunspell_reference [--words] [--max-word-length N] [-o FILE]
//                      [--extra-dict FILE]... [--ignore FILE]... NAME.dic INPUT...
//
// A word is correct when hunspell accepts it; a misspelled word's
// candidates are every string one code point away from it (deleted,
// substituted by a different character, inserted) over the .aff's TRY
// characters, their capitals and a-z A-Z 0-9, that hunspell accepts. Lines
// as SPEC.md orders them. Words are given to hunspell in the dictionary's
// own character set (iconv); a word that set cannot hold is misspelled.
//
// --extra-dict FILE: hunspell's personal dictionary, loaded as hunspell -p
// does (each line: `word` adds, `*word` forbids, `word/EXAMPLE` adds with
// EXAMPLE's affixes; Hunspell::add, remove, add_with_affix). --ignore FILE:
// words (lines) never reported.
//
// Deliberately naive: every candidate string is built and checked.
#include <iconv.h>
#include <unicode/uchar.h>
#include <hunspell/hunspell.hxx>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference_text.hpp"

using namespace reference;

namespace {

// UTF-8 <-> the dictionary's set, with iconv; false when it cannot convert.
bool convert(const std::string& from, const std::string& to, const std::string& in, std::string& out) {
  if (from == to) {
    out = in;
    return true;
  }
  iconv_t cd = iconv_open(to.c_str(), from.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) throw Failure("iconv cannot convert " + from + " to " + to);
  out.assign(in.size() * 4 + 8, '\0');
  char* src = const_cast<char*>(in.data());
  size_t src_left = in.size();
  char* dst = out.data();
  size_t dst_left = out.size();
  const size_t rc = iconv(cd, &src, &src_left, &dst, &dst_left);
  iconv_close(cd);
  if (rc == static_cast<size_t>(-1)) return false;
  out.resize(out.size() - dst_left);
  return true;
}

// hunspell's SET names as iconv knows them.
std::string iconv_name(std::string set) {
  std::string n;
  for (char c : set)
    if (std::isalnum(static_cast<unsigned char>(c)))
      n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "utf8") return "UTF-8";
  if (n.rfind("iso8859", 0) == 0) return n.substr(7) == "11" ? "TIS-620" : "ISO-8859-" + n.substr(7);
  if (n == "koi8r") return "KOI8-R";
  if (n == "koi8u") return "KOI8-U";
  if (n == "cp1251" || n == "microsoftcp1251") return "CP1251";
  if (n == "tis620" || n == "tis6202533") return "TIS-620";
  return set;
}

std::vector<uint32_t> code_points(const std::string& s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    uint32_t c = 0;
    const size_t n = decode_utf8(s, i, c);
    if (n == 0) {  // ASCII (or a byte of no sequence: kept as it is)
      out.push_back(static_cast<unsigned char>(s[i]) | (static_cast<unsigned char>(s[i]) >= 0x80 ? 0x80000000u : 0));
      ++i;
    } else {
      out.push_back(c);
      i += n;
    }
  }
  return out;
}

std::string encode(const std::vector<uint32_t>& w) {
  std::string s;
  for (uint32_t c : w) {
    if (c & 0x80000000u) {
      s += static_cast<char>(c & 0xFF);
    } else {
      append_utf8(s, c);
    }
  }
  return s;
}

struct Config {
  std::vector<std::string> extra_dicts, ignore_lists;
  bool words_mode = false;
  size_t max_word_length = 64;
  std::string output, dictionary;
  std::vector<std::string> inputs;
};

class Oracle {
 public:
  explicit Oracle(const std::string& dic) {
    std::string aff = dic.substr(0, dic.size() - 4) + ".aff";
    hunspell_ = std::make_unique<Hunspell>(aff.c_str(), dic.c_str());
    set_ = iconv_name(hunspell_->get_dic_encoding());
    // TRY and LANG as the .aff writes them: the first field after the keyword.
    std::string try_chars, lang;
    for (const std::string& line : split_lines(read_whole_file(aff))) {
      std::istringstream fields(line);
      std::string key, value;
      fields >> key >> value;
      if (line.rfind("TRY", 0) == 0 && try_chars.empty()) try_chars = value;
      if (line.rfind("LANG", 0) == 0 && lang.empty()) lang = value;
    }
    std::string utf8_try;
    if (!convert(set_, "UTF-8", try_chars, utf8_try)) throw Failure("cannot read the TRY line of " + aff);
    const bool turkic = lang.rfind("tr", 0) == 0 || lang.rfind("az", 0) == 0 || lang.rfind("crh", 0) == 0;
    for (uint32_t c : code_points(utf8_try)) {
      alphabet_.insert(c);
      alphabet_.insert(turkic && c == 'i' ? 0x130 : static_cast<uint32_t>(u_toupper(static_cast<UChar32>(c))));
    }
    for (char c = 'a'; c <= 'z'; ++c) alphabet_.insert(static_cast<uint32_t>(c));
    for (char c = 'A'; c <= 'Z'; ++c) alphabet_.insert(static_cast<uint32_t>(c));
    for (char c = '0'; c <= '9'; ++c) alphabet_.insert(static_cast<uint32_t>(c));
  }

  // hunspell -p's putdic, one line (UTF-8).
  void personal(const std::string& utf8_line) {
    std::string line = clean_line(utf8_line), word, converted;
    if (line.empty() || !convert("UTF-8", set_, line, word)) return;
    if (hunspell_->input_conv(word, converted)) word = converted;
    const size_t slash = word.find('/', 1);
    if (slash == std::string::npos) {
      if (word[0] == '*') hunspell_->remove(word.substr(1));
      else hunspell_->add(word);
      return;
    }
    std::string example = word.substr(slash + 1);
    if (!example.empty() && example[0] == '/') example.erase(0, 1);
    hunspell_->add_with_affix(word.substr(0, slash), example);
  }

  bool correct(const std::string& utf8) {
    std::string word;
    if (!convert("UTF-8", set_, utf8, word)) return false;
    return hunspell_->spell(word);
  }

  std::set<std::string> candidates(const std::string& word) {
    const std::vector<uint32_t> w = code_points(word);
    std::set<std::string> edits;
    for (size_t i = 0; i <= w.size(); ++i) {
      if (i < w.size()) {
        std::vector<uint32_t> t = w;
        t.erase(t.begin() + static_cast<long>(i));
        edits.insert(encode(t));
        for (uint32_t c : alphabet_) {
          if (c == w[i]) continue;
          t = w;
          t[i] = c;
          edits.insert(encode(t));
        }
      }
      for (uint32_t c : alphabet_) {
        std::vector<uint32_t> t = w;
        t.insert(t.begin() + static_cast<long>(i), c);
        edits.insert(encode(t));
      }
    }
    std::set<std::string> found;
    for (const std::string& e : edits)
      if (correct(e)) found.insert(e);
    return found;
  }

 private:
  std::unique_ptr<Hunspell> hunspell_;
  std::string set_;
  std::set<uint32_t> alphabet_;
};

std::set<std::string> collect_words(const Config& config) {
  std::set<std::string> words;
  for (const std::string& file : list_input_files(config.inputs)) {
    const std::string text = read_whole_file(file);
    std::vector<std::string> found;
    if (config.words_mode) {
      for (const std::string& line : split_lines(text))
        if (std::string w = clean_line(line); !w.empty()) found.push_back(w);
    } else {
      std::vector<std::string> tokens;
      tokenize(text, tokens);
      for (const std::string& t : tokens)
        if (!only_ascii_digits(t)) found.push_back(t);
    }
    for (const std::string& w : found)
      if (w.size() <= config.max_word_length) words.insert(w);
  }
  return words;
}

std::string make_output(const Config& config) {
  Oracle oracle(config.dictionary);
  for (const std::string& f : config.extra_dicts)
    for (const std::string& line : split_lines(read_whole_file(f))) oracle.personal(line);
  std::set<std::string> ignored;
  for (const std::string& f : config.ignore_lists)
    for (const std::string& line : split_lines(read_whole_file(f)))
      if (std::string w = clean_line(line); !w.empty()) ignored.insert(w);
  struct Line {
    std::string word;
    std::set<std::string> candidates;
  };
  std::vector<Line> lines;
  for (const std::string& w : collect_words(config))
    if (!ignored.count(w) && !oracle.correct(w)) lines.push_back({w, oracle.candidates(w)});
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (a.candidates.size() != b.candidates.size()) return a.candidates.size() < b.candidates.size();
    return a.word < b.word;
  });
  std::string out;
  for (const Line& l : lines) {
    out += l.word + ": ";
    for (const std::string& c : l.candidates) out += " " + c;
    out += "\n";
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Config config;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const auto value = [&] {
        if (i + 1 >= argc) throw Failure(a + " needs a value");
        return std::string(argv[++i]);
      };
      if (a == "--words") config.words_mode = true;
      else if (a == "--max-word-length") config.max_word_length = std::stoul(value());
      else if (a == "-o") config.output = value();
      else if (a == "--extra-dict") config.extra_dicts.push_back(value());
      else if (a == "--ignore") config.ignore_lists.push_back(value());
      else if (!a.empty() && a[0] == '-' && a != "-") throw Failure("unknown option '" + a + "'");
      else positional.push_back(a);
    }
    if (positional.size() < 2) throw Failure("want NAME.dic and at least one INPUT");
    config.dictionary = positional[0];
    config.inputs.assign(positional.begin() + 1, positional.end());
    const std::string out = make_output(config);
    if (config.output.empty()) {
      std::cout << out;
    } else {
      std::ofstream f(config.output, std::ios::binary);
      f << out;
      if (!f) throw Failure("cannot write '" + config.output + "'");
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "hunspell_reference: error: " << e.what() << "\n";
    return 2;
  }
}
