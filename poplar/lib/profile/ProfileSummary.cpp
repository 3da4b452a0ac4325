// printProfileSummary: column positions follow Poplar's published output (see ecosystem.md 1.4).
#include "profile/ProfileSummary.hpp"

#include "profile/SummaryFormat.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

namespace poplar::detail {
namespace {

struct SummaryOptions {
  bool showExecutionSteps = false;
  bool showVarStorage = false;
  bool showOptimizations = false;
  bool showPerIpuMemoryUsage = false;
  bool colours = false;
};

SummaryOptions parseOptions(const OptionFlags &opts) {
  SummaryOptions o;
  for (const auto &kv : opts) {
    bool *flag = kv.first == "showExecutionSteps"      ? &o.showExecutionSteps
                 : kv.first == "showVarStorage"        ? &o.showVarStorage
                 : kv.first == "showOptimizations"     ? &o.showOptimizations
                 : kv.first == "showPerIpuMemoryUsage" ? &o.showPerIpuMemoryUsage
                 : kv.first == "colours"               ? &o.colours
                                                       : nullptr;
    if (!flag)
      throw invalid_option("printProfileSummary: unknown option '" + kv.first +
                           "' (accepted: showExecutionSteps, showVarStorage, showOptimizations, "
                           "showPerIpuMemoryUsage, colours)");
    if (kv.second != "true" && kv.second != "false")
      throw invalid_option("printProfileSummary: option '" + kv.first +
                           "' must be true or false, not '" + kv.second + "'");
    *flag = kv.second == "true";
  }
  return o;
}

/// `text` padded with spaces to `width` (never truncated, at least one space when it overflows).
std::string padTo(const std::string &text, std::size_t width) {
  return text.size() < width ? text + std::string(width - text.size(), ' ') : text + ' ';
}

/// Writes `label` then `value` so that the value ends at column `endColumn`, as Poplar aligns
/// its number columns.
void alignedLine(std::ostream &out, const std::string &label, const std::string &value,
                 std::size_t endColumn, const char *suffix = "") {
  std::size_t used = label.size() + value.size();
  out << label << std::string(used < endColumn ? endColumn - used : 1, ' ') << value << suffix
      << '\n';
}

void title(std::ostream &out, const SummaryOptions &o, const char *text) {
  if (o.colours)
    out << "\033[1m" << text << "\033[0m\n";
  else
    out << text << '\n';
}

std::uint64_t categoryTotal(const ProfileData &d, MemoryCategory c) {
  std::uint64_t n = 0;
  for (const auto &t : d.tileMemory)
    n += t.bytes[unsigned(c)];
  return n;
}

void printTarget(std::ostream &out, const ProfileData &d, const SummaryOptions &o) {
  unsigned replicas = std::max(d.numReplicas, 1u);
  std::uint64_t totalMemory = std::uint64_t(d.numTiles) * d.bytesPerTile;
  auto line = [&](const char *label, const std::string &value) {
    out << "  " << padTo(label, 24) << value << '\n';
  };
  title(out, o, "Target:");
  line("Number of IPUs:", withCommas(std::uint64_t(d.numIPUs)));
  line("Tiles per IPU:", withCommas(std::uint64_t(d.tilesPerIPU)));
  line("Total Tiles:", withCommas(std::uint64_t(d.numTiles)));
  line("Memory Per-Tile:", binarySize(d.bytesPerTile));
  line("Total Memory:", binarySize(totalMemory));
  line("Clock Speed (approx):", withCommas(d.clockHz / 1e6) + " MHz");
  line("Number of Replicas:", withCommas(std::uint64_t(replicas)));
  line("IPUs per Replica:", withCommas(std::uint64_t(d.numIPUs / replicas)));
  line("Tiles per Replica:", withCommas(std::uint64_t(d.numTiles / replicas)));
  line("Memory per Replica:", binarySize(totalMemory / replicas));
  out << '\n';
}

void printGraph(std::ostream &out, const ProfileData &d, const SummaryOptions &o) {
  title(out, o, "Graph:");
  alignedLine(out, "  Number of vertices:", withCommas(d.numVertices), 38);
  alignedLine(out, "  Number of edges:", withCommas(d.numEdges), 38);
  alignedLine(out, "  Number of variables:", withCommas(d.numVariables), 38);
  alignedLine(out, "  Number of compute sets:", withCommas(d.numComputeSets), 38);
  out << '\n';
}

/// Vertex data is the vertex state plus what hangs off it (field data, vector-list and copy
/// descriptors); the simulator pads inside the gaps, so there is no separate padding figure.
void printVertexData(std::ostream &out, const ProfileData &d) {
  std::uint64_t state = categoryTotal(d, MemoryCategory::vertexInstanceState);
  std::uint64_t fieldData = categoryTotal(d, MemoryCategory::vertexFieldData);
  std::uint64_t copies = categoryTotal(d, MemoryCategory::copyDescriptor);
  std::uint64_t descriptors = categoryTotal(d, MemoryCategory::vectorListDescriptor);
  std::uint64_t edgePointers = 0;
  for (const auto &v : d.vertexTypes)
    edgePointers += v.edgePointerBytes;
  edgePointers = std::min(edgePointers, state);

  out << "        Vertex Data (" << withCommas(state + fieldData + copies + descriptors) << "B):\n";
  out << "          By Category:\n";
  alignedLine(out, "            Internal vertex state:", withCommas(state - edgePointers), 49,
              " B");
  alignedLine(out, "            Edge pointers:", withCommas(edgePointers), 49, " B");
  alignedLine(out, "            Copy pointers:", withCommas(copies), 49, " B");
  alignedLine(out, "            Vertex field data:", withCommas(fieldData), 49, " B");
  alignedLine(out, "            Descriptors:", withCommas(descriptors), 49, " B");
  out << "          By Type:\n";
  std::vector<const VertexTypeUsage *> types;
  for (const auto &v : d.vertexTypes)
    types.push_back(&v);
  std::stable_sort(types.begin(), types.end(),
                   [](auto *a, auto *b) { return a->stateBytes > b->stateBytes; });
  for (const auto *v : types)
    alignedLine(out, "            " + v->name + " ", withCommas(v->stateBytes), 79, " B");
}

/// Bucket width in kB from a 1-2-5 series, so the histogram has at most 20 rows.
std::uint64_t bucketKB(std::uint64_t minKB, std::uint64_t maxKB) {
  static const std::uint64_t steps[] = {1, 2, 5};
  for (std::uint64_t decade = 1;; decade *= 10)
    for (auto s : steps) {
      std::uint64_t w = s * decade;
      if (maxKB / w - minKB / w < 20)
        return w;
    }
}

void printHistogram(std::ostream &out, const ProfileData &d) {
  out << "  By Tile (Excluding Gaps):\n";
  if (d.tileMemory.empty()) {
    out << "    No tiles\n";
    return;
  }
  std::size_t maxIncl = 0, maxExcl = 0;
  std::uint64_t minBytes = UINT64_MAX;
  for (std::size_t t = 0; t < d.tileMemory.size(); ++t) {
    const auto &m = d.tileMemory[t];
    if (m.includingGaps() > d.tileMemory[maxIncl].includingGaps())
      maxIncl = t;
    if (m.excludingGaps() > d.tileMemory[maxExcl].excludingGaps())
      maxExcl = t;
    minBytes = std::min(minBytes, m.excludingGaps());
  }
  std::uint64_t maxBytes = d.tileMemory[maxExcl].excludingGaps();
  std::uint64_t width = bucketKB(minBytes / 1024, maxBytes / 1024);
  std::uint64_t first = minBytes / 1024 / width;
  std::vector<std::uint64_t> counts(maxBytes / 1024 / width - first + 1);
  for (const auto &m : d.tileMemory)
    ++counts[m.excludingGaps() / 1024 / width - first];
  std::uint64_t maxCount = *std::max_element(counts.begin(), counts.end());

  out << "    Range (KB) Histogram (Excluding Gaps)               Count (tiles)\n";
  for (std::size_t b = 0; b < counts.size(); ++b) {
    std::uint64_t lo = (first + b) * width;
    std::string range = std::to_string(lo) + " - " + std::to_string(lo + width);
    // A non-empty bucket always shows at least one star.
    std::size_t bar =
        counts[b] == 0
            ? 0
            : std::max<std::size_t>(1, std::size_t(std::llround(40.0 * counts[b] / maxCount)));
    std::string count = withCommas(counts[b]);
    out << std::string(range.size() < 14 ? 14 - range.size() : 0, ' ') << range << ' '
        << std::string(bar, '*') << std::string(40 - bar, ' ')
        << std::string(count.size() < 7 ? 7 - count.size() : 1, ' ') << count << '\n';
  }
  auto maximum = [&](const char *what, std::uint64_t bytes, std::size_t tile) {
    out << "    Maximum (" << what << "): " << withCommas(bytes) << " ("
        << withCommas(double(bytes) / 1024) << " K) on tile " << tile << '\n';
  };
  maximum("Including Gaps", d.tileMemory[maxIncl].includingGaps(), maxIncl);
  maximum("Excluding Gaps", maxBytes, maxExcl);
  std::size_t oom = std::count_if(d.tileMemory.begin(), d.tileMemory.end(), [&](const auto &m) {
    return m.includingGaps() > d.bytesPerTile;
  });
  out << "    " << oom << " tile(s) out of memory\n";
}

void printPerIpu(std::ostream &out, const ProfileData &d) {
  out << "  By IPU:\n";
  unsigned perIpu = std::max(d.tilesPerIPU, 1u);
  for (unsigned ipu = 0; ipu * perIpu < d.tileMemory.size(); ++ipu) {
    std::uint64_t incl = 0, excl = 0;
    for (std::size_t t = ipu * perIpu;
         t < std::min<std::size_t>((ipu + 1) * perIpu, d.tileMemory.size()); ++t) {
      incl += d.tileMemory[t].includingGaps();
      excl += d.tileMemory[t].excludingGaps();
    }
    out << "    IPU " << ipu << ":\n";
    alignedLine(out, "      Including Gaps:", withCommas(incl), 38, " B");
    alignedLine(out, "      Excluding Gaps:", withCommas(excl), 38, " B");
  }
}

void printVarStorage(std::ostream &out, const ProfileData &d) {
  out << "  Variable Storage:\n";
  for (auto c : {MemoryCategory::variables, MemoryCategory::constants}) {
    std::size_t maxTile = 0;
    for (std::size_t t = 0; t < d.tileMemory.size(); ++t)
      if (d.tileMemory[t].bytes[unsigned(c)] > d.tileMemory[maxTile].bytes[unsigned(c)])
        maxTile = t;
    std::uint64_t maxBytes = d.tileMemory.empty() ? 0 : d.tileMemory[maxTile].bytes[unsigned(c)];
    alignedLine(
        out, std::string("    ") + memoryCategoryLabel(c) + ":", withCommas(categoryTotal(d, c)),
        38,
        (" B (maximum " + withCommas(maxBytes) + " B on tile " + std::to_string(maxTile) + ")")
            .c_str());
  }
}

/// Memory held for the whole run, and the regions that not-always-live data (variables with
/// short live ranges, compute-set copy buffers) shares; the tile with most of the latter.
void printLiveness(std::ostream &out, const ProfileData &d) {
  std::uint64_t always = 0, notAlways = 0;
  std::size_t peakTile = 0;
  for (std::size_t t = 0; t < d.tileMemory.size(); ++t) {
    always += d.tileMemory[t].alwaysLive();
    notAlways += d.tileMemory[t].notAlwaysLive;
    if (d.tileMemory[t].notAlwaysLive > d.tileMemory[peakTile].notAlwaysLive)
      peakTile = t;
  }
  std::uint64_t peak = d.tileMemory.empty() ? 0 : d.tileMemory[peakTile].notAlwaysLive;
  out << "      By Liveness:\n";
  alignedLine(out, "        Always-live:", withCommas(always), 38, " B");
  alignedLine(
      out, "        Not-always-live:", withCommas(notAlways), 38,
      (" B (peak " + withCommas(peak) + " B on tile " + std::to_string(peakTile) + ")").c_str());
}

void printMemory(std::ostream &out, const ProfileData &d, const SummaryOptions &o) {
  std::uint64_t incl = 0, excl = 0;
  for (const auto &t : d.tileMemory) {
    incl += t.includingGaps();
    excl += t.excludingGaps();
  }
  // The simulator has no interleaved memory and never overflows it; everything it places sits in
  // the non-interleaved region.
  title(out, o, "Memory Usage:");
  out << "  Total:\n";
  alignedLine(out, "    Including Gaps:", withCommas(incl), 38, " B");
  out << "    Excluding Gaps:\n";
  out << "      By Memory Region:\n";
  alignedLine(out, "        Non-interleaved:", withCommas(excl), 38, " B");
  alignedLine(out, "        Interleaved:", withCommas(std::uint64_t(0)), 38, " B");
  alignedLine(out, "        Overflowed:", withCommas(std::uint64_t(0)), 38, " B");
  printLiveness(out, d);
  // Not-always-live data counts in full here, so the types may add up to more than the total.
  out << "      By Data Type:\n";
  for (unsigned c = 0; c < kNumMemoryCategories; ++c)
    alignedLine(out, std::string("          ") + memoryCategoryLabel(MemoryCategory(c)) + ":",
                withCommas(categoryTotal(d, MemoryCategory(c))), 54, " B");
  printVertexData(out, d);
  if (o.showPerIpuMemoryUsage)
    printPerIpu(out, d);
  if (o.showVarStorage)
    printVarStorage(out, d);
  printHistogram(out, d);
  out << '\n';
}

std::string runName(const ProgramRun &r) { return r.name.empty() ? "<anonymous>" : r.name; }

void printSteps(std::ostream &out, const ProfileData &d) {
  for (std::size_t r = 0; r < d.runs.size(); ++r) {
    out << "  Execution steps (run " << r << ", " << runName(d.runs[r]) << "):\n";
    out << "        Start cycle         Cycles  Type             Tiles          Name\n";
    for (const auto &e : d.executions) {
      if (e.run != r)
        continue;
      std::string kind = "<unknown step>", name, tiles;
      if (e.step < d.steps.size()) {
        const auto &s = d.steps[e.step];
        kind = s.kind;
        name = s.name;
        tiles = std::to_string(s.firstTile) + "-" + std::to_string(s.lastTile);
      }
      std::string start = withCommas(e.cyclesFrom);
      std::string cycles = withCommas(e.cyclesTo - e.cyclesFrom);
      out << std::string(start.size() < 19 ? 19 - start.size() : 1, ' ') << start
          << std::string(cycles.size() < 15 ? 15 - cycles.size() : 1, ' ') << cycles << "  "
          << padTo(kind, 16) << ' ' << padTo(tiles, 14) << ' ' << name << '\n';
    }
  }
}

void printExecution(std::ostream &out, const ProfileData &d, const SummaryOptions &o) {
  title(out, o, "Execution:");
  out << '\n';
  if (d.runs.empty()) {
    out << "  No programs have been executed.\n";
    return;
  }
  out << "Programs executed:\n\n";
  for (const auto &r : d.runs)
    out << runName(r) << ".\n";
  out << '\n';

  double seconds = d.clockHz > 0 ? double(d.totalCycles) / d.clockHz : 0;
  out << "  " << padTo("Total cycles:", 54) << withCommas(d.totalCycles) << " (approx "
      << withCommas(seconds * 1e6) << " microseconds)\n";
  double tiles = d.tileCycles.empty() ? 1 : double(d.tileCycles.size());
  auto average = [&](const char *label, std::uint64_t TileCycles::*field) {
    std::uint64_t sum = 0;
    for (std::size_t t = 0; t < d.tileCycles.size(); ++t)
      sum += d.cyclesOfTile(t).*field;
    double avg = double(sum) / tiles;
    double pct = d.totalCycles ? 100.0 * avg / double(d.totalCycles) : 0;
    out << "  " << padTo(label, 54) << withCommas(avg) << " (" << withCommas(pct)
        << "% of total)\n";
  };
  average("Tile average compute cycles (including idle threads):",
          &TileCycles::computeIncludingIdle);
  average("Tile average compute cycles (excluding idle threads):",
          &TileCycles::computeExcludingIdle);
  average("Tile average IPU exchange cycles:", &TileCycles::internalExchange);
  average("Tile average global exchange cycles:", &TileCycles::globalExchange);
  average("Tile average host exchange cycles:", &TileCycles::hostExchange);
  average("Tile average sync cycles:", &TileCycles::sync);

  std::vector<const VertexTypeUsage *> types;
  for (const auto &v : d.vertexTypes)
    if (v.cycles != 0)
      types.push_back(&v);
  if (!types.empty()) {
    std::stable_sort(types.begin(), types.end(),
                     [](auto *a, auto *b) { return a->cycles > b->cycles; });
    out << "  Cycles by vertex type:\n";
    for (const auto *v : types) {
      std::string cycles = withCommas(v->cycles);
      out << "    " << padTo(v->name, 35) << "(" << v->instances
          << " instances):" << std::string(cycles.size() < 13 ? 13 - cycles.size() : 1, ' ')
          << cycles << '\n';
    }
  }
  if (o.showExecutionSteps) {
    out << '\n';
    printSteps(out, d);
  }
}

} // namespace

void printProfileSummary(std::ostream &out, const ProfileData &data, const OptionFlags &opts) {
  SummaryOptions o = parseOptions(opts);
  printTarget(out, data, o);
  printGraph(out, data, o);
  printMemory(out, data, o);
  printExecution(out, data, o);
}

} // namespace poplar::detail
