#pragma once
// What the hunspell checker (suggest/affix_checker.hpp) reads a dictionary
// through: root entries and the source that finds them by spelling.
#include <cstdint>
#include <span>
#include <string_view>

#include "spellcheck/dictionary/affix_rules.hpp"

namespace spellcheck {

// A root entry (one .dic line, or a hidden capitalised one).
struct Root {
  std::string_view word;  // internal form
  const Flag* flags = nullptr;
  uint32_t flag_count = 0;
  uint64_t order = 0;  // homonym rank; also the entry's identity
  bool has(Flag f) const { return has_flag(flags, flag_count, f); }
};

// The entries spelled like a word, in homonym order.
using RootList = std::span<const Root* const>;

class RootSource {
 public:
  virtual ~RootSource() = default;
  // s (internal form) is about to be looked up or stripped of affixes: its
  // roots must be at hand from now on. Returns false when s has no root at
  // all (neither it nor any string it could be stripped to is an entry):
  // the checker then skips the stripping.
  virtual bool prepare(std::string_view s) = 0;
  // The entries spelled exactly word, in homonym order (empty: none).
  // Valid until the next prepare(); the Roots themselves until the check ends.
  virtual RootList homonyms(std::string_view word) = 0;
  // Whether an entry at hand may be spelled head + tail: false lets the
  // checker skip building that string (most affixes strip to no entry).
  virtual bool may_be_spelled(std::string_view head, std::string_view tail) {
    (void)head;
    (void)tail;
    return true;
  }
};

}  // namespace spellcheck
