# Source this file to use the SDK installed here, as with Graphcore's enable.sh:
#   source <prefix>/enable.sh; g++ --std=c++11 prog.cpp -lpoplar -o prog
_popsdk_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
_popsdk_prepend() {
  local current="${!1:-}"
  case ":$current:" in
    *":$2:"*) ;;
    *) export "$1=$2${current:+:$current}" ;;
  esac
}
_popsdk_prepend PATH "$_popsdk_root/bin"
_popsdk_prepend CPATH "$_popsdk_root/include"
_popsdk_prepend LIBRARY_PATH "$_popsdk_root/lib"
_popsdk_prepend LD_LIBRARY_PATH "$_popsdk_root/lib"
_popsdk_prepend CMAKE_PREFIX_PATH "$_popsdk_root"
_popsdk_prepend PYTHONPATH "$_popsdk_root/python"
export POPLAR_SDK_ENABLED="$_popsdk_root"
unset -f _popsdk_prepend
unset _popsdk_root
