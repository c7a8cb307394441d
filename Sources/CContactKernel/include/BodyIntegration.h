// The sub-step's velocity and position integration of the moving bodies in C, for QixDynamics
// (World.swift, BodyIntegration.swift): `World.integrateVelocities` and
// `World.integratePositions`, four bodies at a time in lanes, with the same IEEE operations in
// the same order per body, so the same bits (docs/determinism.md, rule 9).
#ifndef C_BODY_INTEGRATION_H
#define C_BODY_INTEGRATION_H

#include <stddef.h>
#include <stdint.h>

// `QixBodyState` (CContactKernel.h) by its tag: CContactKernel.h includes this header.
struct QixBodyState;

/// What velocity integration adds to a moving body in every sub-step (Swift `BodyMotion`): the
/// body, its material (the row of the damping factors), and its velocity changes.
typedef struct QixBodyMotion {
    int32_t body, material;
    double dvx, dvy, dw;
} QixBodyMotion;

/// Velocity integration of `count` motions: for each, v = dv + linear factor * v and
/// w = dw + angular factor * w (`factors`: linear and angular per material), w clamped to
/// +-`maxAngularSpeed`. The linear speed limit is left to the caller: the positions in
/// `motions` of the bodies whose v . v passes `maxSpeedSquared` go to `over`, and their count
/// is returned.
typedef ptrdiff_t (*QixIntegrateVelocitiesFunction)(const QixBodyMotion *motions, ptrdiff_t count,
                                                    const double *factors, struct QixBodyState *states,
                                                    double maxSpeedSquared, double maxAngularSpeed, int32_t *over);

/// Position integration of the `count` motions' bodies over a sub-step `h`: dp += h v, and the
/// step rotation turned by h w (first order, then normalized) with the step angle.
typedef void (*QixIntegratePositionsFunction)(const QixBodyMotion *motions, ptrdiff_t count,
                                              struct QixBodyState *states, double h);

/// The integrations compiled for baseline x86-64 (or for the target elsewhere).
ptrdiff_t qix_integrate_velocities_portable(const QixBodyMotion *motions, ptrdiff_t count, const double *factors,
                                            struct QixBodyState *states, double maxSpeedSquared,
                                            double maxAngularSpeed, int32_t *over);
void qix_integrate_positions_portable(const QixBodyMotion *motions, ptrdiff_t count, struct QixBodyState *states,
                                      double h);

/// The same compiled for AVX2 (x86-64 only; elsewhere the portable code). Call them only when
/// `qix_contact_avx2_supported()` says so.
ptrdiff_t qix_integrate_velocities_avx2(const QixBodyMotion *motions, ptrdiff_t count, const double *factors,
                                        struct QixBodyState *states, double maxSpeedSquared, double maxAngularSpeed,
                                        int32_t *over);
void qix_integrate_positions_avx2(const QixBodyMotion *motions, ptrdiff_t count, struct QixBodyState *states,
                                  double h);

#endif
