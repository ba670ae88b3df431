// SPDX-License-Identifier: Apache-2.0
// A contact's frame within the step (stage_contact_wide.h), at every SIMD level: a contact with friction of
// at least DK_FRAME_STILL_FRICTION whose items hardly moved since the step began keeps the step's frame, and
// one without friction, or whose items moved or turned past the bounds, turns it with them. The oracle is the
// same row with dkFrameKeepNormal set, which keeps the whole frame whatever the items did.
#include "check.h"
#include "collision.h"
#include "contact_soa.h"
#include "kernels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { stateA, stateB, zeroState, states };

// One block of DK_CONSTRAINT_PAD constraints: constraint 0 between two boxes, a face of A under two corners of
// B (both points go with B), the rest inert padding on the zero state.
typedef struct Frame {
	dkContactSoA soa;
	int32_t a[DK_CONSTRAINT_PAD], b[DK_CONSTRAINT_PAD], contact[DK_CONSTRAINT_PAD];
	float block[dkSoaColumns * DK_CONSTRAINT_PAD];
	dkBodyState s[states];
} Frame;

// The row, with friction `friction`, extra frame bits `bits`, and A moved by (move, 2·move) and turned by
// `turn` (rad) since the step began, B turned back by half that.
static void makeFrame(Frame* f, float friction, uint32_t bits, float move, float turn)
{
	memset(f, 0, sizeof *f);
	f->soa = (dkContactSoA){.count = DK_CONSTRAINT_PAD, .zeroState = zeroState, .stateA = f->a, .stateB = f->b,
							.contact = f->contact, .block = f->block};
	for (int32_t k = 0; k < DK_CONSTRAINT_PAD; ++k) {
		f->a[k] = f->b[k] = zeroState;
		f->contact[k] = -1;
	}
	f->a[0] = stateA;
	f->b[0] = stateB;
	f->contact[0] = 0;
	float* r = dkSoaRow(&f->soa, 0);
#define AT(field) r[(field) * DK_CONSTRAINT_PAD]
	AT(dkSoaNx) = 0.0f;
	AT(dkSoaNy) = 1.0f;
	AT(dkSoaFriction) = friction;
	AT(dkSoaMassA) = AT(dkSoaMassB) = 0.5f;
	AT(dkSoaInertiaA) = AT(dkSoaInertiaB) = 0.004f;
	AT(dkSoaFrame) = dkSoaBits(dkFramePoint0OnB | dkFramePoint1OnB | bits);
	for (int32_t p = 0; p < 2; ++p) {
		int32_t o = p * dkSoaPoint;
		float x = p == 0 ? -10.0f : 10.0f;
		AT(dkSoaRAx + o) = x;
		AT(dkSoaRAy + o) = 10.0f;
		AT(dkSoaRBx + o) = x;
		AT(dkSoaRBy + o) = -10.0f;
		AT(dkSoaBase + o) = -0.3f;
		AT(dkSoaNormalMass + o) = 0.4f;
		AT(dkSoaTangentMass + o) = 0.4f;
		AT(dkSoaNormalImpulse + o) = 0.02f;
		AT(dkSoaTangentImpulse + o) = 0.001f;
	}
#undef AT
	f->s[stateA] = (dkBodyState){.vx = 3.0f, .vy = -20.0f, .w = 0.03f, .dx = move, .dy = 2.0f * move,
								 .dc = cosf(turn), .ds = sinf(turn)};
	f->s[stateB] = (dkBodyState){.vx = -1.0f, .vy = 15.0f, .w = -0.02f, .dc = cosf(-0.5f * turn), .ds = sinf(-0.5f * turn)};
	f->s[zeroState].dc = 1.0f;
}

// Warm start, solve and relax the row on `k`'s kernels; the two states and the row's impulses, as bits.
static void solve(const dkKernels* k, Frame* f, uint32_t out[10])
{
	dkSoftness soft = {.biasRate = 40.0f, .massScale = 0.8f, .impulseScale = 0.15f};
	dkSoftness stiff = {.biasRate = 60.0f, .massScale = 0.9f, .impulseScale = 0.05f};
	k->contactWarmStart(&f->soa, 0, DK_CONSTRAINT_PAD, f->s, false); // the masses above
	k->contactSolve(&f->soa, 0, DK_CONSTRAINT_PAD, f->s, 240.0f, soft, stiff, true);
	k->contactSolve(&f->soa, 0, DK_CONSTRAINT_PAD, f->s, 240.0f, soft, stiff, false);
	const float* r = dkSoaRow(&f->soa, 0);
	float v[10] = {f->s[stateA].vx, f->s[stateA].vy, f->s[stateA].w, f->s[stateB].vx, f->s[stateB].vy, f->s[stateB].w,
				   r[dkSoaNormalImpulse * DK_CONSTRAINT_PAD], r[dkSoaTangentImpulse * DK_CONSTRAINT_PAD],
				   r[(dkSoaNormalImpulse + dkSoaPoint) * DK_CONSTRAINT_PAD],
				   r[(dkSoaTangentImpulse + dkSoaPoint) * DK_CONSTRAINT_PAD]};
	memcpy(out, v, sizeof v);
}

// Whether the row solves exactly as it does with the whole frame kept.
static bool keepsFrame(const dkKernels* k, float friction, float move, float turn)
{
	Frame f;
	uint32_t got[10], kept[10];
	makeFrame(&f, friction, 0, move, turn);
	solve(k, &f, got);
	makeFrame(&f, friction, dkFrameKeepNormal, move, turn);
	solve(k, &f, kept);
	return memcmp(got, kept, sizeof got) == 0;
}

void contactFrames(Report* r, dkSimdLevel best)
{
	const dkKernels* levels[2] = {dkScalarKernels(), dkKernelsFor(best)};
	const float still = 0.5f * DK_FRAME_STILL_MOVE / 3.0f, turn = 0.5f * DK_FRAME_STILL_TURN; // |Δx| + |Δy| = 3 move
	for (int32_t l = 0; l < 2; ++l) {
		const dkKernels* k = levels[l];
		char what[160];
		snprintf(what, sizeof what, "a contact with friction whose items hardly moved keeps the step's frame (width %d)",
				 k->width);
		check(r, keepsFrame(k, 0.5f, still, turn), what, "");
		snprintf(what, sizeof what, "at the least friction that keeps it, too (width %d)", k->width);
		check(r, keepsFrame(k, DK_FRAME_STILL_FRICTION, still, turn), what, "");
		snprintf(what, sizeof what, "a frictionless one turns it (width %d)", k->width);
		check(r, !keepsFrame(k, 0.0f, still, turn), what, "");
		snprintf(what, sizeof what, "one with less friction than that turns it (width %d)", k->width);
		check(r, !keepsFrame(k, 0.5f * DK_FRAME_STILL_FRICTION, still, turn), what, "");
		snprintf(what, sizeof what, "one whose items moved apart past the bound turns it (width %d)", k->width);
		check(r, !keepsFrame(k, 0.5f, 2.0f * DK_FRAME_STILL_MOVE / 3.0f, turn), what, "");
		snprintf(what, sizeof what, "one whose item turned past the bound turns it (width %d)", k->width);
		check(r, !keepsFrame(k, 0.5f, still, 3.0f * DK_FRAME_STILL_TURN), what, "");
	}
}
