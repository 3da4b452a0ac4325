// popnn::PoolingType: what a pooling window computes.
#ifndef popnn_PoolingDef_hpp
#define popnn_PoolingDef_hpp

namespace popnn {

/// MAX the window's maximum; AVG its mean over the input elements it covers (padding excluded);
/// SUM their sum.
enum class PoolingType { MAX, AVG, SUM };

} // namespace popnn

#endif // popnn_PoolingDef_hpp
