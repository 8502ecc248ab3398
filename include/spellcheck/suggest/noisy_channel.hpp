#pragma once
// The ranking of suggestions: a noisy-channel score, the log of
//   P(word) * P(typo | word)
// where P(word) comes from a frequency list (and, in document mode, the
// collection's own counts) and P(typo | word) from the edits that turn the
// word into the typo (edit_profile) and how the two sound (phonetic_key).
// Scores are integers (thousandths of a nat) so that every rank, thread and
// the serial reference order candidates identically.
//
//   score = round(1000 * prior_weight * ln(count + prior_floor))
//         + round(1000 * collection_weight * ln(1 + collection_count))
//         - sum over edits of their cost
//         + sound bonus (same key, or keys one apart)
//         + case bonus (the word differs from an entry only in case)
//         - capital cost (the entry has a capital the typo has not)
//
// The weights are fitted on public misspelling lists (bench/quality.sh,
// bench/tune_channel.py); no misspelling pair is inside the program.
#include <cstddef>
#include <cstdint>
#include <string>

#include "spellcheck/suggest/osa_distance.hpp"

namespace spellcheck {

struct ChannelWeights {
  // Fitted with bench/tune_channel.py on the three public lists, with both
  // american-insane and aspell's en_US word list (objective: mean of top-1
  // and top-5; figures in results/quality.md).
  double prior_weight = 0.79375;
  double prior_floor = 1.125;      // pseudo-count of a word missing from the frequency list
  double collection_weight = 0.5;  // not fitted (the lists have no collection): a judgement
  int transposition = 3000;
  int substitution = 7000;
  int keyboard_substitution = 0;   // added to substitution: keys that touch
  int vowel_substitution = -1750;  // added to substitution: vowel for vowel
  int insertion = 4000;            // a letter left out
  int double_insertion = -1500;    // added: one of a doubled pair left out
  int deletion = 8000;             // a letter added
  int double_deletion = -1250;     // added: a letter repeated
  int first_letter = 2250;         // an edit at the first letter
  int same_sound = 3500;           // phonetic keys equal
  int near_sound = 1000;           // phonetic keys one edit apart
  int case_only = 19500;           // differs from the typo only in case
  int capital_mismatch = 7250;     // a capital in the entry, none in the typo (`The` for `teh`)
  int likely_replacement = 5000;   // the typo is the word with one of the .aff's REP or MAP errors
                                   // (likely_replacements.hpp), in place of its edits
};

// Words that sound like the typo (phonetic keys at most one edit apart) are
// candidates beyond the edit distance, up to this many edits: enough for
// `funetik` -> `phonetic` (3), no more, since every further edit lets in
// hundreds of unlikely words.
inline int sound_alike_reach(size_t typo_length) {
  const int r = static_cast<int>((typo_length + 2) / 3);
  return r < 3 ? 3 : r;
}

// The weights in force (fitted defaults; SPELLCHECK_CHANNEL_WEIGHTS can
// override them for tuning: "name=value,..." with the names above).
const ChannelWeights& channel_weights();
// The weights for hunspell dictionaries of other languages than English:
// the same, but the word prior weighs 0.3 and an edit at the first letter
// costs 1000. Their frequency lists (SymSpell's Google Books counts) are far
// from the texts people check; fitted on typos of man-page words in de,
// es, fr, ru, nl and sv (typos 1001-3000 of make-lang-data's; the first
// 1000, compared with hunspell, held out: results/quality-languages.md).
// SPELLCHECK_CHANNEL_WEIGHTS applies too.
const ChannelWeights& language_channel_weights();
ChannelWeights parse_channel_weights(const std::string& spec, ChannelWeights base);

// A Metaphone-like key of a case-folded word (letters a-z; other code points
// are kept as they are): consonant classes by sound, vowels dropped after
// the first letter, doubled sounds once. `fone` and `phone` share one.
std::string phonetic_key(const char32_t* w, size_t n);

// The prior part of the score (frequency and collection terms).
int64_t channel_prior(uint64_t frequency, uint64_t collection_count, const ChannelWeights& w);

// The score of word for typo (both case-folded), given the word's counts.
// sound_distance: OSA distance of the two phonetic keys (0, 1, or more).
// capital_mismatch: the entry has a capital and the typo none.
int64_t channel_score(const EditProfile& edits, int sound_distance, uint64_t frequency, uint64_t collection_count,
                      bool capital_mismatch, const ChannelWeights& w);
// The rest of the score: channel_score = channel_prior + channel_evidence.
int64_t channel_evidence(const EditProfile& edits, int sound_distance, bool capital_mismatch, const ChannelWeights& w);

}  // namespace spellcheck
