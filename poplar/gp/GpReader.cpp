// Parses and validates a .gp image; every defect becomes a GpFormatError naming the offset.
#include "GpBinary.hpp"

#include <fstream>
#include <iterator>

namespace poplar::gp {
namespace {

using binary::SectionId;

/// Bounds-checked little-endian reader over [begin, end) of the image; offsets it reports are
/// from the start of the file.
class Cursor {
public:
  Cursor(const std::uint8_t *file, std::size_t begin, std::size_t end, const char *section)
      : file_(file), pos_(begin), end_(end), section_(section) {}

  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return end_ - pos_; }

  [[noreturn]] void fail(const std::string &what) const {
    throw GpFormatError(pos_, std::string(section_) + " section: " + what);
  }
  void need(std::size_t n, const char *what) const {
    if (remaining() < n)
      fail(std::string("expected ") + what + " (" + std::to_string(n) + " bytes), but only " +
           std::to_string(remaining()) + " bytes remain");
  }
  std::uint8_t u8(const char *what) {
    need(1, what);
    return file_[pos_++];
  }
  std::uint16_t u16(const char *what) {
    need(2, what);
    std::uint16_t v = file_[pos_] | (file_[pos_ + 1] << 8);
    pos_ += 2;
    return v;
  }
  std::uint32_t u32(const char *what) {
    need(4, what);
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
      v = (v << 8) | file_[pos_ + i];
    pos_ += 4;
    return v;
  }
  std::string str(const char *what) {
    std::uint32_t n = u32(what);
    need(n, what);
    std::string s(reinterpret_cast<const char *>(file_ + pos_), n);
    pos_ += n;
    return s;
  }
  /// A record count, checked against the bytes left so a corrupt count cannot make the reader
  /// reserve gigabytes.
  std::uint32_t count(std::size_t minRecordSize, const char *what) {
    std::size_t at = pos_;
    std::uint32_t n = u32(what);
    if (std::uint64_t(n) * minRecordSize > remaining())
      throw GpFormatError(at, std::string(section_) + " section: " + std::to_string(n) + " " +
                                  what + " cannot fit in the " + std::to_string(remaining()) +
                                  " bytes that remain");
    return n;
  }
  /// Reads a u8 that must be at most `last`.
  template <typename Enum> Enum enumValue(Enum last, const char *what) {
    std::size_t at = pos_;
    std::uint8_t v = u8(what);
    if (v > static_cast<std::uint8_t>(last))
      throw GpFormatError(at, std::string(section_) + " section: " + what + " " +
                                  std::to_string(v) + " is not a known value");
    return static_cast<Enum>(v);
  }
  void expectEnd() const {
    if (pos_ != end_)
      fail(std::to_string(remaining()) + " unexpected bytes after the last record");
  }

private:
  const std::uint8_t *file_;
  std::size_t pos_;
  std::size_t end_;
  const char *section_;
};

void check(const std::string &problem, std::size_t at) {
  if (!problem.empty())
    throw GpFormatError(at, problem);
}

std::uint32_t headerU32(const std::uint8_t *b, std::size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (std::uint32_t(b[at + 3]) << 24);
}

struct SectionRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool present = false;
};

void readMeta(Cursor c, GpFile &f) {
  f.target = c.str("target name");
  f.producer = c.str("producer name");
  std::size_t at = c.pos();
  f.dataAlign = c.u32("data alignment");
  if (f.dataAlign == 0 || (f.dataAlign & (f.dataAlign - 1)))
    throw GpFormatError(at,
                        "data alignment " + std::to_string(f.dataAlign) + " is not a power of two");
  c.expectEnd();
}

// Smallest encodings, used to bound counts before reserving.
constexpr std::size_t MinFieldSize = 4 + 4 + 4 + 4 * 4 + 4;
constexpr std::size_t MinVertexSize = 4 + 1 + 5 * 4;

void readVertices(Cursor c, GpFile &f) {
  std::uint32_t n = c.count(MinVertexSize, "vertices");
  f.vertices.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::size_t at = c.pos();
    Vertex v;
    v.name = c.str("vertex name");
    v.kind = c.enumValue(VertexKind::SupervisorVertex, "vertex kind");
    v.stateSize = c.u32("state size");
    v.stateAlign = c.u32("state alignment");
    v.entry = c.u32("entry pc");
    v.stackSize = c.u32("stack size");
    std::uint32_t numFields = c.count(MinFieldSize, "fields");
    v.fields.reserve(numFields);
    for (std::uint32_t j = 0; j < numFields; ++j) {
      Field fd;
      fd.name = c.str("field name");
      fd.direction = c.enumValue(FieldDirection::State, "field direction");
      fd.kind = c.enumValue(FieldKind::Value, "field kind");
      fd.layout = c.enumValue(Layout::ListCompactDeltaN, "field layout");
      fd.innerLayout = c.enumValue(Layout::ListCompactDeltaN, "inner layout");
      fd.elementType = c.str("element type");
      fd.elementSize = c.u32("element size");
      fd.offset = c.u32("field offset");
      fd.size = c.u32("field size");
      fd.minAlign = c.u32("field alignment");
      v.fields.push_back(std::move(fd));
    }
    check(binary::checkVertex(v, f.code.size()), at);
    f.vertices.push_back(std::move(v));
  }
  c.expectEnd();
}

void readRelocs(Cursor c, GpFile &f) {
  std::uint32_t n = c.count(12, "relocations");
  f.relocations.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::size_t at = c.pos();
    Relocation r;
    r.section = c.enumValue(Section::Data, "relocated section");
    r.target = c.enumValue(Section::Data, "relocation target");
    if (c.u16("relocation padding") != 0)
      throw GpFormatError(at + 2, "relocation padding is not zero");
    r.offset = c.u32("relocation offset");
    r.addend = c.u32("relocation addend");
    check(binary::checkRelocation(r, f.code.size(), f.data.size()), at);
    f.relocations.push_back(r);
  }
  c.expectEnd();
}

void readSymbols(Cursor c, GpFile &f) {
  std::uint32_t n = c.count(13, "symbols");
  f.symbols.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::size_t at = c.pos();
    Symbol s;
    s.name = c.str("symbol name");
    s.section = c.enumValue(Section::Data, "symbol section");
    s.offset = c.u32("symbol offset");
    s.size = c.u32("symbol size");
    check(binary::checkSymbol(s, f.code.size(), f.data.size()), at);
    f.symbols.push_back(std::move(s));
  }
  c.expectEnd();
}

void readFiles(Cursor c, GpFile &f) {
  std::uint32_t n = c.count(4, "file names");
  f.files.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i)
    f.files.push_back(c.str("file name"));
  c.expectEnd();
}

void readLines(Cursor c, GpFile &f) {
  std::uint32_t n = c.count(16, "line entries");
  f.lines.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::size_t at = c.pos();
    LineEntry l;
    l.pc = c.u32("line pc");
    l.file = c.u32("line file");
    l.line = c.u32("line number");
    l.column = c.u32("column number");
    check(binary::checkLine(l, f.lines.empty() ? nullptr : &f.lines.back(), f.files.size(),
                            f.code.size()),
          at);
    f.lines.push_back(l);
  }
  c.expectEnd();
}

const char *sectionName(std::uint32_t id) {
  static const char *const names[] = {"",       "meta",    "vertices", "code", "data",
                                      "relocs", "symbols", "files",    "lines"};
  return id <= binary::LastSectionId ? names[id] : "unknown";
}

} // namespace

GpFile readGp(const std::uint8_t *b, std::size_t size) {
  if (size < binary::HeaderSize)
    throw GpFormatError(size, "expected a " + std::to_string(binary::HeaderSize) +
                                  "-byte header, but the file has only " + std::to_string(size) +
                                  " bytes");
  for (std::size_t i = 0; i < binary::Magic.size(); ++i)
    if (b[binary::MagicOffset + i] != binary::Magic[i])
      throw GpFormatError(i, "expected the .gp magic number; this is not a .gp file");
  unsigned major = b[binary::VersionMajorOffset] | (b[binary::VersionMajorOffset + 1] << 8);
  unsigned minor = b[binary::VersionMinorOffset] | (b[binary::VersionMinorOffset + 1] << 8);
  if (major != VersionMajor)
    throw GpFormatError(binary::VersionMajorOffset,
                        "format version " + std::to_string(major) + "." + std::to_string(minor) +
                            " is not supported (this reader reads " + std::to_string(VersionMajor) +
                            ".x); recompile the codelets");
  std::uint32_t fileSize = headerU32(b, binary::FileSizeOffset);
  if (fileSize != size)
    throw GpFormatError(std::min<std::size_t>(fileSize, size),
                        "the header says the file has " + std::to_string(fileSize) +
                            " bytes, but it has " + std::to_string(size) +
                            (size < fileSize ? " (truncated)" : " (trailing bytes)"));
  std::uint32_t stored = headerU32(b, binary::ChecksumOffset);
  std::uint32_t actual = binary::checksum(b, size);
  if (stored != actual)
    throw GpFormatError(binary::ChecksumOffset, "checksum mismatch (stored " +
                                                    std::to_string(stored) + ", computed " +
                                                    std::to_string(actual) + "): file is corrupt");
  std::uint32_t headerSize = headerU32(b, binary::HeaderSizeOffset);
  if (headerSize < binary::HeaderSize || headerSize > size)
    throw GpFormatError(binary::HeaderSizeOffset,
                        "header size " + std::to_string(headerSize) + " is invalid");

  // Sections may appear in any order; they are parsed in dependency order below.
  SectionRange ranges[binary::LastSectionId + 1];
  std::uint32_t numSections = headerU32(b, binary::SectionCountOffset);
  if (std::uint64_t(numSections) * binary::SectionEntrySize > size - headerSize)
    throw GpFormatError(binary::SectionCountOffset,
                        std::to_string(numSections) + " sections cannot fit in the file");
  for (std::uint32_t i = 0; i < numSections; ++i) {
    std::size_t entry = headerSize + i * binary::SectionEntrySize;
    std::uint32_t id = headerU32(b, entry);
    std::uint32_t offset = headerU32(b, entry + 4);
    std::uint32_t length = headerU32(b, entry + 8);
    if (std::uint64_t(offset) + length > size ||
        offset < headerSize + numSections * binary::SectionEntrySize)
      throw GpFormatError(entry, std::string(sectionName(id)) + " section [" +
                                     std::to_string(offset) + ", +" + std::to_string(length) +
                                     ") lies outside the file body");
    if (id < binary::FirstSectionId || id > binary::LastSectionId)
      continue; // a later minor version's section
    if (ranges[id].present)
      throw GpFormatError(entry, std::string("duplicate ") + sectionName(id) + " section");
    ranges[id] = {offset, std::size_t(offset) + length, true};
  }
  for (std::uint32_t id = binary::FirstSectionId; id <= binary::LastSectionId; ++id)
    if (!ranges[id].present)
      throw GpFormatError(headerSize, std::string("expected a ") + sectionName(id) +
                                          " section, but the section table has none");

  auto cursor = [&](SectionId id) {
    const SectionRange &r = ranges[static_cast<std::uint32_t>(id)];
    return Cursor(b, r.begin, r.end, sectionName(static_cast<std::uint32_t>(id)));
  };
  auto bytesOf = [&](SectionId id) {
    const SectionRange &r = ranges[static_cast<std::uint32_t>(id)];
    return std::vector<std::uint8_t>(b + r.begin, b + r.end);
  };
  GpFile f;
  readMeta(cursor(SectionId::Meta), f);
  f.code = bytesOf(SectionId::Code);
  check(binary::checkCodeSize(f.code.size()), ranges[std::uint32_t(SectionId::Code)].begin);
  f.data = bytesOf(SectionId::Data);
  readFiles(cursor(SectionId::Files), f);
  readVertices(cursor(SectionId::Vertices), f);
  readRelocs(cursor(SectionId::Relocs), f);
  readSymbols(cursor(SectionId::Symbols), f);
  readLines(cursor(SectionId::Lines), f);
  return f;
}

GpFile readGp(const std::vector<std::uint8_t> &bytes) { return readGp(bytes.data(), bytes.size()); }

GpFile readGpFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw GpFormatError(0, "cannot open the file", path);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  if (in.bad())
    throw GpFormatError(bytes.size(), "read error", path);
  try {
    return readGp(bytes);
  } catch (const GpFormatError &e) {
    throw GpFormatError(e.offset(), e.detail(), path);
  }
}

} // namespace poplar::gp
