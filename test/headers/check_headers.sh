#!/usr/bin/env bash
# Compiles every public header on its own with g++ -std=c++11 (as real Makefiles do), so each is
# self-sufficient, and checks that Engine.hpp alone brings what tutorials rely on.
# Usage: [CXX_STD=c++17] [ALSO_INCLUDE="DIR..."] check_headers.sh INCLUDE_DIR...
# (PopXL's C++ API is C++17; ALSO_INCLUDE names directories its headers include but that another
# run already checks.)
set -euo pipefail
flags=()
for dir in "$@" ${ALSO_INCLUDE:-}; do flags+=(-I "$dir"); done
status=0
for dir in "$@"; do
  for h in $(cd "$dir" && find . -name '*.hpp' | sed 's|^\./||' | sort); do
    if ! echo "#include <$h>" | g++ -std="${CXX_STD:-c++11}" -Wall -Wextra -Werror -fsyntax-only "${flags[@]}" -x c++ -; then
      echo "FAILED: $h does not compile on its own with -std=${CXX_STD:-c++11}"
      status=1
    fi
  done
done
# tut5/tut6 never include Graph.hpp, <vector> or <cstring>: Engine.hpp must provide them.
cat > /tmp/popsdk_engine_only.$$.cpp <<'CPP'
#include <poplar/Engine.hpp>
using namespace poplar;
int f(const Graph &g, Tensor t, ComputeSet cs) {
  std::vector<program::Program> progs{program::Sequence({program::Execute(cs)})};
  OptionFlags o{{"a", "b"}};
  char buf[8];
  strncpy(buf, "x", 2);
  printf("%d %u %s\n", (int)strlen(buf), g.getTarget().getNumTiles(), FLOAT.toString().c_str());
  Tensor c = concat({t, t});
  assert(c.valid());
  return atoi("1") + (int)t.dim(0) + EXIT_SUCCESS;
}
CPP
if ! g++ -std=c++11 -Wall -Werror -fsyntax-only "${flags[@]}" /tmp/popsdk_engine_only.$$.cpp; then
  echo "FAILED: Engine.hpp alone does not provide what tut5/tut6 use"
  status=1
fi
rm -f /tmp/popsdk_engine_only.$$.cpp
exit $status
