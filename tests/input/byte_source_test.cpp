// Byte sources: every compressed format decodes to the original bytes (one
// stream and several concatenated, read in small and big steps); truncated
// and corrupt data are bad input naming the file; magic-byte detection.
#include "spellcheck/input/detail/byte_source.hpp"

#include <bzlib.h>
#include <doctest/doctest.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <random>
#include <string>

#include "spellcheck/common/errors.hpp"

#include "temp_files.hpp"

using namespace spellcheck;
using spellcheck::testing::TempDir;
using spellcheck::testing::write;

namespace {

std::string gzip(const std::string& in) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, in.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string zstd(const std::string& in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
  REQUIRE(!ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string bzip2(const std::string& in) {
  std::string out(in.size() + in.size() / 100 + 600, '\0');
  unsigned n = static_cast<unsigned>(out.size());
  REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(in.data()), static_cast<unsigned>(in.size()), 1, 0,
                                   0) == BZ_OK);
  out.resize(n);
  return out;
}

std::string xz(const std::string& in) {
  std::string out(lzma_stream_buffer_bound(in.size()), '\0');
  size_t pos = 0;
  REQUIRE(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(in.data()), in.size(),
                                  reinterpret_cast<uint8_t*>(out.data()), &pos, out.size()) == LZMA_OK);
  out.resize(pos);
  return out;
}

std::string compress(Codec c, const std::string& in) {
  switch (c) {
    case Codec::gzip: return gzip(in);
    case Codec::zstd: return zstd(in);
    case Codec::bzip2: return bzip2(in);
    case Codec::xz: return xz(in);
    case Codec::none: break;
  }
  return in;
}

std::string text(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  const char* words[] = {"the ", "quick ", "brown ", "fox\n", "jumps ", "über ", "lazy ", "dogs. "};
  std::string s;
  while (s.size() < n) s += words[rng() % 8];
  s.resize(n);
  return s;
}

// Decodes with reads of `step` bytes.
std::string decode(const std::string& path, Codec c, size_t step) {
  auto src = open_input(path, c);
  std::string out, buf(step, '\0');
  for (;;) {
    const size_t got = src->read_at(out.size(), reinterpret_cast<unsigned char*>(buf.data()), step);
    out.append(buf, 0, got);
    if (got < step) break;
  }
  return out;
}

constexpr Codec kCodecs[] = {Codec::gzip, Codec::zstd, Codec::bzip2, Codec::xz};

}  // namespace

TEST_CASE("every format decodes to the original, in any read size, concatenated streams too") {
  TempDir t;
  const std::string a = text(700000, 1), b = text(1000, 2);
  for (const Codec c : kCodecs) {
    CAPTURE(codec_name(c));
    const std::string one = compress(c, a), two = compress(c, a) + compress(c, b);
    CHECK(detect_codec(reinterpret_cast<const unsigned char*>(one.data()), one.size()) == c);
    write(t.path / "one", one);
    write(t.path / "two", two);
    write(t.path / "empty", compress(c, ""));
    for (const size_t step : {size_t{1} << 0, size_t{4093}, size_t{1} << 20}) {
      if (step == 1 && c == Codec::xz) continue;  // (slow, and no different)
      CHECK(decode(t.str("one"), c, step) == a);
      CHECK(decode(t.str("two"), c, step) == a + b);
    }
    CHECK(decode(t.str("empty"), c, 100).empty());
    const auto src = open_input(t.str("one"), c);
    CHECK(read_all(*src) == a);
    CHECK(read_head(t.str("one"), c, 10) == a.substr(0, 10));
    // From memory too (standard input).
    const auto mem = decoding_source(memory_source(two, 0, "-"), c, "-");
    CHECK(read_all(*mem) == a + b);
  }
}

TEST_CASE("truncated and corrupt data are bad input naming the file") {
  TempDir t;
  const std::string a = text(300000, 3);
  for (const Codec c : kCodecs) {
    CAPTURE(codec_name(c));
    const std::string z = compress(c, a);
    const std::string path = t.str("f");
    for (const size_t keep : {z.size() - 1, z.size() / 2, size_t{12}}) {
      write(path, z.substr(0, keep));
      const auto src = open_input(path, c);
      CHECK_THROWS_AS(read_all(*src), InputError);
      try {
        read_all(*open_input(path, c));
      } catch (const InputError& e) {
        const std::string msg = e.what();
        CHECK(msg.starts_with("cannot read '" + path + "': "));
        CHECK(msg.find(codec_name(c)) != std::string::npos);
      }
    }
    std::string bad = z;
    for (size_t i = bad.size() / 3; i < bad.size() / 3 + 64; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    write(path, bad);
    CHECK_THROWS_AS(read_all(*open_input(path, c)), InputError);
    // Trailing junk after a complete stream.
    write(path, z + "junk after the end");
    CHECK_THROWS_AS(read_all(*open_input(path, c)), InputError);
  }
}

TEST_CASE("magic bytes") {
  auto of = [](const std::string& s) {
    return detect_codec(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  CHECK(of("\x1F\x8B") == Codec::gzip);
  CHECK(of(std::string("\x28\xB5\x2F\xFD", 4)) == Codec::zstd);
  CHECK(of("BZh9") == Codec::bzip2);
  CHECK(of("BZh is a word") == Codec::none);
  CHECK(of(std::string("\xFD"
                       "7zXZ\0",
                       6)) == Codec::xz);
  CHECK(of(std::string("\xFD"
                       "7zXZ",
                       5)) == Codec::none);
  CHECK(of("") == Codec::none);
  CHECK(of("plain text") == Codec::none);
}
