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
