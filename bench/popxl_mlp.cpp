// One SGD training step of the PopXL tutorial MLP (784-512-512-512-10, GELU; batch 8) through
// the PopXL C++ API (tutorials/popxl/cpp_mlp/mlp.hpp: outlined fc2/fc3, autodiff, a called
// gradient graph), beside the same step computed natively on the host in the same run. The
// first step's loss and updated weights are checked against the native step before timing.
//
// Counters: compile_s (the Session: lowering and compile, once), run_ms (host time of one step,
// the median of the timed runs), sim_cycles (simulated cycles of one step), native_ms (the host
// step) and host/native.
#include "BenchCommon.hpp"
#include "mlp.hpp"

#include <popxl/Session.hpp>

#include <cmath>

using popsdk::bench::Clock;
using popsdk::bench::secondsSince;

namespace {

constexpr std::size_t kBatch = 8;
constexpr float kLearningRate = 0.05f;

/// Row-major [rows, cols] times [cols, out].
std::vector<float> matmul(const std::vector<float> &a, const std::vector<float> &b,
                          std::size_t rows, std::size_t cols, std::size_t out) {
  std::vector<float> c(rows * out, 0.0f);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < cols; ++k) {
      const float x = a[r * cols + k];
      for (std::size_t j = 0; j < out; ++j)
        c[r * out + j] += x * b[k * out + j];
    }
  return c;
}

// GELU's tanh approximation (popnn's) and its derivative.
constexpr float kGeluA = 0.7978845608f, kGeluB = 0.044715f;
float gelu(float x) { return 0.5f * x * (1.0f + std::tanh(kGeluA * (x + kGeluB * x * x * x))); }
float geluGrad(float x) {
  const float t = std::tanh(kGeluA * (x + kGeluB * x * x * x));
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * kGeluA * (1.0f + 3.0f * kGeluB * x * x);
}

/// The step on the host: forward, softmax cross-entropy (mean), backward, w -= lr * dw.
/// Updates `params` (mlp::parameters() order); returns the loss.
float nativeStep(std::vector<std::vector<float>> &params, const std::vector<float> &images,
                 const std::vector<std::int32_t> &labels) {
  const std::size_t widths[] = {std::size_t(mlp::kImage), std::size_t(mlp::kHidden),
                                std::size_t(mlp::kHidden), std::size_t(mlp::kHidden),
                                std::size_t(mlp::kClasses)};
  std::vector<std::vector<float>> inputs = {images}, preacts; // per layer
  for (std::size_t l = 0; l < 4; ++l) {
    std::vector<float> z = matmul(inputs[l], params[2 * l], kBatch, widths[l], widths[l + 1]);
    for (std::size_t i = 0; i < z.size(); ++i)
      z[i] += params[2 * l + 1][i % widths[l + 1]];
    preacts.push_back(z);
    if (l < 3) {
      for (float &v : z)
        v = gelu(v);
      inputs.push_back(z);
    }
  }
  // Softmax cross-entropy: d logits = (softmax - onehot) / batch.
  std::vector<float> grad = preacts[3];
  float loss = 0;
  const std::size_t classes = widths[4];
  for (std::size_t r = 0; r < kBatch; ++r) {
    float *row = &grad[r * classes];
    const float top = *std::max_element(row, row + classes);
    float sum = 0;
    for (std::size_t j = 0; j < classes; ++j)
      sum += row[j] = std::exp(row[j] - top);
    for (std::size_t j = 0; j < classes; ++j)
      row[j] /= sum;
    loss -= std::log(row[labels[r]]) / kBatch;
    row[labels[r]] -= 1.0f;
    for (std::size_t j = 0; j < classes; ++j)
      row[j] /= kBatch;
  }
  for (std::size_t l = 4; l-- > 0;) {
    const std::size_t in = widths[l], out = widths[l + 1];
    std::vector<float> dw(in * out, 0.0f), db(out, 0.0f), dx(kBatch * in, 0.0f);
    for (std::size_t r = 0; r < kBatch; ++r)
      for (std::size_t k = 0; k < in; ++k) {
        const float x = inputs[l][r * in + k];
        float acc = 0;
        for (std::size_t j = 0; j < out; ++j) {
          dw[k * out + j] += x * grad[r * out + j];
          acc += grad[r * out + j] * params[2 * l][k * out + j];
        }
        dx[r * in + k] = acc;
      }
    for (std::size_t i = 0; i < grad.size(); ++i)
      db[i % out] += grad[i];
    if (l > 0)
      for (std::size_t i = 0; i < dx.size(); ++i)
        dx[i] *= geluGrad(preacts[l - 1][i]);
    for (std::size_t i = 0; i < dw.size(); ++i)
      params[2 * l][i] -= kLearningRate * dw[i];
    for (std::size_t i = 0; i < db.size(); ++i)
      params[2 * l + 1][i] -= kLearningRate * db[i];
    grad = std::move(dx);
  }
  return loss;
}

/// Whether the update `after - before` matches the native one to `tolerance` of the largest
/// native update (the weights themselves would hide an error in small updates).
bool sameUpdate(const std::vector<float> &before, const std::vector<float> &after,
                const std::vector<float> &native, float tolerance) {
  float largest = 0, worst = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    largest = std::max(largest, std::fabs(native[i] - before[i]));
    worst = std::max(worst, std::fabs(after[i] - native[i]));
  }
  return after.size() == before.size() && worst <= tolerance * largest;
}

void BM_MlpTrainingStep(benchmark::State &state) {
  std::vector<float> images(kBatch * mlp::kImage);
  for (std::size_t i = 0; i < images.size(); ++i) // multiples of 1/32 in [-2, 2)
    images[i] = float(int((i * 2654435761u) % 128) - 64) / 32.0f;
  std::vector<std::int32_t> labels(kBatch);
  for (std::size_t r = 0; r < kBatch; ++r)
    labels[r] = std::int32_t((r * 7) % mlp::kClasses);
  const auto initial = mlp::initialValues(42);
  const mlp::Program program = mlp::trainingProgram(kBatch, kLearningRate, initial);

  const auto compileStart = Clock::now();
  popxl::Session session(program.ir, "ipu_model");
  const double compileSeconds = secondsSince(compileStart);
  const std::map<popxl::StreamId, std::vector<std::uint8_t>> inputs = {
      {program.images, mlp::bytesOf(images)}, {program.labels, mlp::bytesOf(labels)}};

  // The first step against the native one from the same weights.
  const float loss = mlp::valuesOf<float>(session.run(inputs).at(program.output))[0];
  auto native = initial;
  const float nativeLoss = nativeStep(native, images, labels);
  bool same = std::fabs(loss - nativeLoss) < 1e-4f * std::max(1.0f, nativeLoss);
  for (std::size_t i = 0; i < native.size(); ++i)
    same = same &&
           sameUpdate(initial[i], mlp::valuesOf<float>(session.tensorData(program.variables[i])),
                      native[i], 1e-3f);
  if (!same) {
    state.SkipWithError("the PopXL step and the native step differ");
    return;
  }
  std::vector<double> runs;
  for (auto _ : state) {
    const auto start = Clock::now();
    session.run(inputs);
    runs.push_back(secondsSince(start));
    state.SetIterationTime(runs.back());
  }
  const double run = popsdk::bench::median(runs);
  const double nativeSeconds = popsdk::bench::medianSeconds([&] {
    auto params = initial;
    benchmark::DoNotOptimize(nativeStep(params, images, labels));
  });
  state.counters["compile_s"] = compileSeconds;
  state.counters["run_ms"] = run * 1e3;
  state.counters["sim_cycles"] = double(session.lastRunCycles());
  state.counters["native_ms"] = nativeSeconds * 1e3;
  state.counters["host/native"] = run / nativeSeconds;
}

} // namespace

BENCHMARK(BM_MlpTrainingStep)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
