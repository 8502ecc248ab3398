#pragma once
// --index-cache DIR: compile on first use. A run given a word list or a
// hunspell dictionary compiles it into DIR the first time (spellcheck
// compile's file, in the run's mode: with the ranked index for ranked
// runs, without it otherwise) and reads that file in every later run, at
// any rank count. The file's name holds a digest of what compile reads
// (the dictionary's bytes, its .aff's, every --extra-dict's, the
// --frequencies file's) and of the options it records, so a changed source
// or option makes a new file; nothing deletes old ones.
#include <string>

#include "spellcheck/common/options.hpp"

namespace spellcheck {

// DIR/NAME-KEY.scd (NAME: the dictionary's file name without its
// extension), with DIR made when missing. Reads every source (one rank
// calls it). Throws InputError naming DIR when it is not a folder or
// cannot be made, or a source that cannot be read.
std::string compile_cache_path(const Options& opt);

}  // namespace spellcheck
