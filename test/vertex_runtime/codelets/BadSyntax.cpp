// A codelet with a syntax error on line 8 (column 13), for LoadErrorTest.cpp.
#include <poplar/Vertex.hpp>

class BadSyntax : public poplar::Vertex {
public:
  poplar::Output<int> out;
  bool compute() {
    int x = ;
    *out = x;
    return true;
  }
};
