#include "spellcheck/input/detail/nroff_filter.hpp"
#include "spellcheck/common/utf8.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "spellcheck/input/detail/filter_cursor.hpp"

namespace spellcheck {

namespace {

// Constructs are parsed from the buffer with at most this much lookahead
// (well under kMarkupMaxHeld): a longer \[name] or \h'...' is not one.
constexpr size_t kMaxName = 40;
constexpr size_t kMaxDelimited = 128;

// The bytes the text scan stops at.
constexpr std::array<bool, 256> make_text_stops() {
  std::array<bool, 256> t{};
  t['\\'] = t['\n'] = t['"'] = true;
  return t;
}
constexpr std::array<bool, 256> kTextStops = make_text_stops();

// Macros whose arguments are prose (man(7), and mdoc's text macros).
constexpr std::string_view kProseMacros[] = {"B",  "BI", "BR", "Dq", "Em", "I",  "IB", "IP", "IR", "Pq", "Qq", "RB",
                                             "RI", "SB", "SH", "SM", "SS", "Sh", "Sq", "Ss", "Sy", "Tn", "Nd", "Ql"};
// mdoc macros that may be called on a text macro's line.
constexpr std::string_view kMdocCallable[] = {"Ad", "An", "Ao", "Ac", "Ar", "Bo", "Bc", "Cd", "Cm", "Do", "Dc",
                                              "Dq", "Dv", "Em", "Er", "Ev", "Fa", "Fl", "Fn", "Ft", "Ic", "Li",
                                              "Nm", "No", "Ns", "Oo", "Oc", "Op", "Pa", "Po", "Pc", "Pq", "Ql",
                                              "Qo", "Qc", "Qq", "So", "Sc", "Sq", "Sx", "Sy", "Tn", "Va", "Xr"};
// Requests that open a macro definition or ignored block, ended by "..".
constexpr std::string_view kDefinitions[] = {"am", "am1", "ami", "de", "de1", "dei", "ig"};

// A request or macro name of at most 3 bytes as one integer (0 for a
// longer or empty one), so that the lists are searched without memcmp: a
// man page is mostly control lines.
constexpr uint32_t name_key(std::string_view name) {
  if (name.empty() || name.size() > 3) return 0;
  uint32_t key = 0;
  for (char ch : name) key = key << 8 | static_cast<unsigned char>(ch);
  return key;
}

template <size_t N>
constexpr std::array<uint32_t, N> name_keys(const std::string_view (&names)[N]) {
  std::array<uint32_t, N> keys{};
  for (size_t i = 0; i < N; ++i) keys[i] = name_key(names[i]);
  return keys;
}

constexpr auto kProseMacroKeys = name_keys(kProseMacros);
constexpr auto kMdocCallableKeys = name_keys(kMdocCallable);
constexpr auto kDefinitionKeys = name_keys(kDefinitions);

template <size_t N>
bool listed(const std::array<uint32_t, N>& keys, uint32_t key) {
  return key != 0 && std::find(keys.begin(), keys.end(), key) != keys.end();
}

Accent nroff_accent(unsigned char c) {
  switch (c) {
    case '\'': return Accent::acute;
    case '`': return Accent::grave;
    case '^': return Accent::circumflex;
    case ':': return Accent::diaeresis;
    case '~': return Accent::tilde;
    case ',': return Accent::cedilla;
    case 'v': return Accent::caron;
    case '"': return Accent::double_acute;
    case '-': return Accent::macron;
    case '.': return Accent::dot;
    case 'u': return Accent::breve;
    case ';': return Accent::ogonek;
    case 'o': return Accent::ring;
    default: return Accent::none;
  }
}

// Two-character special characters that are letters (or the apostrophe).
constexpr std::string_view kLetterChars[][2] = {
    {"ss", "ß"}, {"ae", "æ"}, {"AE", "Æ"}, {"oe", "œ"}, {"OE", "Œ"}, {"/o", "ø"}, {"/O", "Ø"}, {"-D", "Ð"},
    {"Sd", "ð"}, {"TP", "Þ"}, {"Tp", "þ"}, {".i", "ı"}, {"/l", "ł"}, {"/L", "Ł"}, {"aq", "'"}, {"cq", "'"}};

// UTF-8 of cp into out (room for 4); its length.
// A special character's name (the xx of \(xx, \[xx]) decoded to a word
// character into out; its length, 0 when it is none.
size_t decode_special(std::string_view name, unsigned char* out) {
  if (name.size() == 2) {
    if (size_t k =
            compose_accent(nroff_accent(static_cast<unsigned char>(name[0])), static_cast<unsigned char>(name[1]), out))
      return k;
    for (const auto& [from, to] : kLetterChars)
      if (from == name) return std::memcpy(out, to.data(), to.size()), to.size();
    return 0;
  }
  // \[u00E9]: a Unicode code point.
  if (name.size() < 5 || name.size() > 7 || name[0] != 'u') return 0;
  uint32_t cp = 0;
  for (char ch : name.substr(1)) {
    const int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
    if (d < 0) return 0;
    cp = cp * 16 + static_cast<uint32_t>(d);
  }
  return is_word_code_point(cp) ? write_utf8(cp, out) : 0;
}

// A bounded view of the bytes from a construct's start: reading past the
// available bytes records that the construct may be cut (then, unless at
// the end of the file, the filter waits for more).
// The length of a name argument starting at i: "x", "(xx" or "[name]".
size_t name_arg_end(Peek& pk, size_t i) {
  const int ch = pk[i];
  if (ch == '(') return pk[i + 1] < 0 || pk[i + 2] < 0 ? i : i + 3;
  if (ch == '[') {
    const size_t close = pk.find(i + 1, ']', kMaxName);
    return close ? close + 1 : i + 1;
  }
  return ch < 0 || ch == '\n' ? i : i + 1;
}

// \s: a size change, "\s+2", "\s0", "\s12", "\s(12", "\s[12]", "\s'12'".
size_t size_escape_end(Peek& pk) {
  size_t i = 2;
  if (pk[i] == '+' || pk[i] == '-') ++i;
  const int ch = pk[i];
  if (ch == '(' || ch == '[') return name_arg_end(pk, i);
  if (ch == '\'') {
    const size_t close = pk.find(i + 1, '\'', kMaxName);
    return close ? close + 1 : i + 1;
  }
  if (ch < '0' || ch > '9') return i;
  const int next = pk[i + 1];
  return ch >= '1' && ch <= '3' && next >= '0' && next <= '9' ? i + 2 : i + 1;
}

constexpr std::array<bool, 256> byte_set(std::string_view bytes) {
  std::array<bool, 256> set{};
  for (char ch : bytes) set[static_cast<unsigned char>(ch)] = true;
  return set;
}
// Escapes with a delimited argument: \h'1i', \w'text', \v'-1v', ...
constexpr auto kDelimitedEscapes = byte_set("hvwlLDxboXZNABCRS");
// Escapes taking a name: strings, registers, fonts, colours, macro arguments.
constexpr auto kNamedEscapes = byte_set("*nfgkmMFYV$");
// Zero-width escapes: they join the word around them.
constexpr auto kJoiningEscapes = byte_set("&%|^),/:");

class NroffFilter final : public MarkupFilter {
 public:
  size_t filter(unsigned char* buf, size_t n, bool at_end) override {
    FilterCursor c{buf, n};
    c.r = gap_;
    while (c.r < n && step(c, at_end)) {
    }
    return c.finish(at_end, gap_);
  }

 private:
  // skip_line: to the line's end, with continuation lines; comment: to the
  // line's end; definition: to a ".." line; example: to ".EE"; table_head:
  // a table's options and format, to the line ending in '.'.
  enum class Mode : uint8_t { text, skip_line, comment, definition, example, table_head };

  // One construct or run at c.r; false: it needs more bytes.
  bool step(FilterCursor& c, bool at_end) {
    switch (mode_) {
      case Mode::text: return text(c, at_end);
      case Mode::skip_line:
      case Mode::comment:
      case Mode::table_head: return skip_line(c);
      case Mode::definition:
      case Mode::example: return block(c, at_end);
    }
    return true;
  }

  bool text(FilterCursor& c, bool at_end) {
    const unsigned char ch = c.b[c.r];
    if (line_start_ && (ch == '.' || ch == '\'')) return control_line(c, at_end);
    line_start_ = false;
    if (ch == '\n') {
      args_left_ = 0;
      mdoc_ = false;
      c.keep(1);
      line_start_ = true;
      macro_args_ = false;
    } else if (args_left_ > 0 && macro_args_ && !end_of_arg(c, ch)) {
      return true;
    } else if (mdoc_ && (ch == ' ' || ch == '\t')) {
      return mdoc_space(c, at_end);
    } else if (ch == '\\') {
      return escape(c, at_end);
    } else if (ch == '"' && macro_args_) {
      c.blank(1);
      in_quotes_ = !in_quotes_;
    } else {
      size_t e = c.r + 1;
      if (args_left_ > 0 || mdoc_) {
        while (e < c.n && !kTextStops[c.b[e]] && c.b[e] > ' ') ++e;
      } else {
        e = find_stop<'\\', '\n', '"'>(c.b, e, c.n);
      }
      c.keep(e - c.r);
    }
    return true;
  }

  // On an mdoc text macro's line: spaces, then maybe a callable macro's
  // name (".Sy Dq word"), blanked.
  bool mdoc_space(FilterCursor& c, bool at_end) {
    Peek pk{c.b + c.r, c.n - c.r};
    size_t i = 1;
    while (i < 16 && (pk[i] == ' ' || pk[i] == '\t')) ++i;
    const int a = pk[i], b = pk[i + 1], after = pk[i + 2];
    if (pk.cut && !at_end) return false;
    c.keep(i);
    if (a >= 'A' && a <= 'Z' && b >= 'a' && b <= 'z' && (after == ' ' || after == '\n' || after < 0) &&
        listed(kMdocCallableKeys, name_key(std::string_view(reinterpret_cast<const char*>(c.b + c.r), 2))))
      c.blank(2);
    return true;
  }

  // On a macro line with a number of prose arguments (.IP's tag): counts
  // them; after the last, the rest of the line is blanked. False when the
  // byte was a space that ended an argument (consumed).
  bool end_of_arg(FilterCursor& c, unsigned char ch) {
    if (in_quotes_ || (ch != ' ' && ch != '\t')) {
      in_arg_ = true;
      return true;
    }
    c.keep(1);
    if (in_arg_ && --args_left_ == 0) mode_ = Mode::comment;
    in_arg_ = false;
    return false;
  }

  // A line starting with '.' or '\'': the request or macro decides.
  bool control_line(FilterCursor& c, bool at_end) {
    Peek pk{c.b + c.r, c.n - c.r};
    size_t i = 1;
    while (pk[i] == ' ' || pk[i] == '\t') ++i;
    const size_t name_at = i;
    for (int ch = pk[i]; ch > ' ' && ch != '\\' && i < name_at + kMaxName; ch = pk[++i]) {
    }
    if (pk.cut && !at_end) return false;
    line_start_ = false;
    const std::string_view name(reinterpret_cast<const char*>(c.b + c.r + name_at), i - name_at);
    const uint32_t key = name_key(name);
    if (listed(kProseMacroKeys, key)) {
      args_left_ = key == name_key("IP") ? 1 : 0;  // .IP tag indent (before the name is blanked)
      mdoc_ = name.size() == 2 && name[1] >= 'a' && name[1] <= 'z';
      c.blank(i);
      macro_args_ = true;
      in_quotes_ = in_arg_ = false;
      return true;
    }
    if (listed(kDefinitionKeys, key)) mode_ = Mode::definition;
    else if (key == name_key("EX")) mode_ = Mode::example;
    else if (key == name_key("TS")) mode_ = Mode::table_head;
    else mode_ = Mode::skip_line;
    prev_ = 0;
    return true;
  }

  // Blanks to the line's end; at the '\n' the mode's line ends (unless a
  // request line continues: '\\' before the '\n').
  bool skip_line(FilterCursor& c) {
    const size_t e = find_stop<'\n'>(c.b, c.r, c.n);
    const bool nl = e < c.n;
    for (size_t i = e; i > c.r; --i)
      if (c.b[i - 1] > ' ') {
        prev_ = c.b[i - 1];
        break;
      }
    const unsigned char last = e > c.r ? c.b[e - 1] : prev_;
    c.blank(e - c.r);
    if (!nl) return true;
    if (mode_ == Mode::comment) {
      mode_ = Mode::text;  // the '\n' is the text's
      return true;
    }
    c.blank(1);
    line_start_ = true;
    if (mode_ == Mode::skip_line && last == '\\') return true;
    if (mode_ == Mode::table_head && prev_ != '.') {
      prev_ = 0;
      return true;
    }
    mode_ = Mode::text;
    return true;
  }

  // In a definition or an example: a line at a time, each blanked, to the
  // line that ends the block.
  bool block(FilterCursor& c, bool at_end) {
    if (line_start_) {
      Peek pk{c.b + c.r, c.n - c.r};
      const bool ends =
          mode_ == Mode::definition ? pk[0] == '.' && pk[1] == '.' : pk[0] == '.' && pk[1] == 'E' && pk[2] == 'E';
      if (pk.cut && !at_end) return false;
      line_start_ = false;
      if (ends) mode_ = Mode::skip_line;
      return true;
    }
    const void* nl = std::memchr(c.b + c.r, '\n', c.n - c.r);
    const size_t e = nl ? static_cast<size_t>(static_cast<const unsigned char*>(nl) - c.b) + 1 : c.n;
    c.blank(e - c.r);
    line_start_ = nl != nullptr;
    return true;
  }

  bool escape(FilterCursor& c, bool at_end) {
    Peek pk{c.b + c.r, c.n - c.r};
    const int e = pk[1];
    if (e < 0) {
      if (!at_end) return false;
      c.blank(1);
      return true;
    }
    size_t len = 2;
    unsigned char out[8];
    size_t k = 0;
    if (e == '"' || e == '#') {
      mode_ = Mode::comment;
      return true;
    } else if (e == '\n') {
      c.blank(2);  // a continued line: what follows is no line start
      return true;
    } else if (kJoiningEscapes[static_cast<unsigned char>(e)]) {
      c.drop(2);
      return true;
    } else if (e == '(' || e == '[') {
      len = name_arg_end(pk, 1);  // the name: from 2 to len ("\(xx") or len - 1 ("\[name]")
      if (len > 2) k = decode_special({reinterpret_cast<const char*>(c.b + c.r + 2), len - 2 - (e == '[')}, out);
    } else if (e == 's') {
      len = size_escape_end(pk);
    } else if (kNamedEscapes[static_cast<unsigned char>(e)]) {
      const size_t at = e == 'n' && (pk[2] == '+' || pk[2] == '-') ? 3 : 2;
      len = name_arg_end(pk, at);
    } else if (kDelimitedEscapes[static_cast<unsigned char>(e)]) {
      const int delim = pk[2];
      const size_t close = delim > ' ' ? pk.find(3, delim, kMaxDelimited) : 0;
      len = close ? close + 1 : 2;
    }
    if (pk.cut && !at_end) return false;
    if (k > 0) c.put(out, k, len);
    else c.blank(len);
    return true;
  }

  Mode mode_ = Mode::text;
  bool line_start_ = true;   // c.r is at a line's first byte
  bool macro_args_ = false;  // on a text macro's line: its quotes are blanked
  bool in_quotes_ = false;   // macro_args_: inside a quoted argument
  bool in_arg_ = false;      // args_left_ > 0: an argument has begun
  int args_left_ = 0;        // > 0: prose arguments left on the line (.IP)
  bool mdoc_ = false;        // on an mdoc text macro's line (.Sy, .Nd, ...)
  unsigned char prev_ = 0;   // skip_line: the last non-space byte seen
  size_t gap_ = 0;           // bytes at the next piece's start already consumed
};

}  // namespace

std::unique_ptr<MarkupFilter> make_nroff_filter() { return std::make_unique<NroffFilter>(); }

}  // namespace spellcheck
