// SPDX-License-Identifier: Apache-2.0
// The substeps of a step: the configured count, raised while a rigid chain turns fast
// (dkWorldDef.adaptiveSubsteps), and what a change of the substep length moves: the velocities
// (dkSubsteps_Kick) and the warm-start impulses, which are per substep and so scale with its length
// (substepRatio, applied where the solver reads them: contact_solver.c, joint_solver.c, joint_chain.c).
//
// Why each rule (the measurements are in the Attachments article, "Fast chains take more substeps", and in
// the commits that set them):
// - DK_SUBSTEP_OPENING: a larger opening let four- and eight-link chains drift past 1 % at some angles.
// - At most four times the configured count: at eight times, the chains' stiffness, which follows the
//   configured count, is too soft for the substep, and long chains drifted more, not less.
// - A level lasts until the chains have turned slowly for DK_SUBSTEP_CALM: every change of the count
//   costs a little energy, and a level that fell as soon as the chains slowed changed it too often.
// - Stiffness follows the configured count (solver.c, runStages).
// - A step in which an attachment's anchor moved keeps the configured count: the item then follows an
//   anchor that jumps once a step, and finer substeps only pull it harder, faster than the drag.
//
// Why the velocities move: a substep's velocity is the one that moved the item over the substep, which
// semi-implicit Euler takes at the substep's end; from rest under gravity g it puts an item at
// ½ g t² + ½ h g t. A later step of another length would continue with its own ½ h g t: at the change the
// velocity takes half the difference of the lengths times the item's constant acceleration, and the fall
// continues on the first curve (AdaptiveSubstepsTests).
#include "core.h"
#include "integrate_math.h"

#include <math.h>

int32_t dkSubsteps_Begin(dkWorld* world, float dt, int32_t configured)
{
	int32_t substeps = configured;
	if (world->def.adaptiveSubsteps && !world->anchorMoved)
		for (int32_t l = 0; l < world->substepLevel && 2 * substeps <= DK_MAX_SUBSTEPS; ++l) substeps *= 2;
	float h = dt / (float)substeps;
	bool changed = world->lastSubstep > 0.0f && h != world->lastSubstep;
	world->substepRatio = changed ? h / world->lastSubstep : 1.0f;
	world->substepKick = changed ? 0.5f * (world->lastSubstep - h) : 0.0f;
	world->chainTurn = 0.0;
	world->configuredSubstep = dt / (float)configured;
	return substeps;
}

void dkSubsteps_Kick(dkWorld* world)
{
	float k = world->substepKick;
	if (k == 0.0f) return;
	float** c = world->col;
	for (int32_t i = 0; i < world->awake; ++i) {
		float im = c[dkColumnInverseMass][i], ii = c[dkColumnInverseInertia][i];
		if (im > 0.0f) {
			c[dkColumnVelocityX][i] += k * (c[dkColumnGravityX][i] + DK_FORCE_SCALE * im * c[dkColumnForceX][i]);
			c[dkColumnVelocityY][i] += k * (c[dkColumnGravityY][i] + DK_FORCE_SCALE * im * c[dkColumnForceY][i]);
		}
		if (ii > 0.0f)
			c[dkColumnAngularVelocity][i] +=
				k * dkPushAlpha(c[dkColumnAngle][i], c[dkColumnTorqueCross][i], c[dkColumnTorqueDot][i], ii);
	}
}

void dkSubsteps_End(dkWorld* world, float dt, int32_t configured, int32_t used)
{
	world->lastSubstep = dt / (float)used;
	bool driven = world->anchorMoved;
	world->anchorMoved = false;
	if (!world->def.adaptiveSubsteps || driven) {
		world->substepLevel = 0;
		world->substepsCalm = 0.0;
		return;
	}
	// The level whose substeps keep the opening within DK_SUBSTEP_OPENING: each halves h, quartering it.
	// Going down takes DK_SUBSTEP_CALM per level.
	double h = (double)dt / (double)configured, opening = 0.5 * h * h * world->chainTurn;
	int32_t need = 0;
	while (need < DK_SUBSTEP_LEVELS && opening > (double)DK_SUBSTEP_OPENING) {
		opening *= 0.25;
		need++;
	}
	if (need > world->substepLevel) {
		world->substepLevel = need;
		world->substepsCalm = 0.0;
	} else if (need < world->substepLevel) {
		world->substepsCalm += (double)dt;
		if (world->substepsCalm >= DK_SUBSTEP_CALM) {
			world->substepLevel--;
			world->substepsCalm = 0.0;
		}
	} else {
		world->substepsCalm = 0.0;
	}
}
