// SPDX-License-Identifier: Apache-2.0
// The contact kernels at width 1: the scalar path and the reference the wide levels are tested against.
// It is the same template (stage_contact_wide.h) compiled for one lane and no SIMD target, so every width
// runs the same operations in the same order.
#define DK_W 1
#define DK_ISA lane1
#include "collision.h"
#include "kernels.h"
#include "simd.h"

#include "stage_contact_wide.h"

void dkContactWarmStart_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, bool masses)
{
	dkContactWarmStart_lane1(c, begin, end, states, masses);
}

void dkContactSolve_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH,
						   dkSoftness soft, dkSoftness stiff, bool useBias)
{
	dkContactSolve_lane1(c, begin, end, states, invH, soft, stiff, useBias);
}

void dkContactApproach_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	dkContactApproach_lane1(c, begin, end, states);
}

void dkContactRestitution_scalar(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	dkContactRestitution_lane1(c, begin, end, states);
}
