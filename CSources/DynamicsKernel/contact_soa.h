// SPDX-License-Identifier: Apache-2.0
// Internal: the contact solver's wide layout. Constraints in colour order, each colour padded to a multiple
// of DK_CONSTRAINT_PAD with inert constraints (zero masses, the zero state), so a batch of 4, 8 or 16 lanes
// never spans two colours. The fields are stored in blocks of DK_CONSTRAINT_PAD constraints, field by field
// (dkSoaRow). With one column per field, filling a constraint wrote 31 cache lines far apart, and filling
// in contact order (which reads the contacts front to back) spread its writes over every colour at once,
// which made filling a large part of the pyramid's step. In blocks, those writes land in one block per
// colour. (Benchmarks/results has the measurement.)
#ifndef DK_CONTACT_SOA_H
#define DK_CONTACT_SOA_H

#include "constraint.h"
#include "constraint_graph.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum {
	dkSoaNx,
	dkSoaNy,
	dkSoaFriction,
	dkSoaRestitution,
	dkSoaMassA,
	dkSoaInertiaA,
	dkSoaMassB,
	dkSoaInertiaB,
	dkSoaStiff, // 1: against something that does not move; 2: that, for an item of a joint chain (rigid)
	dkSoaFrame, // how the frame turns within the step: dkFrame bits (below), stored as a float's bits
	dkSoaShared,
	// per point (add dkSoaPoint for the second)
	dkSoaRAx = dkSoaShared,
	dkSoaRAy,
	dkSoaRBx,
	dkSoaRBy,
	dkSoaBase, // separation when the step began, pt (the point is halfway across it)
	dkSoaNormalMass,
	dkSoaTangentMass,
	dkSoaNormalImpulse,
	dkSoaTangentImpulse,
	dkSoaMaxNormalImpulse,
	dkSoaRelativeVelocity,
	dkSoaPointEnd,
	dkSoaPoint = dkSoaPointEnd - dkSoaShared,
	dkSoaColumns = dkSoaShared + 2 * dkSoaPoint,
};

// dkSoaFrame's bits: a point goes with A or with B (neither: between two circles, each anchor with its side
// and the normal stay put); a side's anchors turn with the point's normal (a centred circle) rather than their item.
enum {
	dkFrameAWithNormal = 1u << 0,
	dkFrameBWithNormal = 1u << 1,
	dkFramePoint0OnA = 1u << 2,
	dkFramePoint0OnB = 1u << 3,
	dkFramePoint1OnA = 1u << 4,
	dkFramePoint1OnB = 1u << 5,
	dkFrameKeepArms = 1u << 6,	 // the arms of the step's start (contact_solver.c, frameBits)
	dkFrameKeepNormal = 1u << 7, // the normal of the step's start
};

// A dkSoaFrame value: the bits, stored in a float's place.
static inline float dkSoaBits(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

typedef struct dkContactSoA {
	int32_t count; // padded
	int32_t zeroState; // index of the shared zero state: read by many lanes, never written
	bool elastic;	   // some constraint has restitution (otherwise the restitution pass is skipped)
	int32_t* stateA;
	int32_t* stateB;
	int32_t* contact; // the contact's index in the list, -1 for padding and holes
	float* block;	  // count / DK_CONSTRAINT_PAD blocks of dkSoaColumns × DK_CONSTRAINT_PAD floats (dkSoaRow)
	int32_t liveEnd[DK_GRAPH_COLOURS + 1]; // per colour: where its places end and its padding begins
} dkContactSoA;

// Constraint k's fields: field f is at [f * DK_CONSTRAINT_PAD]. The fields of DK_CONSTRAINT_PAD neighbouring
// constraints form one block, field by field, so a batch of 4, 8 or 16 lanes reads each field as one
// contiguous vector, and filling a constraint writes one block rather than one line per field.
static inline float* dkSoaRow(const dkContactSoA* s, int32_t k)
{
	uint32_t u = (uint32_t)k;
	return s->block + (size_t)(u / DK_CONSTRAINT_PAD) * (dkSoaColumns * DK_CONSTRAINT_PAD) + u % DK_CONSTRAINT_PAD;
}

// Constraint k is inert (padding, a hole, a contact with nothing to move): zero masses and impulses between the
// zero states, which it never changes.
static inline void dkContactSoA_Inert(dkContactSoA* s, int32_t k)
{
	s->stateA[k] = s->stateB[k] = s->zeroState;
	s->contact[k] = -1;
	float* r = dkSoaRow(s, k);
	for (int32_t g = 0; g < dkSoaColumns; ++g) r[g * DK_CONSTRAINT_PAD] = 0.0f;
}

#endif
