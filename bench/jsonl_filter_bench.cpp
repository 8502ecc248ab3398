// The JSON Lines filter's speed (MB/s, median of 5 runs) over about 100 MB
// of generated JSONL: the paragraphs of /usr/share/common-licenses/* as
// "text" values (line breaks as \n, quotes escaped) with a few other
// members, filtered in 1 MB pieces as the reader feeds them (the held-back
// line carried over). For context: memcpy of the same bytes in the same
// pieces, and simdjson's DOM parser validating each line (the alternative
// to the ondemand walk the filter does).
//   g++ -std=c++20 -O2 -Iinclude bench/jsonl_filter_bench.cpp src/input/jsonl_filter.cpp -lsimdjson
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spellcheck/input/detail/jsonl_filter.hpp"

using namespace spellcheck;

namespace {

constexpr size_t kTarget = size_t{100} << 20;
constexpr size_t kPiece = size_t{1} << 20;

// A paragraph as a JSON string's body.
std::string json_body(const std::string& para) {
  std::string out;
  for (const char c : para) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out;
}

std::vector<std::string> paragraphs() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator("/usr/share/common-licenses")) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    for (size_t pos = 0; pos < text.size();) {
      size_t end = text.find("\n\n", pos);
      if (end == std::string::npos) end = text.size();
      if (end - pos > 40) out.push_back(text.substr(pos, end - pos));
      pos = end + 2;
    }
  }
  return out;
}

std::string corpus() {
  const std::vector<std::string> paras = paragraphs();
  std::string out;
  for (size_t i = 0; out.size() < kTarget && !paras.empty(); ++i) {
    out += "{\"id\": \"rec-" + std::to_string(i) + "\", \"url\": \"https://example.org/licenses/" +
           std::to_string(i % 977) + "\", \"text\": \"" + json_body(paras[i % paras.size()]) +
           "\", \"meta\": {\"lang\": \"en\", \"score\": 0.93, \"tags\": [\"legal\", \"license\"]}}\n";
  }
  return out;
}

template <class F>
double median_mbs(size_t bytes, F&& run) {
  std::vector<double> mbs;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - t0;
    mbs.push_back(static_cast<double>(bytes) / 1e6 / s.count());
  }
  std::sort(mbs.begin(), mbs.end());
  return mbs[2];
}

}  // namespace

int main() {
  const std::string text = corpus();
  if (text.empty()) {
    std::fputs("jsonl_filter_bench: no /usr/share/common-licenses\n", stderr);
    return 1;
  }
  std::string work(text.size(), '\0');
  const double filter = median_mbs(text.size(), [&] {
    std::memcpy(work.data(), text.data(), text.size());
    auto f = make_jsonl_filter("text");
    auto* p = reinterpret_cast<unsigned char*>(work.data());
    for (size_t done = 0, end = 0; done < text.size();) {
      end = std::min(text.size(), end + kPiece);
      done += f->filter(p + done, end - done, end == text.size());
    }
  });
  const double copy = median_mbs(text.size(), [&] {
    for (size_t pos = 0; pos < text.size(); pos += kPiece)
      std::memcpy(work.data() + pos, text.data() + pos, std::min(kPiece, text.size() - pos));
  });
  size_t bad = 0;
  const double dom = median_mbs(text.size(), [&] {
    simdjson::dom::parser parser;
    std::vector<char> line;
    for (size_t pos = 0; pos < text.size();) {
      const size_t end = text.find('\n', pos);
      const size_t len = end - pos;
      if (line.size() < len + simdjson::SIMDJSON_PADDING) line.resize(len + simdjson::SIMDJSON_PADDING);
      std::memcpy(line.data(), text.data() + pos, len);
      bad += parser.parse(line.data(), len, false).error() != simdjson::SUCCESS;
      pos = end + 1;
    }
  });
  std::printf("%.1f MB of JSONL (simdjson kernel: %s)\n", static_cast<double>(text.size()) / 1e6,
              simdjson::get_active_implementation()->name().c_str());
  std::printf("jsonl filter (1 MB pieces):            %8.1f MB/s\n", filter);
  std::printf("dom::parser::parse per line, alone:   %8.1f MB/s%s\n", dom, bad ? " (errors!)" : "");
  std::printf("memcpy (1 MB pieces):                 %8.1f MB/s\n", copy);
  return 0;
}
