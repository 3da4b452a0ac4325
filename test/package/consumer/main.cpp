// Builds a tiny graph through the installed SDK's CMake package (poplar and PopLibs libraries
// with their codelets) and prints the tile count.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>
#include <pva/pva.hpp>

int main() {
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poprand::addCodelets(graph);
  popnn::addCodelets(graph);
  std::cout << "tiles " << graph.getTarget().getNumTiles() << std::endl;
  return 0;
}
