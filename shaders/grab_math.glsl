// Mouse interaction maths shared by the compute shaders and the C++ solvers
// (same portable subset and macros as tet_math.glsl): the ray against a
// surface triangle for picking, and the XPBD attachment that drags a point
// of the surface toward the cursor.

#ifndef TM_FN
#define TM_FN
#define TM_INOUT(T) inout T
#define TM_OUT(T) out T
#endif

// Distance t along the ray to triangle (a, b, c), or -1 on a miss, with the
// barycentric weights of the hit (Moller & Trumbore 1997). Both faces count:
// a body seen from inside (camera inside it) can still be grabbed.
TM_FN float tm_ray_triangle(vec3 origin, vec3 direction, vec3 a, vec3 b, vec3 c,
                            TM_OUT(vec3) barycentric)
{
    barycentric = vec3(0.0f);
    vec3 e1 = b - a;
    vec3 e2 = c - a;
    vec3 p = cross(direction, e2);
    float det = dot(e1, p);
    if (abs(det) < 1.0e-12f) {
        return -1.0f;
    }
    float inv_det = 1.0f / det;
    vec3 s = origin - a;
    float u = dot(s, p) * inv_det;
    if (u < 0.0f || u > 1.0f) {
        return -1.0f;
    }
    vec3 q = cross(s, e1);
    float v = dot(direction, q) * inv_det;
    if (v < 0.0f || u + v > 1.0f) {
        return -1.0f;
    }
    float t = dot(e2, q) * inv_det;
    if (t <= 0.0f) {
        return -1.0f;
    }
    barycentric = vec3(1.0f - u - v, u, v);
    return t;
}

// One XPBD step of the attachment C = |sum_i b_i x_i - target| with
// compliance alpha_tilde (= 1 / (stiffness h^2)). The largest vertex move is
// limited to max_step_m, so that a yank far and fast is followed over a few
// iterations instead of tearing the tets around the grabbed point inside
// out. Pinned vertices (w = 0) do not move.
TM_FN void tm_attachment_step(vec3 x0, vec3 x1, vec3 x2, vec3 w, vec3 b, vec3 target,
                              float alpha_tilde, float max_step_m, TM_INOUT(float) lambda,
                              TM_OUT(vec3) d0, TM_OUT(vec3) d1, TM_OUT(vec3) d2)
{
    d0 = vec3(0.0f);
    d1 = vec3(0.0f);
    d2 = vec3(0.0f);
    vec3 offset = b.x * x0 + b.y * x1 + b.z * x2 - target;
    float C = length(offset);
    if (C < 1.0e-9f) {
        return;
    }
    vec3 n = offset / C;
    float denominator = w.x * b.x * b.x + w.y * b.y * b.y + w.z * b.z * b.z + alpha_tilde;
    if (denominator < 1.0e-20f) {
        return;
    }
    float dlambda = -(C + alpha_tilde * lambda) / denominator;
    float largest = max(max(w.x * b.x, w.y * b.y), w.z * b.z) * abs(dlambda);
    if (largest > max_step_m) {
        dlambda *= max_step_m / largest;
    }
    lambda += dlambda;
    d0 = (w.x * b.x * dlambda) * n;
    d1 = (w.y * b.y * dlambda) * n;
    d2 = (w.z * b.z * dlambda) * n;
}
