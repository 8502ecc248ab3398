#include "spellcheck/dictionary/hunspell_dictionary.hpp"

#include <omp.h>
#include <sys/stat.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/first_error.hpp"
#include "spellcheck/dictionary/affix_forms.hpp"
#include "spellcheck/dictionary/word_hash.hpp"
#include "spellcheck/input/reader.hpp"
#include "spellcheck/dictionary/affix_checker.hpp"

namespace spellcheck {

namespace {

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
T get(std::string_view bytes, size_t& at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

void put_entry(std::string& out, const StemEntry& e) {
  put<uint64_t>(out, e.order);
  put<uint16_t>(out, static_cast<uint16_t>(e.word.size()));
  out.append(e.word);
  put<uint16_t>(out, static_cast<uint16_t>(e.flags.size()));
  out.append(reinterpret_cast<const char*>(e.flags.data()), e.flags.size() * sizeof(Flag));
}

StemEntry get_entry(std::string_view bytes, size_t& at) {
  StemEntry e;
  e.order = get<uint64_t>(bytes, at);
  const uint16_t wl = get<uint16_t>(bytes, at);
  e.word.assign(bytes.substr(at, wl));
  at += wl;
  const uint16_t fl = get<uint16_t>(bytes, at);
  e.flags.resize(fl);
  std::memcpy(e.flags.data(), bytes.data() + at, fl * sizeof(Flag));
  at += fl * sizeof(Flag);
  return e;
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
  if (const char* d = std::getenv("DICPATH"); d && *d) {
    std::string s(d);
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
    const std::string dic = dir + "/" + name + ".dic";
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

std::unique_ptr<HunspellDictionary> HunspellDictionary::load(const mpi::Comm& comm, const std::string& dic_path,
                                                             std::vector<std::string>& warnings,
                                                             HunspellLoadStats& stats, double filter_bits,
                                                             bool with_forms) {
  std::unique_ptr<HunspellDictionary> d(new HunspellDictionary());
  d->path_ = dic_path;
  d->ranks_ = comm.size();
  d->rank_ = comm.rank();
  const int p = comm.size();

  // The .aff: rank 0 reads it, every rank parses it.
  const std::string aff_path = affix_path_of(dic_path);
  std::string aff, failure;
  if (comm.rank() == 0) try {
      aff = read_small_file(aff_path);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  failure = mpi::broadcast(comm, failure);
  if (!failure.empty()) throw InputError(failure);
  aff = mpi::broadcast(comm, aff);
  try {
    d->rules_ = parse_affix_rules(aff, aff_path, &warnings);
  } catch (const AffixFileError& e) {
    throw InputError(e.what());
  }
  d->cases_ = LetterCase(d->rules_.lang);

  // The .dic: 1/p of its lines per rank, numbered from the share's start.
  TextChunk chunk = read_line_share(comm, dic_path);
  uint64_t lines_here = static_cast<uint64_t>(std::count(chunk.bytes.begin(), chunk.bytes.end(), '\n'));
  if (!chunk.bytes.empty() && chunk.bytes.back() != '\n') ++lines_here;
  const std::vector<uint64_t> lines_per_rank = mpi::allgather(comm, lines_here);
  uint64_t first_line = 1;
  for (int r = 0; r < comm.rank(); ++r) first_line += lines_per_rank[static_cast<size_t>(r)];
  const auto lines = hunspell_lines(chunk.bytes);
  // Errors are collected, not thrown, until every rank has made the same
  // collective calls; then all throw the lowest rank's.
  std::string error;
  if (comm.rank() == 0 && (lines.empty() || !valid_stem_count(lines[0])))
    error = dic_path + ":1: the first line must be the number of entries (a hunspell .dic)";
  std::vector<StemEntry> stems;
  if (error.empty()) try {
      stems = parse_stem_lines(lines, first_line, d->rules_, d->cases_, dic_path);
    } catch (const std::exception& e) {
      error = e.what();
    }
  chunk = TextChunk();
  const int failing = mpi::lowest_rank_with(comm, !error.empty());
  if (failing < p) {
    error = mpi::broadcast(comm, error, failing);
    throw InputError(error);
  }
  for (const StemEntry& s : stems) stats.stems += s.hidden() ? 0 : 1;
  stats.stems = mpi::allreduce_sum(comm, stats.stems);

  // Entries to the owners of their spelling, where homonyms meet.
  mpi::Bytes send;
  {
    std::vector<std::string> to(static_cast<size_t>(p));
    for (const StemEntry& s : stems)
      put_entry(to[static_cast<size_t>(spellcheck::owner_of(XXH3_64bits(s.word.data(), s.word.size()), p))], s);
    stems = {};
    send.counts.resize(static_cast<size_t>(p));
    for (int r = 0; r < p; ++r) {
      send.counts[static_cast<size_t>(r)] = to[static_cast<size_t>(r)].size();
      send.data += to[static_cast<size_t>(r)];
    }
  }
  mpi::Bytes got = mpi::alltoallv_bytes(comm, send);
  send = mpi::Bytes();
  std::vector<StemEntry> mine;
  for (size_t at = 0; at < got.data.size();) mine.push_back(get_entry(got.data, at));
  got = mpi::Bytes();
  std::sort(mine.begin(), mine.end(), [](const StemEntry& a, const StemEntry& b) {
    return a.word != b.word ? a.word < b.word : a.order < b.order;
  });
  std::vector<StemEntry> linked;
  for (size_t b = 0; b < mine.size();) {
    size_t e = b + 1;
    while (e < mine.size() && mine[e].word == mine[b].word) ++e;
    std::vector<StemEntry> group(std::make_move_iterator(mine.begin() + static_cast<long>(b)),
                                 std::make_move_iterator(mine.begin() + static_cast<long>(e)));
    link_homonyms(group);
    for (StemEntry& g : group) linked.push_back(std::move(g));
    b = e;
  }
  mine = {};
  stats.entries = mpi::allreduce_sum(comm, linked.size());

  // Each entry expanded; sent once to every rank owning one of its forms'
  // keys, with those keys.
  const AffixesByFlag by_flag(d->rules_);
  const int threads = omp_get_max_threads();
  std::vector<std::vector<std::string>> out(static_cast<size_t>(threads), std::vector<std::string>(static_cast<size_t>(p)));
  uint64_t forms = 0;
  FirstError err;
#pragma omp parallel reduction(+ : forms)
  {
    std::vector<std::string> f;
    std::vector<std::vector<uint64_t>> keys(static_cast<size_t>(p));
    std::vector<std::vector<uint32_t>> form_of(static_cast<size_t>(p));  // with_forms: which form made each key
    std::vector<std::string>& to = out[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 256)
    for (size_t i = 0; i < linked.size(); ++i) {
      if (err.failed()) continue;
      err.run([&] {
        expand_forms(d->rules_, by_flag, linked[i], f);
        forms += f.size();
        for (auto& k : keys) k.clear();
        for (auto& k : form_of) k.clear();
        for (uint32_t j = 0; j < f.size(); ++j) {
          const uint64_t key = neighbourhood_key(d->cases_, f[j]);
          const size_t r = static_cast<size_t>(spellcheck::owner_of(key, p));
          keys[r].push_back(key);
          if (with_forms) form_of[r].push_back(j);
        }
        for (int r = 0; r < p; ++r) {
          auto& k = keys[static_cast<size_t>(r)];
          if (k.empty()) continue;
          std::string& buf = to[static_cast<size_t>(r)];
          put_entry(buf, linked[i]);
          if (with_forms) {  // the forms themselves, for the home to judge (ranked mode's index)
            const auto& which = form_of[static_cast<size_t>(r)];
            put<uint32_t>(buf, static_cast<uint32_t>(which.size()));
            for (uint32_t j : which) {
              put<uint16_t>(buf, static_cast<uint16_t>(f[j].size()));
              buf.append(f[j]);
            }
          }
          std::sort(k.begin(), k.end());
          k.erase(std::unique(k.begin(), k.end()), k.end());
          put<uint32_t>(buf, static_cast<uint32_t>(k.size()));
          buf.append(reinterpret_cast<const char*>(k.data()), k.size() * sizeof(uint64_t));
        }
      });
    }
  }
  err.rethrow();
  linked = {};
  stats.forms = mpi::allreduce_sum(comm, forms);
  send = concat(out, p);
  out.clear();
  got = mpi::alltoallv_bytes(comm, send);
  send = mpi::Bytes();

  // This rank's neighbourhoods.
  std::vector<StemEntry> entries;
  std::vector<KeyedEntry> pairs;
  std::vector<std::string> forms_here;
  for (std::string_view part : parts_of(got))
    for (size_t at = 0; at < part.size();) {
      entries.push_back(get_entry(part, at));
      if (with_forms) {
        const uint32_t m = get<uint32_t>(part, at);
        for (uint32_t k = 0; k < m; ++k) {
          const uint16_t len = get<uint16_t>(part, at);
          forms_here.emplace_back(part.substr(at, len));
          at += len;
        }
      }
      const uint32_t n = get<uint32_t>(part, at);
      for (uint32_t k = 0; k < n; ++k)
        pairs.push_back(KeyedEntry{get<uint64_t>(part, at), static_cast<uint32_t>(entries.size() - 1)});
    }
  got = mpi::Bytes();
  stats.entries_local = entries.size();
  d->local_.build(std::move(entries), std::move(pairs));
  stats.keys = mpi::allreduce_sum(comm, d->local_.keys());
  stats.bytes_local = d->local_.bytes();


  // The filter of every rank's keys: one segment per rank, allgathered.
  const uint64_t largest = mpi::allreduce_max(comm, d->local_.keys());
  const size_t blocks = BloomFilter::blocks_for(std::max<uint64_t>(largest, 1), filter_bits);
  BloomFilter own(1, blocks);
  for (uint64_t key : d->local_.key_list()) own.insert_unshared(key, 0);
  d->filter_ = BloomFilter(static_cast<size_t>(p), blocks);
  mpi::allgather_words(comm, own.data(), own.words(), d->filter_.data());
  if (with_forms) d->judge_forms(std::move(forms_here));
  stats.suggestable = mpi::allreduce_sum(comm, d->suggestable_.size());
  return d;
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
  return filter_.maybe_contains(key, static_cast<size_t>(owner_of(key)));
}

}  // namespace spellcheck
