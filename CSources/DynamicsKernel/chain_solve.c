// SPDX-License-Identifier: Apache-2.0
// Stage: the exact solves of rigid joint chains, and their projection. Which joints form the chains, and why
// they are solved exactly: joint_chain.c.
//
// How: along a path the system A λ = −(J v + bias) is block tridiagonal, A = J M⁻¹ Jᵀ with one block of up
// to 3 rows per joint (unused rows are identity rows with zero right-hand side), coupled through the item
// two consecutive joints share. It is factorised and solved by block elimination (the block Thomas
// algorithm) in double precision: O(n) per chain, about 300 flops per joint. A block whose pivot
// vanishes (a row without effective mass) drops that row instead of dividing by zero.
// Rows keep the soft step's form (soft while biased, no bias while relaxing), with the stiffness
// DK_CHAIN_STIFFNESS: an exact solve is stable at any stiffness, so the softness only regularises A
// (compliance ε·diag A, which also keeps a taut chain between two anchors well posed). With the exact
// solve a link carrying k links stretches by 2 k g / ω² at ω = 2π·DK_CHAIN_STIFFNESS / h: 0.1 pt for
// k = 1 000 at 240 substeps per second. h is the configured substep: a step that takes more substeps
// (substeps.c) keeps the stiffness, which is then softer for its substeps. Chains that are projected
// (no limit rows, not braced) are twice as stiff (DK_CHAIN_PROJECTED_STIFFNESS), which keeps whipping
// chains of up to sixteen links within 1 % of their energy at four times the substeps (JointEnergyTests)
// and lets the bridge settle. Not every chain: as stiff, a chain pulling an item against a wall pulls it
// through, and pin ranges open further; twice as stiff again, the bridge keeps bouncing.
//
#include "chain.h"
#include "collision.h"
#include "trig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// out = S⁺ for a symmetric 3×3 S, through S = L D Lᵀ; a pivot at or below 1e-12 × the largest diagonal
// entry is dropped (its row gets no impulse).
static void inverse3(const double* s, double* out)
{
	double scale = fmax(fmax(s[0], s[4]), s[8]), tol = 1.0e-12 * scale;
	double l10 = 0, l20 = 0, l21 = 0, d0, d1, d2, i0, i1, i2;
	d0 = s[0];
	i0 = d0 > tol ? 1.0 / d0 : 0.0;
	l10 = s[3] * i0;
	l20 = s[6] * i0;
	d1 = s[4] - l10 * l10 * d0;
	i1 = d1 > tol ? 1.0 / d1 : 0.0;
	l21 = (s[7] - l20 * l10 * d0) * i1;
	d2 = s[8] - l20 * l20 * d0 - l21 * l21 * d1;
	i2 = d2 > tol ? 1.0 / d2 : 0.0;
	// L⁻¹ (unit lower triangular), then S⁺ = L⁻ᵀ D⁺ L⁻¹.
	double m10 = -l10, m21 = -l21, m20 = -l20 + l21 * l10;
	double inv[3][3] = {{1, 0, 0}, {m10, 1, 0}, {m20, m21, 1}};
	double dinv[3] = {i0, i1, i2};
	for (int p = 0; p < 3; ++p) {
		for (int q = 0; q < 3; ++q) {
			double sum = 0.0;
			for (int t = 0; t < 3; ++t) sum += inv[t][p] * dinv[t] * inv[t][q];
			out[3 * p + q] = sum;
		}
	}
}

// v += M⁻¹ Jᵀ x for one side of a joint (not for the shared zero state of items that do not move).
static void applyImpulse(dkBodyState* states, int32_t index, int32_t zeroState, const double* j, const double* x,
						 double m, double i)
{
	if (index >= zeroState) return; // read-only states (constraint.h)
	dkBodyState* s = &states[index];
	double px = j[0] * x[0] + j[3] * x[1] + j[6] * x[2];
	double py = j[1] * x[0] + j[4] * x[1] + j[7] * x[2];
	double pw = j[2] * x[0] + j[5] * x[1] + j[8] * x[2];
	s->vx = (float)(s->vx + m * px);
	s->vy = (float)(s->vy + m * py);
	s->w = (float)(s->w + i * pw);
}

static void masses(const dkJointSoA* soa, int32_t k, double* mA, double* mB)
{
	mA[0] = mA[1] = *dkJsAt(soa, dkJsMassA, k), mA[2] = *dkJsAt(soa, dkJsInertiaA, k);
	mB[0] = mB[1] = *dkJsAt(soa, dkJsMassB, k), mB[2] = *dkJsAt(soa, dkJsInertiaB, k);
}

// One chain [first, last): (A + R) x = −(J v + bias·C) − leak·R λ, R = ε diag A, by block elimination.
// A uses each item's inertia raised by h² times the geometric stiffness of the chain joints at it (the
// diagonal approximation of Andrews, Teichmann & Kry, "Geometric stiffness for real-time constrained
// multibody dynamics", 2017): under a long chain's tension a thin link's rotation is a stiff mode (ω² ≈
// 12 k g / L for a link of length L carrying k links; 775 rad/s at k = 1 000, L = 20 pt), which the explicit
// position update cannot follow once hω > 2; the raised inertia keeps hω < 1 and damps only that mode.
// It is raised only where that mode is stiff, from (hω)² = h² |r · F| / I = DK_CHAIN_RAISE_FROM and fully
// from twice that (a smooth step between): the kinetic energy takes the plain inertia, and a raise that
// follows the tension, up at the bottom of each swing and down at its ends, pumps energy into a swinging
// chain once the projection keeps it (four pinned 50 × 10 pt links released at 90–170° gained 17–48 % in
// 10 s with (hω)² ≤ 0.4, and a rod at a box's corner up to 11 %). A 1 000-link chain reaches (hω)² ≈ 7 at
// its top, a bridge of 100 planks with boxes on it about 3; (hω)² ≥ 1 without the raise broke both.
// Items of a chain with limit rows keep the whole raise: such chains are not projected (dkChains_Project),
// nothing there keeps the energy for the raise to pump, and their limits hold tighter with it.
// The raised inertia is computed once per step from the warm-start impulses (dkChains_RaiseInertia) and
// every constraint of the step uses it: the chain's warm start and solves, the coloured joint rows and the
// contacts. Contacts that used the plain inertia while the chain used the raised one disagreed about the
// rotation an impulse causes and fed each other: a bridge of pinned planks with boxes on it gained energy
// without bound (kinetic energy 7·10⁵ after 2 s, 6·10⁷ after 40 s); with one inertia it comes to rest.
static void prepareChain(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
						 const dkBodyState* states)
{
	for (int32_t q = first; q < last; ++q) { // Jacobians and errors at this substep
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		int32_t k = chains->soaIndex[q];
		dkChain_Rows(chains->rows[q], soa, k, &states[soa->stateA[k]], &states[soa->stateB[k]], s + dkChainJA,
				  s + dkChainJB, s + dkChainC, NULL, NULL, NULL, NULL);
	}
}

void dkChains_WarmStart(dkJointChains* chains, const dkJointSoA* soa, dkBodyState* states, int32_t item)
{
	for (int32_t c = chains->itemStart[item]; c < chains->itemStart[item + 1]; ++c) {
		int32_t first = chains->start[c], last = chains->start[c + 1];
		prepareChain(chains, first, last, soa, states);
		for (int32_t q = first; q < last; ++q) {
			double* s = chains->scratch + (size_t)q * dkChainScratch;
			int32_t k = chains->soaIndex[q];
			double x[3] = {chains->impulse[3 * q], chains->impulse[3 * q + 1], chains->impulse[3 * q + 2]};
			applyImpulse(states, soa->stateA[k], soa->zeroState, s + dkChainJA, x, *dkJsAt(soa, dkJsMassA, k),
						 *dkJsAt(soa, dkJsInertiaA, k));
			applyImpulse(states, soa->stateB[k], soa->zeroState, s + dkChainJB, x, *dkJsAt(soa, dkJsMassB, k),
						 *dkJsAt(soa, dkJsInertiaB, k));
		}
	}
}

// The biased solve comes right after the same substep's warm start, which prepared the chain: positions
// and accumulated impulses have not changed since, so only the relaxing solve (after the positions)
// prepares again.
// The rows of joint q: 1, 2 or 3 (with its limit row, which eliminate counts only while active).
static int rowCount(const dkJointChains* chains, int32_t q)
{
	uint8_t rows = chains->rows[q];
	return (rows & (dkJointRowPoint | dkJointRowPrism) ? 2 : 0) + (rows & dkJointRowAngleEq ? 1 : 0) +
		   (rows & dkJointRowAxialEq ? 1 : 0) + (rows & dkChainLimitRows ? 1 : 0);
}

// Block elimination of one chain into x (nothing applied yet): the forward pass and back substitution.
static void eliminate(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
					  const dkBodyState* states, double epsilon, double bias, double cap, bool leak, double invH,
					  bool positions)
{
	for (int32_t q = first; q < last; ++q) {
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		double *ja = s + dkChainJA, *jb = s + dkChainJB, *y = s + dkChainY, *error = s + dkChainC;
		int32_t k = chains->soaIndex[q];
		const dkBodyState *a = &states[soa->stateA[k]], *b = &states[soa->stateB[k]];
		double mA[3], mB[3], m[9];
		int rows = rowCount(chains, q);
		double limitSide = (chains->rows[q] & dkChainLimitRows) && !positions ? s[dkChainActive] : 0.0;
		if ((chains->rows[q] & dkChainLimitRows) && limitSide == 0.0) rows--; // an inactive limit: unused
		masses(soa, k, mA, mB);
		double va[3] = {a->vx, a->vy, a->w}, vb[3] = {b->vx, b->vy, b->w};
		for (int p = 0; p < 3; ++p) {
			for (int r = 0; r < 3; ++r) {
				double sum = 0.0;
				for (int c = 0; c < 3; ++c) sum += ja[3 * p + c] * mA[c] * ja[3 * r + c] + jb[3 * p + c] * mB[c] * jb[3 * r + c];
				m[3 * p + r] = sum;
			}
		}
		for (int p = 0; p < 3; ++p) {
			if (p >= rows) { // an unused row: identity, no impulse
				y[p] = 0.0;
				m[3 * p + p] = 1.0;
				continue;
			}
			double cdot = 0.0;
			for (int c = 0; c < 3 && !positions; ++c) cdot += ja[3 * p + c] * va[c] + jb[3 * p + c] * vb[c];
			bool limit = limitSide != 0.0 && p == rows - 1;
			double compliance = limit ? 0.0 : epsilon * m[3 * p + p];
			if (limit && limitSide * error[p] > 0.0) {
				y[p] = -(cdot + invH * error[p]); // a bound not yet reached: speculative, reached at most
			} else {
				double correction = fmin(fmax(bias * error[p], -cap), cap);
				y[p] = -(cdot + correction) - (leak ? compliance * chains->impulse[3 * q + p] : 0.0);
			}
			m[3 * p + p] += compliance;
		}
		if (q > first) { // eliminate the previous joint through the item they share
			double* sp = s - dkChainScratch;
			const double* jPrevious = sp + ((chains->sides[q - 1] & 2) ? dkChainJB : dkChainJA);
			bool entryB = chains->sides[q] & 1;
			const double* jHere = entryB ? jb : ja;
			const double* shared = entryB ? mB : mA; // with the same raised inertia as the previous joint's side
			double e[9], *g = sp + dkChainG, *sinvPrevious = sp + dkChainSinv, *yPrevious = sp + dkChainY;
			for (int p = 0; p < 3; ++p) {
				for (int r = 0; r < 3; ++r) {
					double sum = 0.0;
					for (int c = 0; c < 3; ++c) sum += jPrevious[3 * p + c] * shared[c] * jHere[3 * r + c];
					e[3 * p + r] = sum;
				}
			}
			for (int p = 0; p < 3; ++p) {
				for (int r = 0; r < 3; ++r) {
					double sum = 0.0;
					for (int t = 0; t < 3; ++t) sum += sinvPrevious[3 * p + t] * e[3 * t + r];
					g[3 * p + r] = sum;
				}
			}
			for (int p = 0; p < 3; ++p) {
				for (int r = 0; r < 3; ++r) {
					double sum = 0.0;
					for (int t = 0; t < 3; ++t) sum += e[3 * t + p] * g[3 * t + r];
					m[3 * p + r] -= sum;
				}
				double sum = 0.0;
				for (int t = 0; t < 3; ++t) sum += g[3 * t + p] * yPrevious[t];
				y[p] -= sum;
			}
		}
		inverse3(m, s + dkChainSinv);
	}
	// Back substitution: x_q = S_q⁻¹ y_q − G_q x_{q+1}.
	for (int32_t q = last - 1; q >= first; --q) {
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		double *x = s + dkChainX, *sinv = s + dkChainSinv, *y = s + dkChainY;
		for (int p = 0; p < 3; ++p) {
			double sum = 0.0;
			for (int t = 0; t < 3; ++t) sum += sinv[3 * p + t] * y[t];
			if (q + 1 < last) {
				const double *g = s + dkChainG, *xNext = s + dkChainScratch + dkChainX;
				for (int t = 0; t < 3; ++t) sum -= g[3 * p + t] * xNext[t];
			}
			x[p] = sum;
		}
	}
}

// The speed of a limit row, J v (the limit is row 2 of the 3×3 Jacobians ja and jb).
static double limitSpeed(const double* ja, const double* jb, const dkBodyState* a, const dkBodyState* b)
{
	double va[3] = {a->vx, a->vy, a->w}, vb[3] = {b->vx, b->vy, b->w}, sum = 0.0;
	for (int c = 0; c < 3; ++c) sum += ja[6 + c] * va[c] + jb[6 + c] * vb[c];
	return sum;
}

// Releases joint q's limit impulse (its row leaves the solve): v −= M⁻¹ Jᵀ λ on both sides, with the row's
// current Jacobian; the row's Jacobian is then zero until it is chosen again, so that it couples to nothing.
static void releaseLimit(dkJointChains* chains, int32_t q, const dkJointSoA* soa, dkBodyState* states)
{
	double* s = chains->scratch + (size_t)q * dkChainScratch;
	int32_t k = chains->soaIndex[q];
	double lambda = chains->impulse[3 * q + 2];
	s[dkChainActive] = 0.0;
	if (lambda != 0.0) {
		double x[3] = {0.0, 0.0, -lambda}, mA[3], mB[3];
		masses(soa, k, mA, mB);
		applyImpulse(states, soa->stateA[k], soa->zeroState, s + dkChainJA, x, mA[0], mA[2]);
		applyImpulse(states, soa->stateB[k], soa->zeroState, s + dkChainJB, x, mB[0], mB[2]);
		chains->impulse[3 * q + 2] = 0.0f;
	}
	for (int c = 6; c < 9; ++c) s[dkChainJA + c] = s[dkChainJB + c] = 0.0;
}

// Chooses the chain's active limits (1: the lower bound, −1: the upper one, 0: none): those already
// pushing or that the relative motion would carry past their bound within the substep; releases the rest.
// Each limit row's Jacobian and error are taken afresh (a row released by an earlier solve of the substep
// had its Jacobian cleared). Returns whether the chain has limit rows.
static bool chooseLimits(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
						 dkBodyState* states, double invH)
{
	bool limits = false;
	for (int32_t q = first; q < last; ++q) {
		if (!(chains->rows[q] & dkChainLimitRows)) continue;
		limits = true;
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		int32_t k = chains->soaIndex[q];
		const dkBodyState *a = &states[soa->stateA[k]], *b = &states[soa->stateB[k]];
		double ja[9], jb[9], error[3], side = 0.0;
		dkChain_Rows(chains->rows[q], soa, k, a, b, ja, jb, error, &side, NULL, NULL, NULL);
		for (int c = 6; c < 9; ++c) s[dkChainJA + c] = ja[c], s[dkChainJB + c] = jb[c];
		s[dkChainC + 2] = error[2];
		double lambda = chains->impulse[3 * q + 2];
		bool active = side * lambda > 0.0 || side * (error[2] + limitSpeed(ja, jb, a, b) / invH) < 0.0;
		if (!active || side * lambda < 0.0) releaseLimit(chains, q, soa, states);
		s[dkChainActive] = active ? side : 0.0;
		if (active) {
			for (int c = 6; c < 9; ++c) s[dkChainJA + c] = ja[c], s[dkChainJB + c] = jb[c];
		}
	}
	return limits;
}

// Drops the active limits whose accumulated impulse would pull toward their bound, releasing them; returns
// whether any was dropped. On the last round they are clamped instead (the increment only cancels λ).
static bool dropPulling(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
						dkBodyState* states, bool clamp)
{
	bool dropped = false;
	for (int32_t q = first; q < last; ++q) {
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		if (!(chains->rows[q] & dkChainLimitRows) || s[dkChainActive] == 0.0) continue;
		double total = chains->impulse[3 * q + 2] + s[dkChainX + 2];
		if (s[dkChainActive] * total >= 0.0) continue;
		if (clamp) {
			s[dkChainX + 2] = -(double)chains->impulse[3 * q + 2];
		} else {
			releaseLimit(chains, q, soa, states);
			dropped = true;
		}
	}
	return dropped;
}

// Activates the inactive limits that the velocities after a solve would carry past their bound within the
// substep (restoring their Jacobian rows); returns whether any was.
static bool activateCrossing(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
							 const dkBodyState* states, double invH)
{
	bool activated = false;
	for (int32_t q = first; q < last; ++q) {
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		if (!(chains->rows[q] & dkChainLimitRows) || s[dkChainActive] != 0.0) continue;
		int32_t k = chains->soaIndex[q];
		const dkBodyState *a = &states[soa->stateA[k]], *b = &states[soa->stateB[k]];
		double ja[9], jb[9], error[3], side = 0.0;
		dkChain_Rows(chains->rows[q], soa, k, a, b, ja, jb, error, &side, NULL, NULL, NULL);
		if (side * (error[2] + limitSpeed(ja, jb, a, b) / invH) >= 0.0) continue;
		for (int c = 6; c < 9; ++c) s[dkChainJA + c] = ja[c], s[dkChainJB + c] = jb[c];
		s[dkChainActive] = side;
		activated = true;
	}
	return activated;
}

static void solveChain(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
					   dkBodyState* states, double epsilon, double bias, bool leak, double invH)
{
	if (!leak) prepareChain(chains, first, last, soa, states);
	bool limits = chooseLimits(chains, first, last, soa, states, invH);
	// A braced chain (joint.h) corrects its error no faster than a contact pushes out of an overlap: the rigid contact
	// solved after it then holds, and the attachment that cannot be met stores impulses of that speed, not
	// of its whole error, which would throw the item through the boundary the moment the contact lets go.
	double cap = dkChain_Braced(chains, first, soa) ? DK_CONTACT_PUSH_MAX_VELOCITY : HUGE_VAL;
	// Each pass solves the chain with its active limits and applies the impulses; a pass that leaves a
	// limit about to cross its bound activates it for one more (a second pass with an unchanged set
	// changes nothing: its right-hand side is zero).
	for (int pass = 1;; ++pass) {
		for (int round = 1;; ++round) {
			eliminate(chains, first, last, soa, states, epsilon, bias, cap, leak, invH, false);
			if (!limits || !dropPulling(chains, first, last, soa, states, round == DK_CHAIN_LIMIT_ROUNDS)) break;
		}
		for (int32_t q = first; q < last; ++q) {
			double* s = chains->scratch + (size_t)q * dkChainScratch;
			int32_t k = chains->soaIndex[q];
			double mA[3], mB[3];
			masses(soa, k, mA, mB);
			for (int p = 0; p < 3; ++p) chains->impulse[3 * q + p] = (float)(chains->impulse[3 * q + p] + s[dkChainX + p]);
			applyImpulse(states, soa->stateA[k], soa->zeroState, s + dkChainJA, s + dkChainX, mA[0], mA[2]);
			applyImpulse(states, soa->stateB[k], soa->zeroState, s + dkChainJB, s + dkChainX, mB[0], mB[2]);
		}
		if (!limits || pass == DK_CHAIN_LIMIT_ROUNDS || !activateCrossing(chains, first, last, soa, states, invH)) break;
	}
}

void dkChains_Solve(dkJointChains* chains, const dkJointSoA* soa, dkBodyState* states, int32_t item,
					dkSoftness soft, dkSoftness projectedSoft, bool useBias, float invH)
{
	for (int32_t c = chains->itemStart[item]; c < chains->itemStart[item + 1]; ++c) {
		int32_t first = chains->start[c], last = chains->start[c + 1];
		dkSoftness s = dkChain_Projected(chains, first, last, soa) ? projectedSoft : soft;
		double epsilon = s.massScale > 0.0f ? (double)s.impulseScale / s.massScale : 0.0;
		solveChain(chains, first, last, soa, states, epsilon, useBias ? s.biasRate : 0.0, useBias, invH);
	}
}

// Moves one side of a joint by M⁻¹ Jᵀ x as a displacement (pt, rad): its movement since the step began in
// the body state (translation, rotation as an angle and as a unit complex number) and its position and
// angle columns; and its velocity by the same displacement over the substep (invH · M⁻¹ Jᵀ x).
static void displace(dkBodyState* states, float** col, int32_t index, int32_t zeroState, const double* j,
					 const double* x, double m, double i, double invH)
{
	if (index >= zeroState) return; // read-only states (constraint.h)
	dkBodyState* s = &states[index];
	double px = m * (j[0] * x[0] + j[3] * x[1] + j[6] * x[2]);
	double py = m * (j[1] * x[0] + j[4] * x[1] + j[7] * x[2]);
	double turn = i * (j[2] * x[0] + j[5] * x[1] + j[8] * x[2]);
	s->dx = (float)(s->dx + px);
	s->dy = (float)(s->dy + py);
	s->da = (float)(s->da + turn);
	double c = cos(turn), sn = sin(turn), dc = s->dc * c - s->ds * sn, ds = s->ds * c + s->dc * sn;
	double norm = 1.0 / sqrt(dc * dc + ds * ds);
	s->dc = (float)(dc * norm);
	s->ds = (float)(ds * norm);
	s->vx = (float)(s->vx + invH * px);
	s->vy = (float)(s->vy + invH * py);
	s->w = (float)(s->w + invH * turn);
	col[dkColumnPositionX][index] = (float)(col[dkColumnPositionX][index] + px);
	col[dkColumnPositionY][index] = (float)(col[dkColumnPositionY][index] + py);
	col[dkColumnAngle][index] = (float)(col[dkColumnAngle][index] + turn);
}

// Sets a side's rotation since the step began (dc, ds) to its angle since then (da).
static void alignRotation(dkBodyState* states, int32_t index, int32_t zeroState)
{
	if (index >= zeroState) return; // read-only states (constraint.h)
	dkSinCos(states[index].da, &states[index].ds, &states[index].dc);
}

// The position errors of a chain's rows at the current positions, in the scratch, keeping the Jacobians the
// substep's solve used (prepared at the substep's start by the warm start; the solve does not change them
// for chains without limits, the only ones projected).
static void currentErrors(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
						  const dkBodyState* states)
{
	double ja[9], jb[9];
	for (int32_t q = first; q < last; ++q) {
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		int32_t k = chains->soaIndex[q];
		dkChain_Rows(chains->rows[q], soa, k, &states[soa->stateA[k]], &states[soa->stateB[k]], ja, jb, s + dkChainC,
				  NULL, NULL, NULL, NULL);
	}
}

// The largest position error of a chain's rows (pt or rad), from the scratch.
static double chainError(const dkJointChains* chains, int32_t first, int32_t last)
{
	double worst = 0.0;
	for (int32_t q = first; q < last; ++q) {
		const double* s = chains->scratch + (size_t)q * dkChainScratch;
		for (int p = 0; p < 3; ++p) worst = fmax(worst, fabs(s[dkChainC + p]));
	}
	return worst;
}

// One Newton step of the chain's positions with the Jacobians and errors in the scratch; with invH > 0 the
// velocities take the displacement over the substep.
static void applyProjection(dkJointChains* chains, int32_t first, int32_t last, const dkJointSoA* soa,
							dkBodyState* states, float** col, double epsilon, float invH)
{
	eliminate(chains, first, last, soa, states, epsilon, 1.0, HUGE_VAL, false, 1.0, true);
	for (int32_t q = first; q < last; ++q) {
		double* s = chains->scratch + (size_t)q * dkChainScratch;
		int32_t k = chains->soaIndex[q];
		double mA[3], mB[3];
		masses(soa, k, mA, mB);
		displace(states, col, soa->stateA[k], soa->zeroState, s + dkChainJA, s + dkChainX, mA[0], mA[2], invH);
		displace(states, col, soa->stateB[k], soa->zeroState, s + dkChainJB, s + dkChainX, mB[0], mB[2], invH);
	}
}

// The projection is RATTLE's position step (Andersen 1983; Hairer, Lubich & Wanner, Geometric Numerical
// Integration, VII.1.4): the correction acts along the Jacobians at the substep's start, J(q_n), the
// directions of the solve's impulses, rather than those at the moved positions, and it changes the
// velocities as well as the positions, so the velocity is the displacement over the substep,
// (q_{n+1} − q_n) / h; the relax pass then removes its part along J(q_{n+1}). That is a symplectic step:
// the energy of a rigid pendulum stays within its O(h²) oscillation. A correction of the positions alone,
// along J(q_{n+1}), left the velocity tangent to the old position, and the relax pass then turned it onto
// the new tangent, losing a fraction (hω)² of the kinetic energy per substep: a 200 pt rod released
// horizontally kept 88 % of its energy after 10 s, chains of four links 5–98 % (Box2D, which corrects with
// the bias velocity only, keeps it within ±0.5 %).
void dkChains_Project(dkJointChains* chains, const dkJointSoA* soa, dkBodyState* states, int32_t item, float** col,
					  dkSoftness soft, float invH)
{
	double epsilon = soft.massScale > 0.0f ? (double)soft.impulseScale / soft.massScale : 0.0;
	for (int32_t c = chains->itemStart[item]; c < chains->itemStart[item + 1]; ++c) {
		int32_t first = chains->start[c], last = chains->start[c + 1];
		// Chains with limits are not projected (their limits keep their speculative rule), nor braced chains:
		// the projection would move their item through what it leans on.
		if (!dkChain_Projected(chains, first, last, soa)) continue;
		// Each item's rotation since the step began, as the unit complex number the rows read, is turned to
		// exactly its angle (da, which the angle column follows): the substep's update turns it by atan(hω)
		// instead of hω, and the difference, (hω)³/3 a substep, left pins of fast links 0.1–0.2 pt open
		// when measured from the angle column. Only chains' items: contacts keep the update as it is.
		for (int32_t q = first; q < last; ++q) {
			int32_t k = chains->soaIndex[q];
			alignRotation(states, soa->stateA[k], soa->zeroState);
			alignRotation(states, soa->stateB[k], soa->zeroState);
		}
		// RATTLE steps until the errors are within DK_CHAIN_RATTLE_TOLERANCE or stop halving (a long chain's
		// soft solve leaves some), while they are small and do not grow; otherwise (a whip, a dragged or taut
		// chain) the Newton step at the moved positions, positions only, which loses energy. The steps keep
		// J(q_n), so they converge only linearly: a fixed small number of them leaves whipping chains richer,
		// and a stall is no reason to give up the velocity update (JointEnergyTests).
		double before = HUGE_VAL;
		bool rattle = true;
		for (int step = 0; step < DK_CHAIN_RATTLE_STEPS; ++step) {
			currentErrors(chains, first, last, soa, states);
			double worst = chainError(chains, first, last);
			if (worst > DK_CHAIN_RATTLE_ERROR || worst > before) {
				rattle = false;
				break;
			}
			if (worst <= DK_CHAIN_RATTLE_TOLERANCE || worst > 0.5 * before) break; // converged, or stalled
			before = worst;
			applyProjection(chains, first, last, soa, states, col, epsilon, invH);
		}
		if (!rattle) {
			prepareChain(chains, first, last, soa, states);
			applyProjection(chains, first, last, soa, states, col, epsilon, 0.0f);
		}
	}
}
