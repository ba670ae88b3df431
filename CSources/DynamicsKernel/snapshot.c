// SPDX-License-Identifier: Apache-2.0
// Snapshots (dk_snapshot.h): the framing of a world's bytes, and a world made from them.
//
//   magic "DKSNAPSH" · version (uint32) · reserved (uint32, 0) · payload bytes (uint64) · payload · checksum
//
// The payload holds the simulation's settings, the host's bytes, then every part of the world in the order
// snapshot_world.c visits them; the checksum (uint64) is a 64-bit FNV-1a over everything before it, eight
// bytes at a time. Reading checks the frame first (magic, version, length, checksum), then each value as it is
// read, then how the parts point at each other (snapshot_check.c): a world exists only once all of it holds.
#include "snapshot.h"
#include "dk_snapshot.h"

#include "field.h"
#include "joint.h"

#include <math.h>
#include <string.h>

static const char dkSnapMagic[8] = {'D', 'K', 'S', 'N', 'A', 'P', 'S', 'H'};
enum { dkSnapHeaderBytes = 8 + 4 + 4 + 8, dkSnapChecksumBytes = 8 };

static uint64_t checksum(const uint8_t* p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t k = 0;
	for (; k + 8 <= n; k += 8) {
		uint64_t w;
		memcpy(&w, p + k, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; k < n; ++k) h = (h ^ p[k]) * 0x100000001b3ull;
	return h;
}

// The settings a snapshot keeps: what decides the simulation (not the workers, the SIMD path or the host).
static void settings(dkSnapStream* s, dkWorldDef* def)
{
	DK_SNAP_ENUM(s, def->integrator, dkIntegratorFused, dkIntegratorScalar, "settings.integrator");
	dkSnap_Bool(s, &def->restEnabled, "settings.restEnabled");
	dkSnap_Bool(s, &def->adaptiveSubsteps, "settings.adaptiveSubsteps");
	dkSnap_F32(s, &def->restSpeed);
	dkSnap_F32(s, &def->restAngularSpeed);
	dkSnap_F32(s, &def->restTime);
	dkSnap_F32(s, &def->contactHertz);
	dkSnap_Range(s, &def->solverIterations, 1, DK_MAX_SOLVER_ITERATIONS, "settings.solverIterations");
	const float values[] = {def->restSpeed, def->restAngularSpeed, def->restTime};
	for (int k = 0; k < 3; ++k)
		if (!isfinite(values[k]) || values[k] < 0.0f) dkSnap_Fail(s, "settings.rest", values[k]);
	if (!isfinite(def->contactHertz) || def->contactHertz <= 0.0f) dkSnap_Fail(s, "settings.contactHertz", def->contactHertz);
}

// The payload: settings, the host's bytes, the world.
static bool payload(dkSnapStream* s, dkWorld* world, dkWorldDef* def, const void** host, uint64_t* hostBytes)
{
	settings(s, def);
	dkSnap_U64(s, hostBytes);
	if (s->reading) {
		if (*hostBytes > s->size - s->at) dkSnap_Fail(s, "length", (double)s->size);
		if (dkSnap_Failed(s)) return true;
		*host = s->data + s->at;
		s->at += (size_t)*hostBytes;
	} else {
		dkSnap_Bytes(s, (void*)*host, (size_t)*hostBytes);
	}
	return world ? dkSnapshot_Visit(world, s) : true;
}

size_t dkWorld_SnapshotSize(const dkWorld* world, size_t hostBytes)
{
	dkSnapStream s = {0};
	dkWorldDef def = world->def;
	const void* host = NULL;
	uint64_t bytes = hostBytes;
	payload(&s, (dkWorld*)world, &def, &host, &bytes); // counts only: a host of `hostBytes` is never read
	return dkSnapHeaderBytes + s.at + dkSnapChecksumBytes;
}

size_t dkWorld_WriteSnapshot(const dkWorld* world, const void* host, size_t hostBytes, void* out, size_t capacity)
{
	size_t total = dkWorld_SnapshotSize(world, hostBytes);
	if (!out || capacity < total) return 0;
	uint8_t* p = out;
	uint32_t version = DK_SNAPSHOT_VERSION, reserved = 0;
	uint64_t length = total - dkSnapHeaderBytes - dkSnapChecksumBytes, bytes = hostBytes;
	memcpy(p, dkSnapMagic, 8);
	memcpy(p + 8, &version, 4);
	memcpy(p + 12, &reserved, 4);
	memcpy(p + 16, &length, 8);
	dkSnapStream s = {.data = p + dkSnapHeaderBytes, .size = (size_t)length};
	dkWorldDef def = world->def;
	payload(&s, (dkWorld*)world, &def, &host, &bytes);
	uint64_t sum = checksum(p, total - dkSnapChecksumBytes);
	memcpy(p + total - dkSnapChecksumBytes, &sum, 8);
	return total;
}

static dkWorld* invalid(dkError* error, const char* field, double value)
{
	dkSetError(error, dkResultInvalidSnapshot, -1, field, value);
	return NULL;
}

// What a world just read makes again from its parts: the layouts' group starts, the joint pairs (which the
// broadphase reads through the shapes' filters, so pairsValid is kept as read) and the field bounds.
static bool rebuild(dkWorld* world)
{
	// Each layout's group starts, from the places held (places not kept are laid out again before they are read:
	// the next step's dkContacts_Places and dkJoints_Places).
	if (world->contactLayout.kept) dkLayout_Starts(&world->contactLayout);
	if (world->jointLayout.kept) dkLayout_Starts(&world->jointLayout);
	int32_t separate = 0;
	for (int32_t i = 0; i < world->jointIds.next; ++i) {
		const dkJoint* j = &world->joints.data[i];
		separate += j->alive && !j->def.collideConnected && j->bodyA >= 0;
	}
	if (separate > 0) {
		bool valid = world->pairsValid;
		if (!dkJointPairs_Reserve(world, separate)) return false;
		for (int32_t i = 0; i < world->jointIds.next; ++i) {
			const dkJoint* j = &world->joints.data[i];
			if (j->alive && !j->def.collideConnected && j->bodyA >= 0)
				dkJointPairs_Add(world, j->bodyA, j->bodyB);
		}
		world->pairsValid = valid;
	}
	for (int32_t slot = 0; world->fields && slot < DK_MAX_FIELDS; ++slot) {
		dkField* f = &world->fields[slot];
		if (f->generation & 1u) dkFields_CheckRegion(f->region, f->regionCount, f->bounds, NULL); // (checked)
	}
	return true;
}

dkWorld* dkWorld_ReadSnapshot(const dkWorldDef* def, const void* data, size_t size, const void** host,
							  size_t* hostBytes, dkError* error)
{
	const uint8_t* p = data;
	if (!p || size < 8 || memcmp(p, dkSnapMagic, 8) != 0) return invalid(error, "magic", (double)size);
	if (size < dkSnapHeaderBytes + dkSnapChecksumBytes) return invalid(error, "length", (double)size);
	uint32_t version, reserved;
	uint64_t length, sum;
	memcpy(&version, p + 8, 4);
	memcpy(&reserved, p + 12, 4);
	memcpy(&length, p + 16, 8);
	if (version != DK_SNAPSHOT_VERSION || reserved != 0) return invalid(error, "version", version);
	if (length != size - dkSnapHeaderBytes - dkSnapChecksumBytes) return invalid(error, "length", (double)size);
	memcpy(&sum, p + size - dkSnapChecksumBytes, 8);
	if (sum != checksum(p, size - dkSnapChecksumBytes)) return invalid(error, "checksum", (double)sum);

	// The settings first: the world is made with them.
	dkWorldDef merged = *def;
	dkSnapStream s = {.data = (uint8_t*)p + dkSnapHeaderBytes, .size = (size_t)length, .reading = true};
	const void* hostData = NULL;
	uint64_t hostLength = 0;
	payload(&s, NULL, &merged, &hostData, &hostLength);
	if (dkSnap_Failed(&s)) return invalid(error, s.failure, s.failureValue);
	dkWorld* world = dkWorld_Create(&merged, error);
	if (!world) return NULL; // the caller's part of the definition (the snapshot's settings were checked)
	if (!dkSnapshot_Visit(world, &s)) {
		dkWorld_Destroy(world);
		dkSetError(error, dkResultOutOfMemory, -1, "snapshot", (double)size);
		return NULL;
	}
	const char* field = s.failure;
	double value = s.failureValue;
	if (!field && s.at != s.size) {
		field = "length";
		value = (double)size;
	}
	int checked = field ? 0 : dkSnapshot_Check(world, &field, &value);
	if (checked != 1 || !rebuild(world)) {
		dkWorld_Destroy(world);
		if (checked == 0) return invalid(error, field, value);
		dkSetError(error, dkResultOutOfMemory, -1, "snapshot", (double)size);
		return NULL;
	}
	if (host) *host = hostData;
	if (hostBytes) *hostBytes = (size_t)hostLength;
	return world;
}
