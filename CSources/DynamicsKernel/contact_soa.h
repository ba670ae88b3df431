// SPDX-License-Identifier: Apache-2.0
// Internal: the contact solver's wide layout. Constraints in colour order, each colour padded to a multiple
// of DK_CONTACT_PAD with inert constraints (zero masses, the zero state), so a batch of 4, 8 or 16 lanes
// never spans two colours. The fields are stored in blocks of DK_CONTACT_PAD constraints, field by field
// (dkSoaRow). With one column per field, filling a constraint wrote 31 cache lines far apart, and filling
// in contact order (which reads the contacts front to back) spread its writes over every colour at once:
// filling was 18 % of the pyramid's step at one worker. In blocks, those writes land in one block per
// colour. (See Benchmarks/results for the measurement.)
#ifndef DK_CONTACT_SOA_H
#define DK_CONTACT_SOA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DK_CONTACT_PAD 16

// A moving item during the substeps: velocity and its movement since the step began. 32 bytes.
typedef struct dkBodyState {
	float vx, vy, w;
	float dx, dy, dc, ds; // translation, rotation (cos, sin)
	float da;			  // rotation, rad (joint angles)
} dkBodyState;
_Static_assert(sizeof(dkBodyState) == 32, "dkBodyState is 32 bytes");

enum {
	dkSoaNx,
	dkSoaNy,
	dkSoaFriction,
	dkSoaRestitution,
	dkSoaMassA,
	dkSoaInertiaA,
	dkSoaMassB,
	dkSoaInertiaB,
	dkSoaStiff, // 1: against something that does not move
	dkSoaShared,
	// per point (add dkSoaPoint for the second)
	dkSoaRAx = dkSoaShared,
	dkSoaRAy,
	dkSoaRBx,
	dkSoaRBy,
	dkSoaBase, // adjusted separation
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

typedef struct dkContactSoA {
	int32_t count; // padded
	int32_t zeroState; // index of the shared zero state: read by many lanes, never written
	bool elastic;	   // some constraint has restitution (otherwise the restitution pass is skipped)
	int32_t* stateA;
	int32_t* stateB;
	int32_t* contact; // -1 for padding
	float* block;	  // count / DK_CONTACT_PAD blocks of dkSoaColumns × DK_CONTACT_PAD floats (dkSoaRow)
} dkContactSoA;

// Constraint k's fields: field f is at [f * DK_CONTACT_PAD]. The fields of DK_CONTACT_PAD neighbouring
// constraints form one block, field by field, so a batch of 4, 8 or 16 lanes reads each field as one
// contiguous vector, and filling a constraint writes one block rather than one line per field.
static inline float* dkSoaRow(const dkContactSoA* s, int32_t k)
{
	uint32_t u = (uint32_t)k;
	return s->block + (size_t)(u / DK_CONTACT_PAD) * (dkSoaColumns * DK_CONTACT_PAD) + u % DK_CONTACT_PAD;
}

// Soft constraint coefficients (Box2D's soft step).
typedef struct dkSoftness {
	float biasRate, massScale, impulseScale;
} dkSoftness;

// The soft constraint of a spring of `hertz` (0: rigid) and damping ratio `zeta`, for substeps of h.
static inline dkSoftness dkMakeSoft(float hertz, float zeta, float h)
{
	if (hertz == 0.0f) return (dkSoftness){0.0f, 1.0f, 0.0f};
	float omega = 2.0f * 3.14159265f * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	return (dkSoftness){omega / a1, a2 * a3, a3};
}

#endif
