// Private to poplar_gp: the byte layout of a .gp and the invariants both writer and reader check.
#ifndef poplar_gp_GpBinary_hpp
#define poplar_gp_GpBinary_hpp

#include "GpFile.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace poplar::gp::binary {

/// PNG-style magic: a high byte and CR LF / ^Z catch text-mode and 7-bit transfer damage.
constexpr std::array<std::uint8_t, 8> Magic = {0x89, 'P', 'O', 'P', 'G', 'P', '\r', '\n'};

// Header fields, all little-endian.
constexpr std::size_t MagicOffset = 0;
constexpr std::size_t VersionMajorOffset = 8;  // u16
constexpr std::size_t VersionMinorOffset = 10; // u16
constexpr std::size_t HeaderSizeOffset = 12;   // u32, = HeaderSize for version 1
constexpr std::size_t FileSizeOffset = 16;     // u32, the whole file
constexpr std::size_t ChecksumOffset = 20;     // u32, CRC-32 of every byte except these four
constexpr std::size_t SectionCountOffset = 24; // u32
constexpr std::size_t ReservedOffset = 28;     // u32, zero
constexpr std::size_t HeaderSize = 32;
constexpr std::size_t SectionEntrySize = 12; // u32 id, u32 offset, u32 size

enum class SectionId : std::uint32_t {
  Meta = 1,     // str target, str producer, u32 dataAlign
  Vertices = 2, // u32 count, then vertex records
  Code = 3,     // raw bytes
  Data = 4,     // raw bytes
  Relocs = 5,   // u32 count, then {u8 section, u8 target, u16 0, u32 offset, u32 addend}
  Symbols = 6,  // u32 count, then {str name, u8 section, u32 offset, u32 size}
  Files = 7,    // u32 count, then str
  Lines = 8     // u32 count, then {u32 pc, u32 file, u32 line, u32 column}
};
constexpr std::uint32_t FirstSectionId = 1;
constexpr std::uint32_t LastSectionId = 8;

/// CRC-32 (zlib's) of the image with the checksum field skipped.
std::uint32_t checksum(const std::uint8_t *bytes, std::size_t size);

// Each check returns an empty string when the item is consistent, else what is wrong.
std::string checkField(const Field &field, const Vertex &vertex);
// codeSize and dataSize are section sizes in bytes.
std::string checkCodeSize(std::size_t codeSize);
std::string checkVertex(const Vertex &vertex, std::size_t codeSize);
std::string checkRelocation(const Relocation &reloc, std::size_t codeSize, std::size_t dataSize);
std::string checkSymbol(const Symbol &symbol, std::size_t codeSize, std::size_t dataSize);
std::string checkLine(const LineEntry &line, const LineEntry *previous, std::size_t numFiles,
                      std::size_t codeSize);

} // namespace poplar::gp::binary

#endif
