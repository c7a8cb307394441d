// `World.integrateVelocities` and `World.integratePositions`, included once per build by
// BodyIntegration.c with `K(name)` giving the names their suffix. Four bodies at a time: their
// records are loaded as rows and transposed into one vector per field, each lane does the Swift
// code's operations on its body operand for operand, and the rows go back; the last bodies
// (fewer than four) run the same operations one at a time. A Swift `if` that skips work is a
// select that keeps the old value. Do not reorder or "simplify" an expression here without
// doing the same in World.swift and BodyState.turn (docs/determinism.md rule 9).

static inline __attribute__((always_inline)) d4 K(row)(const void *p) {
    d4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void K(put_row)(void *p, d4 v) { memcpy(p, &v, sizeof v); }

/// Rows r[0...3] become columns (and back: the transpose is its own inverse).
static inline __attribute__((always_inline)) void K(transpose)(d4 r[4]) {
    d4 t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 2, 6), t1 = __builtin_shufflevector(r[0], r[1], 1, 5, 3, 7);
    d4 t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 2, 6), t3 = __builtin_shufflevector(r[2], r[3], 1, 5, 3, 7);
    r[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    r[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    r[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    r[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

static inline __attribute__((always_inline)) d4 K(select)(m4 m, d4 a, d4 b) {
    return (d4)((m & (m4)a) | (~m & (m4)b));
}

/// One body of `integrateVelocities`; returns whether its v . v passes the limit.
static inline __attribute__((always_inline)) int K(velocity1)(const QixBodyMotion *m, const double *factors,
                                                             QixBodyState *s, double maxSpeedSquared,
                                                             double maxAngularSpeed) {
    const double *f = factors + 2 * (ptrdiff_t)m->material;
    double vx = m->dvx + f[0] * s->vx, vy = m->dvy + f[0] * s->vy;
    double w = m->dw + f[1] * s->w;
    if (w * w > maxAngularSpeed * maxAngularSpeed) w = w > 0 ? maxAngularSpeed : -maxAngularSpeed;
    s->vx = vx;
    s->vy = vy;
    s->w = w;
    return vx * vx + vy * vy > maxSpeedSquared;
}

ptrdiff_t K(qix_integrate_velocities)(const QixBodyMotion *motions, ptrdiff_t count, const double *factors,
                                      QixBodyState *states, double maxSpeedSquared, double maxAngularSpeed,
                                      int32_t *over) {
    ptrdiff_t overCount = 0, k = 0;
    const d4 maxW = (d4)(maxAngularSpeed), maxW2 = (d4)(maxAngularSpeed * maxAngularSpeed);
    for (; k + 4 <= count; k += 4) {
        const QixBodyMotion *m = motions + k;
        QixBodyState *s[4] = {states + m[0].body, states + m[1].body, states + m[2].body, states + m[3].body};
        const double *f[4];
        for (int l = 0; l < 4; l++) f[l] = factors + 2 * (ptrdiff_t)m[l].material;
        d4 mr[4] = {K(row)(m), K(row)(m + 1), K(row)(m + 2), K(row)(m + 3)};  // ids, dvx, dvy, dw
        d4 sr[4] = {K(row)(s[0]), K(row)(s[1]), K(row)(s[2]), K(row)(s[3])};  // vx, vy, w, dpx
        K(transpose)(mr);
        K(transpose)(sr);
        const d4 linear = {f[0][0], f[1][0], f[2][0], f[3][0]}, angular = {f[0][1], f[1][1], f[2][1], f[3][1]};
        d4 vx = mr[1] + linear * sr[0], vy = mr[2] + linear * sr[1];
        d4 w = mr[3] + angular * sr[2];
        m4 fast = w * w > maxW2;
        w = K(select)(fast, K(select)(w > (d4)(0.0), maxW, -maxW), w);
        m4 overSpeed = vx * vx + vy * vy > (d4)(maxSpeedSquared);
        sr[0] = vx;
        sr[1] = vy;
        sr[2] = w;
        K(transpose)(sr);
        for (int l = 0; l < 4; l++) K(put_row)(s[l], sr[l]);
        if (__builtin_expect((overSpeed[0] | overSpeed[1] | overSpeed[2] | overSpeed[3]) != 0, 0)) {
            for (int l = 0; l < 4; l++) {
                if (overSpeed[l]) over[overCount++] = (int32_t)(k + l);
            }
        }
    }
    for (; k < count; k++) {
        if (K(velocity1)(motions + k, factors, states + motions[k].body, maxSpeedSquared, maxAngularSpeed)) {
            over[overCount++] = (int32_t)k;
        }
    }
    return overCount;
}

/// One body of `integratePositions` (`BodyState.turn` for the rotation).
static inline __attribute__((always_inline)) void K(position1)(QixBodyState *s, double h) {
    s->dpx = s->dpx + h * s->vx;
    s->dpy = s->dpy + h * s->vy;
    double angle = h * s->w;
    if (angle == 0) return;
    double c = s->dqc - angle * s->dqs;
    double sn = s->dqs + angle * s->dqc;
    double invLength = 1 / __builtin_sqrt(c * c + sn * sn);
    s->dqc = c * invLength;
    s->dqs = sn * invLength;
    s->dAngle = s->dAngle + angle;
}

void K(qix_integrate_positions)(const QixBodyMotion *motions, ptrdiff_t count, QixBodyState *states, double h) {
    ptrdiff_t k = 0;
    const d4 hv = (d4)(h);
    for (; k + 4 <= count; k += 4) {
        const QixBodyMotion *m = motions + k;
        QixBodyState *s[4] = {states + m[0].body, states + m[1].body, states + m[2].body, states + m[3].body};
        d4 a[4] = {K(row)(s[0]), K(row)(s[1]), K(row)(s[2]), K(row)(s[3])};  // vx, vy, w, dpx
        // dpy, dqc, dqs, dAngle
        d4 b[4] = {K(row)(&s[0]->dpy), K(row)(&s[1]->dpy), K(row)(&s[2]->dpy), K(row)(&s[3]->dpy)};
        K(transpose)(a);
        K(transpose)(b);
        a[3] = a[3] + hv * a[0];
        b[0] = b[0] + hv * a[1];
        d4 angle = hv * a[2];
        m4 turns = angle != (d4)(0.0);
        d4 c = b[1] - angle * b[2];
        d4 sn = b[2] + angle * b[1];
        d4 invLength = (d4)(1.0) / __builtin_elementwise_sqrt(c * c + sn * sn);
        b[1] = K(select)(turns, c * invLength, b[1]);
        b[2] = K(select)(turns, sn * invLength, b[2]);
        b[3] = K(select)(turns, b[3] + angle, b[3]);
        K(transpose)(a);
        K(transpose)(b);
        for (int l = 0; l < 4; l++) {
            K(put_row)(s[l], a[l]);
            K(put_row)(&s[l]->dpy, b[l]);
        }
    }
    for (; k < count; k++) K(position1)(states + motions[k].body, h);
}
