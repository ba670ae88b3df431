// SPDX-License-Identifier: Apache-2.0
// Snapshots (dk_snapshot.h): a world read back from a snapshot steps to the bits of the world that was
// never stopped, at another worker count too, from snapshots taken while it falls, settles and rests; and
// truncated, damaged, foreign and forged bytes give an error (or, forged past the checksum, a world that steps)
// and never a crash (the sanitizer builds run these too).
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dkWorld* makeRestingWorld(int32_t workers)
{
	dkWorld* w = makeWorld(dkSimdAVX512, workers, dkIntegratorFused);
	dkWorldDef def = dkDefaultWorldDef();
	def.workerCount = workers;
	dkError e;
	must(dkWorld_Configure(w, &def, &e), &e, "dkWorld_Configure");
	return w;
}

// Boxes and balls poured into a V onto a floor, a pendulum of pinned bars (one on a motor), a field.
static void build(dkWorld* w, dkItemId* poured)
{
	dkError e;
	segment(w, -1500, FLOOR, 1500, FLOOR);
	segment(w, -1200, FLOOR - 900, -200, FLOOR - 100);
	segment(w, 200, FLOOR - 100, 1200, FLOOR - 900);
	for (int i = 0; i < 160; ++i) {
		float x = -600.0f + 80.0f * (float)(i % 16), y = FLOOR - 1300.0f - 80.0f * (float)(i / 16);
		poured[i] = i % 3 == 0 ? box(w, x, y, 0.1f * (float)(i % 7), 60, 40)
							   : ball(w, x, y, 30.0f + 4.0f * (float)(i % 9), (i % 4) ? 0.0f : 0.5f);
	}
	dkItemId previous = {0, 0};
	for (int i = 0; i < 8; ++i) {
		dkItemId bar = box(w, 2000.0f + 60.0f * (float)i, 0, 0, 60, 12);
		dkJointDef d = dkDefaultJointDef();
		d.kind = dkJointRevolute, d.itemA = previous, d.itemB = bar;
		d.anchorAx = i == 0 ? 1970.0f : 30.0f, d.anchorBx = -30.0f;
		d.enableMotor = i == 0, d.motorSpeed = 2.0f, d.maxMotorTorque = 5.0e6f;
		dkJointId j;
		must(dkWorld_CreateJoints(w, &d, 1, &j, &e), &e, "dkWorld_CreateJoints");
		previous = bar;
	}
	dkFieldDef f = dkDefaultFieldDef(dkFieldRadialGravity);
	f.positionX = 0, f.positionY = FLOOR - 600, f.strength = 0.3f, f.minimumRadius = 10;
	dkFieldId field;
	must(dkWorld_CreateField(w, &f, &field, &e), &e, "dkWorld_CreateField");
	must(dkWorld_SetFieldMembers(w, field, poured, 40, true, &e), &e, "dkWorld_SetFieldMembers");
	dkRegionInstr region[1] = {{dkRegionCircle, 900, 0}};
	must(dkWorld_SetFieldRegion(w, field, region, 1, &e), &e, "dkWorld_SetFieldRegion");
}

// Step `from` → `to` of the shared run: at step 90 ten poured items are removed and five boxes made (ids
// given out again from the pool's free list).
static void run(dkWorld* w, const dkItemId* poured, int32_t from, int32_t to)
{
	for (int32_t s = from; s < to; ++s) {
		if (s == 90) {
			dkError e;
			dkItemId gone[10];
			for (int i = 0; i < 10; ++i) gone[i] = poured[3 * i + 1];
			must(dkWorld_RemoveItems(w, gone, 10, &e), &e, "dkWorld_RemoveItems");
			for (int i = 0; i < 5; ++i) box(w, -300.0f + 150.0f * (float)i, FLOOR - 1500, 0.2f, 50, 50);
		}
		step(w, 1);
	}
}

static uint8_t* snapshotOf(const dkWorld* w, const char* host, size_t* size)
{
	size_t hostBytes = host ? strlen(host) : 0;
	*size = dkWorld_SnapshotSize(w, hostBytes);
	uint8_t* bytes = malloc(*size);
	if (!bytes || dkWorld_WriteSnapshot(w, host, hostBytes, bytes, *size) != *size) exit(2);
	return bytes;
}

static dkWorld* readBack(const uint8_t* bytes, size_t size, int32_t workers, dkError* e)
{
	dkWorldDef def = dkDefaultWorldDef(); // no host: the workers' shares run one after another on this thread
	def.workerCount = workers;
	return dkWorld_ReadSnapshot(&def, bytes, size, NULL, NULL, e);
}

// Whether two worlds hold the same items (ids in dense order) with the same poses and velocities, bit for bit.
static bool sameState(const dkWorld* a, const dkWorld* b, char* detail, size_t size)
{
	int32_t na, nb;
	float *sa = packStates(a, &na), *sb = packStates(b, &nb);
	bool same = na == nb && memcmp(sa, sb, (size_t)na * 6 * sizeof(float)) == 0;
	if (same) {
		dkItemId *ia = malloc((size_t)na * sizeof(dkItemId) + 1), *ib = malloc((size_t)nb * sizeof(dkItemId) + 1);
		dkWorld_ItemIds(a, ia);
		dkWorld_ItemIds(b, ib);
		same = memcmp(ia, ib, (size_t)na * sizeof(dkItemId)) == 0;
		free(ia);
		free(ib);
	}
	snprintf(detail, size, "%d and %d items, awake %d and %d, contacts %d and %d", na, nb, dkWorld_AwakeCount(a),
			 dkWorld_AwakeCount(b), dkWorld_ContactCount(a), dkWorld_ContactCount(b));
	free(sa);
	free(sb);
	return same;
}

static void resumes(Report* r)
{
	const int32_t end = 420, at[] = {0, 1, 37, 90, 91, 160, 300};
	dkItemId poured[160];
	dkWorld* whole = makeRestingWorld(1);
	build(whole, poured);
	run(whole, poured, 0, end);
	char detail[160], what[120];
	snprintf(detail, sizeof detail, "%d of %d items resting at the end", dkWorld_ItemCount(whole) - dkWorld_AwakeCount(whole),
			 dkWorld_ItemCount(whole));
	check(r, dkWorld_AwakeCount(whole) < dkWorld_ItemCount(whole), "the snapshot run ends with items at rest", detail);
	for (size_t k = 0; k < sizeof at / sizeof at[0]; ++k) {
		for (int32_t workers = 1; workers <= 2; ++workers) {
			dkWorld* w = makeRestingWorld(workers);
			build(w, poured);
			run(w, poured, 0, at[k]);
			size_t size;
			uint8_t* bytes = snapshotOf(w, "host", &size);
			dkError e = {0};
			dkWorld* back = readBack(bytes, size, 3 - workers, &e);
			run(w, poured, at[k], end);
			bool same = back != NULL;
			if (back) {
				run(back, poured, at[k], end);
				same = sameState(whole, back, detail, sizeof detail) && sameState(whole, w, detail, sizeof detail);
			} else {
				snprintf(detail, sizeof detail, "read failed: %s %g", e.field ? e.field : "?", e.value);
			}
			snprintf(what, sizeof what, "a world read from a snapshot at step %d (%d → %d workers) steps to the bits of step %d",
					 at[k], workers, 3 - workers, end);
			check(r, same, what, detail);
			dkWorld_Destroy(back);
			dkWorld_Destroy(w);
			free(bytes);
		}
	}
	dkWorld_Destroy(whole);
}

// The frame's checksum, as snapshot.c defines it (FNV-1a, 64 bits, over 8-byte words, then the tail bytes).
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

static uint32_t nextRandom(uint32_t* s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void rejects(Report* r)
{
	dkItemId poured[160];
	dkWorld* w = makeRestingWorld(1);
	build(w, poured);
	run(w, poured, 0, 100);
	size_t size;
	uint8_t* bytes = snapshotOf(w, "host bytes", &size);
	uint8_t* copy = malloc(size);
	dkError e;
	char detail[160];

	// The host's bytes come back as written.
	const void* host = NULL;
	size_t hostBytes = 0;
	dkWorldDef def = dkDefaultWorldDef();
	dkWorld* back = dkWorld_ReadSnapshot(&def, bytes, size, &host, &hostBytes, &e);
	check(r, back && hostBytes == 10 && memcmp(host, "host bytes", 10) == 0, "a snapshot gives back the host's bytes",
		  back ? "read" : e.field);
	dkWorld_Destroy(back);

	// Truncated: every length shorter than the snapshot (in 997 steps) is refused, naming the length or magic.
	bool ok = true;
	for (size_t n = 0; n < size && ok; n += 1 + size / 997) {
		memcpy(copy, bytes, n);
		back = dkWorld_ReadSnapshot(&def, copy, n, NULL, NULL, &e);
		ok = !back && e.code == dkResultInvalidSnapshot && (!strcmp(e.field, "length") || !strcmp(e.field, "magic"));
		if (!ok) snprintf(detail, sizeof detail, "%zu of %zu bytes: %s", n, size, back ? "read" : e.field);
		dkWorld_Destroy(back);
	}
	if (ok) snprintf(detail, sizeof detail, "%zu bytes", size);
	check(r, ok, "a truncated snapshot is refused (length)", detail);

	// Damaged: any byte changed is refused (the checksum, or the frame's own fields).
	uint32_t seed = 12345;
	ok = true;
	for (int t = 0; t < 400 && ok; ++t) {
		memcpy(copy, bytes, size);
		size_t at = nextRandom(&seed) % size;
		copy[at] ^= (uint8_t)(1 + nextRandom(&seed) % 255);
		back = dkWorld_ReadSnapshot(&def, copy, size, NULL, NULL, &e);
		ok = !back && e.code == dkResultInvalidSnapshot;
		if (!ok) snprintf(detail, sizeof detail, "byte %zu: %s", at, back ? "read" : e.field);
		dkWorld_Destroy(back);
	}
	if (ok) snprintf(detail, sizeof detail, "400 single bytes changed");
	check(r, ok, "a damaged snapshot is refused", detail);

	// Foreign: another file's bytes, and another version.
	const char* text = "{\"items\": []}\n";
	back = dkWorld_ReadSnapshot(&def, text, strlen(text), NULL, NULL, &e);
	check(r, !back && e.code == dkResultInvalidSnapshot && !strcmp(e.field, "magic"), "a file that is no snapshot is refused (magic)",
		  back ? "read" : e.field);
	memcpy(copy, bytes, size);
	copy[8] = 2;
	memcpy(copy + size - 8, &(uint64_t){checksum(copy, size - 8)}, 8);
	back = dkWorld_ReadSnapshot(&def, copy, size, NULL, NULL, &e);
	check(r, !back && e.code == dkResultInvalidSnapshot && !strcmp(e.field, "version"), "another format version is refused (version)",
		  back ? "read" : e.field);

	// Forged past the checksum: changed values inside the payload give an error naming a part, or a world that
	// steps; never a crash (the sanitizer builds run this).
	// A third of the tries write a small number (an index's likely values) over a four-byte word.
	int refused = 0, stepped = 0, tries = getenv("DK_FORGED_TRIES") ? atoi(getenv("DK_FORGED_TRIES")) : 600;
	for (int t = 0; t < tries; ++t) {
		memcpy(copy, bytes, size);
		for (int k = 0; k < 1 + t % 3; ++k) {
			size_t at = 24 + nextRandom(&seed) % (size - 32);
			if (t % 3 == 2) {
				int32_t small = (int32_t)(nextRandom(&seed) % 400) - 3;
				memcpy(copy + (at & ~(size_t)3), &small, 4);
			} else {
				copy[at] = (t & 1) ? (uint8_t)nextRandom(&seed) : (uint8_t)(copy[at] ^ (1u << (nextRandom(&seed) % 8)));
			}
		}
		memcpy(copy + size - 8, &(uint64_t){checksum(copy, size - 8)}, 8);
		back = dkWorld_ReadSnapshot(&def, copy, size, NULL, NULL, &e);
		if (!back) {
			refused += e.code == dkResultInvalidSnapshot;
			continue;
		}
		dkError stepError;
		for (int s = 0; s < 3; ++s) dkWorld_Step(back, 1.0f / 60.0f, 4, &stepError);
		stepped++;
		dkWorld_Destroy(back);
	}
	snprintf(detail, sizeof detail, "%d refused, %d read and stepped", refused, stepped);
	check(r, refused + stepped == tries && refused > 0, "forged snapshots are refused or step, and never crash", detail);

	free(copy);
	free(bytes);
	dkWorld_Destroy(w);
}

// Across machines (`make test-arm64`): the run writing the states also writes a snapshot taken at step 90
// (path + ".snapshot"); each run records, as a state, the bits 120 steps after reading a snapshot: its own when
// writing, the other machine's when comparing. Equal states mean arm64 reads x86-64's snapshots (and the
// reverse) and steps on to the same bits.
static void acrossMachines(Report* r, const char* writePath, const char* comparePath)
{
	char path[512], detail[160];
	dkItemId poured[160];
	dkWorld* w = makeRestingWorld(1);
	build(w, poured);
	run(w, poured, 0, 90);
	size_t size;
	uint8_t* bytes = snapshotOf(w, NULL, &size);
	dkWorld_Destroy(w);
	if (writePath) {
		snprintf(path, sizeof path, "%s.snapshot", writePath);
		FILE* f = fopen(path, "wb");
		check(r, f && fwrite(bytes, 1, size, f) == size && fclose(f) == 0, "the snapshot for the other machine is written", path);
	}
	if (comparePath) { // the other machine's bytes instead of ours
		snprintf(path, sizeof path, "%s.snapshot", comparePath);
		FILE* f = fopen(path, "rb");
		free(bytes);
		bytes = malloc(16u << 20);
		size = f ? fread(bytes, 1, 16u << 20, f) : 0;
		if (f) fclose(f);
		check(r, size > 0, "the other machine's snapshot can be read", path);
	}
	dkError e = {0};
	dkWorld* back = readBack(bytes, size, 2, &e);
	snprintf(detail, sizeof detail, "%s", back ? "read" : e.field ? e.field : "?");
	check(r, back != NULL, comparePath ? "a snapshot the other machine wrote reads here" : "a snapshot reads back", detail);
	if (back) {
		run(back, poured, 90, 210);
		int32_t n;
		float* state = packStates(back, &n);
		uint64_t hash = 1469598103934665603u;
		for (size_t i = 0; i < (size_t)n * 6 * sizeof(float); ++i) hash = (hash ^ ((const unsigned char*)state)[i]) * 1099511628211u;
		free(state);
		if (r->states < MAX_STATES) {
			snprintf(r->stateName[r->states], sizeof r->stateName[0], "snapshot of step 90, read, 120 steps");
			r->stateHash[r->states++] = (unsigned long long)hash;
		}
		dkWorld_Destroy(back);
	}
	free(bytes);
}

void snapshots(Report* r, const char* writePath, const char* comparePath)
{
	resumes(r);
	rejects(r);
	acrossMachines(r, writePath, comparePath);
}
