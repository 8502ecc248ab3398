#include "spellcheck/suggest/hunspell_judge.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "spellcheck/common/first_error.hpp"
#include "spellcheck/common/word_hash.hpp"

namespace spellcheck {

namespace {

// A check that still needs keys after this many rounds is a bug (each round
// answers every key asked): stop rather than loop.
constexpr uint64_t kMaxRounds = 64;

}  // namespace

std::u32string edit_alphabet(const AffixRules& rules, const LetterCase& cases) {
  std::u32string a = decode_utf8(rules.try_chars);
  const size_t n = a.size();
  for (size_t i = 0; i < n; ++i) a.push_back(cases.upper(a[i]));
  for (char c = 'a'; c <= 'z'; ++c) a.push_back(static_cast<char32_t>(c));
  for (char c = 'A'; c <= 'Z'; ++c) a.push_back(static_cast<char32_t>(c));
  for (char c = '0'; c <= '9'; ++c) a.push_back(static_cast<char32_t>(c));
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

void edit_strings(std::string_view word, const std::u32string& alphabet, std::vector<std::string>& out) {
  const std::u32string w = decode_utf8(word);
  const size_t first = out.size();
  std::u32string t;
  for (size_t i = 0; i <= w.size(); ++i) {
    if (i < w.size()) {
      t = w;
      t.erase(i, 1);
      out.push_back(encode_utf8(t));
      for (char32_t c : alphabet) {
        if (c == w[i]) continue;
        t = w;
        t[i] = c;
        out.push_back(encode_utf8(t));
      }
    }
    for (char32_t c : alphabet) {
      t = w;
      t.insert(t.begin() + static_cast<long>(i), c);
      out.push_back(encode_utf8(t));
    }
  }
  std::sort(out.begin() + static_cast<long>(first), out.end());
  out.erase(std::unique(out.begin() + static_cast<long>(first), out.end()), out.end());
}

HunspellJudge::HunspellJudge(const mpi::Comm& comm, const HunspellDictionary& dict)
    : comm_(comm),
      dict_(dict),
      checker_(dict.rules(), dict.cases()),
      alphabet_(edit_alphabet(dict.rules(), dict.cases())) {}

// One round trip: this rank's missing keys to their owners, their
// neighbourhoods back into fetched_.
void HunspellJudge::fetch(const std::vector<uint64_t>& keys) {
  const int p = comm_.size();
  std::vector<std::vector<uint64_t>> asked(static_cast<size_t>(p));
  for (uint64_t k : keys) asked[static_cast<size_t>(dict_.owner_of(k))].push_back(k);
  mpi::Bytes request;
  request.counts.resize(static_cast<size_t>(p));
  for (int r = 0; r < p; ++r) {
    const auto& a = asked[static_cast<size_t>(r)];
    request.counts[static_cast<size_t>(r)] = a.size() * sizeof(uint64_t);
    request.data.append(reinterpret_cast<const char*>(a.data()), a.size() * sizeof(uint64_t));
  }
  counts_.keys_asked += keys.size();
  const mpi::Bytes wanted = mpi::alltoallv_bytes(comm_, request);
  mpi::Bytes reply;
  reply.counts.resize(static_cast<size_t>(p));
  size_t at = 0;
  for (int r = 0; r < p; ++r) {
    const size_t begin = reply.data.size();
    const size_t n = wanted.counts[static_cast<size_t>(r)] / sizeof(uint64_t);
    for (size_t k = 0; k < n; ++k) {
      uint64_t key;
      std::memcpy(&key, wanted.data.data() + at + k * sizeof key, sizeof key);
      dict_.local().serialize(key, reply.data);
    }
    at += wanted.counts[static_cast<size_t>(r)];
    counts_.keys_served += n;
    reply.counts[static_cast<size_t>(r)] = reply.data.size() - begin;
  }
  const mpi::Bytes answers = mpi::alltoallv_bytes(comm_, reply);
  at = 0;
  for (int r = 0; r < p; ++r) {
    const size_t n = answers.counts[static_cast<size_t>(r)];
    if (!asked[static_cast<size_t>(r)].empty())
      fetched_.add(asked[static_cast<size_t>(r)], std::string_view(answers.data).substr(at, n));
    at += n;
  }
}

void HunspellJudge::settle(size_t n, const std::function<std::string_view(size_t)>& strings,
                           const std::function<void(size_t, bool)>& verdict) {
  std::vector<uint32_t> pending(n);
  for (size_t i = 0; i < n; ++i) pending[i] = static_cast<uint32_t>(i);
  for (uint64_t round = 0;; ++round) {
    const int threads = omp_get_max_threads();
    std::vector<std::vector<uint32_t>> again(static_cast<size_t>(threads));
    std::vector<std::vector<uint64_t>> missing(static_cast<size_t>(threads));
    FirstError err;
#pragma omp parallel
    {
      const size_t t = static_cast<size_t>(omp_get_thread_num());
      NeighbourhoodSource source(dict_.cases(), dict_.local(), &fetched_, dict_.filter(), dict_.rank(), dict_.ranks());
#pragma omp for schedule(dynamic, 64)
      for (size_t k = 0; k < pending.size(); ++k) {
        if (err.failed()) continue;
        err.run([&] {
          source.reset();
          const bool ok = checker_.spell(strings(pending[k]), source);
          if (source.missing().empty()) {
            verdict(pending[k], ok);
            return;
          }
          again[t].push_back(pending[k]);
          missing[t].insert(missing[t].end(), source.missing().begin(), source.missing().end());
        });
      }
    }
    err.rethrow();
    counts_.checks += pending.size();
    if (round > 0) counts_.rechecks += pending.size();
    pending.clear();
    std::vector<uint64_t> keys;
    for (size_t t = 0; t < again.size(); ++t) {
      pending.insert(pending.end(), again[t].begin(), again[t].end());
      keys.insert(keys.end(), missing[t].begin(), missing[t].end());
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (mpi::allreduce_sum(comm_, pending.size()) == 0) break;
    if (round + 1 >= kMaxRounds) throw std::runtime_error("hunspell check: keys still missing after 64 rounds");
    fetch(keys);
    ++counts_.rounds;
  }
  fetched_.clear();
}

std::vector<uint8_t> HunspellJudge::check(const std::vector<std::string_view>& strings) {
  std::vector<uint8_t> ok(strings.size(), 0);
  settle(
      strings.size(), [&](size_t i) { return strings[i]; }, [&](size_t i, bool v) { ok[i] = v ? 1 : 0; });
  return ok;
}

std::vector<std::vector<std::string>> HunspellJudge::candidates(const WordList& words, size_t batch_strings,
                                                                const std::function<void(size_t)>& progress) {
  std::vector<std::vector<std::string>> found(words.size());
  size_t next = 0;
  for (;;) {
    // This rank's next batch: whole words, about batch_strings strings.
    std::vector<std::string> strings;
    std::vector<uint32_t> owner;  // word of each string
    const size_t first = next;
    while (next < words.size() && (strings.size() < batch_strings || next == first)) {
      const size_t before = strings.size();
      edit_strings(words[next], alphabet_, strings);
      owner.resize(strings.size(), static_cast<uint32_t>(next));
      (void)before;
      ++next;
    }
    if (mpi::allreduce_max(comm_, static_cast<uint64_t>(strings.empty() ? 0 : 1)) == 0) break;
    std::vector<uint8_t> ok(strings.size(), 0);
    settle(
        strings.size(), [&](size_t i) { return std::string_view(strings[i]); },
        [&](size_t i, bool v) { ok[i] = v ? 1 : 0; });
    for (size_t i = 0; i < strings.size(); ++i)
      if (ok[i]) found[owner[i]].push_back(std::move(strings[i]));
    if (progress) progress(next);
  }
  return found;
}

}  // namespace spellcheck
