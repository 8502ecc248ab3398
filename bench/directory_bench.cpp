// directory_bench [KEYS] [LOOKUPS] [ROUNDS]: a hunspell shard's key lookup
// (fold key hash -> range of its members) two ways: the flat HashDirectory
// root_neighbourhoods uses, and a TBB concurrent hash map (the word-list
// shard's kind). Random 64-bit keys (what XXH3 gives), built once; lookups
// of keys present, in a random order, one thread; the two alternated over
// ROUNDS (default 7), median ns per lookup and build ms of each printed.
#include <tbb/concurrent_hash_map.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "spellcheck/suggest/delete_index.hpp"

using namespace spellcheck;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

int main(int argc, char** argv) {
  const size_t keys = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 357629;  // de_DE's fold keys over 2 ranks x2
  const size_t lookups = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4000000;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 7;
  std::mt19937_64 rng(42);
  std::vector<uint64_t> key(keys);
  for (uint64_t& k : key) k = rng();
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  std::vector<uint32_t> starts(key.size() + 1);
  for (size_t i = 0; i <= key.size(); ++i) starts[i] = static_cast<uint32_t>(2 * i);  // two members a key
  std::vector<uint64_t> ask(lookups);
  for (uint64_t& a : ask) a = key[rng() % key.size()];

  using Map = tbb::concurrent_hash_map<uint64_t, std::pair<uint32_t, uint32_t>>;
  std::vector<double> flat_ns, tbb_ns, flat_build, tbb_build;
  uint64_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = Clock::now();
    HashDirectory dir;
    dir.build(key, starts);
    flat_build.push_back(ms_since(t0));
    t0 = Clock::now();
    for (const uint64_t a : ask) sink += dir.find(a).first;
    flat_ns.push_back(ms_since(t0) * 1e6 / static_cast<double>(lookups));

    t0 = Clock::now();
    Map map(key.size());
    for (size_t i = 0; i < key.size(); ++i) map.insert({key[i], {starts[i], starts[i + 1]}});
    tbb_build.push_back(ms_since(t0));
    t0 = Clock::now();
    for (const uint64_t a : ask) {
      Map::const_accessor acc;
      if (map.find(acc, a)) sink += acc->second.first;
    }
    tbb_ns.push_back(ms_since(t0) * 1e6 / static_cast<double>(lookups));
  }
  std::printf("directory_bench: %zu keys, %zu lookups, %d alternated rounds, medians (checksum %llu)\n", key.size(),
              lookups, rounds, static_cast<unsigned long long>(sink % 1000));
  std::printf("  HashDirectory:               %6.1f ns/lookup, build %7.1f ms\n", median(flat_ns), median(flat_build));
  std::printf("  tbb::concurrent_hash_map:    %6.1f ns/lookup, build %7.1f ms\n", median(tbb_ns), median(tbb_build));
  return 0;
}
