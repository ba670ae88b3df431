// SPDX-License-Identifier: Apache-2.0
// The substeps of a step: the configured count, raised while a rigid chain turns fast
// (dkWorldDef.adaptiveSubsteps), and what a change of the substep length moves: the velocities
// (dkSubsteps_Kick) and the warm-start impulses, which are per substep and so scale with its length
// (substepRatio, applied where the solver reads them: contact_solver.c, joint_solver.c, joint_chain.c).
//
// Measured over 10 s from 60 release angles (60°–178°, JointEnergyTests' pendulums at the defaults), the
// largest energy drift: four pinned links 0.63 % (1.23 % at a fixed 4 substeps), four rods 0.18 % (0.33 %),
// eight, twelve and sixteen pinned links 0.23, 0.96 and 0.87 % (52, 79 and 82 %: their whip opens the
// joints past the projection's 1 pt, joint_chain.c). Twenty-four links still lost up to 39 % (at 8
// configured substeps, 1.4 %).
// The choices, each measured on the same runs (before the projected chains' stiffness doubled, with which
// longer chains came within 1 %):
// - The opening allowed, DK_SUBSTEP_OPENING: at 0.1 pt four and eight pinned links drifted 1.2 and 1.7 %
//   at one angle each.
// - At most four times the configured count: allowing eight times, eight links drifted up to 3.4 % (the
//   chains' stiffness, which follows the configured count, is then soft for the substep).
// - A level lasts until the chains have turned slowly for DK_SUBSTEP_CALM: a level that fell as soon as
//   the chains slowed let four pinned links drift up to 1.7 % (mean 0.42 %, against 0.11 %).
// - Stiffness follows the configured count (solver.c, runStages).
// - A step in which an attachment's anchor moved keeps the configured count: the item then follows an
//   anchor that jumps once a step, and finer substeps only pull it harder (a card dragged at 1 080 pt/s
//   reached 1 494 pt/s at 16 substeps, against 876 at 4).
//
// Why the velocities move: a substep's velocity is the one that moved the item over the substep, which
// semi-implicit Euler takes at the substep's end; from rest under gravity g it puts an item at
// ½ g t² + ½ h g t. A later step of another length would continue with its own ½ h g t: at the change the
// velocity takes half the difference of the lengths times the item's constant acceleration, and the fall
// continues on the first curve (AdaptiveSubstepsTests; 4.2 pt off it otherwise).
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
