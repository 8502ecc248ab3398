// libFuzzer target: the option parser. The input is argv, split at NUL
// bytes. Anything may be rejected, but only with a UsageError or InputError
// (the one-line message of bad input), never with another exception or a
// crash; what is accepted must be within the documented ranges.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"spellcheck"};
  std::string cur;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  args.push_back(cur);
  if (args.size() > 64) return 0;
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    const spellcheck::Options o = spellcheck::parse_options(static_cast<int>(argv.size()), argv.data());
    if (o.help || o.version || o.list_dictionaries) return 0;
    // A dictionary and at least one input (names may be empty: bad input
    // later); compile: a dictionary and an output, no input.
    if (o.compile ? !o.inputs.empty() || o.output.empty() : o.inputs.empty()) std::abort();
    if (o.threads < 0 || o.threads > 4096 || o.batch_bytes < 1 || o.max_word_length < 1) std::abort();
  } catch (const spellcheck::UsageError& e) {
    if (std::string(e.what()).empty()) std::abort();
  } catch (const spellcheck::InputError&) {
  }
  return 0;
}
