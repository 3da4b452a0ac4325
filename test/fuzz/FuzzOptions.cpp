// libFuzzer target: option text. The input is read as OptionFlags JSON (readJSON), the flags it
// gives are checked as Engine options, and it is set as POPLAR_ENGINE_OPTIONS over them: each
// step answers with a poplar_error or a result, never anything else.
#include "FuzzSupport.hpp"
#include "engine/EngineOptions.hpp"

#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

#include <cstdlib>
#include <sstream>

namespace {

void parse(const poplar::OptionFlags &flags) {
  try {
    poplar::detail::parseEngineOptions(flags);
  } catch (const poplar::poplar_error &) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  try {
    poplar::OptionFlags flags;
    try {
      poplar::readJSON(text, flags);
    } catch (const poplar::poplar_error &) {
    }
    std::ostringstream printed;
    printed << flags;
    for (const auto &kv : flags)
      if (!flags.has(kv.first))
        popsdk::fuzz::ScratchFile::fail("fuzz_options",
                                        "key '" + kv.first + "' is listed but not found");
    ::unsetenv("POPLAR_ENGINE_OPTIONS");
    parse(flags);
    // An environment variable ends at its first NUL.
    ::setenv("POPLAR_ENGINE_OPTIONS", text.c_str(), 1);
    parse(poplar::OptionFlags());
    parse(flags);
  } catch (const std::exception &e) {
    popsdk::fuzz::ScratchFile::fail("fuzz_options", std::string("not a poplar_error: ") + e.what());
  }
  return 0;
}
