// ConvPartialnx1's worklists: output rows clipped to the input each kernel position reaches, cut
// at the workers' boundaries.
#include "ConvNx1Worklist.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace poplin::internal {

namespace {

unsigned product(const std::vector<unsigned> &v) {
  return std::accumulate(v.begin(), v.end(), 1u, std::multiplies<unsigned>());
}

/// Calls f(index) for every multi-index below `sizes`, last dimension fastest.
void forEachIndex(const std::vector<unsigned> &sizes,
                  const std::function<void(const std::vector<unsigned> &)> &f) {
  std::vector<unsigned> index(sizes.size(), 0);
  if (product(sizes) == 0)
    return;
  for (;;) {
    f(index);
    std::size_t d = sizes.size();
    while (d > 0 && ++index[d - 1] == sizes[d - 1])
      index[--d] = 0;
    if (d == 0)
      return;
  }
}

} // namespace

std::vector<unsigned> Nx1Geometry::outField() const {
  std::vector<unsigned> out(inField.size());
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d] = (inField[d] + padLower[d] + padUpper[d] - kernel[d]) / stride[d] + 1;
  return out;
}
unsigned Nx1Geometry::kernelPositions() const { return product(kernel); }
unsigned Nx1Geometry::inPositions() const { return batch * product(inField); }
unsigned Nx1Geometry::outPositions() const { return batch * product(outField()); }

Nx1Worklist buildNx1Worklist(const Nx1Geometry &g, unsigned workers) {
  const std::vector<unsigned> out = g.outField();
  const std::size_t dims = out.size(), inner = dims - 1;
  const unsigned total = g.outPositions(), perWorker = (total + workers - 1) / workers;
  const unsigned numKernel = g.kernelPositions();
  // entries[w][k]: worker w's triples for kernel position k.
  std::vector<std::vector<std::vector<unsigned>>> entries(
      workers, std::vector<std::vector<unsigned>>(numKernel));
  // The rows: every output index but the innermost, with the batch outermost.
  std::vector<unsigned> rowSizes(out.begin(), out.end() - 1);
  rowSizes.insert(rowSizes.begin(), g.batch);
  unsigned k = 0;
  forEachIndex(g.kernel, [&](const std::vector<unsigned> &kpos) {
    forEachIndex(rowSizes, [&](const std::vector<unsigned> &row) {
      unsigned inRow = row[0], outRow = row[0];
      for (std::size_t d = 0; d < inner; ++d) {
        const int i = int(row[d + 1] * g.stride[d] + kpos[d]) - int(g.padLower[d]);
        if (i < 0 || i >= int(g.inField[d]))
          return;
        inRow = inRow * g.inField[d] + unsigned(i);
        outRow = outRow * out[d] + row[d + 1];
      }
      // Innermost: outputs o with 0 <= o * s + k - padLower < in.
      const int s = int(g.stride[inner]), shift = int(kpos[inner]) - int(g.padLower[inner]);
      const int first = shift >= 0 ? 0 : (-shift + s - 1) / s;
      const int last = std::min(int(out[inner]) - 1, (int(g.inField[inner]) - 1 - shift) / s);
      if (int(g.inField[inner]) - 1 - shift < 0 || first > last)
        return;
      unsigned o = outRow * out[inner] + unsigned(first);
      unsigned i = inRow * g.inField[inner] + unsigned(first * s + shift);
      unsigned n = unsigned(last - first + 1);
      while (n > 0) { // cut at the workers' boundaries
        const unsigned w = o / perWorker, take = std::min(n, (w + 1) * perWorker - o);
        entries[w][k].insert(entries[w][k].end(), {o, take, i});
        o += take;
        i += take * g.stride[inner];
        n -= take;
      }
    });
    ++k;
  });
  Nx1Worklist result;
  result.inStride = g.stride[inner];
  result.words.resize(workers * (numKernel + 3));
  for (unsigned w = 0; w < workers; ++w) {
    const std::size_t header = w * (numKernel + 3); // words grows below: index, not pointer
    result.words[header] = std::min(total, w * perWorker);
    result.words[header + 1] = std::min(total, (w + 1) * perWorker);
    unsigned numEntries = 0, positions = 0;
    for (unsigned kk = 0; kk < numKernel; ++kk) {
      result.words[header + 2 + kk] = unsigned(result.words.size());
      const auto &e = entries[w][kk];
      for (std::size_t t = 0; t < e.size(); t += 3)
        positions += e[t + 1];
      numEntries += unsigned(e.size() / 3);
      result.words.insert(result.words.end(), e.begin(), e.end());
    }
    result.words[header + 2 + numKernel] = unsigned(result.words.size());
    const unsigned zeros = result.words[header + 1] - result.words[header];
    if (positions > result.workerEntryPositions ||
        (positions == result.workerEntryPositions && numEntries > result.workerEntries)) {
      result.workerEntryPositions = positions;
      result.workerEntries = numEntries;
      result.workerZeros = zeros;
    }
  }
  return result;
}

} // namespace poplin::internal
