#!/usr/bin/env bash
# Builds and runs one tutorial program through an installed SDK, as a user would, and checks
# its merged stdout/stderr against regexes (each tried line by line, then across lines, since
# some span several, as Graphcore's tests match PrintTensor's multi-line layout).
# Usage: check_tutorial.sh SDK_PREFIX SOURCE_DIR WORK_DIR 'build command' 'run command' REGEX...
set -euo pipefail
sdk=$1 src=$2 work=$3 build=$4 run=$5
shift 5
rm -rf "$work" && mkdir -p "$work" && cp -r "$src"/. "$work"/
cd "$work"
# A user's environment: only enable.sh tells the compiler where the SDK is.
unset CPATH LIBRARY_PATH LD_LIBRARY_PATH
source "$sdk/enable.sh"
bash -c "$build"
output=$(bash -c "$run" 2>&1) || { echo "$output"; echo "FAILED: '$run' exited non-zero"; exit 1; }
echo "$output"
status=0
for pattern in "$@"; do
  if ! grep -Eq -- "$pattern" <<<"$output" && ! grep -Ezq -- "$pattern" <<<"$output"; then
    echo "MISSING: output does not match /$pattern/"
    status=1
  fi
done
exit $status
