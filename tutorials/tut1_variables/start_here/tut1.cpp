// Tutorial 1 (start here): fill in main() following the README; complete/ has the answer.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>

using namespace poplar;

int main() {
  // Create the IPU model device

  // Create the Graph object

  // Add variables to the graph

  // Add programs to the graph

  // Create the engine

  // Run the control program

  return 0;
}
