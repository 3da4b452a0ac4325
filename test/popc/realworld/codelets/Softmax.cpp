// A stable softmax over each region: std::numeric_limits<float>::infinity, std::max_element,
// std::accumulate (<numeric>) with a lambda, std::transform and std::exp; float and half.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class Softmax : public Vertex {
public:
  Vector<InOut<Vector<T>>> regions;

  bool compute() {
    for (auto &r : regions) {
      if (r.size() == 0)
        continue;
      float peak = -std::numeric_limits<float>::infinity();
      for (T x : r)
        peak = std::max(peak, float(x));
      float total = std::accumulate(r.begin(), r.end(), 0.0f, [&](float acc, T x) {
        return acc + std::exp(float(x) - peak);
      });
      std::transform(r.begin(), r.end(), r.begin(),
                     [&](T x) { return T(std::exp(float(x) - peak) / total); });
    }
    return true;
  }
};

template class Softmax<float>;
template class Softmax<half>;
