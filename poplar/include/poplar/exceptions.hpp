// The poplar_error hierarchy: every user mistake is reported as one of these.
#ifndef poplar_exceptions_hpp
#define poplar_exceptions_hpp

#include <stdexcept>
#include <string>

namespace poplar {

struct poplar_error : std::runtime_error {
  std::string type;
  explicit poplar_error(const std::string &s) : std::runtime_error(s), type("poplar_error") {}
  explicit poplar_error(const char *s) : std::runtime_error(s), type("poplar_error") {}

protected:
  poplar_error(const std::string &s, const char *typeName)
      : std::runtime_error(s), type(typeName) {}
};

#define POPLAR_DECLARE_ERROR(Name)                                                        \
  struct Name : poplar_error {                                                            \
    explicit Name(const std::string &s) : poplar_error(s, #Name) {}                       \
    explicit Name(const char *s) : poplar_error(s, #Name) {}                              \
  };

POPLAR_DECLARE_ERROR(control_program_error)
POPLAR_DECLARE_ERROR(graph_connection_error)
POPLAR_DECLARE_ERROR(graph_cycle_error)
POPLAR_DECLARE_ERROR(graph_object_creation_error)
POPLAR_DECLARE_ERROR(graph_object_load_error)
POPLAR_DECLARE_ERROR(graph_program_compilation_error)
POPLAR_DECLARE_ERROR(index_error)
POPLAR_DECLARE_ERROR(invalid_machine_model)
POPLAR_DECLARE_ERROR(invalid_option)
POPLAR_DECLARE_ERROR(invalid_tile_mapping)
POPLAR_DECLARE_ERROR(link_error)
POPLAR_DECLARE_ERROR(memory_elem_constraints_error)
POPLAR_DECLARE_ERROR(missing_cycle_estimate)
POPLAR_DECLARE_ERROR(missing_perf_estimate)
POPLAR_DECLARE_ERROR(no_environment)
POPLAR_DECLARE_ERROR(no_size_specified)
POPLAR_DECLARE_ERROR(overflow_error)
POPLAR_DECLARE_ERROR(parse_error)
POPLAR_DECLARE_ERROR(profiling_disabled)
POPLAR_DECLARE_ERROR(runtime_error)
POPLAR_DECLARE_ERROR(stream_connection_error)
POPLAR_DECLARE_ERROR(stream_memory_allocation_error)
POPLAR_DECLARE_ERROR(symbol_error)
POPLAR_DECLARE_ERROR(tensor_creation_error)
POPLAR_DECLARE_ERROR(tensor_io_state_error)
POPLAR_DECLARE_ERROR(type_error)
POPLAR_DECLARE_ERROR(unknown_field)
POPLAR_DECLARE_ERROR(unknown_vertex_type)
POPLAR_DECLARE_ERROR(unknown_runtime_error)

#undef POPLAR_DECLARE_ERROR

/// Thrown at compile time when variables, vertices and code do not fit in tile memory.
struct graph_memory_allocation_error : poplar_error {
  /// Where the out-of-memory profile was written, or empty if none was.
  std::string profilePath;
  explicit graph_memory_allocation_error(const std::string &s)
      : poplar_error(s, "graph_memory_allocation_error") {}
  explicit graph_memory_allocation_error(const char *s)
      : poplar_error(s, "graph_memory_allocation_error") {}
};

/// A vertex faulted while running: out-of-bounds access, division by zero, runaway loop or a
/// compute() that returned false. The message names vertex, tile, compute set, pc and line.
struct application_runtime_error : runtime_error {
  explicit application_runtime_error(const std::string &s) : runtime_error(s) {}
};

} // namespace poplar

#endif
