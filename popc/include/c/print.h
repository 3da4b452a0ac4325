// Poplar's <print.h> for codelets: printf to the host's standard output (see stdio.h).
#ifndef _POPC_PRINT_H
#define _POPC_PRINT_H

#include <stdio.h>

#endif
