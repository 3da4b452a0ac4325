// Constants of popops' encodings: the index that encodeOneHot leaves all off, and the smallest
// values PopLibs adds before taking a natural logarithm.
#ifndef popops_EncodingConstants_hpp
#define popops_EncodingConstants_hpp

// An index to ignore (its one-hot row is all off).
#define MASKED_LABEL_CODE 0xFFFFFFFFU

#define EPS_LOG_N_FLOAT (1.17549435e-38F)
#define EPS_LOG_N_HALF (0.000000059605F)

#endif
