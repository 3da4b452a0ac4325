// Gradients by central differences: what a backward pass must produce, derived from the forward
// reference alone, so a gradient test does not trust a second hand-derived formula.
#pragma once

#include <functional>
#include <vector>

namespace popsdk::reference {

/// d/dx of sum(outGrad * f(x)) at x, each component by (f(x + h e_i) - f(x - h e_i)) / 2h.
std::vector<double>
vectorJacobianProduct(const std::function<std::vector<double>(const std::vector<double> &)> &f,
                      const std::vector<double> &x, const std::vector<double> &outGrad,
                      double h = 1e-5);

} // namespace popsdk::reference
