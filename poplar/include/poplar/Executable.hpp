// A compiled graph and its programs, ready to load onto a device; serialisable.
#ifndef poplar_Executable_hpp
#define poplar_Executable_hpp

#include <istream>
#include <memory>
#include <ostream>

namespace poplar {

namespace detail {
struct CompiledGraph;
}

class Executable {
public:
  Executable(Executable &&) noexcept;
  Executable &operator=(Executable &&) noexcept;
  ~Executable();

  static Executable deserialize(std::istream &in);
  void serialize(std::ostream &out) const;

  /// Internal.
  explicit Executable(std::unique_ptr<detail::CompiledGraph> impl);
  std::unique_ptr<detail::CompiledGraph> release();
  const detail::CompiledGraph &getImpl() const { return *impl_; }

private:
  std::unique_ptr<detail::CompiledGraph> impl_;
};

} // namespace poplar

#endif
