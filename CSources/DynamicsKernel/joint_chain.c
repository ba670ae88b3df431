// SPDX-License-Identifier: Apache-2.0
// Stage: rigid joint chains: which joints form them, their rows, and what the rest of the step takes from
// them (marks, bracing, raised inertia, impulses). The solves and the projection: chain_solve.c.
//
// Why: a chain of n rigid joints solved by Gauss–Seidel passes (the coloured stages) converges as 1/n²,
// so one pass per substep cannot carry a long chain's load to its top, and soft rows stretch under load
// (a link carrying k links stretches by about 2 k g / ω²). Measured before this stage: 2.1 % stretch at 20
// links, 7 % at 100, 725 % at 1 000. So the equality rows of rigid joints that form open paths are solved
// here exactly, one chain at a time, after the coloured pass of the same kind.
//
// Which joints: rigid pins (point rows), welds (point and angle rows), sliders (perpendicular and angle
// rows) and rods (axial row) whose moving items each carry at most two such joints, and which form open
// paths (a joint to the world, an anchored or a resting item has one moving side and may end a path).
// Joints at an item with three or more of them, joints on closed loops, and joints whose two items have a
// contact with each other stay with the coloured passes, as do friction and spring rows (of chain joints
// too), rods' limits, and pins with a motor or an angular spring. A grid of pins (joint_grid) therefore has no chains. A chain pin's angle limit and
// a chain slider's axial limit are solved here too: a limit that Gauss–Seidel takes one joint at a time
// gives way under a chain's load (a 50-link chain with ±0.5 rad ranges, released horizontally with a load
// 10 links heavy, ran 1.1 rad past its range; telescoping slider chains ran up to 4.6 pt past ±5 pt).
//
// Limits in the exact solve: a pin's limit row acts on ω_B − ω_A, a slider's on the speed along its axis,
// toward the nearer bound, one-sided (its accumulated impulse pushes away from the bound only). Each solve
// chooses the active limits, those already pushing or that the relative motion would carry past their
// bound within the substep, solves them as equalities with the chain (rigid: without the compliance of the
// other rows, which let a 50-link chain's root limit give 0.025 rad under its load; speculatively, as
// contacts: a bound not yet reached is approached at most to the bound within the substep), and drops and
// releases those whose impulse would then pull, solving again, up to DK_CHAIN_LIMIT_ROUNDS times. A limit that the solve's impulses carry
// toward its bound is activated for another pass.
//
// Parallelism and determinism: chains share no moving item, so work items (runs of whole chains of at
// least DK_CHAIN_ITEM_JOINTS joints) run on any worker; each chain is solved by the same scalar code in
// the same order whatever the worker count or SIMD level.
#include "chain.h"
#include "collision.h"
#include "trig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


// Whether the item in a slot (-1: the world) is kinematic.
static bool kinematicSlot(const dkWorld* world, int32_t slot)
{
	int32_t row = slot >= 0 ? world->slots.data[slot].dense : -1;
	return row >= 0 && (world->flags[row] & dkItemKinematic);
}

// The rows this stage solves for a joint (dkJointRow* bits), or 0.
static uint8_t directRows(const dkWorld* world, const dkJoint* j)
{
	const dkJointParams* d = &j->def;
	// A motor or an angular spring stays with the coloured passes, and so must the rows it drives against: a
	// chain's exact limit solved before it, an unlimited motor drove a pin past its range. So does a joint to
	// a kinematic item: the chains take what does not move as still, and a kinematic item moves.
	if (d->hertz > 0.0f || d->enableMotor || d->angularHertz > 0.0f) return 0;
	if (kinematicSlot(world, j->bodyA) || kinematicSlot(world, j->bodyB)) return 0;
	switch (d->kind) {
	case dkJointRevolute: return dkJointRowPoint | (d->enableLimit ? dkJointRowAngleLimit : 0);
	case dkJointWeld: return dkJointRowPoint | dkJointRowAngleEq;
	case dkJointDistance: return dkJointIsPointRod(d) ? dkJointRowPoint : d->rigid ? dkJointRowAxialEq : 0;
	case dkJointPrismatic: return dkJointRowPrism | (d->enableLimit ? dkJointRowAxialLimit : 0);
	}
	return 0;
}

bool dkChains_Build(dkWorld* world, const int32_t* list, const int32_t* rowA, const int32_t* rowB,
					const int32_t* slot, int32_t n, uint8_t* direct, dkJointChains* chains)
{
	memset(chains, 0, sizeof *chains);
	int32_t candidates = 0;
	for (int32_t i = 0; i < n; ++i) {
		uint8_t rows = directRows(world, &world->joints.data[list[i]]);
		direct[i] = rowA[i] >= 0 && rowA[i] == rowB[i] ? 0 : rows;
		candidates += direct[i] != 0;
	}
	if (candidates == 0) return true;
	int32_t awake = world->awake;
	uint8_t* degree = dkScratchZeroed(world, (size_t)awake);
	int32_t* at = dkScratch(world, (size_t)awake * 2 * sizeof(int32_t)); // the first two candidates at each moving row
	int32_t* next = dkScratch(world, (size_t)n * 2 * sizeof(int32_t));	  // the chain neighbour through item A, item B
	int32_t* order = dkScratch(world, (size_t)n * sizeof(int32_t));
	uint8_t* sides = dkScratch(world, (size_t)n);
	uint8_t* visited = dkScratchZeroed(world, (size_t)n);
	int32_t* starts = dkScratch(world, (size_t)(n + 1) * sizeof(int32_t));
	bool ok = degree && at && next && order && sides && visited && starts;
	for (int32_t i = 0; ok && i < n; ++i) {
		if (!direct[i]) continue;
		for (int side = 0; side < 2; ++side) {
			int32_t row = side ? rowB[i] : rowA[i];
			if (row < 0) continue;
			if (degree[row] < 2) at[2 * row + degree[row]] = i;
			if (degree[row] < 3) degree[row]++;
		}
	}
	for (int32_t i = 0; ok && i < n; ++i) { // an item with three or more leaves its joints to the passes
		if ((rowA[i] >= 0 && degree[rowA[i]] > 2) || (rowB[i] >= 0 && degree[rowB[i]] > 2)) direct[i] = 0;
	}
	// A joint whose two items have a contact with each other (manifold points, speculative ones too) stays
	// with the passes: a contact that the joint's geometry keeps closed (touching planks pinned at their
	// centre lines, which must overlap to bend) fights an exact joint, and a joint that moved in and out of
	// the chain with every touch would release its soft stretch each time; both fed energy into a test beam.
	for (int32_t c = 0; ok && c < world->contacts.count; ++c) {
		const dkContact* contact = &world->contacts.data[c];
		if (contact->manifold.count == 0 || contact->bodyA < 0 || contact->bodyB < 0) continue;
		for (int side = 0; side < 2; ++side) {
			int32_t row = dkMovingRow(world, side ? contact->bodyB : contact->bodyA);
			for (int32_t e = 0; row >= 0 && e < degree[row] && e < 2; ++e) {
				const dkJoint* j = &world->joints.data[list[at[2 * row + e]]];
				if ((j->bodyA == contact->bodyA && j->bodyB == contact->bodyB) ||
					(j->bodyA == contact->bodyB && j->bodyB == contact->bodyA)) direct[at[2 * row + e]] = 0;
			}
		}
	}
	for (int32_t i = 0; ok && i < n; ++i) {
		for (int side = 0; side < 2; ++side) {
			int32_t row = side ? rowB[i] : rowA[i];
			next[2 * i + side] = -1;
			if (!direct[i] || row < 0 || degree[row] != 2) continue;
			int32_t other = at[2 * row] == i ? at[2 * row + 1] : at[2 * row];
			if (direct[other]) next[2 * i + side] = other;
		}
	}
	// Walk each path from its end with the lowest index; joints on closed loops have no end.
	int32_t count = 0, m = 0;
	for (int32_t i = 0; ok && i < n; ++i) {
		if (!direct[i] || visited[i] || (next[2 * i] >= 0 && next[2 * i + 1] >= 0)) continue;
		starts[count++] = m;
		int32_t current = i, exit = next[2 * i] >= 0 ? 0 : 1;
		uint8_t entryB = 0;
		for (;;) {
			visited[current] = 1;
			int32_t following = next[2 * current + exit];
			if (following >= 0 && visited[following]) following = -1;
			order[m] = current;
			sides[m] = (uint8_t)(entryB | (following >= 0 && exit == 1 ? 2 : 0));
			m++;
			if (following < 0) break;
			int32_t shared = exit ? rowB[current] : rowA[current];
			entryB = rowB[following] == shared ? 1 : 0;
			exit = 1 - entryB;
			current = following;
		}
	}
	if (ok) {
		starts[count] = m;
		for (int32_t i = 0; i < n; ++i) {
			if (direct[i] && !visited[i]) direct[i] = 0;
		}
		chains->start = dkScratch(world, (size_t)(count + 1) * sizeof(int32_t));
		chains->itemStart = dkScratch(world, (size_t)(count + 1) * sizeof(int32_t));
		chains->soaIndex = dkScratch(world, (size_t)(m > 0 ? m : 1) * sizeof(int32_t));
		chains->rows = dkScratch(world, (size_t)(m > 0 ? m : 1));
		chains->sides = dkScratch(world, (size_t)(m > 0 ? m : 1));
		chains->impulse = dkScratch(world, (size_t)(m > 0 ? m : 1) * 3 * sizeof(float));
		chains->scratch = dkScratch(world, (size_t)(m > 0 ? m : 1) * dkChainScratch * sizeof(double));
		ok = chains->start && chains->itemStart && chains->soaIndex && chains->rows && chains->sides &&
			 chains->impulse && chains->scratch;
	}
	if (ok) {
		chains->count = count;
		chains->joints = m;
		memcpy(chains->start, starts, (size_t)(count + 1) * sizeof(int32_t));
		memcpy(chains->sides, sides, (size_t)m);
		for (int32_t q = 0; q < m; ++q) {
			int32_t i = order[q];
			const dkJoint* j = &world->joints.data[list[i]];
			float* impulse = chains->impulse + 3 * q;
			chains->soaIndex[q] = slot[i];
			chains->rows[q] = direct[i];
			if (direct[i] & dkJointRowPrism) {
				impulse[0] = j->perp;
				impulse[1] = j->angular;
				impulse[2] = (direct[i] & dkJointRowAxialLimit) ? j->axialLower - j->axialUpper : 0.0f;
			} else if (direct[i] & dkJointRowPoint) {
				impulse[0] = j->linearX;
				impulse[1] = j->linearY;
				impulse[2] = (direct[i] & dkJointRowAngleEq)	  ? j->angular
							 : (direct[i] & dkJointRowAngleLimit) ? j->angleLower - j->angleUpper
																  : 0.0f;
			} else {
				impulse[0] = j->axial;
				impulse[1] = impulse[2] = 0.0f;
			}
			for (int p = 0; p < 3; ++p) impulse[p] *= world->substepRatio; // per substep (substeps.c)
		}
		int32_t items = 0, joints = 0;
		for (int32_t c = 0; c < count; ++c) {
			if (joints == 0) chains->itemStart[items++] = c;
			joints += starts[c + 1] - starts[c];
			if (joints >= DK_CHAIN_ITEM_JOINTS) joints = 0;
		}
		chains->itemStart[items] = count;
		chains->items = items;
	} else {
		memset(chains, 0, sizeof *chains);
		memset(direct, 0, (size_t)n);
	}
	return ok;
}

// Which bound of a limit row's range `value` (the pin's angle or the slider's offset) is nearer: 1 for the
// lower one, −1 for the upper one. The row's error is then the value's distance from that bound.
static double limitSide(double value, float lower, float upper)
{
	return value - lower < upper - value ? 1.0 : -1.0;
}

// The Jacobians (rows × (vx, vy, ω) of A and of B) and position errors of a joint's direct rows at the
// current substep, from the wide layout's step-start geometry and the items' movement since; returns the
// number of rows. Row order: point x, point y, angle or angle limit; or perpendicular, angle, axial limit
// (a slider); or axial (a rod). A limit row's error is the distance from the nearer bound, negative past the
// lower and positive past the upper one, and `side` (when not NULL) says which bound that is (limitSide).
// With `impulse`, also the geometric stiffness of each side for those impulses: |r · f|, f the force of the
// joint's rows on the side and r its point of action from the item's centre.
int dkChain_Rows(uint8_t rows, const dkJointSoA* soa, int32_t k, const dkBodyState* a, const dkBodyState* b,
				 double* ja, double* jb, double* error, double* side, const float* impulse, double* stiffA,
				 double* stiffB)
{
	double rAx0 = *dkJsAt(soa, dkJsRAx, k), rAy0 = *dkJsAt(soa, dkJsRAy, k);
	double rBx0 = *dkJsAt(soa, dkJsRBx, k), rBy0 = *dkJsAt(soa, dkJsRBy, k);
	double rAx = a->dc * rAx0 - a->ds * rAy0, rAy = a->ds * rAx0 + a->dc * rAy0;
	double rBx = b->dc * rBx0 - b->ds * rBy0, rBy = b->ds * rBx0 + b->dc * rBy0;
	double dx = ((double)b->dx - a->dx + *dkJsAt(soa, dkJsDeltaX, k)) + (rBx - rAx);
	double dy = ((double)b->dy - a->dy + *dkJsAt(soa, dkJsDeltaY, k)) + (rBy - rAy);
	double angle = (double)*dkJsAt(soa, dkJsAngle, k) + ((double)b->da - a->da);
	memset(ja, 0, 9 * sizeof(double));
	memset(jb, 0, 9 * sizeof(double));
	error[0] = error[1] = error[2] = 0.0;
	int r = 0;
	if (rows & dkJointRowPoint) { // (v_B + ω_B × r_B) − (v_A + ω_A × r_A)
		ja[0] = -1.0, ja[2] = rAy, jb[0] = 1.0, jb[2] = -rBy, error[0] = dx;
		ja[4] = -1.0, ja[5] = -rAx, jb[4] = 1.0, jb[5] = rBx, error[1] = dy;
		if (impulse) {
			*stiffA += fabs(rAx * impulse[0] + rAy * impulse[1]);
			*stiffB += fabs(rBx * impulse[0] + rBy * impulse[1]);
		}
		r = 2;
	}
	if (rows & dkJointRowPrism) { // u⊥ · (v_B − v_A) + s2 ω_B − s1 ω_A, u⊥ = (−u_y, u_x); then ω_B − ω_A
		double axX = *dkJsAt(soa, dkJsAxisX, k), axY = *dkJsAt(soa, dkJsAxisY, k);
		double ux = a->dc * axX - a->ds * axY, uy = a->ds * axX + a->dc * axY;
		double lx = dx + rAx, ly = dy + rAy; // B's anchor from A's centre
		double s1 = lx * ux + ly * uy, s2 = rBx * ux + rBy * uy;
		ja[0] = uy, ja[1] = -ux, ja[2] = -s1, jb[0] = -uy, jb[1] = ux, jb[2] = s2, error[0] = ux * dy - uy * dx;
		ja[5] = -1.0, jb[5] = 1.0, error[1] = angle;
		r = 2;
		if (rows & dkJointRowAxialLimit) { // u · (v_B − v_A) + a2 ω_B − a1 ω_A
			double a1 = lx * uy - ly * ux, a2 = rBx * uy - rBy * ux, value = ux * dx + uy * dy;
			ja[6] = -ux, ja[7] = -uy, ja[8] = -a1, jb[6] = ux, jb[7] = uy, jb[8] = a2;
			float lower = *dkJsAt(soa, dkJsAxialLower, k), upper = *dkJsAt(soa, dkJsAxialUpper, k);
			double nearer = limitSide(value, lower, upper);
			error[2] = value - (nearer > 0.0 ? lower : upper);
			if (side) *side = nearer;
			r = 3;
		}
		if (impulse) { // the force on B, at its anchor; on A the opposite, at the same point
			double fx = -uy * impulse[0] + ux * impulse[2], fy = ux * impulse[0] + uy * impulse[2];
			*stiffA += fabs(lx * fx + ly * fy);
			*stiffB += fabs(rBx * fx + rBy * fy);
		}
	}
	if (rows & (dkJointRowAngleEq | dkJointRowAngleLimit)) { // ω_B − ω_A
		ja[3 * r + 2] = -1.0, jb[3 * r + 2] = 1.0;
		error[r] = angle;
		if (rows & dkJointRowAngleLimit) {
			float lower = *dkJsAt(soa, dkJsAngleLower, k), upper = *dkJsAt(soa, dkJsAngleUpper, k);
			double nearer = limitSide(angle, lower, upper);
			error[r] = angle - (nearer > 0.0 ? lower : upper);
			if (side) *side = nearer;
		}
		r++;
	}
	if (rows & dkJointRowAxialEq) { // u · (v_B − v_A) + (r_B × u) ω_B − (r_A × u) ω_A
		double length = sqrt(dx * dx + dy * dy);
		double ux = length > 1.0e-4 ? dx / length : 0.0, uy = length > 1.0e-4 ? dy / length : 0.0;
		ja[3 * r] = -ux, ja[3 * r + 1] = -uy, ja[3 * r + 2] = -(rAx * uy - rAy * ux);
		jb[3 * r] = ux, jb[3 * r + 1] = uy, jb[3 * r + 2] = rBx * uy - rBy * ux;
		error[r] = length - *dkJsAt(soa, dkJsLength, k);
		if (impulse) {
			*stiffA += fabs(impulse[r] * (rAx * ux + rAy * uy));
			*stiffB += fabs(impulse[r] * (rBx * ux + rBy * uy));
		}
		r++;
	}
	return r;
}

bool dkChains_MarkItems(dkWorld* world, dkJointChains* chains, const dkJointSoA* soa)
{
	if (chains->joints == 0) return true;
	chains->braced = dkScratchZeroed(world, (size_t)soa->zeroState + 1);
	if (!chains->braced) return false;
	for (int32_t q = 0; q < chains->joints; ++q) {
		int32_t k = chains->soaIndex[q];
		chains->braced[soa->stateA[k]] = chains->braced[soa->stateB[k]] = dkChainItem;
	}
	chains->braced[soa->zeroState] = dkChainNone;
	return true;
}

// The error rows of chain joint q at the step's start.
static void startRows(const dkJointChains* chains, const dkJointSoA* soa, int32_t q, double* ja, double* jb, double* error)
{
	dkBodyState start = {.dc = 1.0f};
	dkChain_Rows(chains->rows[q] & ~dkChainLimitRows, soa, chains->soaIndex[q], &start, &start, ja, jb, error, NULL, NULL,
			  NULL, NULL);
}

void dkChains_Pulls(const dkJointChains* chains, const dkJointSoA* soa, double* pull)
{
	double ja[9], jb[9], error[3];
	for (int32_t q = 0; q < chains->joints; ++q) {
		int32_t k = chains->soaIndex[q], a = soa->stateA[k], b = soa->stateB[k];
		if ((a == soa->zeroState) == (b == soa->zeroState)) continue; // between two items
		startRows(chains, soa, q, ja, jb, error);
		const double* j = a == soa->zeroState ? jb : ja; // the moving side's rows
		int32_t m = a == soa->zeroState ? b : a;
		for (int p = 0; p < 3; ++p) { // M⁻¹Jᵀ(−C) without the masses: the way the rows move the item
			pull[2 * m] -= error[p] * j[3 * p];
			pull[2 * m + 1] -= error[p] * j[3 * p + 1];
		}
	}
}

void dkChains_FindBraced(dkJointChains* chains, const dkJointSoA* soa, dkJoint* joints)
{
	double ja[9], jb[9], error[3];
	for (int32_t c = 0; c < chains->count; ++c) {
		bool pressed = false;
		double worst = 0.0;
		for (int32_t q = chains->start[c]; q < chains->start[c + 1]; ++q) {
			int32_t k = chains->soaIndex[q];
			pressed = pressed || joints[soa->joint[k]].braced || chains->braced[soa->stateA[k]] == dkChainPressed ||
					  chains->braced[soa->stateB[k]] == dkChainPressed;
			startRows(chains, soa, q, ja, jb, error);
			worst = fmax(worst, fmax(fabs(error[0]), fmax(fabs(error[1]), fabs(error[2]))));
		}
		bool braced = pressed && worst > DK_CHAIN_BRACED_ERROR;
		for (int32_t q = chains->start[c]; q < chains->start[c + 1]; ++q) {
			int32_t k = chains->soaIndex[q];
			joints[soa->joint[k]].braced = braced;
			if (braced) chains->braced[soa->stateA[k]] = chains->braced[soa->stateB[k]] = dkChainBraced;
		}
		chains->braced[soa->zeroState] = dkChainNone;
	}
}

bool dkChains_RaiseInertia(dkWorld* world, const dkJointChains* chains, const dkJointSoA* soa, float h,
						   float* inverseInertia)
{
	int32_t states = soa->zeroState + 1;
	// Per state: the stiffness, and whether the item is in a chain with limit rows (last element unused).
	double* stiff = dkScratchZeroed(world, ((size_t)states) * sizeof(double));
	uint8_t* limited = dkScratchZeroed(world, (size_t)states);
	if (!stiff || !limited) return false;
	dkBodyState rest = {.dc = 1.0f};
	double ja[9], jb[9], error[3];
	for (int32_t c = 0; c < chains->count; ++c) {
		bool limits = false;
		for (int32_t q = chains->start[c]; q < chains->start[c + 1]; ++q) limits = limits || (chains->rows[q] & dkChainLimitRows);
		for (int32_t q = chains->start[c]; q < chains->start[c + 1]; ++q) {
			int32_t k = chains->soaIndex[q];
			double sa = 0.0, sb = 0.0;
			dkChain_Rows(chains->rows[q], soa, k, &rest, &rest, ja, jb, error, NULL, chains->impulse + 3 * q, &sa, &sb);
			stiff[soa->stateA[k]] += sa;
			stiff[soa->stateB[k]] += sb;
			limited[soa->stateA[k]] |= limits;
			limited[soa->stateB[k]] |= limits;
		}
	}
	for (int32_t r = 0; r < soa->zeroState; ++r) {
		double i = inverseInertia[r], f = (double)h * stiff[r] * i; // h² · |r · λ| / h / I, the mode's (hω)²
		double t = limited[r] ? 1.0 : fmin(fmax(f / DK_CHAIN_RAISE_FROM - 1.0, 0.0), 1.0);
		inverseInertia[r] = (float)(i / (1.0 + f * t * t * (3.0 - 2.0 * t))); // I + h² · |r · λ| / h
	}
	return true;
}

// A chain without limit rows that is not braced: the chains the projection keeps on their constraints.
bool dkChain_Projected(const dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa)
{
	for (int32_t q = first; q < last; ++q)
		if (chains->rows[q] & dkChainLimitRows) return false;
	return !dkChain_Braced(chains, first, soa);
}

void dkChains_StoreImpulses(dkWorld* world, const dkJointChains* chains, const dkJointSoA* soa)
{
	for (int32_t q = 0; q < chains->joints; ++q) {
		dkJoint* j = &world->joints.data[soa->joint[chains->soaIndex[q]]];
		const float* impulse = chains->impulse + 3 * q;
		if (chains->rows[q] & dkJointRowPrism) {
			j->perp = impulse[0];
			j->angular = impulse[1];
			if (chains->rows[q] & dkJointRowAxialLimit) {
				j->axialLower = impulse[2] > 0.0f ? impulse[2] : 0.0f;
				j->axialUpper = impulse[2] < 0.0f ? -impulse[2] : 0.0f;
			}
		} else if (chains->rows[q] & dkJointRowPoint) {
			j->linearX = impulse[0];
			j->linearY = impulse[1];
			if (chains->rows[q] & dkJointRowAngleEq) j->angular = impulse[2];
			if (chains->rows[q] & dkJointRowAngleLimit) {
				j->angleLower = impulse[2] > 0.0f ? impulse[2] : 0.0f;
				j->angleUpper = impulse[2] < 0.0f ? -impulse[2] : 0.0f;
			}
		} else {
			j->axial = impulse[0];
		}
	}
}

double dkChains_TurnAcceleration(const dkJointChains* chains, const dkJointSoA* soa, const dkBodyState* states)
{
	double worst = 0.0;
	for (int32_t c = 0; c < chains->count; ++c) {
		int32_t first = chains->start[c], last = chains->start[c + 1];
		if (!dkChain_Projected(chains, first, last, soa)) continue;
		for (int32_t q = first; q < last; ++q) {
			int32_t k = chains->soaIndex[q];
			const dkBodyState *a = &states[soa->stateA[k]], *b = &states[soa->stateB[k]];
			// The arms at the step's end: those of its start turned by the step's rotation.
			double ax = *dkJsAt(soa, dkJsRAx, k), ay = *dkJsAt(soa, dkJsRAy, k);
			double bx = *dkJsAt(soa, dkJsRBx, k), by = *dkJsAt(soa, dkJsRBy, k);
			double rAx = a->dc * ax - a->ds * ay, rAy = a->ds * ax + a->dc * ay;
			double rBx = b->dc * bx - b->ds * by, rBy = b->ds * bx + b->dc * by;
			double turn = (double)a->w * a->w * hypot(rAx, rAy) + (double)b->w * b->w * hypot(rBx, rBy);
			if (chains->rows[q] & dkJointRowAxialEq) { // a rod turning about its far end: v²/L
				double length = *dkJsAt(soa, dkJsLength, k);
				double vx = (b->vx - b->w * rBy) - (a->vx - a->w * rAy), vy = (b->vy + b->w * rBx) - (a->vy + a->w * rAx);
				if (length > DK_POINT_ROD_LENGTH) turn += (vx * vx + vy * vy) / length;
			}
			worst = fmax(worst, turn);
		}
	}
	return worst;
}
