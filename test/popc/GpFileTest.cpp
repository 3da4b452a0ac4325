// The .gp format: round trip, and clean GpFormatErrors for truncated, corrupted or crafted files.
#include "gp/GpFile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>

using namespace poplar::gp;

namespace {

GpFile sampleFile() {
  GpFile f;
  f.target = "ipu2";
  f.producer = "gp_tests";
  f.code.resize(64);
  for (std::size_t i = 0; i < f.code.size(); ++i)
    f.code[i] = static_cast<std::uint8_t>(i * 7 + 1);
  f.data = {1, 2, 3, 4, 5, 6, 7, 8};
  f.dataAlign = 8;

  Vertex sum;
  sum.name = "SumVertex";
  sum.stateSize = 12;
  sum.entry = 0;
  sum.fields.push_back({"in", FieldDirection::Input, FieldKind::Vector, Layout::Span,
                        Layout::NotAVector, "float", 4, 0, 8, 4});
  sum.fields.push_back({"out", FieldDirection::Output, FieldKind::Scalar, Layout::NotAVector,
                        Layout::NotAVector, "float", 4, 8, 4, 4});
  f.vertices.push_back(sum);

  Vertex multi;
  multi.name = "popops::Foo<half,true>";
  multi.kind = VertexKind::MultiVertex;
  multi.stateSize = 24;
  multi.stateAlign = 8;
  multi.entry = 4;
  multi.stackSize = 24;
  multi.fields.push_back({"lists", FieldDirection::InOut, FieldKind::VectorList,
                          Layout::ListDeltaNElements, Layout::NotAVector, "half", 2, 0, 8, 2});
  multi.fields.push_back({"jagged", FieldDirection::Input, FieldKind::VectorOfEdges, Layout::OnePtr,
                          Layout::OnePtr, "half", 2, 8, 4, 8});
  multi.fields.push_back({"scale", FieldDirection::State, FieldKind::Value, Layout::NotAVector,
                          Layout::NotAVector, "float", 4, 12, 4, 4});
  multi.fields.push_back({"n", FieldDirection::State, FieldKind::Value, Layout::NotAVector,
                          Layout::NotAVector, "unsigned short", 2, 16, 2, 2});
  f.vertices.push_back(multi);

  f.relocations.push_back({Section::Code, 8, Section::Data, 4});
  f.relocations.push_back({Section::Data, 0, Section::Code, 32});
  f.symbols.push_back({"__runCodelet_SumVertex", Section::Code, 0, 4});
  f.symbols.push_back({"table", Section::Data, 0, 8});
  f.files = {"sum.cpp", "foo.cpp"};
  f.lines = {{0, 0, 5, 3}, {2, 0, 6, 7}, {4, 1, 10, 1}};
  return f;
}

TEST(GpFile, RoundTripPreservesEverything) {
  GpFile f = sampleFile();
  GpFile back = readGp(writeGp(f));
  EXPECT_EQ(back, f);
  ASSERT_NE(back.findVertex("popops::Foo<half,true>"), nullptr);
  EXPECT_EQ(back.findVertex("popops::Foo<half,true>")->findField("n")->elementType,
            "unsigned short");
  EXPECT_EQ(back.findVertex("Nope"), nullptr);
}

TEST(GpFile, EmptyFileRoundTrips) {
  GpFile f;
  f.target = "ipu1";
  EXPECT_EQ(readGp(writeGp(f)), f);
}

TEST(GpFile, LineAndSymbolLookup) {
  GpFile f = sampleFile();
  EXPECT_EQ(f.lineFor(0)->line, 5u);
  EXPECT_EQ(f.lineFor(1)->line, 5u);
  EXPECT_EQ(f.lineFor(2)->line, 6u);
  EXPECT_EQ(f.lineFor(7)->file, 1u);
  EXPECT_EQ(f.symbolFor(3)->name, "__runCodelet_SumVertex");
  EXPECT_EQ(f.symbolFor(4), nullptr);
}

TEST(GpFile, FileRoundTrip) {
  GpFile f = sampleFile();
  std::string path = ::testing::TempDir() + "gp_tests_roundtrip.gp";
  writeGpFile(f, path);
  EXPECT_EQ(readGpFile(path), f);
  std::remove(path.c_str());
  EXPECT_THROW(readGpFile(path), GpFormatError);
}

TEST(GpFile, EveryTruncationIsACleanError) {
  std::vector<std::uint8_t> bytes = writeGp(sampleFile());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + n);
    try {
      readGp(prefix);
      ADD_FAILURE() << "a prefix of " << n << " bytes was accepted";
    } catch (const GpFormatError &e) {
      EXPECT_LE(e.offset(), n) << e.what();
    }
  }
}

TEST(GpFile, EveryFlippedByteIsDetected) {
  std::vector<std::uint8_t> bytes = writeGp(sampleFile());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::vector<std::uint8_t> bad = bytes;
    bad[i] ^= 0x40;
    try {
      readGp(bad);
      ADD_FAILURE() << "flipping byte " << i << " was not detected";
    } catch (const GpFormatError &e) {
      // Past the magic, version and size fields only the checksum can notice.
      if (i >= 20) {
        EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
      }
    }
  }
}

TEST(GpFile, TrailingBytesAreRejected) {
  std::vector<std::uint8_t> bytes = writeGp(sampleFile());
  bytes.push_back(0);
  EXPECT_THROW(readGp(bytes), GpFormatError);
}

/// Rewrites the checksum so that corruption reaches the structural checks.
void reseal(std::vector<std::uint8_t> &bytes);

TEST(GpFile, NewerMajorVersionIsRejected) {
  std::vector<std::uint8_t> bytes = writeGp(sampleFile());
  bytes[8] = VersionMajor + 1;
  reseal(bytes);
  try {
    readGp(bytes);
    FAIL();
  } catch (const GpFormatError &e) {
    EXPECT_NE(std::string(e.what()).find("not supported"), std::string::npos) << e.what();
  }
}

TEST(GpFile, CraftedFilesWithValidChecksumNeverCrash) {
  std::vector<std::uint8_t> bytes = writeGp(sampleFile());
  std::mt19937 rng(1234);
  unsigned accepted = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<std::uint8_t> bad = bytes;
    int edits = 1 + iter % 4;
    for (int e = 0; e < edits; ++e)
      bad[rng() % bad.size()] = static_cast<std::uint8_t>(rng());
    reseal(bad);
    try {
      readGp(bad);
      ++accepted;
    } catch (const GpFormatError &) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_EQ(accepted + rejected, 3000u);
}

TEST(GpFile, ReaderNamesAFieldOutsideItsState) {
  std::vector<std::uint8_t> bytes = writeGp(sampleFile());
  // SumVertex's "out" field: name, 4 enum bytes, "float", element size, then the offset.
  const std::uint8_t pattern[] = {3, 0, 0, 0, 'o', 'u', 't'};
  auto it = std::search(bytes.begin(), bytes.end(), std::begin(pattern), std::end(pattern));
  ASSERT_NE(it, bytes.end());
  std::size_t offsetField = (it - bytes.begin()) + 7 + 4 + 9 + 4;
  ASSERT_EQ(bytes[offsetField], 8);
  bytes[offsetField] = 12;
  reseal(bytes);
  try {
    readGp(bytes);
    FAIL();
  } catch (const GpFormatError &e) {
    EXPECT_NE(std::string(e.what()).find("field 'out' of vertex 'SumVertex'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("outside the state block"), std::string::npos);
  }
}

TEST(GpFile, WriterRefusesInconsistentFiles) {
  GpFile f = sampleFile();
  GpFile bad = f;
  bad.vertices[0].fields[1].offset = 100;
  EXPECT_THROW(writeGp(bad), std::invalid_argument);
  bad = f;
  bad.lines[1].pc = 0; // not sorted
  EXPECT_THROW(writeGp(bad), std::invalid_argument);
  bad = f;
  bad.relocations[0].offset = 62;
  EXPECT_THROW(writeGp(bad), std::invalid_argument);
  bad = f;
  bad.vertices[1].entry = 8;
  EXPECT_THROW(writeGp(bad), std::invalid_argument);
  bad = f;
  bad.code.push_back(0);
  EXPECT_THROW(writeGp(bad), std::invalid_argument);
}

void reseal(std::vector<std::uint8_t> &bytes) {
  // An independent bitwise CRC-32 (IEEE), so this also checks the library uses the standard one.
  std::uint32_t crc = 0xffffffffu;
  auto feed = [&](std::uint8_t byte) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  };
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (i < 20 || i >= 24)
      feed(bytes[i]);
  crc ^= 0xffffffffu;
  if (bytes.size() >= 24)
    for (int i = 0; i < 4; ++i)
      bytes[20 + i] = (crc >> (8 * i)) & 0xff;
}

} // namespace
