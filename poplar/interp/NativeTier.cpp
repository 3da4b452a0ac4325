// The native tier's loader (dlopen of libpoplar_native.so on first use) and its run: the
// compiled entry, then the interpreter from wherever the entry hands over.
#include "interp/NativeTier.hpp"

#include "interp/LoopState.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace poplar::interp {

namespace {

struct Library {
  PoplarNativeCompileFn compile = nullptr;
  PoplarNativeReleaseFn release = nullptr;
  std::string error; // empty if loaded
};

// Loaded once and never unloaded: compiled code may outlive any one engine.
const Library &library() {
  static const Library lib = [] {
    Library l;
    const std::string path = nativeLibraryPath();
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      l.error = "cannot load the native tier library '" + path + "': " + (why ? why : "?");
      return l;
    }
    auto abi = reinterpret_cast<PoplarNativeAbiFn>(dlsym(handle, POPLAR_NATIVE_ABI_SYMBOL));
    l.compile =
        reinterpret_cast<PoplarNativeCompileFn>(dlsym(handle, POPLAR_NATIVE_COMPILE_SYMBOL));
    l.release =
        reinterpret_cast<PoplarNativeReleaseFn>(dlsym(handle, POPLAR_NATIVE_RELEASE_SYMBOL));
    if (!abi || !l.compile || !l.release)
      l.error = "'" + path +
                "' is not a native tier library (missing " POPLAR_NATIVE_ABI_SYMBOL
                ", " POPLAR_NATIVE_COMPILE_SYMBOL " or " POPLAR_NATIVE_RELEASE_SYMBOL ")";
    else if (abi() != kNativeAbiVersion)
      l.error = "'" + path + "' has interface version " + std::to_string(abi()) +
                ", this libpoplar needs " + std::to_string(kNativeAbiVersion);
    if (!l.error.empty())
      l.compile = nullptr;
    return l;
  }();
  return lib;
}

} // namespace

NativeCode::NativeCode(const NativeCompiled &compiled, PoplarNativeReleaseFn release)
    : compiled_(compiled), release_(release) {}

NativeCode::~NativeCode() { release_(compiled_.handle); }

std::string nativeLibraryPath() {
  if (const char *env = std::getenv("POPLAR_NATIVE_LIBRARY"); env && *env)
    return env;
  Dl_info info{};
  std::string dir;
  if (dladdr(reinterpret_cast<void *>(&nativeLibraryPath), &info) && info.dli_fname) {
    dir = info.dli_fname;
    const auto slash = dir.rfind('/');
    dir = slash == std::string::npos ? std::string() : dir.substr(0, slash + 1);
  }
  return dir + "libpoplar_native.so";
}

bool nativeTierAvailable(std::string *why) {
  const Library &lib = library();
  if (why)
    *why = lib.error;
  return lib.error.empty();
}

std::unique_ptr<NativeCode> compileNative(const DecodedCode &code, std::uint32_t entryPc,
                                          std::string &error,
                                          const std::vector<isa::Opcode> &interpreted,
                                          const std::string &name) {
  const Library &lib = library();
  if (!lib.error.empty()) {
    error = lib.error;
    return nullptr;
  }
  NativeRequest request{kNativeAbiVersion, code.insns.data(), std::uint32_t(code.insns.size()),
                        code.numWords,     entryPc,           {},
                        &nativeHelpers(),  name.c_str()};
  for (isa::Opcode op : interpreted)
    request.interpreted[unsigned(op) / 64] |= std::uint64_t(1) << (unsigned(op) % 64);
  NativeCompiled out{};
  if (!lib.compile(&request, &out)) {
    out.error[sizeof out.error - 1] = '\0';
    error = out.error;
    return nullptr;
  }
  return std::make_unique<NativeCode>(out, lib.release);
}

RunResult detail::nativeHandOver(const NativeFrame &frame, const DecodedCode &code, TileMemory mem,
                                 WorkerState &state, std::uint64_t budget) {
  return executeFast(code, mem, state, Cursor{frame.index, 0, budget, frame.left, frame.cycles},
                     defaultDispatch());
}

} // namespace poplar::interp
