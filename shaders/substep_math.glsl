// The per-vertex steps of a substep that are not a constraint, shared by
// the compute shaders and the C++ solver in the portable subset
// tet_math.glsl describes (src/core/substep_math.h is the C++ side):
// DESIGN.md 4.1 (predict) and 4.4 (the velocity update; its friction is
// contact_math.glsl's).

#ifndef TM_FN
#define TM_FN
#define TM_INOUT(T) inout T
#define TM_OUT(T) out T
#endif

// The factor a velocity keeps per substep of length h under air damping
// (1/s): never negative, so a damping beyond 1/h stops rather than reverses.
TM_FN float sm_velocity_damping(float air_damping_per_s, float h)
{
    return max(0.0f, 1.0f - air_damping_per_s * h);
}

// Predict a free vertex: damping before gravity, so that it does not weaken
// the static load; then move it by h v.
TM_FN void sm_predict(TM_INOUT(vec3) x, TM_INOUT(vec3) v, float damping, vec3 gravity, float h)
{
    v = damping * v + h * gravity;
    x += h * v;
}

// v = (x - x_prev) / h, with x - x_prev = h v_predicted + correction taken
// from its exact parts instead of a difference of coordinates.
TM_FN vec3 sm_velocity_after_substep(vec3 v_predicted, vec3 correction, float inv_h)
{
    return v_predicted + correction * inv_h;
}

// Wobble damping (docs/algorithm.md 2, "Wobble"), once a frame: the factor
// a body's motion besides its rigid motion keeps over dt seconds at
// `rate_per_s`; 1: off.
TM_FN float sm_wobble_keep(float rate_per_s, float dt)
{
    return exp(-rate_per_s * dt);
}

// A body's spin (rad/s) from its angular momentum and inertia tensor about
// its centroid. Zero where the inertia is nearly singular (a body crushed
// towards a line, which has no spin about that line to speak of): the
// wobble is then taken beside the body's drift alone.
TM_FN vec3 sm_body_spin(vec3 angular_momentum, mat3 inertia)
{
    float scale = (inertia[0][0] + inertia[1][1] + inertia[2][2]) / 3.0f;
    if (!(determinant(inertia) > 1e-6f * scale * scale * scale)) {
        return vec3(0.0f);
    }
    return inverse(inertia) * angular_momentum;
}

// A vertex's velocity v at r from its body's centroid, with the share
// `1 - keep` of what it moves besides the body's rigid motion (drift plus
// spin about the centroid) taken away. The rigid motion is the mass-weighted
// fit, so what is taken away carries neither momentum nor angular momentum.
TM_FN vec3 sm_damp_wobble(vec3 v, vec3 drift, vec3 spin, vec3 r, float keep)
{
    vec3 rigid = drift + cross(spin, r);
    return rigid + (v - rigid) * keep;
}
