// Poplar's poplar/Alignment.hpp, which PopLibs codelets include. Its contents are not in
// Poplar's public documentation and the codelets known to include it use none of them, so it
// declares nothing; it exists so that those sources compile unchanged.
#ifndef poplar_Alignment_hpp
#define poplar_Alignment_hpp
#endif
