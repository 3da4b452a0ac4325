// Builds a tiny graph through the installed SDK's CMake package and prints the tile count.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

int main() {
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  std::cout << "tiles " << graph.getTarget().getNumTiles() << std::endl;
  return 0;
}
