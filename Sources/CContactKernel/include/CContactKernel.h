// The contact solver's batch fill, solve and relax passes and warm start in C, for
// QixDynamics (ContactKernel.swift).
//
// The records below mirror QixDynamics' Swift records field for field (ContactBatch, BatchSolve,
// BatchBounce, BodyState, ContactConstraint): the C code works in place on the Swift arrays. QixDynamics checks sizes and
// offsets against these before it uses the C passes, and falls back to its Swift kernel if
// they ever differ.
#ifndef C_CONTACT_KERNEL_H
#define C_CONTACT_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/// One solver point of a batch, four lanes per field (Swift `BatchPoint`). The per-step
/// constants are 32-bit floats (Swift `NarrowLanes`), widened exactly where they are read.
typedef struct QixBatchPoint {
    float normalArmA[4], normalArmB[4], tangentArmA[4], tangentArmB[4];
    double normalImpulse[4], tangentImpulse[4];
} QixBatchPoint;

/// Four contacts side by side (Swift `ContactBatch`); `hasP2` lanes are all ones or zero.
/// The bodies' inverse masses are read from the per-body array `QixPassConstants.masses`.
typedef struct QixContactBatch {
    int32_t indexA[4], indexB[4];
    float normalX[4], normalY[4];
    QixBatchPoint p1, p2;
    int64_t hasP2[4];
} QixContactBatch;

/// The rest of a solver point, read by the solve and relax passes (Swift `PointSolve`).
typedef struct QixPointSolve {
    double baseSeparation[4];
    float normalMass[4], tangentMass[4];
    double maxNormalImpulse[4];
} QixPointSolve;

/// The per-batch part the warm start does not read (Swift `BatchSolve`).
typedef struct QixBatchSolve {
    float friction[4];
    QixPointSolve p1, p2;
    float coupling12[4], coupling21[4], blockScale[4];
} QixBatchSolve;

/// A body's velocity and sub-step displacement (Swift `BodyState`).
typedef struct QixBodyState {
    double vx, vy, w;
    double dpx, dpy;
    double dqc, dqs;
    double dAngle;
} QixBodyState;

/// What the fill reads of only the restitution pass's part of a batch (Swift `BatchBounce`).
typedef struct QixBatchBounce {
    float restitution[4], relativeVelocity1[4], relativeVelocity2[4];
} QixBatchBounce;

/// One point of a contact (Swift `ContactPoint`).
typedef struct QixContactPoint {
    double pointX, pointY;
    double separation, normalImpulse, tangentImpulse;
} QixContactPoint;

/// A contact (Swift `ContactConstraint`): its bodies, point count, normal and points.
typedef struct QixContact {
    int32_t a, b, pointCount;
    double normalX, normalY;
    QixContactPoint p0, p1;
} QixContact;

/// Soft-contact coefficients (Swift `Softness`).
typedef struct QixSoftness {
    double biasRate, massScale, impulseScale;
} QixSoftness;

/// What one pass needs besides the batches: the softness of contacts between moving bodies
/// and with a static side, the inverse sub-step, the fastest push-out (negative), the relax
/// pass's over-relaxation of touching points, whether this is the solve pass (push-out bias)
/// or the relax pass, whether the pass sweeps the batches from the last to the first, and each
/// body's inverse mass and inertia (body i at `masses[2 i]` and `masses[2 i + 1]`; 0 and 0 for
/// body 0, the ground).
typedef struct QixPassConstants {
    QixSoftness contact;
    QixSoftness fixed;
    double invH;
    double maxPush;
    double overRelaxation;
    int32_t useBias;
    int32_t reverse;
    const double *masses;
} QixPassConstants;

/// The signature of a solve/relax pass over `count` batches.
typedef void (*QixContactPass)(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                               QixBodyState *states, const QixPassConstants *constants);

/// The pass compiled for baseline x86-64 (SSE2), or for whatever the target is elsewhere.
void qix_contact_pass_portable(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                               QixBodyState *states, const QixPassConstants *constants);

/// The same pass compiled for AVX2 (x86-64 only; elsewhere the portable pass). Call it only
/// when `qix_contact_avx2_supported()` says so.
void qix_contact_pass_avx2(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                           QixBodyState *states, const QixPassConstants *constants);

/// The same pass compiled for AVX-512 (F, VL, DQ: the same 256-bit lane vectors with 32
/// registers instead of 16, so the batch's values stay in registers instead of being spilled;
/// x86-64 only, elsewhere the portable pass). Call it only when
/// `qix_contact_avx512_supported()` says so.
void qix_contact_pass_avx512(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                             QixBodyState *states, const QixPassConstants *constants);

/// The warm start alone (last step's impulses, `ContactSolver.warmStart`) over `count` batches,
/// four lanes at a time with the scalar code's operations in its order (so its bits).
typedef void (*QixContactWarmStart)(const QixContactBatch *batches, ptrdiff_t count, QixBodyState *states,
                                    const double *masses);

/// The warm start for baseline x86-64 (or the target elsewhere).
void qix_contact_warm_start_portable(const QixContactBatch *batches, ptrdiff_t count, QixBodyState *states,
                                     const double *masses);

/// The warm start for AVX2 (elsewhere the portable one).
void qix_contact_warm_start_avx2(const QixContactBatch *batches, ptrdiff_t count, QixBodyState *states,
                                 const double *masses);

/// The warm start for AVX-512 (elsewhere the portable one).
void qix_contact_warm_start_avx512(const QixContactBatch *batches, ptrdiff_t count, QixBodyState *states,
                                   const double *masses);

/// The warm start (last step's impulses, `ContactSolver.warmStart`) and the solve pass
/// (`constants->useBias` must be set) in one sweep, so that each batch is read from memory once
/// for both: before batch n is solved, batches are warm-started up to (not including)
/// `warmedBy[n]`, which must be past the last batch holding any movable body of batch n. Every
/// body then gets all its warm-start impulses before its first solve impulse, each kind in
/// batch order, which is exactly the order of the two separate passes (no joint may act
/// between them).
typedef void (*QixContactWarmStartAndSolve)(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                                            QixBodyState *states, const QixPassConstants *constants,
                                            const int32_t *warmedBy);

/// The warm start and solve pass for baseline x86-64 (or the target elsewhere).
void qix_contact_warm_start_and_solve_portable(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                                               QixBodyState *states, const QixPassConstants *constants,
                                               const int32_t *warmedBy);

/// The warm start and solve pass for AVX2 (elsewhere the portable one).
void qix_contact_warm_start_and_solve_avx2(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                                           QixBodyState *states, const QixPassConstants *constants,
                                           const int32_t *warmedBy);

/// The warm start and solve pass for AVX-512 (elsewhere the portable one).
void qix_contact_warm_start_and_solve_avx512(QixContactBatch *batches, QixBatchSolve *solve, ptrdiff_t count,
                                             QixBodyState *states, const QixPassConstants *constants,
                                             const int32_t *warmedBy);

/// Fills `count` batches for one step (`ContactSolver.prepare`): lane l of batch n from contact
/// `slots[4 n + l]` (-1: an unused lane), body i's inverse mass and inertia at `masses[2 i]`
/// and `masses[2 i + 1]`, its friction and restitution at `materials[2 i]` and
/// `materials[2 i + 1]`, its centre of mass at `centers[2 i]` and `centers[2 i + 1]`,
/// velocities from `states`. Every field of every lane is written.
typedef void (*QixContactFill)(QixContactBatch *batches, QixBatchSolve *solve, QixBatchBounce *bounce,
                               ptrdiff_t count, const int32_t *slots, const QixContact *contacts,
                               const double *masses, const double *materials, const double *centers,
                               const QixBodyState *states);

/// The fill for baseline x86-64 (or the target elsewhere).
void qix_contact_fill_portable(QixContactBatch *batches, QixBatchSolve *solve, QixBatchBounce *bounce,
                               ptrdiff_t count, const int32_t *slots, const QixContact *contacts,
                               const double *masses, const double *materials, const double *centers,
                               const QixBodyState *states);

/// The fill for AVX2 (elsewhere the portable one).
void qix_contact_fill_avx2(QixContactBatch *batches, QixBatchSolve *solve, QixBatchBounce *bounce,
                           ptrdiff_t count, const int32_t *slots, const QixContact *contacts,
                           const double *masses, const double *materials, const double *centers,
                           const QixBodyState *states);

/// The fill for AVX-512 (elsewhere the portable one).
void qix_contact_fill_avx512(QixContactBatch *batches, QixBatchSolve *solve, QixBatchBounce *bounce,
                             ptrdiff_t count, const int32_t *slots, const QixContact *contacts,
                             const double *masses, const double *materials, const double *centers,
                             const QixBodyState *states);

/// 1 when this CPU (and OS) runs AVX2 code, else 0; always 0 off x86-64.
int32_t qix_contact_avx2_supported(void);

/// 1 when this CPU (and OS) runs the AVX-512 F, VL and DQ code, else 0; always 0 off x86-64.
int32_t qix_contact_avx512_supported(void);

// The narrow phase's box manifold, built and picked the same way, its contact records, and the
// placement of the boxes' shapes it reads.
#include "BoxManifold.h"
#include "BoxContacts.h"
#include "BodyFields.h"
#include "BoxPlacement.h"
#include "BodyIntegration.h"
#include "BodyPlacement.h"
#include "BroadPhaseCells.h"
#include "CandidateOverlaps.h"
#include "BounceCandidates.h"

#endif
