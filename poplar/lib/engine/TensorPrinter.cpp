// PrintTensor formatting, matching the layout Poplar's tutorials show.
#include "engine/TensorPrinter.hpp"

#include "core/HostConvert.hpp"

#include <iomanip>
#include <sstream>

namespace poplar::detail {

namespace {

void printElement(std::ostream &os, Type type, const std::uint8_t *p) {
  if (type.isFloatingPoint())
    os << std::fixed << std::setprecision(7) << deviceElementToDouble(type, p);
  else if (type == BOOL)
    os << (*p ? "true" : "false");
  else
    os << deviceElementToInt(type, p);
}

/// Prints dimension `dim` onwards of the block starting at element `first`.
void printBlock(std::ostream &os, Type type, const std::vector<std::uint64_t> &shape,
                const std::vector<std::uint8_t> &bytes, std::size_t dim, std::size_t first,
                unsigned indent) {
  std::size_t inner = 1;
  for (std::size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  if (dim + 1 == shape.size()) {
    os << '[';
    for (std::size_t i = 0; i < shape[dim]; ++i) {
      if (i)
        os << ' ';
      printElement(os, type, bytes.data() + (first + i) * type.size());
    }
    os << ']';
    return;
  }
  os << "[\n";
  for (std::size_t i = 0; i < shape[dim]; ++i) {
    os << std::string(indent + 2, ' ');
    printBlock(os, type, shape, bytes, dim + 1, first + i * inner, indent + 2);
    os << '\n';
  }
  os << std::string(indent, ' ') << ']';
}

} // namespace

void printTensor(std::ostream &os, const std::string &title, Type type,
                 const std::vector<std::uint64_t> &shape, const std::vector<std::uint8_t> &bytes) {
  // Format into a string first so the stream's own flags are left untouched.
  std::ostringstream text;
  if (!title.empty())
    text << title << ": ";
  if (shape.empty())
    printElement(text, type, bytes.data());
  else
    printBlock(text, type, shape, bytes, 0, 0, 0);
  os << text.str() << std::endl;
}

} // namespace poplar::detail
