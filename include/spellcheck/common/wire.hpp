#pragma once
// Fixed-width integers in messages between ranks, little-endian whatever
// the machine: append_le writes one at the end of a buffer, read_le reads
// one and steps past it. Readers of received bytes check sizes before they
// read (a message's decoder knows its layout); these only move the bytes.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace spellcheck::wire {

template <class T>
constexpr T to_little_endian(T v) {
  static_assert(std::is_integral_v<T>);
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(v), r = 0;
    for (size_t i = 0; i < sizeof(T); ++i, u >>= 8) r = static_cast<U>((r << 8) | (u & 0xFF));
    return static_cast<T>(r);
  } else {
    return v;
  }
}

template <class T>
inline void append_le(std::string& s, T v) {
  v = to_little_endian(v);
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
inline T read_le(const char*& p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return to_little_endian(v);  // (its own inverse)
}

// read_le without stepping past.
template <class T>
inline T peek_le(const char* p) {
  return read_le<T>(p);
}

}  // namespace spellcheck::wire
