// The PopXL IR in C++: an Ir of graphs, tensors (variables, constants, graph inputs and op
// results) and ops from one op table, plus the host streams a Session connects.
#ifndef popxl_Ir_hpp
#define popxl_Ir_hpp

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace popxl {

enum class DType {
#define POPXL_DTYPE(name, popxlName, numpyName, poplarType, bytes) name,
#include <popxl/DTypes.def>
};
/// "float32", ...
const char *dtypeName(DType t);
/// The DType called `name` ("float32", "float16", ...); throws popxl::error for another.
DType dtypeNamed(const std::string &name);
std::size_t dtypeSize(DType t);

struct TensorSpec {
  std::vector<std::int64_t> shape;
  DType dtype = DType::Float32;
  std::size_t numElements() const;
  bool operator==(const TensorSpec &o) const { return shape == o.shape && dtype == o.dtype; }
};
std::string toString(const TensorSpec &spec);

using TensorId = std::size_t;
using GraphId = std::size_t;
using OpId = std::size_t;
using StreamId = std::size_t;

enum class TensorKind { Variable, Constant, GraphInput, Intermediate };

struct TensorInfo {
  std::string name;
  TensorSpec spec;
  TensorKind kind = TensorKind::Intermediate;
  GraphId graph = 0;
  std::vector<std::uint8_t> data; // variables and constants: the host value, row-major
  OpId producer = ~std::size_t(0);
};

/// An op attribute: an integer, a float, a string, a list of integers, or a graph.
using Attribute = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>>;
using Attributes = std::map<std::string, Attribute>;

struct OpInfo {
  std::string type; // the op table's name, "add", "matmul", ...
  std::string name; // debug name
  GraphId graph = 0;
  std::vector<TensorId> inputs, outputs;
  Attributes attrs;
  std::vector<GraphId> calledGraphs;
  OpId id = 0; // its index in the Ir
};

struct GraphInfo {
  std::string name;
  std::vector<OpId> ops; // in creation order (Ir::schedule gives the order they run in)
  std::vector<TensorId> inputs, outputs;
  /// Per input: passed by reference (TensorByRef): a call copies its final value back to the
  /// caller's tensor.
  std::vector<bool> inputByRef;
  /// Ordering constraints besides data (before, after): from in-sequence scopes and
  /// Ir::addTopoCon.
  std::vector<std::pair<OpId, OpId>> topoCons;
};

struct StreamInfo {
  std::string name;
  TensorSpec spec;
  bool hostToDevice = true;
};

/// A misuse of the PopXL API (raised to Python as ValueError / TypeError as popxl does).
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Ir {
public:
  Ir();
  GraphId mainGraph() const { return 0; }
  GraphId createGraph(const std::string &name);

  TensorId addVariable(GraphId graph, const std::string &name, const TensorSpec &spec,
                       std::vector<std::uint8_t> data);
  TensorId addConstant(GraphId graph, const std::string &name, const TensorSpec &spec,
                       std::vector<std::uint8_t> data);
  TensorId addGraphInput(GraphId graph, const std::string &name, const TensorSpec &spec,
                         bool byRef = false);
  /// Adds `t` to the outputs of `graph`; the calls of the graph made already get an output for
  /// it (autodiff exposes forward intermediates this way). A graph repeated by a `repeat` op
  /// cannot gain outputs (they are carried to its inputs): an error.
  void addGraphOutput(GraphId graph, TensorId t);
  StreamId addStream(const std::string &name, const TensorSpec &spec, bool hostToDevice);

  /// Creates an op of the op table's `type` in `graph`, infers its outputs and returns them.
  std::vector<TensorId> createOp(GraphId graph, const std::string &type,
                                 const std::vector<TensorId> &inputs, const Attributes &attrs,
                                 const std::string &name,
                                 const std::vector<GraphId> &calledGraphs = {});

  const TensorInfo &tensor(TensorId t) const;
  const OpInfo &op(OpId o) const { return ops_.at(o); }
  const GraphInfo &graph(GraphId g) const;
  const StreamInfo &stream(StreamId s) const;
  std::size_t numTensors() const { return tensors_.size(); }
  std::size_t numOps() const { return ops_.size(); }
  std::size_t numGraphs() const { return graphs_.size(); }
  std::size_t numStreams() const { return streams_.size(); }
  /// Op `before` runs before op `after` (both of one graph), whatever data says.
  void addTopoCon(OpId before, OpId after);
  /// While an in-sequence scope is open, the ops created in each graph run in creation order
  /// (popxl.in_sequence); a disabled scope leaves its ops unordered among themselves, but
  /// ordered as one block inside an enabled scope around it. Prefer the InSequence guard.
  void pushInSequence(bool enabled);
  void popInSequence();
  /// The order the ops of `graph` run in: a topological order of their data dependencies, the
  /// graph's topoCons, and the order of accesses to tensors written in place (readers before a
  /// write stay before it, later ones after, whatever views they read through) and to each host
  /// stream. Throws popxl::error naming the ops of a cycle.
  std::vector<OpId> schedule(GraphId graph) const;

  /// Replaces a variable's host value (Session::writeVariableData before compiling).
  void setData(TensorId t, std::vector<std::uint8_t> data);

  unsigned numHostTransfers = 1;
  unsigned replicationFactor = 1;

private:
  /// Per graph, the ops the next op of an in-sequence scope must follow (`entry`: those before
  /// the scope; `tail`: the last one in an enabled scope, all of them in a disabled one).
  struct SequenceFrontier {
    std::vector<OpId> entry, tail;
  };
  struct SequenceScope {
    bool enabled;
    std::map<GraphId, SequenceFrontier> graphs;
  };
  SequenceFrontier &frontier(std::size_t scope, GraphId g);
  void sequenceOp(GraphId g, OpId op);

  TensorId addTensor(TensorInfo info);
  /// A new output of `op` (its producer), named after the op, ":<index>" when `numbered`.
  void addOutput(OpInfo &op, const TensorSpec &spec, bool numbered);
  std::vector<TensorInfo> tensors_;
  std::vector<OpInfo> ops_;
  std::vector<GraphInfo> graphs_;
  std::vector<StreamInfo> streams_;
  std::vector<SequenceScope> sequenceScopes_;
};

/// `popxl.in_sequence()` in C++: the ops created in `ir` while it lives run in creation order.
class InSequence {
public:
  explicit InSequence(Ir &ir, bool enabled = true) : ir_(ir) { ir_.pushInSequence(enabled); }
  ~InSequence() { ir_.popInSequence(); }
  InSequence(const InSequence &) = delete;
  InSequence &operator=(const InSequence &) = delete;

private:
  Ir &ir_;
};

} // namespace popxl

#endif
