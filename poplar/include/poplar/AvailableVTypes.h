// Which compressed vector layouts the target offers (Poplar's poplar/AvailableVTypes.h). Every
// layout is available: the simulated runtime accepts them all and stores them uncompressed
// (docs/gp-format.md), so codelets written for either choice compile unchanged.
#ifndef poplar_AvailableVTypes_h
#define poplar_AvailableVTypes_h

#define VECTOR_AVAIL_SCALED_PTR32 1
#define VECTOR_AVAIL_SCALED_PTR64 1
#define VECTOR_AVAIL_SCALED_PTR128 1
#define VECTOR_AVAIL_SHORT_SPAN 1
#define VECTORLIST_AVAIL_DELTAN 1
#define VECTORLIST_AVAIL_DELTANELEMENTS 1
#define VECTORLIST_AVAIL_COMPACT_DELTAN 1

#endif
