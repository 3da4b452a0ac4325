// poprand: random tensors (uniform, log-uniform, normal, truncated normal, Bernoulli) and dropout,
// made by vertices from each tile's random generator state (docs/poprand.md).
#ifndef poprand_RandomGen_hpp
#define poprand_RandomGen_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <cstdint>

// Every function below takes:
//  - seed: nullptr to draw from (and advance) the tiles' generator state, which setSeed sets;
//    otherwise a tensor of 2 UNSIGNED_INT that, with seedModifier, alone decides the values
//    (the tiles' state is left untouched);
//  - seedModifier: mixed into the seed (ignored when seed is nullptr);
//  - reference: the output has its shape and tile mapping (any element type), and the values a
//    tile makes depend only on the seed, the modifier and that tile's part of the mapping.

namespace poprand {

/// Each element of `input` kept and multiplied by `scale` with probability `keepProbability`,
/// else zero; the mask follows `reference` (same shape as `input`), which the output clones.
poplar::Tensor dropout(poplar::Graph &graph, const poplar::Tensor *seed,
                       const uint32_t seedModifier, const poplar::Tensor &input,
                       const poplar::Tensor &reference, double keepProbability, double scale,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

/// dropout, with the output cloning `reference` (outputClonesRef) or `input` (otherwise).
poplar::Tensor dropout(poplar::Graph &graph, const poplar::Tensor *seed,
                       const uint32_t seedModifier, const poplar::Tensor &input,
                       const poplar::Tensor &reference, double keepProbability, double scale,
                       bool outputClonesRef, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

/// dropout with a mask of `reference`'s shape, broadcast (numpy rules) to `input`'s: whole rows,
/// columns or planes kept or dropped together. The output clones `input`; needs popops' codelets.
poplar::Tensor shapedDropout(poplar::Graph &graph, const poplar::Tensor *seed,
                             const uint32_t seedModifier, const poplar::Tensor &input,
                             const poplar::Tensor &reference, double keepProbability, double scale,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {});

/// Values uniform on [minVal, maxVal] of type FLOAT, HALF or INT (for INT: the integers in the
/// range, exactly uniform when their count is a power of two).
poplar::Tensor uniform(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                       const poplar::Tensor &reference, const poplar::Type &outType, double minVal,
                       double maxVal, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

/// Values in [minVal, maxVal] (squeezed inward to values of outType) whose logarithm is uniform;
/// FLOAT, HALF or INT. Requires 1 <= minVal < maxVal and base > 0, base != 1.
poplar::Tensor logUniform(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                          const poplar::Tensor &reference, const poplar::Type &outType,
                          double minVal, double maxVal, poplar::program::Sequence &prog,
                          double base = M_E, const poplar::DebugContext &debugContext = {});

/// 1 with probability `prob`, else 0; FLOAT, HALF or INT.
poplar::Tensor bernoulli(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                         const poplar::Tensor &reference, const poplar::Type &outType, double prob,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

/// Normal values with the given mean and standard deviation; FLOAT or HALF.
poplar::Tensor normal(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                      const poplar::Tensor &reference, const poplar::Type &outType, double mean,
                      double stdDev, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// Normal values truncated symmetrically to [mean - alpha * stdDev, mean + alpha * stdDev];
/// FLOAT or HALF.
poplar::Tensor truncatedNormal(poplar::Graph &graph, const poplar::Tensor *seed,
                               uint32_t seedModifier, const poplar::Tensor &reference,
                               const poplar::Type &outType, double mean, double stdDev,
                               double alpha, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});

/// Seeds the generator state of every tile of `graph` from `masterSeed` (2 UNSIGNED_INT) and
/// `seedModifier`; each tile and worker gets its own stream.
void setSeed(poplar::Graph &graph, const poplar::Tensor &masterSeed, uint32_t seedModifier,
             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace poprand

#endif
