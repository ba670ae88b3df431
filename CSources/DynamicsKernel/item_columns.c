// SPDX-License-Identifier: Apache-2.0
// Entity: the host's reads and writes of item columns (item_store.c keeps the rows). A write is validated for
// every item before any is written, names the field and value it rejects, and wakes the items whose values
// it changes; velocities added and impulses applied must keep the sums in range too.
#include "core.h"
#include "solver_set.h"
#include "trig.h"

#include <math.h>

const float* dkWorld_Column(const dkWorld* world, dkColumn column)
{
	return (column >= 0 && column < dkColumnPublicCount) ? world->col[column] : NULL;
}

// The range a writable column accepts; read-only columns answer false.
static bool columnAccepts(dkColumn column, float v, bool* writable)
{
	*writable = column >= 0 && column < dkColumnMass;
	if (!*writable || !isfinite(v)) return false;
	switch (column) {
	case dkColumnPositionX:
	case dkColumnPositionY:
	case dkColumnSnapX:
	case dkColumnSnapY: return fabsf(v) <= DK_MAX_COORDINATE;
	case dkColumnVelocityX:
	case dkColumnVelocityY: return fabsf(v) <= DK_MAX_SPEED;
	case dkColumnAngularVelocity: return fabsf(v) <= DK_MAX_TURN_RATE;
	case dkColumnGravityX:
	case dkColumnGravityY: return fabsf(v) <= DK_MAX_GRAVITY;
	case dkColumnLinearDamping:
	case dkColumnAngularDamping:
	case dkColumnSnapOmega:
	case dkColumnSnapZeta:
	case dkColumnFriction: return v >= 0;
	case dkColumnElasticity: return v >= 0 && v <= 1;
	default: return true;
	}
}

bool dkColumnAccepts(dkColumn column, float value)
{
	bool writable;
	return columnAccepts(column, value, &writable);
}

static const char* columnName(dkColumn column)
{
	static const char* const names[dkColumnPublicCount] = {
		"position.x", "position.y", "angle", "velocity.x", "velocity.y", "angularVelocity", "gravity.x",
		"gravity.y", "force.x", "force.y", "torqueCross", "torqueDot", "resistance", "angularResistance",
		"snapPoint.x", "snapPoint.y", "snapOmega", "damping", "elasticity", "friction", "charge",
		"fieldForce.x", "fieldForce.y", "mass",
		"inertia", "inverseMass", "inverseInertia", "width", "height", "density", "sleepTime"};
	return (column >= 0 && column < dkColumnPublicCount) ? names[column] : "column";
}

static void writeRow(dkWorld* world, dkColumn column, int32_t row, float v)
{
	uint32_t f = world->flags[row];
	bool anchored = (f & dkItemAnchored) != 0, noTurn = (f & (dkItemAnchored | dkItemFixedRotation)) != 0;
	if ((column == dkColumnVelocityX || column == dkColumnVelocityY) && anchored) v = 0.0f;
	if (column == dkColumnAngularVelocity && noTurn) v = 0.0f;
	if ((column == dkColumnLinearDamping || column == dkColumnAngularDamping) && (f & dkItemKinematic)) v = 0.0f;
	bool changed = world->col[column][row] != v;
	world->col[column][row] = v;
	if (column == dkColumnSnapOmega && v > 0.0f) world->hasSnaps = true;
	if (changed) dkSets_WakeRow(world, row);
}

static dkResult setFloats(dkWorld* world, dkColumn column, const dkItemId* ids, const float* values, float fill,
						  int32_t count, dkError* error)
{
	bool writable;
	for (int32_t i = 0; i < count; ++i) {
		float v = values ? values[i] : fill;
		if (!columnAccepts(column, v, &writable)) {
			dkResult code = writable ? dkResultInvalidValue : dkResultReadOnly;
			dkSetError(error, code, i, columnName(column), v);
			return code;
		}
	}
	int32_t* rows;
	dkResult r = dkStore_WithRows(world, ids, count, &rows, error);
	if (r != dkResultOK) return r;
	for (int32_t i = 0; i < count; ++i) writeRow(world, column, dkStore_Resolve(world, ids[i]), values ? values[i] : fill);
	world->revision++;
	dkFree(world, rows);
	return dkResultOK;
}

dkResult dkWorld_SetFloats(dkWorld* world, dkColumn column, const dkItemId* ids, const float* values, int32_t count,
						   dkError* error)
{
	return setFloats(world, column, ids, values, 0.0f, count, error);
}

dkResult dkWorld_FillFloats(dkWorld* world, dkColumn column, const dkItemId* ids, float value, int32_t count,
							dkError* error)
{
	return setFloats(world, column, ids, NULL, value, count, error);
}

static dkResult checkFinite(const float* v, int32_t count, const char* field, dkError* error)
{
	for (int32_t i = 0; v && i < count; ++i) {
		if (!isfinite(v[i])) {
			dkSetError(error, dkResultInvalidValue, i, field, v[i]);
			return dkResultInvalidValue;
		}
	}
	return dkResultOK;
}

// v + dv must be finite and within ±limit; else an error naming the field and the sum.
static dkResult checkSum(float v, float dv, float limit, int32_t i, const char* field, dkError* error)
{
	float sum = v + dv;
	if (isfinite(sum) && fabsf(sum) <= limit) return dkResultOK;
	dkSetError(error, dkResultInvalidValue, i, field, sum);
	return dkResultInvalidValue;
}

dkResult dkWorld_AddVelocities(dkWorld* world, const dkItemId* ids, const float* dvx, const float* dvy,
							   const float* dw, int32_t count, dkError* error)
{
	dkResult r;
	if ((r = checkFinite(dvx, count, "velocity.x", error)) || (r = checkFinite(dvy, count, "velocity.y", error)) ||
		(r = checkFinite(dw, count, "angularVelocity", error)))
		return r;
	int32_t* rows;
	if ((r = dkStore_WithRows(world, ids, count, &rows, error)) != dkResultOK) return r;
	dkFree(world, rows);
	float** c = world->col;
	// The sums must stay in range too (3·10³⁸ added twice overflows): checked before anything is written.
	for (int32_t i = 0; i < count; ++i) {
		int32_t row = dkStore_Resolve(world, ids[i]);
		if ((r = checkSum(c[dkColumnVelocityX][row], dvx ? dvx[i] : 0.0f, DK_MAX_SPEED, i, "velocity.x", error)) ||
			(r = checkSum(c[dkColumnVelocityY][row], dvy ? dvy[i] : 0.0f, DK_MAX_SPEED, i, "velocity.y", error)) ||
			(r = checkSum(c[dkColumnAngularVelocity][row], dw ? dw[i] : 0.0f, DK_MAX_TURN_RATE, i, "angularVelocity", error)))
			return r;
	}
	for (int32_t i = 0; i < count; ++i) {
		int32_t row = dkStore_Resolve(world, ids[i]);
		if (dvx) writeRow(world, dkColumnVelocityX, row, c[dkColumnVelocityX][row] + dvx[i]);
		row = dkStore_Resolve(world, ids[i]);
		if (dvy) writeRow(world, dkColumnVelocityY, row, c[dkColumnVelocityY][row] + dvy[i]);
		row = dkStore_Resolve(world, ids[i]);
		if (dw) writeRow(world, dkColumnAngularVelocity, row, c[dkColumnAngularVelocity][row] + dw[i]);
		dkSets_WakeRow(world, dkStore_Resolve(world, ids[i]));
	}
	return dkResultOK;
}

dkResult dkWorld_ApplyImpulses(dkWorld* world, const dkItemId* ids, const float* px, const float* py,
							   const float* offsetX, const float* offsetY, int32_t count, dkError* error)
{
	dkResult r;
	if (count > 0 && (!px || !py)) {
		dkSetError(error, dkResultInvalidValue, -1, px ? "impulse.y" : "impulse.x", count);
		return dkResultInvalidValue;
	}
	if ((r = checkFinite(px, count, "impulse.x", error)) || (r = checkFinite(py, count, "impulse.y", error)) ||
		(r = checkFinite(offsetX, count, "offset.x", error)) || (r = checkFinite(offsetY, count, "offset.y", error)))
		return r;
	int32_t* rows;
	if ((r = dkStore_WithRows(world, ids, count, &rows, error)) != dkResultOK) return r;
	dkFree(world, rows);
	float** c = world->col;
	// Each item's change of velocity (Δv = 100·P/m, Δω = 100·(r × P)/I); the results must stay in range,
	// checked for every item before any is written.
	for (int pass = 0; pass < 2; ++pass) {
		for (int32_t i = 0; i < count; ++i) {
			int32_t row = dkStore_Resolve(world, ids[i]);
			float im = c[dkColumnInverseMass][row], ii = c[dkColumnInverseInertia][row];
			float co, si;
			dkSinCos(c[dkColumnAngle][row], &si, &co);
			float ox = offsetX ? offsetX[i] : 0.0f, oy = offsetY ? offsetY[i] : 0.0f;
			float rx = co * ox - si * oy, ry = si * ox + co * oy; // offset rotated into the world
			float dvx = 100.0f * im * px[i], dvy = 100.0f * im * py[i], dw = 100.0f * ii * (rx * py[i] - ry * px[i]);
			if (pass == 0) {
				if ((r = checkSum(c[dkColumnVelocityX][row], dvx, DK_MAX_SPEED, i, "velocity.x", error)) ||
					(r = checkSum(c[dkColumnVelocityY][row], dvy, DK_MAX_SPEED, i, "velocity.y", error)) ||
					(r = checkSum(c[dkColumnAngularVelocity][row], dw, DK_MAX_TURN_RATE, i, "angularVelocity", error)))
					return r;
				continue;
			}
			dkSets_WakeRow(world, row);
			row = dkStore_Resolve(world, ids[i]);
			c[dkColumnVelocityX][row] += dvx;
			c[dkColumnVelocityY][row] += dvy;
			c[dkColumnAngularVelocity][row] += dw;
		}
	}
	return dkResultOK;
}
