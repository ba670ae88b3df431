// SPDX-License-Identifier: Apache-2.0
// The joint kernels at width 1: the scalar path and the reference the wide levels are tested against.
// It is the same template (stage_joint_wide.h) compiled for one lane and no SIMD target.
#define DK_W 1
#define DK_ISA lane1
#include "collision.h"
#include "kernels.h"
#include "simd.h"

#include "stage_bodies_wide.h"
#include "stage_joint_wide.h"

void dkJointWarmStart_scalar(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	dkJointWarmStart_lane1(c, begin, end, states);
}

void dkJointSolve_scalar(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH, dkSoftness joint,
						 bool useBias, bool springs)
{
	dkJointSolve_lane1(c, begin, end, states, invH, joint, useBias, springs);
}
