// SPDX-License-Identifier: Apache-2.0
// Internal: the byte stream a snapshot is written to and read from (snapshot.c). One visitor walks the world
// in both directions: writing, each call appends a value (or only counts its bytes, with no buffer); reading,
// each call fills the value from the stream, and the first short read or bad value marks the stream failed
// with a field name, after which every call reads zeros. Values are stored little-endian, as both targets
// (x86-64, arm64) hold them, so a value is its bytes.
#ifndef DK_SNAPSHOT_STREAM_H
#define DK_SNAPSHOT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct dkSnapStream {
	uint8_t* data; // writing: the buffer (null: count only); reading: the snapshot
	size_t size, at;
	bool reading;
	const char* failure; // the field that failed to read, or null
	double failureValue;
} dkSnapStream;

static inline bool dkSnap_Failed(const dkSnapStream* s) { return s->failure != NULL; }

// Marks the stream failed at `field` (the first failure stands).
static inline void dkSnap_Fail(dkSnapStream* s, const char* field, double value)
{
	if (s->failure) return;
	s->failure = field;
	s->failureValue = value;
}

static inline void dkSnap_Bytes(dkSnapStream* s, void* p, size_t n)
{
	if (n == 0) return;
	if (!s->reading) {
		if (s->data) memcpy(s->data + s->at, p, n);
		s->at += n;
		return;
	}
	if (s->failure || n > s->size - s->at) {
		dkSnap_Fail(s, "length", (double)s->size);
		memset(p, 0, n);
		return;
	}
	memcpy(p, s->data + s->at, n);
	s->at += n;
}

static inline void dkSnap_I32(dkSnapStream* s, int32_t* v) { dkSnap_Bytes(s, v, sizeof *v); }
static inline void dkSnap_U32(dkSnapStream* s, uint32_t* v) { dkSnap_Bytes(s, v, sizeof *v); }
static inline void dkSnap_U64(dkSnapStream* s, uint64_t* v) { dkSnap_Bytes(s, v, sizeof *v); }
static inline void dkSnap_F32(dkSnapStream* s, float* v) { dkSnap_Bytes(s, v, sizeof *v); }
static inline void dkSnap_F64(dkSnapStream* s, double* v) { dkSnap_Bytes(s, v, sizeof *v); }
static inline void dkSnap_Floats(dkSnapStream* s, float* v, size_t n) { dkSnap_Bytes(s, v, n * sizeof *v); }
static inline void dkSnap_Ints(dkSnapStream* s, int32_t* v, size_t n) { dkSnap_Bytes(s, v, n * sizeof *v); }

static inline void dkSnap_U8(dkSnapStream* s, uint8_t* v) { dkSnap_Bytes(s, v, 1); }

// A bool is one byte, 0 or 1 (another value fails the read: it is no bool).
static inline void dkSnap_Bool(dkSnapStream* s, bool* v, const char* field)
{
	uint8_t b = s->reading ? 0 : *v ? 1 : 0; // (reading, *v may be memory not yet written)
	dkSnap_Bytes(s, &b, 1);
	if (!s->reading) return;
	if (b > 1) dkSnap_Fail(s, field, b);
	*v = b == 1;
}

// An enumeration or small count stored as int32, which must lie in [lo, hi].
static inline void dkSnap_Range(dkSnapStream* s, int32_t* v, int32_t lo, int32_t hi, const char* field)
{
	dkSnap_I32(s, v);
	if (s->reading && (*v < lo || *v > hi)) {
		dkSnap_Fail(s, field, *v);
		*v = lo;
	}
}

// An index that is -1 or in [0, n).
static inline void dkSnap_Index(dkSnapStream* s, int32_t* v, int32_t n, const char* field)
{
	dkSnap_Range(s, v, -1, n - 1, field);
}

// An enum field of any enum type, stored as int32 in [lo, hi].
#define DK_SNAP_ENUM(s, field, lo, hi, name)                                                                             \
	do {                                                                                                               \
		int32_t dkSnapValue_ = (s)->reading ? 0 : (int32_t)(field);                                                    \
		dkSnap_Range((s), &dkSnapValue_, (lo), (hi), (name));                                                          \
		if ((s)->reading) (field) = dkSnapValue_;                                                                      \
	} while (0)

#endif
