// SPDX-License-Identifier: Apache-2.0
// Entity storage: joints. Slots with generations (the id is slot + 1 and the generation); anchors are
// kept in the items' frames (a world point for a null item A). A joint between two moving items links
// their islands (island.c), so linked items rest and wake together.
#include "island.h"
#include "solver_set.h"
#include "joint.h"
#include "trig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dkJointDef dkDefaultJointDef(void)
{
	dkJointDef def;
	memset(&def, 0, sizeof def);
	def.kind = dkJointDistance;
	def.rigid = true;
	def.dampingRatio = 1.0f;
	def.axisX = 1.0f;
	def.maxLength = DK_JOINT_NO_LIMIT;
	def.lower = -DK_JOINT_NO_LIMIT;
	def.upper = DK_JOINT_NO_LIMIT;
	return def;
}

void dkJoints_Destroy(dkWorld* world)
{
	dkJointArray_Destroy(world, &world->joints);
	dkIdPool_Destroy(world, &world->jointIds);
	dkJointPairs_Destroy(world);
}

static dkResult invalid(dkError* error, const char* field, int32_t index, double value)
{
	dkSetError(error, dkResultInvalidValue, index, field, value);
	return dkResultInvalidValue;
}

static dkJoint* resolve(const dkWorld* world, dkJointId id)
{
	if (id.index1 == 0 || id.index1 > (uint32_t)world->jointIds.next) return NULL;
	dkJoint* j = &world->joints.data[id.index1 - 1];
	return j->alive && j->generation == id.generation ? j : NULL;
}

static bool finiteIn(float v, float limit) { return isfinite(v) && fabsf(v) <= limit; }

// The parameters every kind shares, checked for definition `i`.
static dkResult checkParameters(const dkJointDef* d, int32_t i, dkError* error)
{
	if (!finiteIn(d->length, 1e7f) || d->length < 0) return invalid(error, "length", i, d->length);
	if (!(d->minLength >= 0) || !(d->minLength <= DK_JOINT_NO_LIMIT)) return invalid(error, "minLength", i, d->minLength);
	if (!(d->maxLength >= d->minLength) || !(d->maxLength <= DK_JOINT_NO_LIMIT))
		return invalid(error, "maxLength", i, d->maxLength);
	if (!finiteIn(d->hertz, 1e6f) || d->hertz < 0) return invalid(error, "frequency", i, d->hertz);
	if (!finiteIn(d->dampingRatio, 1e6f) || d->dampingRatio < 0) return invalid(error, "damping", i, d->dampingRatio);
	if (!(d->lower <= d->upper) || !(fabsf(d->lower) <= DK_JOINT_NO_LIMIT)) return invalid(error, "lower", i, d->lower);
	if (!(fabsf(d->upper) <= DK_JOINT_NO_LIMIT)) return invalid(error, "upper", i, d->upper);
	if (!finiteIn(d->maxFrictionTorque, 1e30f) || d->maxFrictionTorque < 0)
		return invalid(error, "frictionTorque", i, d->maxFrictionTorque);
	if (!finiteIn(d->motorSpeed, 1e7f)) return invalid(error, "motorSpeed", i, d->motorSpeed);
	if (!(d->maxMotorTorque >= 0) || (isfinite(d->maxMotorTorque) && d->maxMotorTorque > 1e30f))
		return invalid(error, "maximumMotorTorque", i, d->maxMotorTorque);
	if (!(d->maxMotorForce >= 0) || (isfinite(d->maxMotorForce) && d->maxMotorForce > 1e30f))
		return invalid(error, "maximumMotorForce", i, d->maxMotorForce);
	if (!finiteIn(d->angularHertz, 1e6f) || d->angularHertz < 0) return invalid(error, "angularFrequency", i, d->angularHertz);
	if (!finiteIn(d->angularDampingRatio, 1e6f) || d->angularDampingRatio < 0)
		return invalid(error, "angularDamping", i, d->angularDampingRatio);
	if (!finiteIn(d->restAngle, 1e7f)) return invalid(error, "restAngle", i, d->restAngle);
	return dkResultOK;
}

static dkResult check(const dkWorld* world, const dkJointDef* d, int32_t i, dkError* error)
{
	if (d->kind < dkJointDistance || d->kind > dkJointPrismatic) return invalid(error, "kind", i, d->kind);
	int32_t rowB = dkStore_Resolve(world, d->itemB);
	if (rowB < 0) {
		dkSetError(error, dkResultStaleId, i, "itemB", d->itemB.index1);
		return dkResultStaleId;
	}
	if (d->itemA.index1 != 0 && dkStore_Resolve(world, d->itemA) < 0) {
		dkSetError(error, dkResultStaleId, i, "itemA", d->itemA.index1);
		return dkResultStaleId;
	}
	if (d->itemA.index1 == d->itemB.index1) return invalid(error, "itemA (the same item as itemB)", i, d->itemA.index1);
	const float* anchors[] = {&d->anchorAx, &d->anchorAy, &d->anchorBx, &d->anchorBy};
	const char* names[] = {"anchorA.x", "anchorA.y", "anchorB.x", "anchorB.y"};
	for (int k = 0; k < 4; ++k)
		if (!finiteIn(*anchors[k], 1e7f)) return invalid(error, names[k], i, *anchors[k]);
	if (d->kind == dkJointPrismatic) {
		if (!finiteIn(d->axisX, 1e7f)) return invalid(error, "axis.x", i, d->axisX);
		if (!finiteIn(d->axisY, 1e7f)) return invalid(error, "axis.y", i, d->axisY);
		if (!(d->axisX * d->axisX + d->axisY * d->axisY > 1e-12f)) return invalid(error, "axis (zero length)", i, 0);
	}
	return checkParameters(d, i, error);
}

// The pose of an item slot (x, y, angle), or the world origin for -1.
static void poseOf(const dkWorld* world, int32_t body, float* x, float* y, float* angle)
{
	*x = *y = *angle = 0;
	if (body < 0) return;
	int32_t row = world->slots.data[body].dense;
	*x = world->col[dkColumnPositionX][row];
	*y = world->col[dkColumnPositionY][row];
	*angle = world->col[dkColumnAngle][row];
}

// An anchor in world coordinates: the item's centre plus the rotated offset, or the point itself.
static void worldAnchor(const dkWorld* world, int32_t body, float lx, float ly, float* wx, float* wy)
{
	float x, y, a;
	poseOf(world, body, &x, &y, &a);
	if (body < 0) {
		*wx = lx;
		*wy = ly;
		return;
	}
	float c, s;
	dkSinCos(a, &s, &c);
	*wx = x + c * lx - s * ly;
	*wy = y + s * lx + c * ly;
}

static bool growJoints(dkWorld* world, int32_t extra)
{
	int32_t needed = world->jointIds.next + extra;
	return dkJointArray_Reserve(world, &world->joints, needed) &&
		   dkIdPool_Reserve(world, &world->jointIds, world->joints.capacity) &&
		   dkSets_ReserveJoints(world, world->joints.capacity);
}

static void wakeSlot(dkWorld* world, int32_t body)
{
	if (body >= 0) dkSets_WakeRow(world, world->slots.data[body].dense);
}

// Links the islands of a joint's items when both move, waking them first: a resting island joins another only
// awake, so that it stays one solver set.
static void link(dkWorld* world, const dkJoint* j)
{
	if (j->bodyA < 0) return;
	if (dkIslands_Moves(world, world->slots.data[j->bodyA].dense) && dkIslands_Moves(world, world->slots.data[j->bodyB].dense)) {
		wakeSlot(world, j->bodyA);
		wakeSlot(world, j->bodyB);
		dkIslands_Link(world, j->bodyA, j->bodyB);
	}
}

void dkJoints_LinkItem(dkWorld* world, int32_t slot)
{
	for (int32_t k = 0; k < world->jointIds.next; ++k) {
		const dkJoint* j = &world->joints.data[k];
		if (j->alive && (j->bodyA == slot || j->bodyB == slot)) link(world, j);
	}
}

dkResult dkWorld_CreateJoints(dkWorld* world, const dkJointDef* defs, int32_t count, dkJointId* outIds,
							  dkError* error)
{
	if (count < 0) return invalid(error, "count", -1, count);
	for (int32_t i = 0; i < count; ++i) {
		dkResult r = check(world, &defs[i], i, error);
		if (r != dkResultOK) return r;
	}
	int32_t separate = 0; // joints that keep their two items from colliding
	for (int32_t i = 0; i < count; ++i) separate += !defs[i].collideConnected && defs[i].itemA.index1 != 0;
	if (!growJoints(world, count) || (separate > 0 && !dkJointPairs_Reserve(world, separate))) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < count; ++i) {
		const dkJointDef* d = &defs[i];
		// A new slot's generation is 1; a freed slot's advanced when it was freed.
		bool fresh = dkIdPool_Reusable(&world->jointIds) == 0;
		int32_t slot = dkIdPool_Alloc(&world->jointIds);
		world->joints.count = world->jointIds.next;
		uint32_t generation = fresh ? 1 : world->joints.data[slot].generation;
		dkJoint* j = &world->joints.data[slot];
		memset(j, 0, sizeof *j);
		j->def = dkJointParamsOf(d);
		j->generation = generation;
		j->alive = true;
		j->bodyA = d->itemA.index1 != 0 ? (int32_t)d->itemA.index1 - 1 : -1;
		j->bodyB = (int32_t)d->itemB.index1 - 1;
		float xa, ya, aa, xb, yb, ab;
		poseOf(world, j->bodyA, &xa, &ya, &aa);
		poseOf(world, j->bodyB, &xb, &yb, &ab);
		j->referenceAngle = ab - aa;
		if (d->kind == dkJointPrismatic) {
			float len = sqrtf(d->axisX * d->axisX + d->axisY * d->axisY);
			j->axisX = d->axisX / len;
			j->axisY = d->axisY / len;
			float pax, pay, pbx, pby;
			worldAnchor(world, j->bodyA, d->anchorAx, d->anchorAy, &pax, &pay);
			worldAnchor(world, j->bodyB, d->anchorBx, d->anchorBy, &pbx, &pby);
			float c = 1.0f, s = 0.0f;
			if (j->bodyA >= 0) dkSinCos(aa, &s, &c);
			float ux = c * j->axisX - s * j->axisY, uy = s * j->axisX + c * j->axisY;
			j->referenceTranslation = (pbx - pax) * ux + (pby - pay) * uy;
		}
		wakeSlot(world, j->bodyA);
		wakeSlot(world, j->bodyB);
		link(world, j);
		j->colour = dkGraph_Add(world, j->bodyA, j->bodyB, &j->colourSides);
		dkSets_AddJoint(world, slot); // (takes a place in its colour)
		if (!d->collideConnected && j->bodyA >= 0) dkJointPairs_Add(world, j->bodyA, j->bodyB);
		world->liveJoints++;
		world->extraJoints += dkJointHasExtraRows(&j->def);
		if (outIds) outIds[i] = (dkJointId){(uint32_t)slot + 1, j->generation};
	}
	return dkResultOK;
}

static void destroy(dkWorld* world, int32_t slot)
{
	dkJoint* j = &world->joints.data[slot];
	dkSets_RemoveJoint(world, slot);
	dkIslands_Unlinked(world, j->bodyA, j->bodyB);
	dkGraph_Remove(world, j->colour, j->colourSides, j->bodyA, j->bodyB);
	if (!j->def.collideConnected && j->bodyA >= 0) dkJointPairs_Remove(world, j->bodyA, j->bodyB);
	j->alive = false;
	j->generation++;
	dkIdPool_Free(&world->jointIds, slot);
	world->liveJoints--;
	world->extraJoints -= dkJointHasExtraRows(&j->def);
}

dkResult dkWorld_DestroyJoints(dkWorld* world, const dkJointId* ids, int32_t count, dkError* error)
{
	if (count < 0) return invalid(error, "count", -1, count);
	for (int32_t i = 0; i < count; ++i) {
		if (!resolve(world, ids[i])) {
			dkSetError(error, dkResultStaleId, i, "joint", ids[i].index1);
			return dkResultStaleId;
		}
		for (int32_t k = 0; k < i; ++k) {
			if (ids[k].index1 == ids[i].index1) {
				dkSetError(error, dkResultDuplicateId, i, "joint", ids[i].index1);
				return dkResultDuplicateId;
			}
		}
	}
	for (int32_t i = 0; i < count; ++i) {
		dkJoint* j = resolve(world, ids[i]);
		wakeSlot(world, j->bodyA);
		wakeSlot(world, j->bodyB);
		destroy(world, (int32_t)ids[i].index1 - 1);
	}
	return dkResultOK;
}

dkResult dkWorld_SetJointsCollide(dkWorld* world, const dkJointId* ids, int32_t count, bool collide, dkError* error)
{
	if (count < 0) return invalid(error, "count", -1, count);
	int32_t separate = 0;
	for (int32_t i = 0; i < count; ++i) {
		const dkJoint* j = resolve(world, ids[i]);
		if (!j) {
			dkSetError(error, dkResultStaleId, i, "joint", ids[i].index1);
			return dkResultStaleId;
		}
		separate += !collide && j->def.collideConnected && j->bodyA >= 0;
	}
	if (separate > 0 && !dkJointPairs_Reserve(world, separate)) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < count; ++i) {
		dkJoint* j = resolve(world, ids[i]);
		if (j->def.collideConnected == collide || j->bodyA < 0) {
			j->def.collideConnected = collide;
			continue;
		}
		if (collide) dkJointPairs_Remove(world, j->bodyA, j->bodyB);
		else dkJointPairs_Add(world, j->bodyA, j->bodyB);
		j->def.collideConnected = collide;
		wakeSlot(world, j->bodyA);
		wakeSlot(world, j->bodyB);
	}
	return dkResultOK;
}

bool dkWorld_JointIsValid(const dkWorld* world, dkJointId id) { return resolve(world, id) != NULL; }
int32_t dkWorld_JointCount(const dkWorld* world) { return world->liveJoints; }

void dkJoints_RemoveItems(dkWorld* world, const uint8_t* removed)
{
	for (int32_t s = 0; s < world->jointIds.next; ++s) {
		dkJoint* j = &world->joints.data[s];
		if (!j->alive) continue;
		bool gone = (j->bodyA >= 0 && removed[j->bodyA]) || removed[j->bodyB];
		if (!gone) continue;
		if (j->bodyA >= 0 && !removed[j->bodyA]) wakeSlot(world, j->bodyA);
		if (!removed[j->bodyB]) wakeSlot(world, j->bodyB);
		destroy(world, s);
	}
}

dkResult dkWorld_SetJointAnchor(dkWorld* world, dkJointId id, float x, float y, dkError* error)
{
	dkJoint* j = resolve(world, id);
	if (!j) {
		dkSetError(error, dkResultStaleId, -1, "joint", id.index1);
		return dkResultStaleId;
	}
	if (!finiteIn(x, 1e7f)) return invalid(error, "anchorPoint.x", -1, x);
	if (!finiteIn(y, 1e7f)) return invalid(error, "anchorPoint.y", -1, y);
	if (j->bodyA >= 0) return invalid(error, "anchorPoint (the attachment links two items)", -1, 0);
	if (j->def.anchorAx != x || j->def.anchorAy != y) {
		wakeSlot(world, j->bodyB);
		world->anchorMoved = true;
	}
	j->def.anchorAx = x;
	j->def.anchorAy = y;
	return dkResultOK;
}

dkResult dkWorld_SetJointParameters(dkWorld* world, dkJointId id, const dkJointDef* def, dkError* error)
{
	dkJoint* j = resolve(world, id);
	if (!j) {
		dkSetError(error, dkResultStaleId, -1, "joint", id.index1);
		return dkResultStaleId;
	}
	dkResult r = checkParameters(def, -1, error);
	if (r != dkResultOK) return r;
	dkJointParams* d = &j->def;
	// The kind stays what it was made as (a rod stays a rod, not a rope): a different one is an error.
	if (def->kind != d->kind || (def->kind == dkJointDistance && def->rigid != d->rigid)) {
		dkSetError(error, dkResultInvalidValue, -1, "kind", def->kind);
		return dkResultInvalidValue;
	}
	world->extraJoints -= dkJointHasExtraRows(d);
	d->length = def->length;
	d->minLength = def->minLength;
	d->maxLength = def->maxLength;
	d->rigid = def->rigid;
	d->hertz = def->hertz;
	d->dampingRatio = def->dampingRatio;
	d->enableLimit = def->enableLimit;
	d->lower = def->lower;
	d->upper = def->upper;
	d->maxFrictionTorque = def->maxFrictionTorque;
	if (!def->enableMotor) j->motor = 0.0f; // a motor switched on later starts from rest
	d->enableMotor = def->enableMotor;
	d->motorSpeed = def->motorSpeed;
	d->maxMotorTorque = def->maxMotorTorque;
	d->maxMotorForce = def->maxMotorForce;
	if (!(def->angularHertz > 0)) j->spring = 0.0f;
	d->angularHertz = def->angularHertz;
	d->angularDampingRatio = def->angularDampingRatio;
	d->restAngle = def->restAngle;
	world->extraJoints += dkJointHasExtraRows(d);
	wakeSlot(world, j->bodyA);
	wakeSlot(world, j->bodyB);
	return dkResultOK;
}

dkResult dkWorld_JointAnchors(const dkWorld* world, dkJointId id, float* outAx, float* outAy, float* outBx,
							  float* outBy, dkError* error)
{
	const dkJoint* j = resolve(world, id);
	if (!j) {
		dkSetError(error, dkResultStaleId, -1, "joint", id.index1);
		return dkResultStaleId;
	}
	worldAnchor(world, j->bodyA, j->def.anchorAx, j->def.anchorAy, outAx, outAy);
	worldAnchor(world, j->bodyB, j->def.anchorBx, j->def.anchorBy, outBx, outBy);
	return dkResultOK;
}
