// poplar's error helpers: raise<E>(parts...) and shapeText, from the shared support library.
#pragma once

#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>

namespace poplar::detail {
using popsdk::support::raise;
using popsdk::support::shapeText;
} // namespace poplar::detail
