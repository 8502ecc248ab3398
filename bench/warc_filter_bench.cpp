// The WARC filter's speed (MB/s, median of 5 runs), fed in 1 MB pieces as
// the reader feeds them (the held-back bytes carried over):
// - wet: a WET file of about 100 MB, the licences of /usr/share/
//   common-licenses as conversion records (made-up URIs), repeated; the
//   payloads are kept, so this is the cost of the headers and the countdown;
// - warc: about 100 MB of response records, the Debian Reference's HTML
//   (debian-reference-en) behind HTTP headers, so mostly the HTML filter.
//   g++ -std=c++20 -O2 -Iinclude bench/warc_filter_bench.cpp src/input/warc_filter.cpp
//       src/input/html_filter.cpp -o /tmp/warc_bench && /tmp/warc_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spellcheck/input/detail/warc_filter.hpp"

using namespace spellcheck;

namespace {

std::vector<std::string> read_dir(const std::filesystem::path& dir, std::string_view suffix) {
  std::vector<std::string> out;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file() || !e.path().string().ends_with(suffix)) continue;
    std::ifstream f(e.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  return out;
}

void add_record(std::string& out, std::string_view type, std::string_view extra, std::string_view payload) {
  out += "WARC/1.0\r\nWARC-Type: ";
  out += type;
  out += "\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:0b7e7a5c-1d34-4c0e-9f3b-52a4c0f7a1de>\r\n";
  out += extra;
  out += "Content-Length: " + std::to_string(payload.size()) + "\r\n\r\n";
  out += payload;
  out += "\r\n\r\n";
}

// Records of docs, wrapped by wrap, repeated to about target bytes.
template <class Wrap>
std::string warc_file(const std::vector<std::string>& docs, size_t target, Wrap&& wrap) {
  std::string out;
  for (size_t i = 0; out.size() < target && !docs.empty(); ++i) wrap(out, docs[i % docs.size()], i);
  return out;
}

// MB/s of the median of 5 runs of f(), which handles bytes bytes.
template <class F>
double median_mbps(size_t bytes, F&& f) {
  std::vector<double> rates;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - t0;
    rates.push_back(static_cast<double>(bytes) / 1e6 / s.count());
  }
  std::sort(rates.begin(), rates.end());
  return rates[2];
}

// The input through a fresh filter in pieces of piece bytes, as the reader
// feeds them. Returns the records announced (so the work is not dropped).
size_t feed(const std::string& in, std::string& buf, size_t piece) {
  WarcFilter f;
  size_t records = 0;
  f.on_record([&](uint64_t, std::string_view) { ++records; });
  size_t held = 0;
  for (size_t at = 0; at < in.size();) {
    const size_t take = std::min(piece, in.size() - at);
    std::memcpy(buf.data() + held, in.data() + at, take);
    at += take;
    const size_t n = held + take;
    auto* b = reinterpret_cast<unsigned char*>(buf.data());
    const size_t k = f.filter(b, n, at == in.size());
    std::memmove(b, b + k, n - k);
    held = n - k;
  }
  return records + f.malformed().count;
}

void report(const char* name, const std::string& in) {
  if (in.empty()) {
    std::printf("%s: no input files\n", name);
    return;
  }
  std::string buf(in.size() + (1u << 20), '\0');
  size_t records = 0;
  const double mbps = median_mbps(in.size(), [&] { records = feed(in, buf, 1u << 20); });
  std::printf("%s: %7.1f MB/s (%zu MB, %zu records, 1 MB pieces)\n", name, mbps, in.size() >> 20, records);
}

}  // namespace

int main() {
  const size_t target = 100u << 20;
  const auto licences = read_dir("/usr/share/common-licenses", "");
  report("wet  (conversion records)", warc_file(licences, target, [](std::string& out, const std::string& d, size_t i) {
           add_record(
               out, "conversion",
               "WARC-Target-URI: https://licences.example/" + std::to_string(i) + "\r\nContent-Type: text/plain\r\n",
               d);
         }));
  const auto pages = read_dir("/usr/share/debian-reference", ".en.html");
  report("warc (HTML responses)     ", warc_file(pages, target, [](std::string& out, const std::string& d, size_t i) {
           add_record(out, "response",
                      "WARC-Target-URI: https://reference.example/" + std::to_string(i) +
                          "\r\nContent-Type: application/http; msgtype=response\r\n",
                      "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: " +
                          std::to_string(d.size()) + "\r\n\r\n" + d);
         }));
}
