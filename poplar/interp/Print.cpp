// The print instruction: C printf conversions over tile memory, text to the print sink.
#include "interp/Print.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

namespace poplar::interp {

namespace {

std::mutex &sinkMutex() {
  static std::mutex m;
  return m;
}

std::function<void(std::string_view)> &sink() {
  static std::function<void(std::string_view)> s;
  return s;
}

void emit(std::string_view text) {
  std::lock_guard<std::mutex> lock(sinkMutex());
  if (sink()) {
    sink()(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
}

/// Reads tile memory for one print, remembering the first address that is out of the window
/// (or, with a check, that the run may not read).
class Reader {
public:
  Reader(const TileMemory &mem, detail::PrintReadCheck *check) : mem_(mem), check_(check) {}

  bool byte(std::uint32_t addr, char &c) {
    if (addr < mem_.base || addr - mem_.base >= mem_.size)
      return fault(addr);
    if (check_ && !check_->mayRead(addr, 1))
      return stray(addr);
    c = char(mem_.data[addr - mem_.base]);
    return true;
  }
  bool word(std::uint32_t addr, std::uint32_t &w) {
    if (mem_.size < 4 || addr < mem_.base || addr - mem_.base > mem_.size - 4)
      return fault(addr);
    if (check_ && !check_->mayRead(addr, 4))
      return stray(addr);
    std::memcpy(&w, mem_.data + (addr - mem_.base), 4);
    return true;
  }
  bool string(std::uint32_t addr, std::string &s) {
    for (char c;; ++addr) {
      if (!byte(addr, c))
        return false;
      if (!c)
        return true;
      s += c;
    }
  }
  std::uint32_t faultAddress = 0;

private:
  bool fault(std::uint32_t addr) {
    faultAddress = addr;
    return false;
  }
  bool stray(std::uint32_t addr) {
    check_->stray = true;
    return fault(addr);
  }
  const TileMemory &mem_;
  detail::PrintReadCheck *check_;
};

template <typename T> void append(std::string &out, const std::string &spec, T value) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, spec.c_str(), value);
  if (n > 0)
    out.append(buf, std::min<std::size_t>(std::size_t(n), sizeof buf - 1));
}

} // namespace

void setPrintSink(std::function<void(std::string_view)> s) {
  std::lock_guard<std::mutex> lock(sinkMutex());
  sink() = std::move(s);
}

namespace detail {

bool printFormatted(const TileMemory &mem, std::uint32_t format, std::uint32_t args,
                    std::uint32_t &written, std::uint32_t &faultAddress, PrintReadCheck *check) {
  Reader in(mem, check);
  std::string fmt, out;
  auto next = [&](std::uint32_t &w) {
    bool ok = in.word(args, w);
    args += 4;
    return ok;
  };
  bool ok = in.string(format, fmt);
  for (std::size_t i = 0; ok && i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    // One conversion: flags, width, precision, length, then the conversion character.
    const std::size_t start = i;
    std::string spec = "%";
    std::size_t j = i + 1;
    while (j < fmt.size() && std::strchr("-+ #0", fmt[j]))
      spec += fmt[j++];
    for (int part = 0; part < 2 && ok; ++part) {
      if (part == 1) {
        if (j >= fmt.size() || fmt[j] != '.')
          break;
        spec += fmt[j++];
      }
      if (j < fmt.size() && fmt[j] == '*') {
        std::uint32_t w = 0;
        ok = next(w);
        spec += std::to_string(std::int32_t(w));
        ++j;
      }
      while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9')
        spec += fmt[j++];
    }
    int longs = 0;
    while (j < fmt.size() && std::strchr("hlzjtL", fmt[j]))
      longs += fmt[j++] == 'l' ? 1 : 0;
    if (!ok || j >= fmt.size())
      break;
    char conv = fmt[j];
    i = j;
    std::uint32_t w = 0;
    switch (conv) {
    case '%':
      out += '%';
      break;
    case 'd':
    case 'i':
      if (longs >= 2) {
        std::uint32_t hi = 0;
        ok = next(w) && next(hi);
        append(out, spec + "ll" + conv, std::int64_t((std::uint64_t(hi) << 32) | w));
      } else {
        ok = next(w);
        append(out, spec + conv, std::int32_t(w));
      }
      break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      if (longs >= 2) {
        std::uint32_t hi = 0;
        ok = next(w) && next(hi);
        append(out, spec + "ll" + conv, (std::uint64_t(hi) << 32) | w);
      } else {
        ok = next(w);
        append(out, spec + conv, w);
      }
      break;
    case 'c':
      ok = next(w);
      append(out, spec + conv, int(w & 0xff));
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      // popc passes a float argument as its f32 bits (the varargs double is never formed).
      ok = next(w);
      float f;
      std::memcpy(&f, &w, 4);
      append(out, spec + conv, double(f));
      break;
    }
    case 's': {
      std::string s;
      ok = next(w) && in.string(w, s);
      append(out, spec + conv, s.c_str());
      break;
    }
    case 'p':
      ok = next(w);
      append(out, std::string("0x%x"), w);
      break;
    default: // not a conversion: printed as written
      out += fmt.substr(start, j - start + 1);
      break;
    }
  }
  if (!ok) {
    faultAddress = in.faultAddress;
    return false;
  }
  emit(out);
  written = std::uint32_t(out.size());
  return true;
}

} // namespace detail
} // namespace poplar::interp
