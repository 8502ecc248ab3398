#pragma once
// The one codec of the messages between ranks and of the files the
// program writes for itself: fixed-width integers, little-endian whatever
// the machine. append_le writes one at the end of a buffer; read_le reads
// one and steps past it, unchecked, for decoders that checked the sizes
// first (the ranked lookup's messages, suggest/detail/ranked_messages.hpp);
// read_le_at is checked: it throws WireError naming the message when the
// bytes end early. Arrays of integers go through append_array_le and
// read_array_le_at.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

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

// Writes v at p (room for it checked by the caller).
template <class T>
inline void store_le(char* p, T v) {
  v = to_little_endian(v);
  std::memcpy(p, &v, sizeof v);
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

// Bytes that end before the message does.
struct WireError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The T at bytes[at], `at` then past it; `what` names the message.
template <class T>
inline T read_le_at(std::string_view bytes, size_t& at, const char* what) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) throw WireError(std::string(what) + ": cut short");
  const char* p = bytes.data() + at;
  at += sizeof(T);
  return read_le<T>(p);
}

template <class T>
inline void append_array_le(std::string& s, const T* v, size_t n) {
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0) s.append(reinterpret_cast<const char*>(v), n * sizeof(T));
  } else {
    for (size_t i = 0; i < n; ++i) append_le(s, v[i]);
  }
}

template <class T>
inline void append_vector_le(std::string& s, const std::vector<T>& v) {
  append_array_le(s, v.data(), v.size());
}

// A header struct's bytes as they lie in memory (compiled files, which
// are little-endian and say so where they are read).
template <class T>
inline void append_struct(std::string& s, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// n values of T from bytes[at] into out, `at` then past them.
template <class T>
inline void read_array_le_at(std::string_view bytes, size_t& at, T* out, size_t n, const char* what) {
  if (at > bytes.size() || (bytes.size() - at) / sizeof(T) < n) throw WireError(std::string(what) + ": cut short");
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0) std::memcpy(out, bytes.data() + at, n * sizeof(T));
    at += n * sizeof(T);
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = read_le_at<T>(bytes, at, what);
  }
}

// n bytes from bytes[at] as they are, `at` then past them.
inline std::string_view read_bytes_at(std::string_view bytes, size_t& at, size_t n, const char* what) {
  if (at > bytes.size() || bytes.size() - at < n) throw WireError(std::string(what) + ": cut short");
  const std::string_view out = bytes.substr(at, n);
  at += n;
  return out;
}

}  // namespace spellcheck::wire
