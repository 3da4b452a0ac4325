// Statistics through <algorithm> and <numeric>: sum (std::accumulate), minimum and maximum with
// their positions (std::minmax_element), the count above a threshold (std::count_if with a
// lambda), the insertion point of the threshold in the sorted `grid` (std::lower_bound), the
// dot product with `weights` (std::inner_product), and the input clamped to [lo, hi]
// (std::transform, std::clamp) after std::fill of the output tail.
#include <poplar/Vertex.hpp>

#include <algorithm>
#include <iterator>
#include <numeric>

using namespace poplar;

class Statistics : public Vertex {
public:
  Input<Vector<float>> in;
  Input<Vector<float, VectorLayout::ONE_PTR>> weights;
  Input<Vector<float>> grid;
  Output<Vector<float>> stats;   // sum, min, max, argmin, argmax, count, position, dot
  Output<Vector<float>> clamped; // in.size() clamped values, then -1s
  float threshold, lo, hi;

  void compute() {
    const float *b = in.begin(), *e = in.end();
    stats[0] = std::accumulate(b, e, 0.0f);
    auto [mn, mx] = std::minmax_element(b, e);
    stats[1] = *mn;
    stats[2] = *mx;
    stats[3] = float(std::distance(b, mn));
    stats[4] = float(std::distance(b, mx));
    const float t = threshold;
    stats[5] = float(std::count_if(b, e, [t](float x) { return x > t; }));
    stats[6] = float(std::lower_bound(grid.begin(), grid.end(), t) - grid.begin());
    stats[7] = std::inner_product(b, e, &weights[0], 0.0f);
    std::fill(clamped.begin(), clamped.end(), -1.0f);
    const float l = lo, h = hi;
    std::transform(b, e, clamped.begin(), [l, h](float x) { return std::clamp(x, l, h); });
  }
};
