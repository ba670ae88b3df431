// SPDX-License-Identifier: Apache-2.0
// Internal: instantiates every wide stage template and the kernel table for the SIMD level of the
// including file (which defines DK_W, DK_ISA and DK_LEVEL inside its target region).
#include "collision.h"
#include "integrate_math.h"
#include "kernels.h"
#include "simd.h"

#include "stage_contact_wide.h"
#include "stage_field_wide.h"
#include "stage_joint_wide.h"
#include "stage_integrate_wide.h"
#include "stage_pack_wide.h"
#include "stage_rest_wide.h"
#include "stage_spring_wide.h"

const dkKernels DK_CAT(dkKernels, DK_ISA) = {
	.level = DK_LEVEL,
	.width = DK_W,
	.integrateFused = DK_FN(dkIntegrateFused),
	.accumulateForces = DK_FN(dkAccumulateForces),
	.dampAndSnap = DK_FN(dkDampAndSnap),
	.detectRest = DK_FN(dkDetectRest),
	.packPoses = DK_FN(dkPackPoses),
	.contactWarmStart = DK_FN(dkContactWarmStart),
	.contactSolve = DK_FN(dkContactSolve),
	.contactApproach = DK_FN(dkContactApproach),
	.contactRestitution = DK_FN(dkContactRestitution),
	.jointWarmStart = DK_FN(dkJointWarmStart),
	.jointSolve = DK_FN(dkJointSolve),
	.applyFields = DK_FN(dkApplyFields),
	.overrideVelocities = DK_FN(dkOverrideVelocities),
	.summarizeRows = DK_FN(dkSummarizeRows),
	.springSamples = DK_FN(dkSpringSamples),
};
