// NonLinearityType as text: for messages, streams and vertex template names.
#ifndef popnn_NonLinearityDefUtil_hpp
#define popnn_NonLinearityDefUtil_hpp

#include <popnn/NonLinearityDef.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <ostream>
#include <string>

namespace popnn {

/// The enumerator's name ("GELU").
inline const char *asString(const NonLinearityType &type) {
  switch (type) {
  case NonLinearityType::SIGMOID:
    return "SIGMOID";
  case NonLinearityType::HARD_SIGMOID:
    return "HARD_SIGMOID";
  case NonLinearityType::RELU:
    return "RELU";
  case NonLinearityType::TANH:
    return "TANH";
  case NonLinearityType::GELU:
    return "GELU";
  case NonLinearityType::GELU_ERF:
    return "GELU_ERF";
  case NonLinearityType::SWISH:
    return "SWISH";
  case NonLinearityType::SOFTMAX:
    return "SOFTMAX";
  case NonLinearityType::SOFTMAX_STABLE:
    return "SOFTMAX_STABLE";
  case NonLinearityType::SOFTMAX_SCALED:
    return "SOFTMAX_SCALED";
  }
  throw poputil::poplibs_error("popnn: unknown NonLinearityType " +
                               std::to_string(static_cast<int>(type)));
}

inline std::ostream &operator<<(std::ostream &os, const NonLinearityType &type) {
  return os << asString(type);
}

} // namespace popnn

namespace poputil {

/// "popnn::NonLinearityType::GELU": the template argument as the codelet compiler names it.
template <> struct VertexTemplateToString<popnn::NonLinearityType> {
  static std::string to_string(const popnn::NonLinearityType &type) {
    return std::string("popnn::NonLinearityType::") + popnn::asString(type);
  }
};

} // namespace poputil

#endif // popnn_NonLinearityDefUtil_hpp
