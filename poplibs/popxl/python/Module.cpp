// _popxl: libpopxl's Ir and Session for the popxl package; numpy arrays in and out, popxl::error
// raised as ValueError.
#include <popxl/Autodiff.hpp>
#include <popxl/Ir.hpp>
#include <popxl/Session.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <tuple>

namespace py = pybind11;
using namespace popxl;

namespace {

std::vector<std::uint8_t> bytesOf(const py::buffer &b) {
  const py::buffer_info info = b.request();
  std::vector<std::uint8_t> bytes(std::size_t(info.size) * std::size_t(info.itemsize));
  std::memcpy(bytes.data(), info.ptr, bytes.size());
  return bytes;
}

py::array arrayOf(const std::vector<std::uint8_t> &bytes, DType dtype,
                  const std::vector<std::int64_t> &shape) {
  py::array a(py::dtype(dtypeName(dtype) == std::string("float16") ? "float16" : dtypeName(dtype)),
              std::vector<py::ssize_t>(shape.begin(), shape.end()));
  std::memcpy(a.mutable_data(), bytes.data(), bytes.size());
  return a;
}

TensorSpec specOf(const std::vector<std::int64_t> &shape, const std::string &dtype) {
  return {shape, dtypeNamed(dtype)};
}

} // namespace

PYBIND11_MODULE(_popxl, m) {
  m.doc() = "libpopxl for the popxl package";
  py::register_exception<popxl::error>(m, "Error", PyExc_ValueError);

  py::class_<Ir>(m, "Ir")
      .def(py::init<>())
      .def_property_readonly("main_graph", &Ir::mainGraph)
      .def("create_graph", &Ir::createGraph)
      .def("add_variable",
           [](Ir &ir, GraphId g, const std::string &name, const std::vector<std::int64_t> &shape,
              const std::string &dtype, const py::buffer &data) {
             return ir.addVariable(g, name, specOf(shape, dtype), bytesOf(data));
           })
      .def("add_constant",
           [](Ir &ir, GraphId g, const std::string &name, const std::vector<std::int64_t> &shape,
              const std::string &dtype, const py::buffer &data) {
             return ir.addConstant(g, name, specOf(shape, dtype), bytesOf(data));
           })
      .def(
          "add_graph_input",
          [](Ir &ir, GraphId g, const std::string &name, const std::vector<std::int64_t> &shape,
             const std::string &dtype,
             bool byRef) { return ir.addGraphInput(g, name, specOf(shape, dtype), byRef); },
          py::arg("graph"), py::arg("name"), py::arg("shape"), py::arg("dtype"),
          py::arg("by_ref") = false)
      .def("add_graph_output", &Ir::addGraphOutput)
      .def("add_stream",
           [](Ir &ir, const std::string &name, const std::vector<std::int64_t> &shape,
              const std::string &dtype,
              bool hostToDevice) { return ir.addStream(name, specOf(shape, dtype), hostToDevice); })
      .def("create_op", &Ir::createOp, py::arg("graph"), py::arg("type"), py::arg("inputs"),
           py::arg("attrs"), py::arg("name") = "",
           py::arg("called_graphs") = std::vector<GraphId>{})
      .def("tensor_name", [](const Ir &ir, TensorId t) { return ir.tensor(t).name; })
      .def("tensor_shape", [](const Ir &ir, TensorId t) { return ir.tensor(t).spec.shape; })
      .def("tensor_dtype",
           [](const Ir &ir, TensorId t) { return std::string(dtypeName(ir.tensor(t).spec.dtype)); })
      .def("tensor_graph", [](const Ir &ir, TensorId t) { return ir.tensor(t).graph; })
      .def("tensor_kind",
           [](const Ir &ir, TensorId t) {
             switch (ir.tensor(t).kind) {
             case TensorKind::Variable:
               return "variable";
             case TensorKind::Constant:
               return "constant";
             case TensorKind::GraphInput:
               return "input";
             default:
               return "intermediate";
             }
           })
      .def("tensor_data",
           [](const Ir &ir, TensorId t) {
             const auto &info = ir.tensor(t);
             return arrayOf(info.data, info.spec.dtype, info.spec.shape);
           })
      .def("set_data",
           [](Ir &ir, TensorId t, const py::buffer &data) { ir.setData(t, bytesOf(data)); })
      .def("graph_name", [](const Ir &ir, GraphId g) { return ir.graph(g).name; })
      .def("graph_ops", [](const Ir &ir, GraphId g) { return ir.graph(g).ops.size(); })
      .def("graph_inputs", [](const Ir &ir, GraphId g) { return ir.graph(g).inputs; })
      .def("graph_outputs", [](const Ir &ir, GraphId g) { return ir.graph(g).outputs; })
      .def("autodiff",
           [](Ir &ir, GraphId g, const std::vector<TensorId> &provided,
              const std::vector<TensorId> &required, const std::vector<py::tuple> &known) {
             // A GradGraphInfo crosses as (forward, graph, [(tensor, is_grad)] inputs, outputs).
             using Pairs = std::vector<std::pair<TensorId, bool>>;
             auto fromPairs = [](const Pairs &pairs) {
               std::vector<ExpectedConnection> out;
               for (const auto &[t, isGrad] : pairs)
                 out.push_back({t, isGrad});
               return out;
             };
             auto toPairs = [](const std::vector<ExpectedConnection> &list) {
               Pairs out;
               for (const auto &c : list)
                 out.emplace_back(c.fwd, c.isGrad);
               return out;
             };
             GradGraphInfos given;
             for (const py::tuple &k : known) {
               GradGraphInfo info;
               info.forward = k[0].cast<GraphId>();
               info.graph = k[1].cast<GraphId>();
               info.expectedInputs = fromPairs(k[2].cast<Pairs>());
               info.expectedOutputs = fromPairs(k[3].cast<Pairs>());
               given[info.forward] = info;
             }
             std::vector<py::tuple> all;
             for (const auto &[fwd, info] : autodiffAll(ir, g, provided, required, given))
               all.push_back(py::make_tuple(fwd, info.graph, toPairs(info.expectedInputs),
                                            toPairs(info.expectedOutputs)));
             return all;
           })
      .def("push_in_sequence", &Ir::pushInSequence)
      .def("pop_in_sequence", &Ir::popInSequence)
      .def("add_topo_con", &Ir::addTopoCon)
      .def_property_readonly("num_ops", &Ir::numOps)
      .def_property_readonly("num_tensors", &Ir::numTensors)
      .def_property_readonly("num_graphs", &Ir::numGraphs)
      .def("tensor_producer",
           [](const Ir &ir, TensorId t) -> std::optional<OpId> {
             const OpId p = ir.tensor(t).producer;
             return p == ~std::size_t(0) ? std::nullopt : std::optional<OpId>(p);
           })
      .def("graph_schedule",
           [](const Ir &ir, GraphId g) {
             std::vector<std::tuple<OpId, std::string, std::string>> ops;
             for (OpId o : ir.schedule(g))
               ops.emplace_back(o, ir.op(o).type, ir.op(o).name);
             return ops;
           })
      .def("op_io",
           [](const Ir &ir, OpId o) { return py::make_tuple(ir.op(o).inputs, ir.op(o).outputs); })
      .def("stream_name", [](const Ir &ir, StreamId s) { return ir.stream(s).name; })
      .def("stream_shape", [](const Ir &ir, StreamId s) { return ir.stream(s).spec.shape; })
      .def("stream_dtype",
           [](const Ir &ir, StreamId s) { return std::string(dtypeName(ir.stream(s).spec.dtype)); })
      .def_readwrite("num_host_transfers", &Ir::numHostTransfers)
      .def_readwrite("replication_factor", &Ir::replicationFactor);

  py::class_<Session>(m, "Session")
      .def(py::init<const Ir &, const std::string &, const std::string &>())
      .def("run",
           [](Session &s, const Ir &ir, const std::map<StreamId, py::buffer> &inputs) {
             std::map<StreamId, std::vector<std::uint8_t>> bytes;
             for (const auto &kv : inputs)
               bytes[kv.first] = bytesOf(kv.second);
             std::map<StreamId, std::vector<std::uint8_t>> out;
             {
               py::gil_scoped_release release;
               out = s.run(bytes);
             }
             std::map<StreamId, py::array> arrays;
             for (const auto &kv : out) {
               std::vector<std::int64_t> shape = {std::int64_t(ir.numHostTransfers)};
               const auto &spec = ir.stream(kv.first).spec;
               shape.insert(shape.end(), spec.shape.begin(), spec.shape.end());
               arrays[kv.first] = arrayOf(kv.second, spec.dtype, shape);
             }
             return arrays;
           })
      .def("tensor_data",
           [](Session &s, const Ir &ir, TensorId t) {
             const auto &info = ir.tensor(t);
             return arrayOf(s.tensorData(t), info.spec.dtype, info.spec.shape);
           })
      .def("write_variable_data",
           [](Session &s, TensorId t, const py::buffer &data) {
             s.writeVariableData(t, bytesOf(data));
           })
      .def_property_readonly("last_run_cycles", &Session::lastRunCycles)
      .def_property_readonly("loaded_from_cache", &Session::loadedFromCache)
      .def_property_readonly("cache_entry", &Session::cacheEntry);
}
