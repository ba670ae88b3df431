// SPDX-License-Identifier: Apache-2.0
// Internal: what the contact and joint layouts share (contact_soa.h, joint.h): the state of a moving item
// during the substeps, the lane padding, and soft-constraint coefficients.
#ifndef DK_CONSTRAINT_H
#define DK_CONSTRAINT_H

#include <stdint.h>

// Lanes: both layouts pad each colour to a multiple of this many constraints and store their fields in
// blocks of this many, so a batch of 4, 8 or 16 lanes never spans two colours.
#define DK_CONSTRAINT_PAD 16

// A moving item during the substeps: velocity and its movement since the step began. 32 bytes. A step's
// states are the awake rows' (index = row), then the shared zero state (index = awake) for the sides that do
// not move, then a copy of each awake kinematic item's (dkConstraints.kinematicRows): constraints read those
// but never write them (no impulse moves a kinematic item), so every index from the zero state on is
// read-only, and two constraints of one colour may share one.
typedef struct dkBodyState {
	float vx, vy, w;
	float dx, dy, dc, ds; // translation, rotation (cos, sin)
	float da;			  // rotation, rad (joint angles)
} dkBodyState;
_Static_assert(sizeof(dkBodyState) == 32, "dkBodyState is 32 bytes");

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
