#include "spellcheck/dictionary/hunspell_dictionary.hpp"

#include <omp.h>
#include <sys/stat.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/first_error.hpp"
#include "spellcheck/common/settings.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/common/word_hash.hpp"
#include "spellcheck/dictionary/affix_checker.hpp"
#include "spellcheck/dictionary/affix_forms.hpp"
#include "spellcheck/dictionary/personal_words.hpp"
#include "spellcheck/input/reader.hpp"

namespace spellcheck {

namespace {

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string read_small_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw InputError("cannot read '" + path + "'");
  return s.str();
}

// Buffers per destination rank, filled by several threads: each thread
// writes its own, concatenated per destination afterwards.
mpi::Bytes concat(std::vector<std::vector<std::string>>& per_thread, int ranks) {
  mpi::Bytes out;
  out.counts.assign(static_cast<size_t>(ranks), 0);
  for (const auto& t : per_thread)
    for (int r = 0; r < ranks; ++r) out.counts[static_cast<size_t>(r)] += t[static_cast<size_t>(r)].size();
  size_t total = 0;
  for (size_t c : out.counts) total += c;
  out.data.reserve(total);
  for (int r = 0; r < ranks; ++r)
    for (auto& t : per_thread) {
      out.data += t[static_cast<size_t>(r)];
      t[static_cast<size_t>(r)] = std::string();
    }
  return out;
}

// The received bytes of each source rank.
std::vector<std::string_view> parts_of(const mpi::Bytes& b) {
  std::vector<std::string_view> parts;
  size_t at = 0;
  for (size_t c : b.counts) {
    parts.push_back(std::string_view(b.data).substr(at, c));
    at += c;
  }
  return parts;
}

}  // namespace

bool is_hunspell_dictionary(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".dic") == 0 && regular_file(affix_path_of(path));
}

std::string affix_path_of(const std::string& dic_path) {
  std::string p = dic_path;
  if (p.size() >= 4 && p.compare(p.size() - 4, 4, ".dic") == 0) p.resize(p.size() - 4);
  return p + ".aff";
}

std::vector<std::string> dictionary_search_path() {
  std::vector<std::string> dirs;
  if (const std::string s = settings::dicpath(); !s.empty()) {
    for (size_t b = 0; b <= s.size();) {
      size_t e = s.find(':', b);
      if (e == std::string::npos) e = s.size();
      if (e > b) dirs.push_back(s.substr(b, e - b));
      b = e + 1;
    }
  }
  dirs.push_back("/usr/share/hunspell");
  dirs.push_back("/usr/share/myspell");
  return dirs;
}

std::string find_dictionary(const std::string& name) {
  for (const std::string& dir : dictionary_search_path()) {
    std::string dic = dir + "/" + name + ".dic";
    if (regular_file(dic) && regular_file(affix_path_of(dic))) return dic;
  }
  return "";
}

std::vector<std::pair<std::string, std::string>> list_dictionaries() {
  std::vector<std::pair<std::string, std::string>> found;
  for (const std::string& dir : dictionary_search_path()) {
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
      const std::string path = f.path().string();
      if (!is_hunspell_dictionary(path)) continue;
      const std::string name = f.path().stem().string();
      if (std::none_of(found.begin(), found.end(), [&](const auto& x) { return x.first == name; }))
        found.emplace_back(name, path);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

namespace {

void put_op(std::string& out, const PersonalOp& op) {
  out.push_back(static_cast<char>(op.kind));
  append_stem_entry(out, op.entry);
  wire::append_le<uint16_t>(out, static_cast<uint16_t>(op.example.size()));
  out.append(op.example);
}

PersonalOp get_op(std::string_view bytes, size_t& at) {
  PersonalOp op;
  constexpr const char* kWhat = "personal words";
  op.kind = static_cast<PersonalWord::Kind>(wire::read_le_at<uint8_t>(bytes, at, kWhat));
  op.entry = read_stem_entry(bytes, at, kWhat);
  const auto n = wire::read_le_at<uint16_t>(bytes, at, kWhat);
  op.example.assign(wire::read_bytes_at(bytes, at, n, kWhat));
  return op;
}

int spelling_owner(std::string_view word, int ranks) {
  return spellcheck::owner_of(XXH3_64bits(word.data(), word.size()), ranks);
}

// Collective: the error of the lowest rank that has one, thrown on every rank.
void agree_on_error(const mpi::Comm& comm, const std::string& error) {
  const int failing = mpi::lowest_rank_with(comm, !error.empty());
  if (failing < comm.size()) throw InputError(mpi::broadcast(comm, error, failing));
}

// Collective: this rank's share of a line file and the number of its first
// line in the file.
std::pair<TextChunk, uint64_t> numbered_share(const mpi::Comm& comm, const std::string& path, uint64_t& file_lines) {
  TextChunk chunk = read_line_share(comm, path);
  uint64_t here = static_cast<uint64_t>(std::count(chunk.bytes.begin(), chunk.bytes.end(), '\n'));
  if (!chunk.bytes.empty() && chunk.bytes.back() != '\n') ++here;
  const std::vector<uint64_t> per_rank = mpi::allgather(comm, here);
  uint64_t first = 1;
  file_lines = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (r < comm.rank()) first += per_rank[static_cast<size_t>(r)];
    file_lines += per_rank[static_cast<size_t>(r)];
  }
  return {std::move(chunk), first};
}

// Sends each item to the rank put() names; returns what this rank got.
template <class Item, class Owner, class Put>
mpi::Bytes send_to_owners(const mpi::Comm& comm, const std::vector<Item>& items, Owner owner, Put put) {
  std::vector<std::string> to(static_cast<size_t>(comm.size()));
  for (const Item& it : items) put(to[static_cast<size_t>(owner(it))], it);
  mpi::Bytes send;
  send.counts.resize(to.size());
  for (size_t r = 0; r < to.size(); ++r) {
    send.counts[r] = to[r].size();
    send.data += to[r];
  }
  return mpi::alltoallv_bytes(comm, send);
}

// The entries of one spelling after hunspell's personal dictionary ops, in
// order (HashMgr's add, remove, add_with_affix).
void apply_personal(std::vector<StemEntry>& chain, const PersonalOp& op, Flag forbidden) {
  const auto clear_forbidden = [&] {
    for (StemEntry& e : chain)
      if (e.has(forbidden)) e.flags.clear();
  };
  switch (op.kind) {
    case PersonalWord::Kind::forbid:
      for (StemEntry& e : chain)
        if (!e.has(forbidden)) {
          e.flags.push_back(forbidden);
          std::sort(e.flags.begin(), e.flags.end());
        }
      return;
    case PersonalWord::Kind::add:
      if (!chain.empty()) {
        clear_forbidden();
        return;
      }
      chain.push_back(op.entry);
      return;
    case PersonalWord::Kind::add_like:
      clear_forbidden();
      if (!op.entry.flags.empty()) chain.push_back(op.entry);
      return;
  }
}

}  // namespace

std::unique_ptr<HunspellDictionary> HunspellDictionary::load(const mpi::Comm& comm, const std::string& dic_path,
                                                             std::vector<std::string>& warnings,
                                                             HunspellLoadStats& stats, const HunspellLoadOptions& opt) {
  std::unique_ptr<HunspellDictionary> d(new HunspellDictionary());
  d->path_ = dic_path;
  d->ranks_ = comm.size();
  d->rank_ = comm.rank();
  d->read_rules(comm, warnings);
  uint64_t dic_lines = 0;
  std::vector<StemEntry> stems = d->read_stems(comm, dic_lines, stats, warnings);
  std::vector<PersonalOp> ops = d->read_personal(comm, opt.extra_dicts, dic_lines);
  std::vector<StemEntry> linked = d->link_at_owners(comm, std::move(stems), std::move(ops));
  stats.entries = mpi::allreduce_sum(comm, linked.size());
  std::vector<std::string> forms = d->spread_forms(comm, std::move(linked), opt.forms, stats);
  d->build_filter(comm, opt.filter_bits);
  if (opt.forms) d->judge_forms(std::move(forms));
  stats.suggestable = mpi::allreduce_sum(comm, d->suggestable_.size());
  return d;
}

// The .aff: rank 0 reads it, every rank parses it.
void HunspellDictionary::read_rules(const mpi::Comm& comm, std::vector<std::string>& warnings) {
  const std::string aff_path = affix_path_of(path_);
  std::string aff, failure;
  if (comm.rank() == 0) try {
      aff = read_small_file(aff_path);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  failure = mpi::broadcast(comm, failure);
  if (!failure.empty()) throw InputError(failure);
  aff_text_ = mpi::broadcast(comm, aff);
  parse_rules(aff_path, warnings);
}

void HunspellDictionary::parse_rules(const std::string& aff_path, std::vector<std::string>& warnings) {
  try {
    rules_ = parse_affix_rules(aff_text_, aff_path, &warnings);
  } catch (const AffixFileError& e) {
    throw InputError(e.what());
  }
  cases_ = LetterCase(rules_.lang);
}

std::unique_ptr<HunspellDictionary> HunspellDictionary::from_parts(const std::string& dic_path, std::string_view aff,
                                                                   PackedEntries entries,
                                                                   const std::vector<KeyedEntry>& pairs,
                                                                   BloomFilter filter, int rank, int ranks,
                                                                   std::vector<std::string>& warnings) {
  std::unique_ptr<HunspellDictionary> d(new HunspellDictionary());
  d->path_ = dic_path;
  d->ranks_ = ranks;
  d->rank_ = rank;
  d->aff_text_ = aff;
  d->parse_rules(affix_path_of(dic_path), warnings);
  d->local_.build_grouped(std::move(entries), pairs);
  d->filter_ = std::move(filter);
  return d;
}

// The .dic: 1/p of its lines per rank, numbered from the share's start.
std::vector<StemEntry> HunspellDictionary::read_stems(const mpi::Comm& comm, uint64_t& dic_lines,
                                                      HunspellLoadStats& stats, std::vector<std::string>& warnings) {
  auto [chunk, first_line] = numbered_share(comm, path_, dic_lines);
  const auto lines = hunspell_lines(chunk.bytes);
  // Errors are held until every rank has made the same collective calls.
  std::string error;
  if (comm.rank() == 0 && (lines.empty() || !valid_stem_count(lines[0])))
    error = path_ + ":1: the first line must be the number of entries (a hunspell .dic)";
  std::vector<StemEntry> stems;
  if (error.empty()) try {
      stems = parse_stem_lines(lines, first_line, rules_, cases_, path_);
    } catch (const std::exception& e) {
      error = e.what();
    }
  agree_on_error(comm, error);
  warn_undefined_flags(comm, stems, warnings);
  for (const StemEntry& s : stems) stats.stems += s.hidden() ? 0 : 1;
  stats.stems = mpi::allreduce_sum(comm, stats.stems);
  return stems;
}

// Collective: one warning for the flags the .dic gives words but the .aff
// never defines (Debian's nl, es and sv dictionaries have some): hunspell
// ignores them, and so does spellcheck; named with the first line using one.
void HunspellDictionary::warn_undefined_flags(const mpi::Comm& comm, const std::vector<StemEntry>& stems,
                                              std::vector<std::string>& warnings) const {
  std::vector<uint8_t> defined(65536, 0);
  for (const AffixEntry& e : rules_.prefixes) defined[e.flag] = 1;
  for (const AffixEntry& e : rules_.suffixes) defined[e.flag] = 1;
  for (Flag f : {rules_.compound_flag, rules_.compound_begin, rules_.compound_middle, rules_.compound_end,
                 rules_.compound_root, rules_.compound_permit, rules_.compound_forbid, rules_.forbidden,
                 rules_.nosuggest, rules_.nongram_suggest, rules_.need_affix, rules_.circumfix, rules_.only_in_compound,
                 rules_.keepcase, rules_.forceucase, rules_.warn, rules_.substandard, kOnlyUpcaseFlag})
    defined[f] = 1;
  for (const auto& rule : rules_.compound_rules)
    for (Flag f : rule) defined[f] = 1;
  for (const CompoundPattern& p : rules_.compound_patterns) defined[p.end_flag] = defined[p.begin_flag] = 1;
  uint64_t first_line = UINT64_MAX, count = 0;
  Flag first_flag = 0;
  std::vector<uint8_t> seen(65536, 0);
  for (const StemEntry& s : stems)
    for (Flag f : s.flags)
      if (!defined[f]) {
        if (!seen[f]) ++count, seen[f] = 1;
        if (s.order / 2 < first_line) first_line = s.order / 2, first_flag = f;
      }
  // The flag set of every rank, merged: counted once however many use it.
  std::vector<uint64_t> words(seen.size() / 64, 0);
  for (size_t f = 0; f < seen.size(); ++f)
    if (seen[f]) words[f / 64] |= uint64_t{1} << (f % 64);
  mpi::allreduce_bor(comm, words.data(), words.size());
  count = 0;
  for (uint64_t w : words) count += static_cast<uint64_t>(__builtin_popcountll(w));
  const uint64_t line = mpi::allreduce_min(comm, first_line);
  const int who = mpi::lowest_rank_with(comm, first_line == line && line != UINT64_MAX);
  const std::string name =
      mpi::broadcast(comm, who < comm.size() && comm.rank() == who ? rules_.flag_name(first_flag) : std::string(),
                     who < comm.size() ? who : 0);
  if (count == 0) return;
  warnings.push_back(path_ + ": " + std::to_string(count) + " flag" + (count == 1 ? " is" : "s are") +
                     " given to words but never defined in " + affix_path_of(path_) + " (the first, '" + name +
                     "', on line " + std::to_string(line) + "); hunspell ignores them, and so does spellcheck");
}

// --extra-dict files: their words ranked after every .dic line, in order.
// A word/EXAMPLE line takes its flags from EXAMPLE's first entry: it goes
// to EXAMPLE's owner first (link_at_owners).
std::vector<PersonalOp> HunspellDictionary::read_personal(const mpi::Comm& comm, const std::vector<std::string>& files,
                                                          uint64_t dic_lines) {
  std::vector<PersonalOp> ops;
  uint64_t base = dic_lines;
  std::string converted;
  for (const std::string& file : files) {
    uint64_t lines_in_file = 0;
    auto [chunk, first_line] = numbered_share(comm, file, lines_in_file);
    uint64_t number = first_line;
    for (std::string_view line : hunspell_lines(chunk.bytes)) {
      PersonalWord w;
      const uint64_t line_order = 2 * (base + number++);
      if (!parse_personal_line(line, w)) continue;
      // Words as hunspell -p takes them: through ICONV, in the internal form.
      if (rules_.iconv.convert(w.word, converted)) w.word = converted;
      if (rules_.iconv.convert(w.example, converted)) w.example = converted;
      PersonalOp op;
      op.kind = w.kind;
      op.entry.word = rules_.internal_form(w.word);
      op.entry.order = line_order;
      if (w.kind == PersonalWord::Kind::add_like) op.example = rules_.internal_form(w.example);
      if (op.entry.word.empty()) continue;
      // A word in mixed case is added with its hidden capitalised form, as
      // a .dic line is (which only a word in capitals may match).
      const Capitalisation kind = cases_.kind(std::string_view(w.word));
      if (w.kind != PersonalWord::Kind::forbid &&
          (kind == Capitalisation::mixed || kind == Capitalisation::mixed_initial)) {
        PersonalOp hidden = op;
        hidden.entry.word = rules_.internal_form(cases_.to_title(w.word));
        hidden.entry.order = line_order + 1;
        hidden.entry.flags.push_back(kOnlyUpcaseFlag);
        ops.push_back(std::move(hidden));
      }
      ops.push_back(std::move(op));
    }
    base += lines_in_file;
  }
  return ops;
}

// The forms a suggestion may offer: each form (internal form, so as
// written unless COMPLEXPREFIXES reverses it) judged as hunspell judges the
// word alone, without compounds; all its roots are on this rank.
void HunspellDictionary::judge_forms(std::vector<std::string> forms) {
  std::sort(forms.begin(), forms.end());
  forms.erase(std::unique(forms.begin(), forms.end()), forms.end());
  std::vector<uint8_t> keep(forms.size(), 0);
  const AffixChecker checker(rules_, cases_);
  FirstError err;
#pragma omp parallel
  {
    NeighbourhoodSource source(cases_, local_, nullptr, filter_, rank_, ranks_);
#pragma omp for schedule(dynamic, 256)
    for (size_t i = 0; i < forms.size(); ++i) {
      if (err.failed()) continue;
      err.run([&] {
        const std::string written = rules_.complex_prefixes ? reversed_code_points(forms[i]) : forms[i];
        source.reset();
        const Root* root = nullptr;
        if (!checker.simple_form(written, source, &root)) return;
        const bool offered = !(rules_.nosuggest && root->has(rules_.nosuggest)) && !root->has(kOnlyUpcaseFlag);
        keep[i] = offered ? 1 : 0;
      });
    }
  }
  err.rethrow();
  // Offered as hunspell writes suggestions: through OCONV (Dutch's ĳ as ij).
  suggestable_.clear();
  std::string converted;
  for (size_t i = 0; i < forms.size(); ++i) {
    if (!keep[i]) continue;
    const std::string written = rules_.complex_prefixes ? reversed_code_points(forms[i]) : forms[i];
    suggestable_.push_back(rules_.oconv.convert(written, converted) ? std::string_view(converted)
                                                                    : std::string_view(written));
  }
}

uint64_t HunspellDictionary::home_key(std::string_view word) const {
  std::string converted;
  if (rules_.iconv.convert(word, converted)) word = converted;
  return neighbourhood_key(cases_, rules_.internal_form(word));
}

int HunspellDictionary::owner_of(uint64_t key) const { return spellcheck::owner_of(key, ranks_); }

bool HunspellDictionary::may_exist(uint64_t key) const {
  return filter_.maybe_contains(key, filter_segment(filter_, owner_of(key)));
}

}  // namespace spellcheck

namespace spellcheck {

// Entries and personal words to the owners of their spelling, where
// homonyms meet and are linked; word/EXAMPLE lines go by EXAMPLE's owner,
// which gives them EXAMPLE's first entry's flags. Returns this rank's
// entries.
std::vector<StemEntry> HunspellDictionary::link_at_owners(const mpi::Comm& comm, std::vector<StemEntry> stems,
                                                          std::vector<PersonalOp> ops) {
  const int p = comm.size();
  mpi::Bytes got = send_to_owners(
      comm, stems, [&](const StemEntry& e) { return spelling_owner(e.word, p); },
      [](std::string& out, const StemEntry& e) { append_stem_entry(out, e); });
  stems = {};
  std::vector<StemEntry> mine;
  for (size_t at = 0; at < got.data.size();) mine.push_back(read_stem_entry(got.data, at, "stem entries"));
  got = mpi::Bytes();
  // Ops by the spelling they need: their word's, or their example's.
  const auto op_owner = [&](const PersonalOp& op) {
    return spelling_owner(op.kind == PersonalWord::Kind::add_like && !op.example.empty() ? op.example : op.entry.word,
                          p);
  };
  got = send_to_owners(comm, ops, op_owner, put_op);
  ops.clear();
  std::vector<PersonalOp> here, resolved;
  for (size_t at = 0; at < got.data.size();) here.push_back(get_op(got.data, at));
  got = mpi::Bytes();

  std::sort(mine.begin(), mine.end(), [](const StemEntry& a, const StemEntry& b) {
    return a.word != b.word ? a.word < b.word : a.order < b.order;
  });
  std::vector<StemEntry> linked;
  std::vector<std::pair<size_t, size_t>> spans;  // each spelling's [begin, end) in linked
  for (size_t b = 0; b < mine.size();) {
    size_t e = b + 1;
    while (e < mine.size() && mine[e].word == mine[b].word) ++e;
    std::vector<StemEntry> group(std::make_move_iterator(mine.begin() + static_cast<long>(b)),
                                 std::make_move_iterator(mine.begin() + static_cast<long>(e)));
    link_homonyms(group);
    spans.emplace_back(linked.size(), linked.size() + group.size());
    for (StemEntry& g : group) linked.push_back(std::move(g));
    b = e;
  }
  mine = {};
  const auto first_of = [&](std::string_view word) -> const StemEntry* {
    const auto it = std::lower_bound(spans.begin(), spans.end(), word,
                                     [&](const auto& sp, std::string_view w) { return linked[sp.first].word < w; });
    return it != spans.end() && linked[it->first].word == word ? &linked[it->first] : nullptr;
  };
  // word/EXAMPLE: EXAMPLE's flags, then on to the word's owner.
  for (PersonalOp& op : here) {
    if (op.kind == PersonalWord::Kind::add_like && !op.example.empty()) {
      const StemEntry* ex = first_of(op.example);
      op.entry.flags = ex ? ex->flags : std::vector<Flag>{};
      if (op.entry.has(kOnlyUpcaseFlag) || (ex && ex->has(kOnlyUpcaseFlag))) {
        op.entry.flags.erase(std::remove(op.entry.flags.begin(), op.entry.flags.end(), kOnlyUpcaseFlag),
                             op.entry.flags.end());
      }
      op.example.clear();
    }
    resolved.push_back(std::move(op));
  }
  here.clear();
  got = send_to_owners(
      comm, resolved, [&](const PersonalOp& op) { return spelling_owner(op.entry.word, p); }, put_op);
  resolved.clear();
  for (size_t at = 0; at < got.data.size();) here.push_back(get_op(got.data, at));
  if (here.empty()) return linked;
  // The ops in their lines' order, on their spelling's linked entries.
  std::sort(here.begin(), here.end(),
            [](const PersonalOp& a, const PersonalOp& b) { return a.entry.order < b.entry.order; });
  std::map<std::string, std::vector<StemEntry>> changed;
  for (const PersonalOp& op : here) {
    auto it = changed.find(op.entry.word);
    if (it == changed.end()) {
      std::vector<StemEntry> chain;
      if (const StemEntry* f = first_of(op.entry.word)) {
        const size_t b = static_cast<size_t>(f - linked.data());
        size_t e = b;
        while (e < linked.size() && linked[e].word == op.entry.word) chain.push_back(linked[e++]);
      }
      it = changed.emplace(op.entry.word, std::move(chain)).first;
    }
    apply_personal(it->second, op, rules_.forbidden);
  }
  std::vector<StemEntry> out;
  out.reserve(linked.size() + here.size());
  for (StemEntry& e : linked)
    if (!changed.count(e.word)) out.push_back(std::move(e));
  for (auto& [word, chain] : changed)
    for (StemEntry& e : chain) out.push_back(std::move(e));
  return out;
}

// Each entry expanded; sent once to every rank owning one of its forms'
// keys, with those keys (and, for ranked mode, the forms themselves). This
// rank's neighbourhoods built from what it gets. Returns the forms of this
// rank's keys (with_forms).
std::vector<std::string> HunspellDictionary::spread_forms(const mpi::Comm& comm, std::vector<StemEntry> linked,
                                                          bool with_forms, HunspellLoadStats& stats) {
  const int p = comm.size();
  const AffixesByFlag by_flag(rules_);
  const int threads = omp_get_max_threads();
  std::vector<std::vector<std::string>> out(static_cast<size_t>(threads),
                                            std::vector<std::string>(static_cast<size_t>(p)));
  uint64_t forms = 0;
  FirstError err;
#pragma omp parallel reduction(+ : forms)
  {
    std::vector<std::string> f;
    std::vector<std::vector<uint64_t>> keys(static_cast<size_t>(p));
    std::vector<std::vector<uint32_t>> form_of(static_cast<size_t>(p));  // which form made each key
    std::vector<std::string>& to = out[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 256)
    for (size_t i = 0; i < linked.size(); ++i) {
      if (err.failed()) continue;
      err.run([&] {
        expand_forms(rules_, by_flag, linked[i], f);
        forms += f.size();
        for (auto& k : keys) k.clear();
        for (auto& k : form_of) k.clear();
        for (uint32_t j = 0; j < f.size(); ++j) {
          const uint64_t key = neighbourhood_key(cases_, f[j]);
          const size_t r = static_cast<size_t>(spellcheck::owner_of(key, p));
          keys[r].push_back(key);
          if (with_forms) form_of[r].push_back(j);
        }
        for (int r = 0; r < p; ++r) {
          auto& k = keys[static_cast<size_t>(r)];
          if (k.empty()) continue;
          std::string& buf = to[static_cast<size_t>(r)];
          append_stem_entry(buf, linked[i]);
          if (with_forms) {
            const auto& which = form_of[static_cast<size_t>(r)];
            wire::append_le<uint32_t>(buf, static_cast<uint32_t>(which.size()));
            for (uint32_t j : which) {
              wire::append_le<uint16_t>(buf, static_cast<uint16_t>(f[j].size()));
              buf.append(f[j]);
            }
          }
          std::sort(k.begin(), k.end());
          k.erase(std::unique(k.begin(), k.end()), k.end());
          wire::append_le<uint32_t>(buf, static_cast<uint32_t>(k.size()));
          wire::append_array_le(buf, k.data(), k.size());
        }
      });
    }
  }
  err.rethrow();
  linked = {};
  stats.forms = mpi::allreduce_sum(comm, forms);
  mpi::Bytes send = concat(out, p);
  out.clear();
  mpi::Bytes got = mpi::alltoallv_bytes(comm, send);
  send = mpi::Bytes();

  std::vector<StemEntry> entries;
  std::vector<KeyedEntry> pairs;
  std::vector<std::string> forms_here;
  for (std::string_view part : parts_of(got))
    for (size_t at = 0; at < part.size();) {
      entries.push_back(read_stem_entry(part, at, "hunspell dictionary exchange"));
      if (with_forms) {
        const uint32_t m = wire::read_le_at<uint32_t>(part, at, "hunspell dictionary exchange");
        for (uint32_t k = 0; k < m; ++k) {
          const uint16_t len = wire::read_le_at<uint16_t>(part, at, "hunspell dictionary exchange");
          forms_here.emplace_back(wire::read_bytes_at(part, at, len, "hunspell dictionary exchange"));
        }
      }
      const uint32_t n = wire::read_le_at<uint32_t>(part, at, "hunspell dictionary exchange");
      for (uint32_t k = 0; k < n; ++k)
        pairs.push_back(KeyedEntry{wire::read_le_at<uint64_t>(part, at, "hunspell dictionary exchange"),
                                   static_cast<uint32_t>(entries.size() - 1)});
    }
  got = mpi::Bytes();
  stats.entries_local = entries.size();
  local_.build(std::move(entries), std::move(pairs));
  stats.keys = mpi::allreduce_sum(comm, local_.keys());
  stats.bytes_local = local_.bytes();
  return forms_here;
}

// The filter of every rank's keys: one segment per rank, allgathered.
void HunspellDictionary::build_filter(const mpi::Comm& comm, double bits) {
  const uint64_t largest = mpi::allreduce_max(comm, local_.keys());
  const size_t blocks = BloomFilter::blocks_for(std::max<uint64_t>(largest, 1), bits);
  BloomFilter own(1, blocks);
  for (uint64_t key : local_.key_list()) own.insert_unshared(key, 0);
  filter_ = BloomFilter(static_cast<size_t>(comm.size()), blocks);
  mpi::allgather_words(comm, own.data(), own.words(), filter_.data());
}

}  // namespace spellcheck
