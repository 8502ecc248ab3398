#include "spellcheck/output/fixed_text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "spellcheck/common/errors.hpp"
#include "spellcheck/common/wire.hpp"
#include "spellcheck/output/output_file.hpp"

namespace spellcheck {
namespace {

bool rewritten(const InputFile& f) { return !f.stream && !f.whole(); }

void append_fix(std::string& out, const TextFix& f) {
  wire::append_le<uint32_t>(out, f.file);
  for (const uint64_t v : {f.offset, f.line, f.column}) wire::append_le<uint64_t>(out, v);
  wire::append_le<int64_t>(out, f.margin);
  for (const std::string* s : {&f.old_word, &f.new_word}) {
    wire::append_le<uint32_t>(out, static_cast<uint32_t>(s->size()));
    out += *s;
  }
}

TextFix read_fix(std::string_view in, size_t& at) {
  constexpr const char* what = "text fixes";
  TextFix f;
  f.file = wire::read_le_at<uint32_t>(in, at, what);
  for (uint64_t* v : {&f.offset, &f.line, &f.column}) *v = wire::read_le_at<uint64_t>(in, at, what);
  f.margin = wire::read_le_at<int64_t>(in, at, what);
  for (std::string* s : {&f.old_word, &f.new_word}) {
    const uint32_t n = wire::read_le_at<uint32_t>(in, at, what);
    *s = std::string(wire::read_bytes_at(in, at, n, what));
  }
  return f;
}

bool by_place(const TextFix& a, const TextFix& b) { return a.file != b.file ? a.file < b.file : a.offset < b.offset; }

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  return bytes;
}

// A word inside code: after a sigil ("$x", "@x"), beside a tag's or
// inline code's mark ("*x*", "|x|", "`x`") or before a call's "(", or
// joined by '_', '/', '.', ':', '=', '(' and the like to more of a name
// ("a_x", "x.txt", "line:col", "f(x"). An identifier, a file name or a tag is
// left as written: a change there breaks what it names (and a run-together
// identifier is no slip). Prose punctuation is no code: "{x}", "_x_",
// "x.)", "x:" stay fixable.
bool in_code(std::string_view text, size_t begin, size_t end) {
  constexpr std::string_view kSigils = "$@%#*|`", kMarksAfter = "*|`(", kJoiners = "_/\\.:=+&~^(";
  const auto name_byte = [&](size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    return std::isalnum(c) || c == '_';
  };
  if (begin > 0) {
    const char c = text[begin - 1];
    if (kSigils.find(c) != std::string_view::npos) return true;
    if (kJoiners.find(c) != std::string_view::npos && begin > 1 && name_byte(begin - 2)) return true;
  }
  if (end < text.size()) {
    const char c = text[end];
    if (kMarksAfter.find(c) != std::string_view::npos) return true;
    if (kJoiners.find(c) != std::string_view::npos && end + 1 < text.size() && name_byte(end + 1)) return true;
  }
  return false;
}

// The file's bytes with its fixes (by offset) applied where the old word
// is still there, and not inside code.
std::string apply(const std::string& bytes, const std::vector<TextFix>& fixes, size_t from, size_t to,
                  std::vector<TextFix>& made, FixCounts& counts) {
  std::string out;
  out.reserve(bytes.size() + 64);
  uint64_t at = 0;
  for (size_t j = from; j < to; ++j) {
    const TextFix& f = fixes[j];
    if (f.offset < at || std::string_view(bytes).substr(f.offset, f.old_word.size()) != f.old_word) {
      ++counts.stale;
      continue;
    }
    if (in_code(bytes, f.offset, f.offset + f.old_word.size())) {
      ++counts.in_code;
      continue;
    }
    out.append(bytes, at, f.offset - at);
    out += f.new_word;
    at = f.offset + f.old_word.size();
    made.push_back(f);
  }
  out.append(bytes, at, std::string::npos);
  return out;
}

}  // namespace

std::vector<TextFix> fixes_in_context(const InputPlan& plan, const LineTable& lines, const WordList& words,
                                      const RankedResults& ranked, const InContext& context, int64_t min_margin) {
  std::vector<TextFix> fixes;
  for (const ContextOccurrence& o : context.occurrences) {
    if (o.margin < min_margin) continue;
    const std::string_view best = ranked.word(o.word, o.best), old = words[o.word];
    if (best == old) continue;
    const auto it = std::upper_bound(plan.offsets.begin(), plan.offsets.end(), o.position);
    const auto file = static_cast<uint32_t>(it - plan.offsets.begin() - 1);
    if (!rewritten(plan.files[file])) continue;
    const Location where = lines.locate(o.position, o.mark);
    fixes.push_back({file, o.position - plan.offsets[file], where.line, where.column, o.margin, std::string(old),
                     std::string(best)});
  }
  return fixes;
}

void make_fix_folder(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec))
    throw InputError("--fix: cannot make the folder '" + dir + "'" + (ec ? ": " + ec.message() : std::string()));
}

std::string fixed_path(const std::string& dir, const std::string& path) {
  std::filesystem::path rel = std::filesystem::path(path).relative_path();
  for (const auto& part : rel)
    if (part == "..")
      throw UsageError("--fix: '" + path + "' has a '..' part: it cannot be placed under '" + dir + "'");
  return (std::filesystem::path(dir) / rel).string();
}

std::vector<TextFix> route_fixes(const mpi::Comm& comm, const std::vector<TextFix>& fixes) {
  const size_t p = static_cast<size_t>(comm.size());
  std::vector<std::string> to(p);
  for (const TextFix& f : fixes) append_fix(to[f.file % p], f);
  mpi::Bytes send;
  for (const std::string& b : to) {
    send.data += b;
    send.counts.push_back(b.size());
  }
  const mpi::Bytes recv = mpi::alltoallv_bytes(comm, send);
  std::vector<TextFix> mine;
  for (size_t at = 0; at < recv.data.size();) mine.push_back(read_fix(recv.data, at));
  return mine;
}

std::vector<TextFix> write_fixed_files(const InputPlan& plan, const std::string& dir, int rank, int ranks,
                                       std::vector<TextFix> fixes, FixCounts& counts) {
  std::sort(fixes.begin(), fixes.end(), by_place);
  std::vector<TextFix> made;
  size_t next = 0;
  for (uint32_t i = static_cast<uint32_t>(rank); i < plan.files.size(); i += static_cast<uint32_t>(ranks)) {
    const InputFile& f = plan.files[i];
    while (next < fixes.size() && fixes[next].file < i) ++next;
    size_t end = next;
    while (end < fixes.size() && fixes[end].file == i) ++end;
    if (!rewritten(f)) {
      counts.files_not_rewritten += f.whole();
      continue;
    }
    const std::string target = fixed_path(dir, f.path);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(target).parent_path(), ec);
    if (ec) throw InputError("--fix: cannot make the folder of '" + target + "': " + ec.message());
    OutputFile out(target);
    out.write(apply(read_whole(f.path), fixes, next, end, made, counts));
    out.commit();
    ++counts.files_written;
    next = end;
  }
  counts.fixes = made.size();
  return made;
}

std::string change_list(const mpi::Comm& comm, const InputPlan& plan, const std::vector<TextFix>& made) {
  std::string mine;
  for (const TextFix& f : made) append_fix(mine, f);
  const mpi::Gathered all = mpi::gather_bytes(comm, mine);
  if (comm.rank() != 0) return {};
  std::vector<TextFix> fixes;
  for (size_t at = 0; at < all.bytes.size();) fixes.push_back(read_fix(all.bytes, at));
  std::sort(fixes.begin(), fixes.end(), by_place);
  std::string tsv;
  for (const TextFix& f : fixes) {
    char margin[32];
    std::snprintf(margin, sizeof margin, "%.3f", static_cast<double>(f.margin) / 1000.0);
    tsv += plan.files[f.file].path + ':' + std::to_string(f.line) + ':' + std::to_string(f.column) + '\t' + f.old_word +
           '\t' + f.new_word + '\t' + (f.margin == ContextOccurrence::kAlone ? "-" : margin) + '\n';
  }
  return tsv;
}

}  // namespace spellcheck
