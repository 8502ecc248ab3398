// filter_text -- the markup filter a file's name implies under --filter
// LIST, applied to the whole file in one call: writes the filtered bytes
// (a compressed file's decoded bytes, filtered) to OUT. For the end-to-end
// filter test (tests/filters.sh): the serial reference then reads the
// filtered copies, and spellcheck --filter LIST the originals.
//
//   filter_text LIST IN OUT
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "spellcheck/common/text_filters.hpp"
#include "spellcheck/input/detail/byte_source.hpp"
#include "spellcheck/input/markup_filter.hpp"

using namespace spellcheck;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fputs("usage: filter_text LIST IN OUT\n", stderr);
    return 2;
  }
  TextFilters filters;
  add_filter_list(filters, argv[1]);
  std::string bytes;
  {
    std::ifstream in(argv[2], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const Codec codec = detect_codec(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  if (codec != Codec::none) {
    auto src = open_input(argv[2], codec);
    bytes = read_all(*src);
  }
  if (auto f = make_markup_filter(markup_of(filters, argv[2])))
    f->filter(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size(), true);
  std::ofstream out(argv[3], std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return out ? 0 : 1;
}
