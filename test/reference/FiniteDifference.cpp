// Gradients by central differences of a forward function.
#include "FiniteDifference.hpp"

#include <stdexcept>

namespace popsdk::reference {

std::vector<double>
vectorJacobianProduct(const std::function<std::vector<double>(const std::vector<double> &)> &f,
                      const std::vector<double> &x, const std::vector<double> &outGrad, double h) {
  std::vector<double> grad(x.size()), probe = x;
  for (std::size_t i = 0; i < x.size(); ++i) {
    probe[i] = x[i] + h;
    auto up = f(probe);
    probe[i] = x[i] - h;
    auto down = f(probe);
    probe[i] = x[i];
    if (up.size() != outGrad.size())
      throw std::invalid_argument("vectorJacobianProduct: outGrad does not match f's output");
    double g = 0;
    for (std::size_t j = 0; j < up.size(); ++j)
      g += outGrad[j] * (up[j] - down[j]);
    grad[i] = g / (2 * h);
  }
  return grad;
}

} // namespace popsdk::reference
