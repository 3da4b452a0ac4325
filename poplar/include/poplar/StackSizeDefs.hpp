// Stack size declarations for assembly codelets (Poplar's poplar/StackSizeDefs.hpp). popc
// computes every C++ vertex's stack exactly (docs/gp-format.md, Vertex::stackSize), so the
// declarations carry no information here and expand to nothing.
#ifndef poplar_StackSizeDefs_hpp
#define poplar_StackSizeDefs_hpp

#define DEF_STACK_USAGE(size, name)
#define DEF_STACK_SIZE_OWN(size, name)
#define DEF_STACK_SIZE_OWN_MAX(size, name)
#define DEF_FUNC_CALL_PTRS(caller, callees)

#endif
