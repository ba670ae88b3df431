// SPDX-License-Identifier: Apache-2.0
// Internal: snapshots (dk_snapshot.h). snapshot.c frames the bytes (header, settings, checksum) and makes
// the world; snapshot_world.c visits its parts; snapshot_check.c checks how the parts read point at each other.
#ifndef DK_SNAPSHOT_INTERNAL_H
#define DK_SNAPSHOT_INTERNAL_H

#include "core.h"
#include "snapshot_stream.h"

// Writes or reads every part of the world after the settings. False when out of memory while reading (a
// value out of range marks the stream failed instead).
bool dkSnapshot_Visit(dkWorld* world, dkSnapStream* s);
// Whether the parts of a world just read point at each other as a world's do (1); otherwise names the part
// (and a value) that does not (0), or runs out of memory (-1).
int dkSnapshot_Check(const dkWorld* world, const char** field, double* value);
// What a world just read makes again from its parts (the joint pairs, the field bounds). False when out of
// memory.
bool dkSnapshot_Rebuild(dkWorld* world);

#endif
