// poplar's byte helpers (readFile, fnv1a), from the shared support library.
#pragma once

#include "support/Bytes.hpp"

namespace poplar::detail {
using popsdk::support::fnv1a;
using popsdk::support::readFile;
} // namespace poplar::detail
