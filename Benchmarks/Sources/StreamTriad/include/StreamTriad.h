// SPDX-License-Identifier: Apache-2.0
// The STREAM triad a[i] = b[i] + s·c[i]: the memory-bandwidth floor the integration step is compared with.
#ifndef STREAM_TRIAD_H
#define STREAM_TRIAD_H
#include <stddef.h>

/// Arrays for a triad over `bytes` bytes in all (three float arrays of bytes / 12 elements each).
typedef struct TriadArrays TriadArrays;
TriadArrays* triadCreate(size_t bytes);
void triadDestroy(TriadArrays* arrays);
/// One pass a[i] = b[i] + s·c[i]; returns a[0] so the pass cannot be optimised away.
float triadRun(TriadArrays* arrays, float s);

#endif
