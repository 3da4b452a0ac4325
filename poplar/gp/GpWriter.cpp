// Serialises a GpFile into the versioned, checksummed .gp byte layout of GpBinary.hpp.
#include "GpBinary.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace poplar::gp {
namespace {

using binary::SectionId;

/// Little-endian appender.
class Out {
public:
  std::vector<std::uint8_t> bytes;

  void u8(std::uint8_t v) { bytes.push_back(v); }
  void u16(std::uint16_t v) {
    u8(v & 0xff);
    u8(v >> 8);
  }
  void u32(std::uint32_t v) {
    u16(v & 0xffff);
    u16(v >> 16);
  }
  void u32At(std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
      bytes[at + i] = (v >> (8 * i)) & 0xff;
  }
  void str(const std::string &s) {
    u32(checkedSize(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void raw(const std::vector<std::uint8_t> &b) { bytes.insert(bytes.end(), b.begin(), b.end()); }
  void pad4() {
    while (bytes.size() % 4)
      u8(0);
  }

  static std::uint32_t checkedSize(std::size_t n) {
    if (n > 0xffffffffu)
      throw std::invalid_argument(".gp: an item is larger than 4 GiB");
    return static_cast<std::uint32_t>(n);
  }
};

void require(const std::string &problem) {
  if (!problem.empty())
    throw std::invalid_argument("cannot write .gp: " + problem);
}

void writeMeta(Out &o, const GpFile &f) {
  o.str(f.target);
  o.str(f.producer);
  o.u32(f.dataAlign);
}

void writeVertices(Out &o, const GpFile &f) {
  o.u32(Out::checkedSize(f.vertices.size()));
  for (const Vertex &v : f.vertices) {
    require(binary::checkVertex(v, f.code.size()));
    o.str(v.name);
    o.u8(static_cast<std::uint8_t>(v.kind));
    o.u32(v.stateSize);
    o.u32(v.stateAlign);
    o.u32(v.entry);
    o.u32(v.stackSize);
    o.u32(Out::checkedSize(v.fields.size()));
    for (const Field &fd : v.fields) {
      o.str(fd.name);
      o.u8(static_cast<std::uint8_t>(fd.direction));
      o.u8(static_cast<std::uint8_t>(fd.kind));
      o.u8(static_cast<std::uint8_t>(fd.layout));
      o.u8(static_cast<std::uint8_t>(fd.innerLayout));
      o.str(fd.elementType);
      o.u32(fd.elementSize);
      o.u32(fd.offset);
      o.u32(fd.size);
      o.u32(fd.minAlign);
    }
  }
}

void writeRelocs(Out &o, const GpFile &f) {
  o.u32(Out::checkedSize(f.relocations.size()));
  for (const Relocation &r : f.relocations) {
    require(binary::checkRelocation(r, f.code.size(), f.data.size()));
    o.u8(static_cast<std::uint8_t>(r.section));
    o.u8(static_cast<std::uint8_t>(r.target));
    o.u16(0);
    o.u32(r.offset);
    o.u32(r.addend);
  }
}

void writeSymbols(Out &o, const GpFile &f) {
  o.u32(Out::checkedSize(f.symbols.size()));
  for (const Symbol &s : f.symbols) {
    require(binary::checkSymbol(s, f.code.size(), f.data.size()));
    o.str(s.name);
    o.u8(static_cast<std::uint8_t>(s.section));
    o.u32(s.offset);
    o.u32(s.size);
  }
}

void writeFiles(Out &o, const GpFile &f) {
  o.u32(Out::checkedSize(f.files.size()));
  for (const std::string &name : f.files)
    o.str(name);
}

void writeLines(Out &o, const GpFile &f) {
  o.u32(Out::checkedSize(f.lines.size()));
  const LineEntry *previous = nullptr;
  for (const LineEntry &l : f.lines) {
    require(binary::checkLine(l, previous, f.files.size(), f.code.size()));
    previous = &l;
    o.u32(l.pc);
    o.u32(l.file);
    o.u32(l.line);
    o.u32(l.column);
  }
}

} // namespace

std::vector<std::uint8_t> writeGp(const GpFile &f) {
  using Writer = void (*)(Out &, const GpFile &);
  struct Part {
    SectionId id;
    Writer write;
  };
  const Part parts[] = {
      {SectionId::Meta, writeMeta},
      {SectionId::Vertices, writeVertices},
      {SectionId::Code, [](Out &o, const GpFile &g) { o.raw(g.code); }},
      {SectionId::Data, [](Out &o, const GpFile &g) { o.raw(g.data); }},
      {SectionId::Relocs, writeRelocs},
      {SectionId::Symbols, writeSymbols},
      {SectionId::Files, writeFiles},
      {SectionId::Lines, writeLines},
  };
  constexpr std::size_t numParts = sizeof(parts) / sizeof(parts[0]);
  if (f.dataAlign == 0 || (f.dataAlign & (f.dataAlign - 1)))
    require("data alignment " + std::to_string(f.dataAlign) + " is not a power of two");

  require(binary::checkCodeSize(f.code.size()));
  Out o;
  o.bytes.assign(binary::HeaderSize + numParts * binary::SectionEntrySize, 0);
  for (std::size_t i = 0; i < numParts; ++i) {
    o.pad4();
    std::size_t start = o.bytes.size();
    parts[i].write(o, f);
    std::size_t entry = binary::HeaderSize + i * binary::SectionEntrySize;
    o.u32At(entry, static_cast<std::uint32_t>(parts[i].id));
    o.u32At(entry + 4, Out::checkedSize(start));
    o.u32At(entry + 8, Out::checkedSize(o.bytes.size() - start));
  }

  for (std::size_t i = 0; i < binary::Magic.size(); ++i)
    o.bytes[binary::MagicOffset + i] = binary::Magic[i];
  o.bytes[binary::VersionMajorOffset] = VersionMajor & 0xff;
  o.bytes[binary::VersionMajorOffset + 1] = VersionMajor >> 8;
  o.bytes[binary::VersionMinorOffset] = VersionMinor & 0xff;
  o.bytes[binary::VersionMinorOffset + 1] = VersionMinor >> 8;
  o.u32At(binary::HeaderSizeOffset, binary::HeaderSize);
  o.u32At(binary::FileSizeOffset, Out::checkedSize(o.bytes.size()));
  o.u32At(binary::SectionCountOffset, numParts);
  o.u32At(binary::ReservedOffset, 0);
  o.u32At(binary::ChecksumOffset, binary::checksum(o.bytes.data(), o.bytes.size()));
  return std::move(o.bytes);
}

void writeGpFile(const GpFile &file, const std::string &path) {
  std::vector<std::uint8_t> bytes = writeGp(file);
  // A reader racing with this writer (the runtime's codelet cache) sees the old file or the
  // whole new one, never a prefix.
  static std::atomic<unsigned> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out)
      throw std::runtime_error("cannot write '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
  }
}

} // namespace poplar::gp
