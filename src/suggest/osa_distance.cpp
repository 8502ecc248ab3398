#include "spellcheck/suggest/osa_distance.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace spellcheck {

int osa_distance(const char32_t* a, size_t n, const char32_t* b, size_t m, int max) {
  if (n > m) {
    std::swap(a, b);
    std::swap(n, m);
  }
  if (static_cast<int>(m - n) > max) return max + 1;
  // A common prefix and suffix never take part in an optimal alignment's
  // edits: most calls compare near-equal short keys, which this settles
  // without the table.
  while (n > 0 && a[0] == b[0]) ++a, ++b, --n, --m;
  while (n > 0 && a[n - 1] == b[m - 1]) --n, --m;
  if (n == 0) return std::min(static_cast<int>(m), max + 1);
  // Three rows: two back (for transpositions), one back, current.
  int stack[3][kOsaStackLength + 1];
  std::vector<int> heap;
  int* rows[3];
  if (m <= kOsaStackLength) {
    for (int k = 0; k < 3; ++k) rows[k] = stack[k];
  } else {
    heap.resize(3 * (m + 1));
    for (int k = 0; k < 3; ++k) rows[k] = heap.data() + k * (m + 1);
  }
  int* two = rows[0];
  int* one = rows[1];
  int* cur = rows[2];
  for (size_t j = 0; j <= m; ++j) one[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    int row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int v = std::min({one[j] + 1, cur[j - 1] + 1, one[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min(v, two[j - 2] + 1);
      cur[j] = v;
      row_min = std::min(row_min, v);
    }
    if (row_min > max) return max + 1;
    int* t = two;
    two = one;
    one = cur;
    cur = t;
  }
  return std::min(one[m], max + 1);
}

uint64_t letter_set(const char32_t* w, size_t n) {
  uint64_t set = 0;
  for (size_t i = 0; i < n; ++i) {
    const char32_t c = w[i];
    unsigned bit;
    if (c >= 'a' && c <= 'z') bit = c - 'a';
    else if (c >= '0' && c <= '9') bit = 26 + (c - '0');
    else if (c == '\'') bit = 36;
    else bit = 37 + static_cast<unsigned>((static_cast<uint64_t>(c) * 0x9E3779B97F4A7C15ULL) >> 59) % 27;
    set |= uint64_t{1} << bit;
  }
  return set;
}

LetterCounts letter_counts(const char32_t* w, size_t n) {
  LetterCounts counts;
  for (size_t i = 0; i < n; ++i) {
    const char32_t c = w[i];
    unsigned k;
    if (c >= 'a' && c <= 'z') k = c - 'a';
    else if (c == '\'') k = 26;
    else k = 27 + static_cast<unsigned>((static_cast<uint64_t>(c) * 0x9E3779B97F4A7C15ULL) >> 59) % 5;
    uint64_t& half = counts.half[k / 16];
    const unsigned shift = 4 * (k % 16);
    if (((half >> shift) & 0xF) < 7) half += uint64_t{1} << shift;
  }
  return counts;
}

void OsaPattern::assign(const char32_t* a, size_t n) {
  // Clear what the previous word set (not all 128 slots: most words touch a few).
  for (size_t i = 0; i < n_ && i < 64; ++i)
    if (a_[i] < 128) ascii_[a_[i]] = 0;
  other_chars_ = 0;
  a_.assign(a, a + n);
  n_ = n;
  if (n > 64) return;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    if (a[i] < 128) {
      ascii_[a[i]] |= bit;
      continue;
    }
    size_t k = 0;
    while (k < other_chars_ && other_[k] != a[i]) ++k;
    if (k == other_chars_) {
      other_[k] = a[i];
      other_mask_[k] = 0;
      ++other_chars_;
    }
    other_mask_[k] |= bit;
  }
}

int OsaPattern::distance(const char32_t* b, size_t m, int max) const {
  const size_t n = n_;
  if ((n > m ? n - m : m - n) > static_cast<size_t>(max)) return max + 1;
  if (n > 64) return osa_distance(a_.data(), n, b, m, max);
  if (n == 0) return m > static_cast<size_t>(max) ? max + 1 : static_cast<int>(m);
  // Hyyrö (2003): the pattern down the rows, b along the columns; VP/VN
  // hold the vertical +1/-1 differences, D0 the diagonal zeros, and the
  // transposition term lets a diagonal step over a swapped pair.
  const uint64_t last = uint64_t{1} << (n - 1);
  const uint64_t mask = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  uint64_t vp = mask, vn = 0, d0 = 0, prev_eq = 0;
  int score = static_cast<int>(n);
  for (size_t j = 0; j < m; ++j) {
    const uint64_t eq = match(b[j]);
    const uint64_t tr = (((~d0) & eq) << 1) & prev_eq;
    d0 = ((((eq & vp) + vp) ^ vp) | eq | vn | tr) & mask;
    uint64_t hp = vn | ~(d0 | vp);
    uint64_t hn = d0 & vp;
    if (hp & last) ++score;
    if (hn & last) --score;
    hp = (hp << 1) | 1;
    hn <<= 1;
    vp = (hn | ~(d0 | hp)) & mask;
    vn = hp & d0;
    prev_eq = eq;
    // The last row can fall by at most one per remaining column.
    if (score - static_cast<int>(m - 1 - j) > max) return max + 1;
  }
  return score <= max ? score : max + 1;
}

namespace {

// QWERTY rows; two letters touch when they are neighbours in a row or
// overlap diagonally with the row above or below. Per letter, the set of
// letters it touches (bit y - 'a'), computed at compile time: the walk asks
// for every substitution.
constexpr std::array<uint32_t, 26> kTouching = [] {
  std::array<uint32_t, 26> touching{};
  const char* rows[3] = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; rows[r][c]; ++c) {
      auto touch = [&](char y) { touching[static_cast<size_t>(rows[r][c] - 'a')] |= uint32_t{1} << (y - 'a'); };
      if (c > 0) touch(rows[r][c - 1]);
      if (rows[r][c + 1]) touch(rows[r][c + 1]);
      // Row r+1 is shifted right by about half a key: key c of the lower
      // row sits between keys c and c+1 of the upper one.
      for (int o = 0; o < 3; ++o)
        for (int k = 0; rows[o][k]; ++k)
          if ((o == r + 1 && (k == c || k + 1 == c)) || (o + 1 == r && (c == k || c + 1 == k))) touch(rows[o][k]);
    }
  return touching;
}();

bool keys_touch(char32_t x, char32_t y) {
  if (x > 'z' || y > 'z' || x < 'a' || y < 'a') return false;
  return (kTouching[x - 'a'] >> (y - 'a')) & 1;
}

bool is_vowel(char32_t c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'; }

// Bands up to this wide are filled in a table on the stack (distances up
// to 2, and length gaps up to that, are nearly all of those asked).
constexpr size_t kBandedMaxBand = 6;

// The cells of the OSA table of a[0, rows) and b[0, cols) within band of
// the diagonal, and those just outside it (255; the first row and column
// hold their true values): an alignment within the band never leaves it.
// a and b share their first `common` code points: a cell in those rows or
// columns compares a prefix of one word with a prefix of the other, so it
// is their difference in length, written without the recurrence (each cell
// of which waits on the one to its left).
template <class At>
void fill_band(const char32_t* a, const char32_t* b, size_t rows, size_t cols, size_t band, size_t common, At&& at) {
  for (size_t j = 0; j <= std::min(cols, band + 1); ++j) at(0, j) = static_cast<uint8_t>(std::min<size_t>(j, 255));
  for (size_t i = 1; i <= rows; ++i) {
    size_t j = i > band + 1 ? i - band - 1 : 0;
    if (j > cols) continue;  // (not with rows - cols <= band, as callers give)
    // The cell to the left stays in a register: each cell waits on it.
    int left = j == 0 ? static_cast<int>(std::min<size_t>(i, 255)) : 255;  // 255: left of the band
    at(i, j++) = static_cast<uint8_t>(left);
    const size_t in_band = std::min(cols, i + band);
    // (Band cells: |i - j| <= band < 255.)
    const size_t known = i <= common ? in_band : std::min(common, in_band);
    for (; j <= known; ++j) {
      left = static_cast<int>(i > j ? i - j : j - i);
      at(i, j) = static_cast<uint8_t>(left);
    }
    const char32_t ai = a[i - 1];
    for (; j <= in_band; ++j) {
      const int cost = ai == b[j - 1] ? 0 : 1;
      int v = std::min({at(i - 1, j) + 1, left + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && ai == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min(v, at(i - 2, j - 2) + 1);
      left = std::min(v, 255);
      at(i, j) = static_cast<uint8_t>(left);
    }
    if (i + band + 1 <= cols) at(i, i + band + 1) = 255;  // right of the band
  }
}

// One walk back from (rows, cols) to the start, preferring a match, then a
// transposition, a substitution, a letter left out, a letter added, and
// counting the edits it takes into p.
template <class At>
void walk_back(EditProfile& p, const char32_t* a, size_t n, const char32_t* b, size_t m, size_t rows, size_t cols,
               size_t common, At&& at) {
  size_t i = rows, j = cols;
  auto touch_first = [&](size_t pos) {
    if (pos == 0) p.first_letter = 1;
  };
  // On the diagonal within the common prefix the rest is matches (each
  // cell there is 0, and a match is taken first).
  while ((i > 0 || j > 0) && !(i == j && i <= common)) {
    const int here = at(i, j);
    if (i > 0 && j > 0 && a[i - 1] == b[j - 1] && at(i - 1, j - 1) == here) {
      --i, --j;
    } else if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && a[i - 1] != a[i - 2] &&
               at(i - 2, j - 2) + 1 == here) {
      ++p.transpositions;
      touch_first(i - 2);
      i -= 2, j -= 2;
    } else if (i > 0 && j > 0 && at(i - 1, j - 1) + 1 == here) {
      ++p.substitutions;
      if (keys_touch(a[i - 1], b[j - 1])) ++p.keyboard_substitutions;
      if (is_vowel(a[i - 1]) && is_vowel(b[j - 1])) ++p.vowel_substitutions;
      touch_first(i - 1);
      --i, --j;
    } else if (j > 0 && at(i, j - 1) + 1 == here) {
      // b[j-1] left out of the typo: a doubled letter when it repeats a
      // neighbour in the word.
      ++p.insertions;
      if ((j > 1 && b[j - 2] == b[j - 1]) || (j < m && b[j] == b[j - 1])) ++p.double_insertions;
      touch_first(j - 1);
      --j;
    } else {
      // a[i-1] added by the typist.
      ++p.deletions;
      if ((i > 1 && a[i - 2] == a[i - 1]) || (i < n && a[i] == a[i - 1])) ++p.double_deletions;
      touch_first(i - 1);
      --i;
    }
  }
}

}  // namespace

EditProfile edit_profile(const char32_t* a, size_t n, const char32_t* b, size_t m, int distance) {
  EditProfile p;
  if (n > kOsaStackLength || m > kOsaStackLength) {
    const int d = osa_distance(a, n, b, m, 255);
    p.distance = static_cast<uint8_t>(std::min(d, 255));
    p.substitutions = p.distance;
    return p;
  }
  // The table (small: words are short), then one walk back from the end.
  // With the distance D known, only the band |i - j| <= D is computed, and
  // the cells just outside it hold 255: a cell off the band costs more than
  // D, so neither the band's values nor the walk's choices change (the walk
  // compares neighbours with values at most D).
  // A common suffix is matched letter for letter by the walk (the distance
  // of two prefixes is that of the prefixes without a common last letter),
  // so the table stops before it: the walk starts where it would arrive.
  // Only the letters' neighbours past it are still read (doubled letters).
  size_t rows = n, cols = m;
  while (rows > 0 && cols > 0 && a[rows - 1] == b[cols - 1]) --rows, --cols;
  if (distance == 1) {
    // One edit (most of the entries ranked): the walk's single step is
    // known without the table. It stands at (rows, cols) where the last
    // letters differ, and takes the first of transposition, substitution,
    // insertion, deletion whose rest is equal (the walk's order); the rest
    // is matched. A distance given wrong falls through to the table.
    const bool swapped = rows == cols && rows >= 2 && a[rows - 1] == b[cols - 2] && a[rows - 2] == b[cols - 1] &&
                         a[rows - 1] != a[rows - 2] && std::equal(a, a + rows - 2, b);
    if (swapped) {
      p.distance = 1;
      p.transpositions = 1;
      p.first_letter = rows == 2;
      return p;
    }
    if (rows == cols && rows >= 1 && std::equal(a, a + rows - 1, b)) {
      p.distance = 1;
      p.substitutions = 1;
      p.keyboard_substitutions = keys_touch(a[rows - 1], b[cols - 1]);
      p.vowel_substitutions = is_vowel(a[rows - 1]) && is_vowel(b[cols - 1]);
      p.first_letter = rows == 1;
      return p;
    }
    if (cols == rows + 1 && std::equal(a, a + rows, b)) {
      const size_t j = cols;  // b[j - 1] left out of the typo
      p.distance = 1;
      p.insertions = 1;
      p.double_insertions = (j > 1 && b[j - 2] == b[j - 1]) || (j < m && b[j] == b[j - 1]);
      p.first_letter = j == 1;
      return p;
    }
    if (rows == cols + 1 && std::equal(a, a + cols, b)) {
      const size_t i = rows;  // a[i - 1] added by the typist
      p.distance = 1;
      p.deletions = 1;
      p.double_deletions = (i > 1 && a[i - 2] == a[i - 1]) || (i < n && a[i] == a[i - 1]);
      p.first_letter = i == 1;
      return p;
    }
  }
  const size_t gap = n > m ? n - m : m - n;
  const size_t band = distance < 0 ? std::max(rows, cols) : std::max(static_cast<size_t>(distance), gap);
  // The band, the distance at its end and the walk back, on either table.
  // A distance given too small leaves the end off the band: the whole table.
  size_t common = 0;
  while (common < rows && common < cols && a[common] == b[common]) ++common;
  auto profile_on = [&](auto&& at) {
    fill_band(a, b, rows, cols, band, common, at);
    p.distance = at(rows, cols);
    if (p.distance > band && band < std::max(rows, cols)) return edit_profile(a, n, b, m, -1);
    walk_back(p, a, n, b, m, rows, cols, common, at);
    return p;
  };
  if (band <= kBandedMaxBand) {
    // Only the band and the cells just outside it are read, so the table
    // keeps the diagonals j - i in [-band - 1, band + 1] of each row, on the
    // stack; the cells are those of the full table.
    const size_t w = 2 * band + 3;
    uint8_t table[(kOsaStackLength + 1) * (2 * kBandedMaxBand + 3)];
    return profile_on([&](size_t i, size_t j) -> uint8_t& { return table[i * w + j + band + 1 - i]; });
  }
  static thread_local std::vector<uint8_t> table;
  const size_t w = cols + 1;
  if (table.size() < (rows + 1) * w) table.resize((rows + 1) * w);
  return profile_on([&](size_t i, size_t j) -> uint8_t& { return table[i * w + j]; });
}

}  // namespace spellcheck
