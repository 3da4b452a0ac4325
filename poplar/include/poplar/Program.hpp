// Control programs (namespace poplar::program): value-typed trees run by an Engine.
#ifndef poplar_Program_hpp
#define poplar_Program_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Tensor.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar {

namespace detail {
struct ProgramNode;
}

namespace program {

/// The base of all programs. Copies share structure until one is modified (copy on write),
/// which gives programs value semantics.
class Program {
public:
  Program();
  Program(const Program &);
  Program(Program &&) noexcept;
  Program &operator=(const Program &);
  Program &operator=(Program &&) noexcept;
  virtual ~Program();

  bool isEmpty() const;
  /// Internal.
  const detail::ProgramNode &getImpl() const { return *impl_; }
  explicit Program(std::shared_ptr<detail::ProgramNode> impl);

protected:
  detail::ProgramNode &mutableImpl();
  std::shared_ptr<detail::ProgramNode> impl_;
};

class Sequence : public Program {
public:
  Sequence(const DebugContext &dc = {});
  Sequence(std::initializer_list<Program> programs, const DebugContext &dc = {});
  /// The older variadic form: Sequence(p1, p2, ...).
  template <class First, class... Rest,
            class = typename std::enable_if<
                std::is_base_of<Program, typename std::decay<First>::type>::value &&
                !(sizeof...(Rest) == 0 &&
                  std::is_same<typename std::decay<First>::type, Sequence>::value)>::type>
  Sequence(First &&first, Rest &&...rest) : Sequence(DebugContext()) {
    addAll(std::forward<First>(first), std::forward<Rest>(rest)...);
  }
  Sequence(const Sequence &) = default;
  Sequence(Sequence &&) = default;
  Sequence &operator=(const Sequence &) = default;
  Sequence &operator=(Sequence &&) = default;

  void add(const Program &p);

private:
  void addAll() {}
  template <class P, class... Ps> void addAll(P &&p, Ps &&...ps) {
    add(p);
    addAll(std::forward<Ps>(ps)...);
  }
};

class Execute : public Program {
public:
  explicit Execute(ComputeSet cs, const DebugContext &dc = {});
};

class Copy : public Program {
public:
  Copy(const Tensor &src, const Tensor &dst, bool dontOutline = false,
       const DebugContext &dc = {});
  Copy(const DataStream &stream, const Tensor &dst, bool optimiseMemory = false,
       const DebugContext &dc = {});
  Copy(const Tensor &src, const DataStream &stream, bool optimiseMemory = false,
       const DebugContext &dc = {});
};

class Repeat : public Program {
public:
  Repeat(unsigned count, const Program &body, const DebugContext &dc = {});
};

class RepeatWhileTrue : public Program {
public:
  /// Runs `cond`, then while `predicate` is non-zero runs `body` and `cond` again.
  RepeatWhileTrue(const Program &cond, const Tensor &predicate, const Program &body,
                  const DebugContext &dc = {});
};

class RepeatWhileFalse : public Program {
public:
  RepeatWhileFalse(const Program &cond, const Tensor &predicate, const Program &body,
                   const DebugContext &dc = {});
};

class If : public Program {
public:
  If(const Tensor &predicate, const Program &trueBody, const Program &falseBody,
     const DebugContext &dc = {});
};

class Switch : public Program {
public:
  Switch(const Tensor &control, const DebugContext &dc = {});
  Switch(const Tensor &control, const Program &defaultCaseBody, const DebugContext &dc = {});
  Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
         const DebugContext &dc = {});
  Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
         const Program &defaultCaseBody, const DebugContext &dc = {});
  Switch &add(std::int32_t value, const Program &body);
  Switch &setDefault(const Program &body);
};

class Call : public Program {
public:
  explicit Call(Function f, const DebugContext &dc = {});
};

class PrintTensor : public Program {
public:
  PrintTensor(StringRef title, const Tensor &t, const DebugContext &dc = {});
  explicit PrintTensor(const Tensor &t, const DebugContext &dc = {});
};

class WriteUndef : public Program {
public:
  explicit WriteUndef(const Tensor &t, const DebugContext &dc = {});
};

class Sync : public Program {
public:
  explicit Sync(SyncType type, const DebugContext &dc = {});
};

class ErrorProgram : public Program {
public:
  /// Stops the run with an application_runtime_error carrying `message` and `debugTensor`.
  ErrorProgram(StringRef message, const Tensor &debugTensor, const DebugContext &dc = {});
};

/// A named scope for lightweight profiling; runs `p`.
class Block : public Program {
public:
  Block(const Program &p, const DebugContext &dc = {});
};

} // namespace program
} // namespace poplar

#endif
