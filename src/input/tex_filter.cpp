#include "spellcheck/input/detail/tex_filter.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "spellcheck/input/detail/filter_cursor.hpp"

namespace spellcheck {

namespace {

// Constructs are parsed with at most about this much lookahead (well under
// kMarkupMaxHeld); a longer control word is blanked in two steps.
constexpr size_t kMaxName = 64;

bool is_letter(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

// Commands whose first `args` arguments (and optional [...] ones before
// them) are not prose. Sorted by name.
struct SkipArgs {
  std::string_view name;
  int args;
};
constexpr SkipArgs kSkipArgs[] = {
    {"Cref", 1},
    {"DeclareMathOperator", 2},
    {"RequirePackage", 1},
    {"addtocounter", 2},
    {"addtolength", 2},
    {"autocite", 1},
    {"autoref", 1},
    {"bibitem", 1},
    {"bibliography", 1},
    {"bibliographystyle", 1},
    {"cite", 1},
    {"citealp", 1},
    {"citeauthor", 1},
    {"citep", 1},
    {"citet", 1},
    {"citeyear", 1},
    {"cline", 1},
    {"color", 1},
    {"cref", 1},
    {"def", 2},
    {"definecolor", 3},
    {"documentclass", 1},
    {"epsffile", 1},
    {"eqref", 1},
    {"fontsize", 2},
    {"footcite", 1},
    {"geometry", 1},
    {"graphicspath", 1},
    {"href", 1},
    {"hspace", 1},
    {"hypersetup", 1},
    {"include", 1},
    {"includegraphics", 1},
    {"includeonly", 1},
    {"input", 1},
    {"label", 1},
    {"lstset", 1},
    {"multicolumn", 2},
    {"nameref", 1},
    {"newcommand", 2},
    {"newcounter", 1},
    {"newenvironment", 3},
    {"newlength", 1},
    {"nocite", 1},
    {"nolinkurl", 1},
    {"pagenumbering", 1},
    {"pageref", 1},
    {"pagestyle", 1},
    {"parbox", 1},
    {"parencite", 1},
    {"providecommand", 2},
    {"raisebox", 1},
    {"ref", 1},
    {"refstepcounter", 1},
    {"renewcommand", 2},
    {"renewenvironment", 3},
    {"resizebox", 2},
    {"rule", 2},
    {"scalebox", 1},
    {"setcounter", 2},
    {"setlength", 2},
    {"stepcounter", 1},
    {"textcite", 1},
    {"textcolor", 1},
    {"thispagestyle", 1},
    {"url", 1},
    {"usepackage", 1},
    {"vref", 1},
    {"vspace", 1},
};
static_assert(std::is_sorted(std::begin(kSkipArgs), std::end(kSkipArgs),
                             [](const SkipArgs& a, const SkipArgs& b) { return a.name < b.name; }));

// -1: not a command with non-prose arguments.
int skipped_args(std::string_view name) {
  const auto it = std::lower_bound(std::begin(kSkipArgs), std::end(kSkipArgs), name,
                                   [](const SkipArgs& a, std::string_view n) { return a.name < n; });
  return it != std::end(kSkipArgs) && it->name == name ? it->args : -1;
}

constexpr std::string_view kVerbatimEnvs[] = {"BVerbatim",  "LVerbatim",    "Verbatim",      "Verbatim*",  "alltt",
                                              "comment",    "filecontents", "filecontents*", "lstlisting", "minted",
                                              "spverbatim", "verbatim",     "verbatim*"};
constexpr std::string_view kMathEnvs[] = {"align",    "align*",    "alignat",  "alignat*",  "displaymath", "dmath",
                                          "eqnarray", "eqnarray*", "equation", "equation*", "flalign",     "flalign*",
                                          "gather",   "gather*",   "math",     "multline",  "multline*"};
// Environments with non-prose arguments after \begin{name}.
constexpr SkipArgs kEnvArgs[] = {{"array", 1},           {"longtable", 1}, {"minipage", 1}, {"multicols", 1},
                                 {"tabular", 1},         {"tabular*", 2},  {"tabularx", 2}, {"tabulary", 2},
                                 {"thebibliography", 1}, {"wrapfigure", 2}};

template <size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

int env_args(std::string_view name) {
  for (const auto& e : kEnvArgs)
    if (e.name == name) return e.args;
  return 0;
}

Accent symbol_accent(int ch) {
  switch (ch) {
    case '\'': return Accent::acute;
    case '`': return Accent::grave;
    case '^': return Accent::circumflex;
    case '"': return Accent::diaeresis;
    case '~': return Accent::tilde;
    case '=': return Accent::macron;
    case '.': return Accent::dot;
    default: return Accent::none;
  }
}

// Accent commands named by a letter (\c{c}, \v s); d, b and t have no
// composed letters here: the base letter stays.
bool letter_accent(std::string_view name, Accent& a) {
  if (name.size() != 1) return false;
  switch (name[0]) {
    case 'c': a = Accent::cedilla; return true;
    case 'v': a = Accent::caron; return true;
    case 'H': a = Accent::double_acute; return true;
    case 'u': a = Accent::breve; return true;
    case 'k': a = Accent::ogonek; return true;
    case 'r': a = Accent::ring; return true;
    case 'd':
    case 'b':
    case 't': a = Accent::none; return true;
    default: return false;
  }
}

// Letters named by a control word: \ss -> ß, \o -> ø, \i -> ı, ...
constexpr std::string_view kLetterMacros[][2] = {{"AA", "Å"}, {"AE", "Æ"}, {"DH", "Ð"}, {"L", "Ł"},  {"NG", "Ŋ"},
                                                 {"O", "Ø"},  {"OE", "Œ"}, {"TH", "Þ"}, {"aa", "å"}, {"ae", "æ"},
                                                 {"dh", "ð"}, {"dj", "đ"}, {"i", "ı"},  {"j", "ȷ"},  {"l", "ł"},
                                                 {"ng", "ŋ"}, {"o", "ø"},  {"oe", "œ"}, {"ss", "ß"}, {"th", "þ"}};

std::string_view letter_macro(std::string_view name) {
  for (const auto& [from, to] : kLetterMacros)
    if (from == name) return to;
  return {};
}

constexpr size_t kNeedMore = SIZE_MAX;

// The base of an accent at j: "e", "{e}", "\i", "{\i}"; 0 when none.
int accent_base(Peek& pk, size_t& j) {
  const int ch = pk[j];
  if (is_letter(ch)) return ++j, ch;
  const bool braced = ch == '{';
  const size_t at = braced ? j + 1 : j;
  int base = 0;
  size_t e = at;
  if (is_letter(pk[at])) base = pk[at], e = at + 1;
  else if (pk[at] == '\\' && (pk[at + 1] == 'i' || pk[at + 1] == 'j') && !is_letter(pk[at + 2]))
    base = pk[at + 1], e = at + 2;
  if (!base || (braced && pk[e] != '}')) return 0;
  j = braced ? e + 1 : e;
  return base;
}

// An accented letter at pk[0] ('\\' or '{' of "{\'e}"): its length in the
// source (0: none, kNeedMore: cut), the UTF-8 in out[0, k).
size_t parse_accent(Peek& pk, bool at_end, unsigned char* out, size_t& k, bool& letter_word) {
  const bool group = pk[0] == '{';
  const size_t i = group ? 1 : 0;
  size_t j = 0;
  int base = 0;
  Accent a = Accent::none;
  letter_word = false;
  if (pk[i] != '\\') return pk[i] < 0 && !at_end ? kNeedMore : 0;
  if (a = symbol_accent(pk[i + 1]); a != Accent::none) {
    j = i + 2;
    base = accent_base(pk, j);
    letter_word = !group && base != 0 && pk[j - 2] == '\\';  // na\"\i ve: TeX skips the space
  } else if (is_letter(pk[i + 1])) {
    const size_t e = pk.letters_end(i + 1, kMaxName);
    const std::string_view name(reinterpret_cast<const char*>(pk.p + i + 1), std::min(e, pk.avail) - i - 1);
    const std::string_view letter = pk.cut && !at_end ? std::string_view() : letter_macro(name);
    if (!letter.empty()) {
      std::memcpy(out, letter.data(), k = letter.size());
      j = e;
      letter_word = !group;
    } else if (!(pk.cut && !at_end) && letter_accent(name, a)) {
      j = e;
      const bool spaced = pk[j] == ' ';
      while (pk[j] == ' ' && j < e + 8) ++j;
      if (spaced || !is_letter(pk[j])) base = accent_base(pk, j);
    }
  }
  if (!letter_word && k == 0 && base == 0) return pk.cut && !at_end ? kNeedMore : 0;
  if (group && pk[j++] != '}') return pk.cut && !at_end ? kNeedMore : 0;
  if (pk.cut && !at_end) return kNeedMore;
  if (base != 0) {
    k = compose_accent(a, static_cast<unsigned char>(base), out);
    if (k == 0) out[k++] = static_cast<unsigned char>(base);
  }
  return j;
}

class TexFilter final : public MarkupFilter {
 public:
  size_t filter(unsigned char* buf, size_t n, bool at_end) override {
    FilterCursor c{buf, n};
    c.r = gap_;
    while (c.r < n && step(c, at_end)) {
    }
    return c.finish(at_end, gap_);
  }

 private:
  enum class Mode : uint8_t { text, comment, math, math_env, verbatim_env, verb, verb_start, args, name_rest };
  enum class MathEnd : uint8_t { dollar, dollars, paren, bracket };

  bool step(FilterCursor& c, bool at_end) {
    switch (mode_) {
      case Mode::text: return text(c, at_end);
      case Mode::comment: return comment(c);
      case Mode::math: return math(c, at_end);
      case Mode::math_env:
      case Mode::verbatim_env: return until_end(c, at_end);
      case Mode::verb: return verb(c);
      case Mode::verb_start: return verb_start(c);
      case Mode::args: return args(c, at_end);
      case Mode::name_rest: return name_rest(c);
    }
    return true;
  }

  bool text(FilterCursor& c, bool at_end) {
    const unsigned char ch = c.b[c.r];
    if (eat_spaces_) {
      if (ch == ' ' || ch == '\t') return c.drop(1), true;
      eat_spaces_ = false;
    }
    switch (ch) {
      case '\\': return control(c, at_end);
      case '%': mode_ = Mode::comment; return true;
      case '$': {
        if (c.r + 1 == c.n && !at_end) return false;
        const bool two = c.r + 1 < c.n && c.b[c.r + 1] == '$';
        c.blank(two ? 2 : 1);
        return enter_math(two ? MathEnd::dollars : MathEnd::dollar);
      }
      case '{': return group(c, at_end);
      case '}':
      case '~':
      case '&':
      case '`': c.blank(1); return true;
      case '\'': {
        if (c.r + 1 == c.n && !at_end) return false;
        if (c.r + 1 < c.n && c.b[c.r + 1] == '\'') c.blank(2);
        else c.keep(1);
        return true;
      }
      default: {
        const size_t e = find_stop<'\\', '%', '$', '{', '}', '~', '&', '`', '\''>(c.b, c.r + 1, c.n);
        c.keep(e - c.r);
        return true;
      }
    }
  }

  bool enter_math(MathEnd end) {
    mode_ = Mode::math;
    math_end_ = end;
    return true;
  }

  // '{': "{\'e}" and "{\ss}" are letters; any other brace is blanked.
  bool group(FilterCursor& c, bool at_end) {
    Peek pk{c.b + c.r, c.n - c.r};
    unsigned char out[4];
    size_t k = 0;
    bool letter_word;
    const size_t len = parse_accent(pk, at_end, out, k, letter_word);
    if (len == kNeedMore) return false;
    if (len == 0) c.blank(1);
    else c.put(out, k, len);
    return true;
  }

  // A control word or symbol at c.r.
  bool control(FilterCursor& c, bool at_end) {
    Peek pk{c.b + c.r, c.n - c.r};
    unsigned char out[4];
    size_t k = 0;
    bool letter_word;
    const size_t len = parse_accent(pk, at_end, out, k, letter_word);
    if (len == kNeedMore) return false;
    if (len != 0) {
      c.put(out, k, len);
      eat_spaces_ = letter_word;
      return true;
    }
    const int e = pk[1];
    if (e < 0) {
      if (!at_end) return false;
      c.blank(1);
      return true;
    }
    if (is_letter(e)) return control_word(c, at_end, pk);
    return control_symbol(c, static_cast<unsigned char>(e));
  }

  bool control_symbol(FilterCursor& c, unsigned char e) {
    switch (e) {
      case '(': c.blank(2); return enter_math(MathEnd::paren);
      case '[': c.blank(2); return enter_math(MathEnd::bracket);
      case '-':
      case '/':
      case '@': c.drop(2); return true;             // zero width: the word goes on
      case '\\': c.blank(2); return enter_args(0);  // "\\[2pt]"
      default: c.blank(2); return true;
    }
  }

  bool control_word(FilterCursor& c, bool at_end, Peek& pk) {
    const size_t e = pk.letters_end(1, kMaxName);
    if (pk.cut && !at_end) return false;
    const size_t end = std::min(e, pk.avail);
    const std::string_view name(reinterpret_cast<const char*>(c.b + c.r + 1), end - 1);
    if (end - 1 == kMaxName) {
      c.blank(end);
      mode_ = Mode::name_rest;
      return true;
    }
    if (name == "begin" || name == "end") return environment(c, at_end, pk, end, name == "begin");
    if (name == "verb" || name == "lstinline") {
      c.blank(end);
      mode_ = Mode::verb_start;
      return true;
    }
    const int n = skipped_args(name);  // before the name is blanked
    c.blank(end);
    return n >= 0 ? enter_args(n) : true;
  }

  bool enter_args(int n) {
    mode_ = Mode::args;
    args_left_ = n;
    opt_ok_ = true;
    in_opt_ = false;
    depth_ = 0;
    return true;
  }

  // \begin{name} or \end{name} (name_end: after "begin"/"end").
  bool environment(FilterCursor& c, bool at_end, Peek& pk, size_t name_end, bool begin) {
    size_t i = name_end;
    while (pk[i] == ' ') ++i;
    size_t close = 0;
    if (pk[i] == '{')
      for (size_t j = i + 1; j < i + 1 + sizeof env_ && close == 0; ++j) {
        const int ch = pk[j];
        if (ch == '}') close = j;
        if (ch < 0 || ch == '\n' || ch == '\\') break;
      }
    if (pk.cut && !at_end && close == 0) return false;
    if (close == 0) {
      c.blank(name_end);
      return true;
    }
    const std::string_view name(reinterpret_cast<const char*>(c.b + c.r + i + 1), close - i - 1);
    if (!begin) {
      c.blank(close + 1);
      return true;
    }
    int args = -1;  // -1: verbatim or math
    if (listed(kMathEnvs, name)) mode_ = Mode::math_env;
    else if (listed(kVerbatimEnvs, name)) mode_ = Mode::verbatim_env;
    else args = env_args(name);
    env_len_ = name.size();
    std::memcpy(env_, name.data(), env_len_);
    c.blank(close + 1);
    return args < 0 ? true : enter_args(args);
  }

  bool comment(FilterCursor& c) {
    const void* nl = std::memchr(c.b + c.r, '\n', c.n - c.r);
    c.blank(nl ? static_cast<size_t>(static_cast<const unsigned char*>(nl) - c.b) - c.r : c.n - c.r);
    if (nl) mode_ = Mode::text;
    return true;
  }

  // In math: blanked to its end ($, $$, \), \]).
  bool math(FilterCursor& c, bool at_end) {
    size_t e = c.r;
    while (e < c.n && c.b[e] != '$' && c.b[e] != '\\') ++e;
    c.blank(e - c.r);
    if (e == c.n) return true;
    if (e + 1 == c.n && !at_end) return false;
    const int next = e + 1 < c.n ? c.b[e + 1] : -1;
    bool ends = false;
    size_t len = c.b[e] == '\\' && next >= 0 ? 2 : 1;
    if (c.b[e] == '$') {
      ends = math_end_ == MathEnd::dollar || (math_end_ == MathEnd::dollars && next == '$');
      len = math_end_ == MathEnd::dollars && next == '$' ? 2 : 1;
    } else {
      ends = (math_end_ == MathEnd::paren && next == ')') || (math_end_ == MathEnd::bracket && next == ']');
    }
    c.blank(len);
    if (ends) mode_ = Mode::text;
    return true;
  }

  // In a verbatim or math environment: blanked to its \end{name}.
  bool until_end(FilterCursor& c, bool at_end) {
    const void* bs = std::memchr(c.b + c.r, '\\', c.n - c.r);
    const size_t e = bs ? static_cast<size_t>(static_cast<const unsigned char*>(bs) - c.b) : c.n;
    c.blank(e - c.r);
    if (!bs) return true;
    Peek pk{c.b + e, c.n - e};
    bool match = true;
    size_t i = 0;
    for (const char ch : std::string_view("\\end{")) match = match && pk[i++] == ch;
    for (size_t j = 0; j < env_len_; ++j) match = match && pk[i++] == env_[j];
    match = match && pk[i++] == '}';
    if (pk.cut && !at_end) return false;
    c.blank(match ? i : 1);
    if (match) mode_ = Mode::text;
    return true;
  }

  // \verb|...|, \lstinline{...}: blanked to the closing delimiter (or the
  // line's end).
  bool verb(FilterCursor& c) {
    size_t e = c.r;
    while (e < c.n && c.b[e] != delim_ && c.b[e] != '\n') ++e;
    if (e < c.n) mode_ = Mode::text;
    c.blank(e < c.n && c.b[e] == delim_ ? e + 1 - c.r : e - c.r);
    return true;
  }

  // After \verb or \lstinline: a star, [options], then the delimiter.
  bool verb_start(FilterCursor& c) {
    const unsigned char ch = c.b[c.r];
    if (ch == '\n') {
      mode_ = Mode::text;
      return true;
    }
    c.blank(1);
    if (in_opt_) in_opt_ = ch != ']';
    else if (ch == '[') in_opt_ = true;
    else if (ch != '*' && ch != ' ') delim_ = ch == '{' ? '}' : ch, mode_ = Mode::verb;
    return true;
  }

  bool name_rest(FilterCursor& c) {
    if (is_letter(c.b[c.r])) c.blank(1);
    else mode_ = Mode::text;
    return true;
  }

  // Blanks a command's non-prose arguments: {...} groups (nested), [...]
  // options, a control sequence as argument (\newcommand\foo), #1.
  bool args(FilterCursor& c, bool at_end) {
    const unsigned char ch = c.b[c.r];
    if (depth_ > 0 || in_opt_) return inside_arg(c, at_end, ch);
    if (args_left_ == 0) {
      if (opt_ok_ && ch == '[') {
        in_opt_ = true;
        c.blank(1);
      } else {
        mode_ = Mode::text;
      }
      return true;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n') return c.keep(1), true;
    if (ch == '*' || ch == '[' || ch == '{') {
      in_opt_ = ch == '[';
      depth_ = ch == '{' ? 1 : 0;
      c.blank(1);
      return true;
    }
    Peek pk{c.b + c.r, c.n - c.r};
    if (ch == '\\' || ch == '#') {
      size_t len = ch == '\\' && is_letter(pk[1]) ? pk.letters_end(1, kMaxName) : 2;
      if (pk.cut && !at_end) return false;
      c.blank(std::min(len, c.n - c.r));
      if (ch == '\\') arg_done();
      return true;
    }
    mode_ = Mode::text;
    return true;
  }

  bool inside_arg(FilterCursor& c, bool at_end, unsigned char ch) {
    if (ch == '\\') {
      if (c.r + 1 == c.n && !at_end) return false;
      c.blank(std::min<size_t>(2, c.n - c.r));
      return true;
    }
    c.blank(1);
    if (ch == '{') ++depth_;
    else if (ch == '}' && depth_ > 0 && --depth_ == 0 && !in_opt_) arg_done();
    else if (ch == ']' && depth_ == 0 && in_opt_) in_opt_ = false, opt_ok_ = args_left_ > 0;
    return true;
  }

  void arg_done() {
    if (--args_left_ == 0) opt_ok_ = false;
  }

  Mode mode_ = Mode::text;
  MathEnd math_end_ = MathEnd::dollar;
  bool eat_spaces_ = false;  // after \ss and the like: TeX skips the spaces
  bool opt_ok_ = false;      // args: an [option] may come
  bool in_opt_ = false;      // args, verb_start: inside [...]
  int args_left_ = 0;        // args: mandatory arguments still to blank
  int depth_ = 0;            // args: brace depth
  unsigned char delim_ = 0;  // verb: the closing delimiter
  char env_[32];             // math_env, verbatim_env: the environment's name
  size_t env_len_ = 0;
  size_t gap_ = 0;  // bytes at the next piece's start already consumed
};

}  // namespace

std::unique_ptr<MarkupFilter> make_tex_filter() { return std::make_unique<TexFilter>(); }

}  // namespace spellcheck
