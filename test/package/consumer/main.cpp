// Builds a tiny graph through the installed SDK's CMake package (poplar and a PopLibs library
// with its codelets) and prints the tile count.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

int main() {
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  popops::addCodelets(graph);
  std::cout << "tiles " << graph.getTarget().getNumTiles() << std::endl;
  return 0;
}
