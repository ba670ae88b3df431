// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: snapshots. A world's whole state (items, shapes, joints, fields, contacts with their
// impulses, rest timers, islands and solver sets, the broadphase's fat boxes, the configuration) as bytes,
// and a world made from them that steps on exactly as the written one would (snapshot.c). The bytes carry a
// format version and a checksum; reading checks both, then every count and index, before a world exists.
#ifndef DK_SNAPSHOT_H
#define DK_SNAPSHOT_H

#include "dk_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The format version dkWorld_WriteSnapshot writes and dkWorld_ReadSnapshot reads.
#define DK_SNAPSHOT_VERSION 1

/// The bytes a snapshot of `world` takes with `hostBytes` bytes of the host's own state beside it.
size_t dkWorld_SnapshotSize(const dkWorld* world, size_t hostBytes);

/// Writes a snapshot of `world` (between steps) into `out`, which has room for dkWorld_SnapshotSize bytes;
/// `host` (hostBytes bytes, may be null when 0) is stored beside it and given back by dkWorld_ReadSnapshot.
/// Returns the bytes written, or 0 when `capacity` is too small (nothing written).
size_t dkWorld_WriteSnapshot(const dkWorld* world, const void* host, size_t hostBytes, void* out, size_t capacity);

/// Makes a world from a snapshot. `def` gives what a snapshot does not hold: workerCount, simdLimit,
/// runTasks, hostContext, the allocator and initialCapacity; the simulation's settings (integrator, rest
/// detection and thresholds, adaptive substeps, contact stiffness, solver iterations) are the snapshot's.
/// On success, *host and *hostBytes point at the host's bytes inside `data`. Returns null with `error` set
/// on failure: dkResultInvalidSnapshot with error->field naming what is wrong (`magic`: not a snapshot;
/// `version`; `length`: truncated or too long; `checksum`: corrupted; otherwise the part whose value is
/// out of range, e.g. `contacts.shapeA`), dkResultInvalidValue for a bad `def`, or dkResultOutOfMemory.
dkWorld* dkWorld_ReadSnapshot(const dkWorldDef* def, const void* data, size_t size, const void** host,
							  size_t* hostBytes, dkError* error);

#ifdef __cplusplus
}
#endif

#endif
