// Per-tetrahedron maths shared by the compute shaders and the C++ solvers.
//
// Written in the subset that GLSL 4.3 and GLM both accept, so the GPU and
// the CPU run literally the same function (see src/core/tet_math.h for the
// C++ side). Rules that keep it portable:
//   - float literals carry an `f` suffix (GLM does not mix float and double);
//   - no swizzles beyond .x/.y/.z/.w member access;
//   - functions are prefixed TM_FN, by-reference parameters use TM_INOUT /
//     TM_OUT; no overloads, no arrays as parameters;
//   - matrices are column-major in both: M[column][row].
//
// Algorithm: ../shared DESIGN.md sections 2 and 3, docs/algorithm.md here.

#ifndef TM_FN
#define TM_FN
#define TM_INOUT(T) inout T
#define TM_OUT(T) out T
#endif

// ---------------------------------------------------------------------------
// Signed SVD, McAdams et al. 2011, "Computing the Singular Value
// Decomposition of 3x3 matrices with minimal branching and elementary
// floating point operations", with the sign convention of Irving et al. 2004:
// F = U diag(sigma) V^T, det U = det V = +1, sigma1 >= sigma2 >= |sigma3|,
// sign(sigma3) = sign(det F).
// ---------------------------------------------------------------------------

const float TM_SVD_GAMMA = 5.828427124746190f;  // 3 + 2 sqrt(2), McAdams eq. 2.3
const float TM_COS_PI_8 = 0.9238795325112868f;
const float TM_SIN_PI_8 = 0.3826834323650898f;
const float TM_QR_EPSILON = 1.0e-15f;  // squares stay normal floats

// A vector along the half-angle of the approximate Jacobi rotation that
// annihilates the off-diagonal entry s_pq of a symmetric 2x2 block (McAdams
// Alg. 2), not normalized (tm_rotation_from_half_angle does not need it).
// When the exact angle is too large for the small-angle guess, it falls back
// to pi/4, which still reduces the off-diagonal entry every sweep.
TM_FN vec2 tm_jacobi_half_angle(float s_pp, float s_pq, float s_qq)
{
    float ch = 2.0f * (s_pp - s_qq);
    float sh = s_pq;
    if (TM_SVD_GAMMA * sh * sh < ch * ch) {  // then ch != 0
        return vec2(ch, sh);
    }
    return vec2(TM_COS_PI_8, TM_SIN_PI_8);
}

// S <- G^T S G for the rotation G in the (p, q) plane with cos c and sin s;
// r is the third index. Only the five entries that change are passed.
TM_FN void tm_jacobi_conjugate(float c, float s,
                               TM_INOUT(float) s_pp, TM_INOUT(float) s_pq,
                               TM_INOUT(float) s_qq, TM_INOUT(float) s_rp,
                               TM_INOUT(float) s_rq)
{
    float pp = s_pp;
    float pq = s_pq;
    float qq = s_qq;
    float cc = c * c;
    float ss = s * s;
    float cs = c * s;
    s_pp = cc * pp + 2.0f * cs * pq + ss * qq;
    s_qq = ss * pp - 2.0f * cs * pq + cc * qq;
    s_pq = (cc - ss) * pq + cs * (qq - pp);
    float rp = s_rp;
    s_rp = c * rp + s * s_rq;
    s_rq = -s * rp + c * s_rq;
}

// The rotation's (cos, sin) from a non-zero vector (ch, sh) along its
// half-angle: (ch^2 - sh^2) / n and 2 ch sh / n with n = ch^2 + sh^2, the
// double-angle formulas with the normalization folded in. One divide where
// normalizing first (McAdams) takes a square root and a divide, and
// c^2 + s^2 stays 1 to rounding.
TM_FN vec2 tm_rotation_from_half_angle(vec2 half_angle)
{
    float ch = half_angle.x;
    float sh = half_angle.y;
    float cc = ch * ch;
    float ss = sh * sh;
    float inv_n = 1.0f / (cc + ss);
    return vec2((cc - ss) * inv_n, 2.0f * ch * sh * inv_n);
}

// A vector along the half-angle of the Givens rotation that maps (a1, a2)
// onto (+|a|, 0), never zero (McAdams Alg. 4, without the normalization).
TM_FN vec2 tm_qr_half_angle(float a1, float a2)
{
    float rho = sqrt(a1 * a1 + a2 * a2);
    float sh = rho > TM_QR_EPSILON ? a2 : 0.0f;
    float ch = abs(a1) + max(rho, TM_QR_EPSILON);
    if (a1 < 0.0f) {
        float t = sh;
        sh = ch;
        ch = t;
    }
    return vec2(ch, sh);
}

// Swaps columns i and j of both B and V, negating the new column j so that
// det V stays +1 (McAdams section 2.3, "sorting the singular values").
TM_FN void tm_swap_columns_if_smaller(TM_INOUT(vec3) b_i, TM_INOUT(vec3) b_j,
                                      TM_INOUT(vec3) v_i, TM_INOUT(vec3) v_j,
                                      TM_INOUT(float) rho_i, TM_INOUT(float) rho_j)
{
    if (rho_i < rho_j) {
        vec3 tb = b_i;
        b_i = b_j;
        b_j = -tb;
        vec3 tv = v_i;
        v_i = v_j;
        v_j = -tv;
        float tr = rho_i;
        rho_i = rho_j;
        rho_j = tr;
    }
}

// Applies G^T from the left to rows p and q of M (columns are M[0..2]),
// and G from the right to U's columns p and q.
TM_FN void tm_rotate_rows_01(vec2 cs, TM_INOUT(mat3) M, TM_INOUT(mat3) U)
{
    for (int j = 0; j < 3; ++j) {
        float mp = M[j].x;
        float mq = M[j].y;
        M[j].x = cs.x * mp + cs.y * mq;
        M[j].y = -cs.y * mp + cs.x * mq;
    }
    vec3 up = U[0];
    U[0] = cs.x * up + cs.y * U[1];
    U[1] = -cs.y * up + cs.x * U[1];
}

TM_FN void tm_rotate_rows_02(vec2 cs, TM_INOUT(mat3) M, TM_INOUT(mat3) U)
{
    for (int j = 0; j < 3; ++j) {
        float mp = M[j].x;
        float mq = M[j].z;
        M[j].x = cs.x * mp + cs.y * mq;
        M[j].z = -cs.y * mp + cs.x * mq;
    }
    vec3 up = U[0];
    U[0] = cs.x * up + cs.y * U[2];
    U[2] = -cs.y * up + cs.x * U[2];
}

TM_FN void tm_rotate_rows_12(vec2 cs, TM_INOUT(mat3) M, TM_INOUT(mat3) U)
{
    for (int j = 0; j < 3; ++j) {
        float mp = M[j].y;
        float mq = M[j].z;
        M[j].y = cs.x * mp + cs.y * mq;
        M[j].z = -cs.y * mp + cs.x * mq;
    }
    vec3 up = U[1];
    U[1] = cs.x * up + cs.y * U[2];
    U[2] = -cs.y * up + cs.x * U[2];
}

// One cyclic Jacobi sweep over the symmetric S (its six distinct entries)
// that accumulates the rotations into V (McAdams Alg. 2).
TM_FN void tm_jacobi_sweep(TM_INOUT(float) s11, TM_INOUT(float) s21, TM_INOUT(float) s31,
                           TM_INOUT(float) s22, TM_INOUT(float) s32, TM_INOUT(float) s33,
                           TM_INOUT(mat3) V)
{
    vec2 cs = tm_rotation_from_half_angle(tm_jacobi_half_angle(s11, s21, s22));
    tm_jacobi_conjugate(cs.x, cs.y, s11, s21, s22, s31, s32);
    vec3 v0 = V[0];
    V[0] = cs.x * v0 + cs.y * V[1];
    V[1] = -cs.y * v0 + cs.x * V[1];

    cs = tm_rotation_from_half_angle(tm_jacobi_half_angle(s11, s31, s33));
    tm_jacobi_conjugate(cs.x, cs.y, s11, s31, s33, s21, s32);
    v0 = V[0];
    V[0] = cs.x * v0 + cs.y * V[2];
    V[2] = -cs.y * v0 + cs.x * V[2];

    cs = tm_rotation_from_half_angle(tm_jacobi_half_angle(s22, s32, s33));
    tm_jacobi_conjugate(cs.x, cs.y, s22, s32, s33, s21, s31);
    vec3 v1 = V[1];
    V[1] = cs.x * v1 + cs.y * V[2];
    V[2] = -cs.y * v1 + cs.x * V[2];
}

// F = U diag(sigma) V^T with rotations U, V (det +1) and signed sigma.
TM_FN void tm_signed_svd(mat3 F, TM_OUT(mat3) U, TM_OUT(vec3) sigma, TM_OUT(mat3) V)
{
    // 1. Symmetric eigenproblem of S = F^T F by cyclic Jacobi sweeps.
    mat3 S = transpose(F) * F;
    float s11 = S[0].x;
    float s21 = S[0].y;
    float s31 = S[0].z;
    float s22 = S[1].y;
    float s32 = S[1].z;
    float s33 = S[2].z;
    V = mat3(1.0f);
    // Five sweeps, written out rather than looped: Mesa's llvmpipe does not
    // unroll a loop this long, and runs the written-out form about a quarter
    // faster (the same arithmetic in the same order).
    tm_jacobi_sweep(s11, s21, s31, s22, s32, s33, V);
    tm_jacobi_sweep(s11, s21, s31, s22, s32, s33, V);
    tm_jacobi_sweep(s11, s21, s31, s22, s32, s33, V);
    tm_jacobi_sweep(s11, s21, s31, s22, s32, s33, V);
    tm_jacobi_sweep(s11, s21, s31, s22, s32, s33, V);

    // 2. Sort the columns of F V by decreasing norm, keeping det V = +1.
    mat3 B = F * V;
    vec3 b0 = B[0];
    vec3 b1 = B[1];
    vec3 b2 = B[2];
    vec3 v0 = V[0];
    vec3 v1 = V[1];
    vec3 v2 = V[2];
    float rho0 = dot(b0, b0);
    float rho1 = dot(b1, b1);
    float rho2 = dot(b2, b2);
    tm_swap_columns_if_smaller(b0, b1, v0, v1, rho0, rho1);
    tm_swap_columns_if_smaller(b0, b2, v0, v2, rho0, rho2);
    tm_swap_columns_if_smaller(b1, b2, v1, v2, rho1, rho2);
    V = mat3(v0, v1, v2);

    // 3. QR of F V by Givens rotations: U is their product, the diagonal of
    //    R is sigma. R11 and R22 come out non-negative, so R33 carries the
    //    sign of det F.
    mat3 R = mat3(b0, b1, b2);
    U = mat3(1.0f);
    tm_rotate_rows_01(tm_rotation_from_half_angle(tm_qr_half_angle(R[0].x, R[0].y)), R, U);
    tm_rotate_rows_02(tm_rotation_from_half_angle(tm_qr_half_angle(R[0].x, R[0].z)), R, U);
    tm_rotate_rows_12(tm_rotation_from_half_angle(tm_qr_half_angle(R[1].y, R[1].z)), R, U);
    sigma = vec3(R[0].x, R[1].y, R[2].z);
}

// ---------------------------------------------------------------------------
// Each tet's rotation from its last one (docs/algorithm.md 3, "Rotations
// from the last one"): most tets turn little between two steps, so one
// Newton step from the rotation of the tet's previous step lands on F's
// rotation (U V^T of the signed SVD) to rounding, at a fraction of the SVD's
// cost. Where it does not (a first step, a fast turn, a tet near the
// degenerate cases), the signed SVD gives the rotation and restarts the
// tet's quaternion from it.
// ---------------------------------------------------------------------------

// A Newton step longer than this (radians) is not trusted to have landed.
const float TM_POLAR_NEWTON_MAX_STEP = 1.0e-2f;
// H below (the Newton step's matrix) must be this far from singular,
// relative to its trace cubed.
const float TM_POLAR_DEFINITE_FLOOR = 1.0e-4f;

// Every tet's rotation before its first step, quaternion (x, y, z, w).
const vec4 TM_IDENTITY_ROTATION = vec4(0.0f, 0.0f, 0.0f, 1.0f);

// The rotation matrix of the unit quaternion q = (x, y, z, w).
TM_FN mat3 tm_rotation_of_quaternion(vec4 q)
{
    float x2 = q.x + q.x;
    float y2 = q.y + q.y;
    float z2 = q.z + q.z;
    float xx = q.x * x2;
    float yy = q.y * y2;
    float zz = q.z * z2;
    float xy = q.x * y2;
    float xz = q.x * z2;
    float yz = q.y * z2;
    float wx = q.w * x2;
    float wy = q.w * y2;
    float wz = q.w * z2;
    return mat3(1.0f - yy - zz, xy + wz, xz - wy,
                xy - wz, 1.0f - xx - zz, yz + wx,
                xz + wy, yz - wx, 1.0f - xx - yy);
}

// The unit quaternion (x, y, z, w) of the rotation R, by Shepperd's method:
// the largest of |w|, |x|, |y|, |z| from the diagonal, the others from the
// off-diagonal sums and differences divided by it.
TM_FN vec4 tm_quaternion_of_rotation(mat3 R)
{
    // Entry r_ij (row i, column j) is R[j][i].
    float r00 = R[0].x;
    float r11 = R[1].y;
    float r22 = R[2].z;
    float trace = r00 + r11 + r22;
    bool x_largest = r00 > trace && r00 >= r11 && r00 >= r22;
    bool y_largest = !x_largest && r11 > trace && r11 > r00 && r11 >= r22;
    bool z_largest = !x_largest && !y_largest && r22 > trace && r22 > r00 && r22 > r11;
    float largest = x_largest ? r00 : (y_largest ? r11 : (z_largest ? r22 : trace));
    float big = 0.5f * sqrt(max(1.0f + 2.0f * largest - trace, 1.0e-30f));
    float quarter_inv = 0.25f / big;
    float diff_zy = (R[1].z - R[2].y) * quarter_inv;  // r21 - r12
    float diff_xz = (R[2].x - R[0].z) * quarter_inv;  // r02 - r20
    float diff_yx = (R[0].y - R[1].x) * quarter_inv;  // r10 - r01
    float sum_xy = (R[1].x + R[0].y) * quarter_inv;
    float sum_xz = (R[2].x + R[0].z) * quarter_inv;
    float sum_yz = (R[2].y + R[1].z) * quarter_inv;
    if (x_largest) {
        return vec4(big, sum_xy, sum_xz, diff_zy);
    }
    if (y_largest) {
        return vec4(sum_xy, big, sum_yz, diff_xz);
    }
    if (z_largest) {
        return vec4(sum_xz, sum_yz, big, diff_yx);
    }
    return vec4(diff_zy, diff_xz, diff_yx, big);
}

// One Newton step towards the rotation R that maximises tr(R^T F) (for
// det F > 0 the polar rotation; for det F < 0 the signed SVD's U V^T),
// from the quaternion q, which it updates. With S = R^T F and R turned by
// the rotation vector r in its own frame, tr(R^T F) grows by g . r -
// r^T H r / 2 to second order, g the axial vector of S - S^T and H =
// tr(S) I - (S + S^T) / 2; the step is r = H^-1 g. Returns true where the
// step was short (below TM_POLAR_NEWTON_MAX_STEP) and H positive definite,
// that is where q was already near the maximum and now holds it to
// rounding (Newton's error squares each step); false leaves q updated but
// not to be used.
TM_FN bool tm_polar_newton_step(mat3 F, TM_INOUT(vec4) q)
{
    mat3 R = tm_rotation_of_quaternion(q);
    float s00 = dot(R[0], F[0]);
    float s01 = dot(R[0], F[1]);
    float s02 = dot(R[0], F[2]);
    float s10 = dot(R[1], F[0]);
    float s11 = dot(R[1], F[1]);
    float s12 = dot(R[1], F[2]);
    float s20 = dot(R[2], F[0]);
    float s21 = dot(R[2], F[1]);
    float s22 = dot(R[2], F[2]);
    vec3 gradient = vec3(s21 - s12, s02 - s20, s10 - s01);
    float h00 = s11 + s22;
    float h11 = s00 + s22;
    float h22 = s00 + s11;
    float h01 = -0.5f * (s01 + s10);
    float h02 = -0.5f * (s02 + s20);
    float h12 = -0.5f * (s12 + s21);
    // H's adjugate: H^-1 = adjugate / determinant.
    float a00 = h11 * h22 - h12 * h12;
    float a11 = h00 * h22 - h02 * h02;
    float a22 = h00 * h11 - h01 * h01;
    float a01 = h02 * h12 - h01 * h22;
    float a02 = h01 * h12 - h02 * h11;
    float a12 = h01 * h02 - h00 * h12;
    float determinant = h00 * a00 + h01 * a01 + h02 * a02;
    float trace = h00 + h11 + h22;
    // Sylvester's criterion on the leading minors h00, a22, determinant.
    bool definite = h00 > 0.0f && a22 > 0.0f &&
                    determinant > TM_POLAR_DEFINITE_FLOOR * trace * trace * trace;
    float half_inv_det = 0.5f * (1.0f / determinant);
    vec3 half_step = vec3(a00 * gradient.x + a01 * gradient.y + a02 * gradient.z,
                          a01 * gradient.x + a11 * gradient.y + a12 * gradient.z,
                          a02 * gradient.x + a12 * gradient.y + a22 * gradient.z) *
                     half_inv_det;
    bool short_step = dot(half_step, half_step) <
                      0.25f * TM_POLAR_NEWTON_MAX_STEP * TM_POLAR_NEWTON_MAX_STEP;
    // q <- q (half_step, 1), normalized: the turn by r, to second order.
    vec3 qv = vec3(q.x, q.y, q.z);
    float w = q.w - dot(qv, half_step);
    vec3 v = q.w * half_step + qv + cross(qv, half_step);
    float inv_norm = 1.0f / sqrt(w * w + dot(v, v));
    q = vec4(v.x * inv_norm, v.y * inv_norm, v.z * inv_norm, w * inv_norm);
    return definite && short_step;
}

// F's rotation (the signed SVD's U V^T), from the tet's last rotation q,
// which it updates. A tet that no corner of moves (every w = 0) keeps the
// Newton step's answer whatever it is: its step moves nothing.
TM_FN mat3 tm_tet_rotation(mat3 F, bool moves, TM_INOUT(vec4) q)
{
    bool found = tm_polar_newton_step(F, q);
    if (found || !moves) {
        return tm_rotation_of_quaternion(q);
    }
    mat3 U;
    vec3 sigma;
    mat3 V;
    tm_signed_svd(F, U, sigma, V);
    mat3 R = U * transpose(V);
    q = tm_quaternion_of_rotation(R);
    return R;
}

// ---------------------------------------------------------------------------
// Slivers (docs/algorithm.md 4, "Slivers"): tets whose four corners lie
// nearly in a plane. Their strain F = Ds B divides by the thin side: a 0.1
// mm move across a 0.9 mm wedge is a strain of 0.1, polar(F) turns with it
// (0.05 rad), and the turn asks the wedge's long edges to follow, a
// feedback that a fan of such wedges around one edge grows until it flies
// apart. In float the shape step's system (W + alpha~ I, below) is then
// also beyond precision: W's eigenvalues span the thin side's 1 / thin^2
// times the corners' mass ratio, 4e8 for the fan's wedges. So a sliver
// takes shape matching's energy instead, mu V0 / m |(Ds - R Dm) K^1/2|^2
// (m = tr S / 3, below): the distance of its corners from its rest shape
// turned by R, which weighs each direction by its rest extent, equals mu
// V0 |F - R|^2 for a regular tet, and its step's system holds no geometry.
// Its R, the energy's minimiser, is polar(Ds K Dm^T) = polar(F S). Its
// volume term takes the stiffness across that the strain's shape term had
// (sliver_volume_compliance, src/core/material.h).
// ---------------------------------------------------------------------------

// Below this spread det S / (tr S / 3)^3 a tet is a sliver (1 for the
// regular tet; the cantilever's least is 0.43, the bunny preset's 0.036).
const float TM_SLIVER_SPREAD = 1.0e-2f;

// S = sum_a (X_a - C)(X_a - C)^T over a tet's rest corners, from its rest
// edges Dm = [X1 - X0, X2 - X0, X3 - X0]: with X0 at the origin, C = Dm
// (1, 1, 1) / 4, and S = Dm K Dm^T with K = I - J / 4, J the 3 x 3 of ones.
TM_FN mat3 tm_rest_spread(mat3 rest_edges)
{
    vec3 centre = 0.25f * (rest_edges[0] + rest_edges[1] + rest_edges[2]);
    return rest_edges * transpose(rest_edges) - 4.0f * outerProduct(centre, centre);
}

// Whether the tet of these rest edges is a sliver.
TM_FN bool tm_is_sliver(mat3 rest_edges)
{
    mat3 S = tm_rest_spread(rest_edges);
    float mean = (S[0].x + S[1].y + S[2].z) * (1.0f / 3.0f);
    // det S = det(Dm)^2 det K = det(Dm)^2 / 4: exact where det S itself
    // would cancel.
    float six_volume = determinant(rest_edges);
    return 0.25f * six_volume * six_volume < TM_SLIVER_SPREAD * mean * mean * mean;
}

// ---------------------------------------------------------------------------
// XPBD constraint steps of one tetrahedron (DESIGN.md section 2 and 4.3,
// docs/algorithm.md 2 and 4).
// ---------------------------------------------------------------------------

// Guards the denominator of a step against a tet whose corners are all
// pinned (every w = 0) and compliance 0.
const float TM_DENOMINATOR_FLOOR = 1.0e-20f;
// The shape step's 3 x 3 system, scaled to trace 1, is never this close to
// singular (it is W + alpha~ I with alpha~ > 0): the floor only keeps a
// determinant that rounding took to zero from dividing by it.
const float TM_SHAPE_DETERMINANT_FLOOR = 1.0e-30f;

// Deformation gradient F = Ds B with Ds = [x1-x0, x2-x0, x3-x0].
TM_FN mat3 tm_deformation_gradient(vec3 x0, vec3 x1, vec3 x2, vec3 x3, mat3 B)
{
    return mat3(x1 - x0, x2 - x0, x3 - x0) * B;
}

// One XPBD step of C with gradients g0..g3: returns dlambda, already scaled
// by the Jacobi weight omega, and updates lambda.
TM_FN float tm_xpbd_dlambda(float C, vec3 g0, vec3 g1, vec3 g2, vec3 g3, vec4 w,
                            float alpha_tilde, float omega, TM_INOUT(float) lambda)
{
    float denominator = w.x * dot(g0, g0) + w.y * dot(g1, g1) + w.z * dot(g2, g2) +
                        w.w * dot(g3, g3) + alpha_tilde;
    if (denominator < TM_DENOMINATOR_FLOOR) {
        return 0.0f;
    }
    float dlambda = -omega * (C + alpha_tilde * lambda) / denominator;
    lambda += dlambda;
    return dlambda;
}

// The volume term's barrier (docs/algorithm.md 2, "A barrier against
// collapse"). lambda/2 (J - 1)^2 is finite at J = 0, so a body far softer
// than its own weight (a 0.5 m cube at 100 Pa to 10 kPa: rho g H = 4.9 kPa)
// flattened through zero volume and stayed inside out. Below J_b the
// constraint is C = 2 J_b - 1 - J_b^2 / J instead of J - 1 (the same value
// and slope at J_b), whose energy lambda/2 C^2 grows without bound as J falls
// to zero; below J_b / 16 it goes on along its tangent there (slope 256), so
// that a tet already pushed through zero is pushed back as hard, and the
// step stays finite. Only while the barrier is engaged (tm_solve_tet's
// caller), which it is once a whole substep's volume steps found every tet
// at J_b or above: a body that starts inside out (a mirrored mesh) must
// pass through zero volume to turn back, which the barrier would forbid,
// and one that has turned back with a corner folded in (tets squeezed
// below J_b, the right way out) must pass through it again to unfold: a
// barrier engaged as soon as no tet was inside out held 4 of 30 mirror
// images of the cube folded for good (docs/algorithm.md 2, "A barrier
// against collapse").
const float TM_VOLUME_BARRIER_J = 0.3f;
const float TM_VOLUME_BARRIER_TANGENT_J = 0.01875f;  // J_b / 16

// One step linearised at J ~ 0 reaches only the tangent's root, J ~ 0.04:
// a flattened tet under a body's weight regained 4% of its volume a visit,
// and under Jacobi's averaging the bunny at 100 Pa to 1 kPa kept 30-40 tets
// flat against the ground for good. So a tet whose first volume step
// found it deep within the barrier, below J_e = J_b / 2, takes up to four
// more, each linearised where the last left it (Newton's iteration on its
// own constraint, the multiplier summed as XPBD's), until one finds it at
// J_b or above. Each is scaled twice: by (J_e - J0) / (J_e - J_t), J0
// where the first step found the tet, and by (J_b - J) / (J_b - J_t), J
// where it begins, both clamped to [0, 1]: whole below the tangent,
// nothing from J_e on for a tet that begins there and nothing at J_b, so
// that a tet a hair below either edge steps as one a hair above
// (unscaled, the count of steps jumped there, and a scene that amplifies
// small differences, the cube pushed out of a block, ran 6 cm apart on the
// GPU and the CPU). A lone tet pressed to J = 0.01 ends its visit at 0.31
// (0.04 after one step). Only from below J_e: a small cube kicked out of a
// block can come out with a corner folded into itself, its two tets at J
// = 0.2-0.3, and further steps there held that fold for good, where single
// steps let it undo within a frame (docs/algorithm.md 2, "Further steps
// only from deep within the barrier"). A tet its first volume step found
// at J_e or above takes no more (most tets, most of the time: no cost).
const int TM_VOLUME_BARRIER_EXTRA_STEPS = 4;
const float TM_VOLUME_BARRIER_EXTRA_J = 0.15f;  // J_e = J_b / 2

// The volume constraint's value at J, and its slope dC/dJ.
TM_FN float tm_volume_constraint(float J, bool barrier, TM_OUT(float) slope)
{
    if (!barrier || J >= TM_VOLUME_BARRIER_J) {
        slope = 1.0f;
        return J - 1.0f;
    }
    float ratio = TM_VOLUME_BARRIER_J / max(J, TM_VOLUME_BARRIER_TANGENT_J);
    slope = ratio * ratio;
    return (2.0f * TM_VOLUME_BARRIER_J - 1.0f) - TM_VOLUME_BARRIER_J * ratio +
           slope * min(J - TM_VOLUME_BARRIER_TANGENT_J, 0.0f);
}

// F = sum_a x_a b_a^T, with b_1..b_3 the rows of B and b_0 = -(b_1 + b_2 +
// b_3). The shape constraint's nine entries C = F - R (R held) have the
// gradients dC_ij / dx_a = e_i b_a_j, so the XPBD system of all nine is
// (W + alpha~ I) per row, with W = sum_a w_a b_a b_a^T. This returns
// (W + alpha~ I)^-1 by its adjugate, taken on the matrix scaled to trace 1
// so that the determinant neither overflows for small light tets nor
// underflows for large heavy ones.
TM_FN mat3 tm_inverse_shape_system(vec4 w, mat3 B, float alpha_tilde)
{
    vec3 b1 = vec3(B[0].x, B[1].x, B[2].x);
    vec3 b2 = vec3(B[0].y, B[1].y, B[2].y);
    vec3 b3 = vec3(B[0].z, B[1].z, B[2].z);
    vec3 b0 = -(b1 + b2 + b3);
    vec3 wb0 = w.x * b0;
    vec3 wb1 = w.y * b1;
    vec3 wb2 = w.z * b2;
    vec3 wb3 = w.w * b3;
    float m00 = wb0.x * b0.x + wb1.x * b1.x + wb2.x * b2.x + wb3.x * b3.x + alpha_tilde;
    float m11 = wb0.y * b0.y + wb1.y * b1.y + wb2.y * b2.y + wb3.y * b3.y + alpha_tilde;
    float m22 = wb0.z * b0.z + wb1.z * b1.z + wb2.z * b2.z + wb3.z * b3.z + alpha_tilde;
    float m01 = wb0.x * b0.y + wb1.x * b1.y + wb2.x * b2.y + wb3.x * b3.y;
    float m02 = wb0.x * b0.z + wb1.x * b1.z + wb2.x * b2.z + wb3.x * b3.z;
    float m12 = wb0.y * b0.z + wb1.y * b1.z + wb2.y * b2.z + wb3.y * b3.z;
    float scale = 1.0f / (m00 + m11 + m22);
    m00 *= scale;
    m11 *= scale;
    m22 *= scale;
    m01 *= scale;
    m02 *= scale;
    m12 *= scale;
    float a00 = m11 * m22 - m12 * m12;
    float a11 = m00 * m22 - m02 * m02;
    float a22 = m00 * m11 - m01 * m01;
    float a01 = m02 * m12 - m01 * m22;
    float a02 = m01 * m12 - m02 * m11;
    float a12 = m01 * m02 - m00 * m12;
    float determinant = m00 * a00 + m01 * a01 + m02 * a02;
    float factor = scale / max(determinant, TM_SHAPE_DETERMINANT_FLOOR);
    return mat3(a00 * factor, a01 * factor, a02 * factor,
                a01 * factor, a11 * factor, a12 * factor,
                a02 * factor, a12 * factor, a22 * factor);
}

// The corrections w_a M b_a of the corners for a 3 x 3 multiplier (or step)
// M of the shape constraint: the columns of M B^T are M b_1..M b_3.
TM_FN void tm_shape_corrections(mat3 M, mat3 B, vec4 w, TM_OUT(vec3) d0, TM_OUT(vec3) d1,
                                TM_OUT(vec3) d2, TM_OUT(vec3) d3)
{
    mat3 G = M * transpose(B);
    d0 = -w.x * (G[0] + G[1] + G[2]);
    d1 = w.y * G[0];
    d2 = w.z * G[1];
    d3 = w.w * G[2];
}

// The volume constraint's gradients dJ/dx_a at corners p0..p3, J = det F =
// e1 . (e2 x e3) / (6 V0): g1..g3 returned through the out parameters, g0 =
// -(g1 + g2 + g3) by the caller.
TM_FN void tm_volume_gradients(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float rest_volume,
                               TM_OUT(vec3) g1, TM_OUT(vec3) g2, TM_OUT(vec3) g3)
{
    vec3 e1 = p1 - p0;
    vec3 e2 = p2 - p0;
    vec3 e3 = p3 - p0;
    float inv_six_v0 = 1.0f / (6.0f * rest_volume);
    g1 = cross(e2, e3) * inv_six_v0;
    g2 = cross(e3, e1) * inv_six_v0;
    g3 = cross(e1, e2) * inv_six_v0;
}

// K^1/2 = I - J / 6, the square root of the centring K = I - J / 4 of
// tm_rest_spread (K's eigenvalues are 1, 1 and, along (1, 1, 1), 1/4).
const float TM_HALF_CENTRING_DIAGONAL = 0.8333333333333333f;
const float TM_HALF_CENTRING_OFF_DIAGONAL = -0.1666666666666667f;

// A sliver's shape step (the section "Slivers" above), in place of the
// strain's: C = (Ds - R Dm) K^1/2 / sqrt(m), nine entries with a 3 x 3
// multiplier as F - R has, R held. Their gradients are dC_ij / dx_a = e_i
// (K^1/2 E_a)_j / sqrt(m), with E_a = e_a for a = 1..3 and -(1, 1, 1) for
// a = 0, so the system per row is Q = K^1/2 M K^1/2 / m + alpha~ I with M =
// sum_a w_a E_a E_a^T = w0 J + diag(w1, w2, w3): the corners' masses, no
// geometry. Inside out, F S would read the inversion as a flip of the thin
// side, which a wedge's neighbours block; so an inverted sliver is first
// reflected along the axis that polar(F) inverts (the signed SVD's last),
// and turns the right way out along its long edges as polar(F) would.
// Returns dLambda; the rest as tm_solve_tet.
TM_FN mat3 tm_sliver_shape_step(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 w, mat3 B, mat3 F,
                                bool moves, float alpha_tilde, float omega,
                                TM_INOUT(mat3) lambda_shape, TM_INOUT(vec4) rotation,
                                TM_OUT(float) residual, TM_OUT(vec3) d0, TM_OUT(vec3) d1,
                                TM_OUT(vec3) d2, TM_OUT(vec3) d3)
{
    mat3 rest_edges = inverse(B);
    mat3 edges = mat3(x1 - x0, x2 - x0, x3 - x0);
    mat3 S = tm_rest_spread(rest_edges);
    float mean = (S[0].x + S[1].y + S[2].z) * (1.0f / 3.0f);
    // F S = Ds K Dm^T = Ds Dm^T - 4 c c_rest^T, c = Ds (1, 1, 1) / 4.
    vec3 centre = 0.25f * (edges[0] + edges[1] + edges[2]);
    vec3 rest_centre = 0.25f * (rest_edges[0] + rest_edges[1] + rest_edges[2]);
    mat3 weighted = edges * transpose(rest_edges) - 4.0f * outerProduct(centre, rest_centre);
    if (determinant(F) < 0.0f) {
        mat3 U;
        vec3 sigma;
        mat3 V;
        tm_signed_svd(F, U, sigma, V);
        vec3 axis = V[2];
        weighted -= 2.0f * outerProduct(F * axis, S * axis);  // F (I - 2 axis axis^T) S
    }
    mat3 R = tm_tet_rotation(weighted, moves, rotation);
    mat3 half_centring = mat3(TM_HALF_CENTRING_DIAGONAL, TM_HALF_CENTRING_OFF_DIAGONAL,
                              TM_HALF_CENTRING_OFF_DIAGONAL, TM_HALF_CENTRING_OFF_DIAGONAL,
                              TM_HALF_CENTRING_DIAGONAL, TM_HALF_CENTRING_OFF_DIAGONAL,
                              TM_HALF_CENTRING_OFF_DIAGONAL, TM_HALF_CENTRING_OFF_DIAGONAL,
                              TM_HALF_CENTRING_DIAGONAL);
    float inv_root_mean = 1.0f / sqrt(mean);
    mat3 rhs = (edges - R * rest_edges) * half_centring * inv_root_mean +
               alpha_tilde * lambda_shape;
    residual = sqrt(dot(rhs[0], rhs[0]) + dot(rhs[1], rhs[1]) + dot(rhs[2], rhs[2]));
    mat3 masses = mat3(w.x + w.y, w.x, w.x, w.x, w.x + w.z, w.x, w.x, w.x, w.x + w.w);
    mat3 Q = half_centring * masses * half_centring * (1.0f / mean) +
             alpha_tilde * mat3(1.0f);
    mat3 dlambda = rhs * inverse(Q) * (-omega);
    lambda_shape += dlambda;
    mat3 G = dlambda * half_centring * inv_root_mean;
    d0 = -w.x * (G[0] + G[1] + G[2]);
    d1 = w.y * G[0];
    d2 = w.z * G[1];
    d3 = w.w * G[2];
    return dlambda;
}

// The ground's hold (docs/algorithm.md 2, "The ground's hold"). A corner
// more than TM_GROUND_HOLD_FROM_M below the ground y = 0 where a tet's step
// finds it takes less of the y motion of a step that would move it further
// down, none from TM_GROUND_HOLD_FULL_M down, so that the step lifts the
// tet's other corners instead, as the ground pushes back: otherwise the
// step pushes the corner down and the ground's projection after the sweep
// lifts it alone, undoing the step there. A body landing at 1 substep a
// frame went 4 cm into the ground in a substep, and steps that pushed its
// bottom layer down against the ground folded it through: the bunny kept
// 370-440 tets inside out flat on the ground at 10 kPa to 10 GPa. By the
// corner's position, not by where the substep's prediction put it: a hold
// that went on after other tets had lifted the corner out of the ground
// shook the bunny at 1 substep apart. Less the warm start's push (its
// "sink", how far the Gauss-Seidel warm start moved the corner down this
// substep; 0 for Jacobi): that push is the force the ground bore last
// substep, pressed into it again until the first sweep's projection lifts
// it out, not a corner driven in. The bunny at twice the resolution,
// resting on its side, has its bottom corners pushed 2-3 cm in by the warm
// start: held there, its first iteration moved the layer above 1.8 mm down
// and the rest could not undo it, and a vertex flickered at 1.3e-2 m/s for
// good. Only with more than one iteration (tm_hold_discounts_sink). From 2
// mm down: from 1 mm the bunny crushed by its own weight at 100 or 300 Pa
// kept 1-2 tets inside out at the defaults (from 3 mm, before the sink was
// discounted, a shallower hold came and went with the warm start's push).
const float TM_GROUND_HOLD_FROM_M = 2.0e-3f;
const float TM_GROUND_HOLD_FULL_M = 5.0e-3f;
// With two or three corners held, the y row of the shape step's system is
// singular for a stiff tet: this share of its trace, added as compliance,
// keeps the step finite.
const float TM_GROUND_HOLD_REGULARISATION = 1.0e-3f;

// Whether the hold discounts the warm start's sink (and so whether the
// solvers keep it): never without the ground, whose hold it is. With one
// iteration a substep that sweep is the whole solve, and holding the
// corners the warm start pressed in is what keeps a sheet flat on the
// ground from folding through it: at 1 x 1 with the sink discounted the
// cube at 10 kPa kept 31 tets inside out instead of 14, the torus 72
// instead of 0, the beam 15 instead of 5. With more, the later sweeps
// answer the warm start's push.
TM_FN bool tm_hold_discounts_sink(bool ground, int iterations)
{
    return ground && iterations > 1;
}

// The share of its y inverse mass a corner at height y keeps in a step
// that would move it down: 1 down to TM_GROUND_HOLD_FROM_M below the
// ground, 0 from TM_GROUND_HOLD_FULL_M.
TM_FN float tm_ground_free_share(float y)
{
    return clamp((y + TM_GROUND_HOLD_FULL_M) *
                     (1.0f / (TM_GROUND_HOLD_FULL_M - TM_GROUND_HOLD_FROM_M)),
                 0.0f, 1.0f);
}

// The y inverse mass w of a corner at height y, sunk that far by the warm
// start, that a step moves by move_y in y: held only where that is down.
TM_FN float tm_ground_held_mass(float w, float y, float sink, float move_y)
{
    return move_y < 0.0f ? w * tm_ground_free_share(y + sink) : w;
}

// How much of the further steps a tet takes whose first volume step found
// it at J: all below the tangent, none from J_e on.
TM_FN float tm_further_steps_entry(float J)
{
    return clamp((TM_VOLUME_BARRIER_EXTRA_J - J) *
                     (1.0f / (TM_VOLUME_BARRIER_EXTRA_J - TM_VOLUME_BARRIER_TANGENT_J)),
                 0.0f, 1.0f);
}

// One step of the volume constraint C(J), J = det(Ds) / (6 V0), at the
// corners x_a + d_a, its corrections added to d0..d3; J is the volume
// ratio it found there. only_within_barrier: a further step of a tet
// within the barrier (TM_VOLUME_BARRIER_EXTRA_STEPS), scaled by `entry`
// (tm_further_steps_entry) and by how far below J_b it is, none where J
// >= J_b. Returns |C + alpha~ lambda| before the step (0 where none was
// taken).
TM_FN float tm_volume_step(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 w, float rest_volume,
                           float alpha_volume_tilde, bool volume_barrier,
                           bool only_within_barrier, float entry, float omega, bool ground,
                           vec4 sink, TM_INOUT(float) lambda_volume, TM_INOUT(vec3) d0,
                           TM_INOUT(vec3) d1, TM_INOUT(vec3) d2, TM_INOUT(vec3) d3,
                           TM_OUT(float) J)
{
    vec3 p0 = x0 + d0;
    vec3 p1 = x1 + d1;
    vec3 p2 = x2 + d2;
    vec3 p3 = x3 + d3;
    vec3 g1;
    vec3 g2;
    vec3 g3;
    tm_volume_gradients(p0, p1, p2, p3, rest_volume, g1, g2, g3);
    J = dot(p1 - p0, g1);  // e1 . (e2 x e3) / (6 V0)
    if (only_within_barrier && J >= TM_VOLUME_BARRIER_J) {
        return 0.0f;
    }
    float slope;
    float Cv = tm_volume_constraint(J, volume_barrier, slope);
    g1 *= slope;
    g2 *= slope;
    g3 *= slope;
    vec3 g0 = -(g1 + g2 + g3);
    float residual = abs(Cv + alpha_volume_tilde * lambda_volume);
    float weight = only_within_barrier
                       ? entry * clamp((TM_VOLUME_BARRIER_J - J) *
                                           (1.0f / (TM_VOLUME_BARRIER_J -
                                                    TM_VOLUME_BARRIER_TANGENT_J)),
                                       0.0f, 1.0f)
                       : 1.0f;
    // The step moves corner a along -(C + alpha~ lambda) g_a: down where
    // g_a.y has that sign.
    float push = Cv + alpha_volume_tilde * lambda_volume;
    vec4 w_y = w;
    if (ground) {
        w_y = vec4(tm_ground_held_mass(w.x, x0.y, sink.x, -push * g0.y),
                   tm_ground_held_mass(w.y, x1.y, sink.y, -push * g1.y),
                   tm_ground_held_mass(w.z, x2.y, sink.z, -push * g2.y),
                   tm_ground_held_mass(w.w, x3.y, sink.w, -push * g3.y));
    }
    float dlambda_volume;
    if (w_y == w) {
        dlambda_volume = tm_xpbd_dlambda(Cv, g0, g1, g2, g3, w, alpha_volume_tilde,
                                         omega * weight, lambda_volume);
    } else {
        // dC/dx W dC/dx^T with each corner's y inverse mass its own.
        float denominator =
            w.x * (g0.x * g0.x + g0.z * g0.z) + w_y.x * (g0.y * g0.y) +
            w.y * (g1.x * g1.x + g1.z * g1.z) + w_y.y * (g1.y * g1.y) +
            w.z * (g2.x * g2.x + g2.z * g2.z) + w_y.z * (g2.y * g2.y) +
            w.w * (g3.x * g3.x + g3.z * g3.z) + w_y.w * (g3.y * g3.y) + alpha_volume_tilde;
        dlambda_volume = denominator < TM_DENOMINATOR_FLOOR
                             ? 0.0f
                             : -(omega * weight) * push / denominator;
        lambda_volume += dlambda_volume;
    }
    d0 += vec3(w.x * dlambda_volume * g0.x, w_y.x * dlambda_volume * g0.y,
               w.x * dlambda_volume * g0.z);
    d1 += vec3(w.y * dlambda_volume * g1.x, w_y.y * dlambda_volume * g1.y,
               w.y * dlambda_volume * g1.z);
    d2 += vec3(w.z * dlambda_volume * g2.x, w_y.z * dlambda_volume * g2.y,
               w.z * dlambda_volume * g2.z);
    d3 += vec3(w.w * dlambda_volume * g3.x, w_y.w * dlambda_volume * g3.y,
               w.w * dlambda_volume * g3.z);
    return residual;
}

// The volume steps of one tet at the corners x_a + d_a: a step, then, for a
// tet that it found deep within the engaged barrier (below J_e), up to
// TM_VOLUME_BARRIER_EXTRA_STEPS more, each stopping at J_b. J is the
// volume ratio the first step found; returns that step's |C + alpha~
// lambda|.
TM_FN float tm_volume_steps(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 w, float rest_volume,
                            float alpha_volume_tilde, bool volume_barrier, float omega,
                            bool ground, vec4 sink, TM_INOUT(float) lambda_volume,
                            TM_INOUT(vec3) d0, TM_INOUT(vec3) d1, TM_INOUT(vec3) d2,
                            TM_INOUT(vec3) d3, TM_OUT(float) J)
{
    float residual = tm_volume_step(x0, x1, x2, x3, w, rest_volume, alpha_volume_tilde,
                                    volume_barrier, false, 1.0f, omega, ground, sink,
                                    lambda_volume, d0, d1, d2, d3, J);
    float entry = tm_further_steps_entry(J);
    // last_J: where the last step began; each further step stops at J_b.
    float last_J = J;
    for (int extra = 0; volume_barrier && entry > 0.0f && last_J < TM_VOLUME_BARRIER_J &&
                        extra < TM_VOLUME_BARRIER_EXTRA_STEPS;
         ++extra) {
        tm_volume_step(x0, x1, x2, x3, w, rest_volume, alpha_volume_tilde, true, true, entry,
                       omega, ground, sink, lambda_volume, d0, d1, d2, d3, last_J);
    }
    return residual;
}

// Solves the co-rotational shape constraint, the nine entries of F - R
// with a 3 x 3 multiplier (docs/algorithm.md 4, "Rest"), and then the volume
// constraint C = det F - 1 of one tet, Gauss-Seidel within the tet. The
// corrections of both steps are summed into d0..d3; the caller applies them
// (Jacobi between tets). alpha_*_tilde are compliances divided by h^2 (the
// same 1 / (2 mu V0) as for |F - R|: the energy mu V0 |F - R|^2 is the
// same); sliver > 0 takes a sliver's shape step (tm_sliver_shape_step);
// rotation is the tet's last rotation, which the step updates
// (tm_tet_rotation). volume_barrier engages tm_volume_constraint's barrier
// and the further volume steps of a tet within it; ground, the ground's
// hold (TM_GROUND_HOLD_FROM_M; not for a sliver's shape step), with sink
// how far the warm start moved each corner down (tm_ground_held_mass). residual is |C +
// alpha~ lambda| before the step, both constraints summed (the volume's
// first step only); shape_step is the size |dLambda| of the shape
// multiplier's step, which the warm start's fraction follows; squeezed says
// whether the volume step found the tet within the barrier's reach (J <
// J_b, inside out and flat included), which the barrier's latch follows.
TM_FN void tm_solve_tet(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 w, mat3 B,
                        float rest_volume, float sliver, float alpha_arap_tilde,
                        float alpha_volume_tilde, bool volume_enabled, bool volume_barrier,
                        bool ground, vec4 sink, float omega, TM_INOUT(mat3) lambda_shape,
                        TM_INOUT(float) lambda_volume, TM_INOUT(vec4) rotation,
                        TM_OUT(vec3) d0, TM_OUT(vec3) d1, TM_OUT(vec3) d2, TM_OUT(vec3) d3,
                        TM_OUT(float) residual, TM_OUT(float) shape_step,
                        TM_OUT(bool) squeezed)
{
    // Shape: dLambda = -(F - R + alpha~ Lambda) (W + alpha~ I)^-1, each
    // corner moved by w_a dLambda b_a. The whole matrix keeps the direction
    // of the tet's pull from one iteration to the next, where one multiplier
    // of |F - R| kept only its size.
    mat3 F = tm_deformation_gradient(x0, x1, x2, x3, B);
    bool moves = w.x + w.y + w.z + w.w > 0.0f;
    mat3 dlambda;
    if (sliver > 0.0f) {
        dlambda = tm_sliver_shape_step(x0, x1, x2, x3, w, B, F, moves, alpha_arap_tilde, omega,
                                       lambda_shape, rotation, residual, d0, d1, d2, d3);
    } else {
        mat3 rhs = F - tm_tet_rotation(F, moves, rotation) + alpha_arap_tilde * lambda_shape;
        // What the iteration drives to zero, before this step: the
        // convergence readout averages it over the tets after a frame's
        // last iteration.
        residual = sqrt(dot(rhs[0], rhs[0]) + dot(rhs[1], rhs[1]) + dot(rhs[2], rhs[2]));
        dlambda = rhs * tm_inverse_shape_system(w, B, alpha_arap_tilde) * (-omega);
        tm_shape_corrections(dlambda, B, w, d0, d1, d2, d3);
        vec4 w_y = w;
        if (ground) {
            w_y = vec4(tm_ground_held_mass(w.x, x0.y, sink.x, d0.y),
                       tm_ground_held_mass(w.y, x1.y, sink.y, d1.y),
                       tm_ground_held_mass(w.z, x2.y, sink.z, d2.y),
                       tm_ground_held_mass(w.w, x3.y, sink.w, d3.y));
        }
        if (w_y != w) {
            // The rows of F - R are independent (the x, y and z of the
            // corners): the y row again with the held corners' masses, the
            // other two as they were. With two or three corners held its
            // multiplier is left as it was: a multiplier grown in the
            // directions the free corners cannot move, put back by the
            // next substep's warm start onto corners no longer held, threw
            // a 10 GPa bunny away. With one, it is the system's own (left
            // as it was there too, a resting bunny kept a corner
            // flickering at 5 mm/s).
            vec3 b1 = vec3(B[0].x, B[1].x, B[2].x);
            vec3 b2 = vec3(B[0].y, B[1].y, B[2].y);
            vec3 b3 = vec3(B[0].z, B[1].z, B[2].z);
            vec3 b0 = -(b1 + b2 + b3);
            float trace = w_y.x * dot(b0, b0) + w_y.y * dot(b1, b1) + w_y.z * dot(b2, b2) +
                          w_y.w * dot(b3, b3);
            mat3 inverse_y = tm_inverse_shape_system(
                w_y, B, alpha_arap_tilde + TM_GROUND_HOLD_REGULARISATION * trace);
            vec3 rhs_y = vec3(rhs[0].y, rhs[1].y, rhs[2].y);
            mat3 dlambda_y = mat3(0.0f);
            dlambda_y[0].y = dot(rhs_y, inverse_y[0]) * (-omega);
            dlambda_y[1].y = dot(rhs_y, inverse_y[1]) * (-omega);
            dlambda_y[2].y = dot(rhs_y, inverse_y[2]) * (-omega);
            vec3 e0;
            vec3 e1;
            vec3 e2;
            vec3 e3;
            tm_shape_corrections(dlambda_y, B, w_y, e0, e1, e2, e3);
            d0.y = e0.y;
            d1.y = e1.y;
            d2.y = e2.y;
            d3.y = e3.y;
            float held = (w_y.x != w.x ? 1.0f : 0.0f) + (w_y.y != w.y ? 1.0f : 0.0f) +
                         (w_y.z != w.z ? 1.0f : 0.0f) + (w_y.w != w.w ? 1.0f : 0.0f);
            float kept = held < 1.5f ? 1.0f : 0.0f;
            dlambda[0].y = kept * dlambda_y[0].y;
            dlambda[1].y = kept * dlambda_y[1].y;
            dlambda[2].y = kept * dlambda_y[2].y;
        }
        lambda_shape += dlambda;
    }
    shape_step = sqrt(dot(dlambda[0], dlambda[0]) + dot(dlambda[1], dlambda[1]) +
                      dot(dlambda[2], dlambda[2]));

    // Volume, on the positions after the shape step.
    squeezed = false;
    if (volume_enabled) {
        float J;
        residual += tm_volume_steps(x0, x1, x2, x3, w, rest_volume, alpha_volume_tilde,
                                    volume_barrier, omega, ground, sink, lambda_volume, d0, d1,
                                    d2, d3, J);
        squeezed = J < TM_VOLUME_BARRIER_J;
    }
}

// How many last sweeps a substep takes at most: they go on while the
// sweep before turned some tet, and the static projection after it may
// have pressed that tet's corners flat again. A body crushed flat by its
// own weight at 1 x 1 (100 Pa) needed up to 32 before none was left
// inside out (the bunny kept 543 after one, 53 after 8 at most, 1 after
// 16, 0 after 32); at the defaults the first finds none.
const int TM_LAST_SWEEPS_MAX = 32;

// A tet's last step of a substep, after its iterations (docs/algorithm.md
// 2, "A last sweep over the tets left inside out"): a tet that they left
// inside out or flat (J <= 0 at x0..x3) takes the volume steps of
// tm_solve_tet and nothing else (omega: 1 for Gauss-Seidel, the tet's
// Jacobi weight for Jacobi, whose sweeps sum every tet's corrections at
// once, as its iterations do); the corrections are
// returned in d0..d3 (zero where none was taken) and the volume multiplier
// updated. One iteration a substep leaves tets that the tets after them in
// the sweep turned through, with no later sweep to turn them back (the
// bunny landing at 1 x 1 kept 2-23 at 10 kPa to 10 GPa, the 100 Pa
// puddles hundreds). The volume step alone: with the shape step's as well,
// a stiff tet's whole step, with no sweep after it to share it among its
// neighbours, moved its corners far, and the torus at 1 x 1 and 10 GPa was
// thrown apart; the volume step moves them only along its gradient, as far
// as the barrier asks. Returns whether the tet stepped.
TM_FN bool tm_recover_tet(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 w, float rest_volume,
                          float alpha_volume_tilde, bool volume_enabled, bool volume_barrier,
                          bool ground, vec4 sink, float omega,
                          TM_INOUT(float) lambda_volume, TM_OUT(vec3) d0, TM_OUT(vec3) d1,
                          TM_OUT(vec3) d2, TM_OUT(vec3) d3)
{
    d0 = vec3(0.0f);
    d1 = vec3(0.0f);
    d2 = vec3(0.0f);
    d3 = vec3(0.0f);
    if (!volume_enabled || dot(x1 - x0, cross(x2 - x0, x3 - x0)) > 0.0f) {
        return false;
    }
    float J;
    tm_volume_steps(x0, x1, x2, x3, w, rest_volume, alpha_volume_tilde, volume_barrier, omega,
                    ground, sink, lambda_volume, d0, d1, d2, d3, J);
    return true;
}

// The warm start (docs/algorithm.md 4, "In the solvers"): the
// corrections that the multipliers a substep starts with stand for, at the
// predicted positions x0..x3 (the volume's gradients taken there), for the
// caller to apply before the first iteration. At rest they are the whole
// answer, and the iterations have nothing left to do. A tet within the
// engaged barrier (J < J_b) at the predicted positions or at s0..s3, where
// the substep began, starts its volume multiplier from zero: the barrier's
// slope there changes many times over from one substep to the next, and
// the force kept from the last one, put along the new slope, threw a yanked
// body apart. Kept from within the barrier and put along the plain slope
// just outside it, that force threw a light corner between two squeezed
// tets from one side to the other every substep, at 1.5 m/s for good (a
// flip-flop that the air damping could not still; docs/algorithm.md 2,
// "A flip-flop at the barrier's edge").
TM_FN void tm_warm_start_tet(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec3 s0, vec3 s1, vec3 s2,
                             vec3 s3, vec4 w, mat3 B, float rest_volume, bool volume_enabled,
                             bool volume_barrier, mat3 lambda_shape,
                             TM_INOUT(float) lambda_volume, TM_OUT(vec3) d0, TM_OUT(vec3) d1,
                             TM_OUT(vec3) d2, TM_OUT(vec3) d3)
{
    tm_shape_corrections(lambda_shape, B, w, d0, d1, d2, d3);
    if (volume_enabled) {
        vec3 g1;
        vec3 g2;
        vec3 g3;
        tm_volume_gradients(x0, x1, x2, x3, rest_volume, g1, g2, g3);
        if (volume_barrier) {
            vec3 s_g1;
            vec3 s_g2;
            vec3 s_g3;
            tm_volume_gradients(s0, s1, s2, s3, rest_volume, s_g1, s_g2, s_g3);
            if (dot(s1 - s0, s_g1) < TM_VOLUME_BARRIER_J ||
                dot(x1 - x0, g1) < TM_VOLUME_BARRIER_J) {
                lambda_volume = 0.0f;
            }
        }
        d0 -= (w.x * lambda_volume) * (g1 + g2 + g3);
        d1 += (w.y * lambda_volume) * g1;
        d2 += (w.z * lambda_volume) * g2;
        d3 += (w.w * lambda_volume) * g3;
    }
}

// The fraction of the last substep's multipliers the next one starts from.
// All of them where the sweeps keep up with every body's material
// (sweeps_keep_up != 0: core/warm_start.h, docs/algorithm.md 4, "Sweeps
// that keep up"); there a start that the sweeps leave uncorrected dies
// away, and at rest the start is the answer, whatever the iteration count.
// Elsewhere 1 where the iterations converged (the last iteration's steps
// are small beside the first's), falling to 0 where they did not, so that a
// start that the sweeps cannot correct is not kept (docs/algorithm.md 4,
// "In the solvers"), and never more than 0.4: where the sweeps do not keep
// up, a kept share above about one half made a stiff pinned body ring up
// until it flew apart (the beam preset at 1e10 Pa took 0.6-0.8 and reached
// hundreds of m/s, or NaN at 10 x 64; docs/algorithm.md 4, "A ceiling on
// the fraction"). first_steps and last_steps are the sums of shape_step
// over the tets in a substep's first and last iteration.
const float TM_WARM_START_FALLOFF = 2.0f;
const float TM_WARM_START_MOST_BEYOND = 0.4f;
TM_FN float tm_warm_start_fraction(float first_steps, float last_steps, float sweeps_keep_up)
{
    if (sweeps_keep_up != 0.0f) {
        return 1.0f;
    }
    float ratio = first_steps > 0.0f ? last_steps / first_steps : 0.0f;
    return clamp(1.0f - TM_WARM_START_FALLOFF * ratio, 0.0f, TM_WARM_START_MOST_BEYOND);
}

// ---------------------------------------------------------------------------
// Angular momentum (docs/algorithm.md, "Angular momentum").
// ---------------------------------------------------------------------------

// A substep's angular momentum changes by sum_v m_v s_v x dx_v / h, with s_v
// the vertex's position at the start of the substep and dx_v the whole
// correction it received. A tet's step is torque-free about the positions it
// was taken at (its constraints do not change under rotation), not about
// s: where the corners move at different speeds (a body spinning, or
// snapping back from a stretch) each step adds or takes a little spin. This
// removes from the step d0..d3 the rigid rotation omega x (s_a - c) about
// the corners' start positions that carries that spin, c their centre of
// mass, so every step leaves the angular momentum as it was (and, as
// before, the linear momentum). s0..s3 are the start positions, w the
// inverse masses; a tet with a pinned corner is left alone (the pin holds
// it from outside the body anyway), as is one whose start corners lie on a
// line (no rotation to remove about it).
TM_FN void tm_keep_angular_momentum(vec3 s0, vec3 s1, vec3 s2, vec3 s3, vec4 w,
                                    TM_INOUT(vec3) d0, TM_INOUT(vec3) d1,
                                    TM_INOUT(vec3) d2, TM_INOUT(vec3) d3)
{
    if (min(min(w.x, w.y), min(w.z, w.w)) <= 0.0f) {
        return;
    }
    // Mass fractions (summing to one) keep the inertia's scale near r^2.
    vec4 m = vec4(1.0f / w.x, 1.0f / w.y, 1.0f / w.z, 1.0f / w.w);
    m *= 1.0f / (m.x + m.y + m.z + m.w);
    vec3 c = m.x * s0 + m.y * s1 + m.z * s2 + m.w * s3;
    vec3 r0 = s0 - c;
    vec3 r1 = s1 - c;
    vec3 r2 = s2 - c;
    vec3 r3 = s3 - c;
    // The inertia tensor sum m (|r|^2 I - r r^T), by its six entries.
    vec3 q0 = m.x * r0;
    vec3 q1 = m.y * r1;
    vec3 q2 = m.z * r2;
    vec3 q3 = m.w * r3;
    float xx = q0.x * r0.x + q1.x * r1.x + q2.x * r2.x + q3.x * r3.x;
    float yy = q0.y * r0.y + q1.y * r1.y + q2.y * r2.y + q3.y * r3.y;
    float zz = q0.z * r0.z + q1.z * r1.z + q2.z * r2.z + q3.z * r3.z;
    float xy = q0.x * r0.y + q1.x * r1.y + q2.x * r2.y + q3.x * r3.y;
    float xz = q0.x * r0.z + q1.x * r1.z + q2.x * r2.z + q3.x * r3.z;
    float yz = q0.y * r0.z + q1.y * r1.z + q2.y * r2.z + q3.y * r3.z;
    float i_xx = yy + zz;
    float i_yy = xx + zz;
    float i_zz = xx + yy;
    // Its adjugate (the inertia is symmetric, off-diagonal entries -xy ...).
    float a_xx = i_yy * i_zz - yz * yz;
    float a_yy = i_xx * i_zz - xz * xz;
    float a_zz = i_xx * i_yy - xy * xy;
    float a_xy = xy * i_zz + xz * yz;
    float a_xz = xy * yz + xz * i_yy;
    float a_yz = i_xx * yz + xy * xz;
    float determinant = i_xx * a_xx - xy * a_xy - xz * a_xz;
    float trace = i_xx + i_yy + i_zz;
    if (!(determinant > 1.0e-6f * trace * trace * trace)) {
        return;
    }
    // The spin the step carries, sum m r x d, and the rotation that holds it.
    vec3 l = cross(q0, d0) + cross(q1, d1) + cross(q2, d2) + cross(q3, d3);
    vec3 omega = vec3(a_xx * l.x + a_xy * l.y + a_xz * l.z,
                      a_xy * l.x + a_yy * l.y + a_yz * l.z,
                      a_xz * l.x + a_yz * l.y + a_zz * l.z) *
                 (1.0f / determinant);
    d0 -= cross(omega, r0);
    d1 -= cross(omega, r1);
    d2 -= cross(omega, r2);
    d3 -= cross(omega, r3);
}

// Material damping (docs/algorithm.md 2, "Material damping"): a damping
// force proportional to the stiffness, f = -tau K v (Rayleigh's), taken by
// one implicit step per tet over the velocities after a substep. Its
// velocity constraints are the rates of the tet's strain: the six entries
// of the Green strain rate sym(F^T dF/dt) (dF/dt = sum_a v_a b_a^T), zero
// for any rigid motion of the tet however strained, and dJ/dt, each of
// compliance alpha / (h tau), so that a stiffer material is damped as much
// in its own time. Each is solved exactly for the tet (the shape's six
// together), which never adds kinetic energy, and neither changes the
// tet's momentum or angular momentum. x0..x3 are the corners' positions,
// v0..v3 their velocities; alpha_shape and alpha_volume the compliances
// over h tau.

// The symmetric 3 x 3 matrices in an orthonormal basis: E_k for k < 3 is
// e_k e_k^T; E_3, E_4, E_5 are (e_i e_j^T + e_j e_i^T) / sqrt(2) for the
// pairs xy, xz, yz.
const float TM_HALF_SQRT2 = 0.70710678118654752f;

TM_FN void tm_damp_strain_rate(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec3 v0, vec3 v1, vec3 v2,
                               vec3 v3, vec4 w, mat3 B, float rest_volume, float alpha_shape,
                               float alpha_volume, bool volume_enabled, TM_OUT(vec3) dv0,
                               TM_OUT(vec3) dv1, TM_OUT(vec3) dv2, TM_OUT(vec3) dv3)
{
    mat3 F = tm_deformation_gradient(x0, x1, x2, x3, B);
    mat3 C = transpose(F) * F;
    mat3 rate = transpose(F) * tm_deformation_gradient(v0, v1, v2, v3, B);
    // W = sum_a w_a b_a b_a^T, as tm_inverse_shape_system has it.
    vec3 b1 = vec3(B[0].x, B[1].x, B[2].x);
    vec3 b2 = vec3(B[0].y, B[1].y, B[2].y);
    vec3 b3 = vec3(B[0].z, B[1].z, B[2].z);
    vec3 b0 = -(b1 + b2 + b3);
    mat3 W = w.x * outerProduct(b0, b0) + w.y * outerProduct(b1, b1) +
             w.z * outerProduct(b2, b2) + w.w * outerProduct(b3, b3);
    // The step lambda = sum_k mu_k E_k solves sym(C lambda W) + alpha lambda
    // = sym(F^T dF/dt): a 6 x 6 system, symmetric positive definite, in the
    // basis above a_kl = <E_k, C E_l W> + alpha delta_kl (its lower half;
    // r the right-hand side), solved by LDL^T. Written out term by term
    // (tools/damping_system.py prints it): with arrays and loops llvmpipe
    // took a tet's damping twice as long as its step.
    float r0 = rate[0][0];
    float r1 = rate[1][1];
    float r2 = rate[2][2];
    float r3 = TM_HALF_SQRT2 * (rate[1][0] + rate[0][1]);
    float r4 = TM_HALF_SQRT2 * (rate[2][0] + rate[0][2]);
    float r5 = TM_HALF_SQRT2 * (rate[2][1] + rate[1][2]);
    float a00 = C[0][0] * W[0][0] + alpha_shape;
    float a10 = C[1][0] * W[0][1];
    float a11 = C[1][1] * W[1][1] + alpha_shape;
    float a20 = C[2][0] * W[0][2];
    float a21 = C[2][1] * W[1][2];
    float a22 = C[2][2] * W[2][2] + alpha_shape;
    float a30 = (TM_HALF_SQRT2) * (C[1][0] * W[0][0] + C[0][0] * W[0][1]);
    float a31 = (TM_HALF_SQRT2) * (C[1][1] * W[1][0] + C[0][1] * W[1][1]);
    float a32 = (TM_HALF_SQRT2) * (C[1][2] * W[2][0] + C[0][2] * W[2][1]);
    float a33 = (TM_HALF_SQRT2 * TM_HALF_SQRT2) * (C[1][0] * W[1][0] + C[1][1] * W[0][0]
            + C[0][0] * W[1][1] + C[0][1] * W[0][1]) + alpha_shape;
    float a40 = (TM_HALF_SQRT2) * (C[2][0] * W[0][0] + C[0][0] * W[0][2]);
    float a41 = (TM_HALF_SQRT2) * (C[2][1] * W[1][0] + C[0][1] * W[1][2]);
    float a42 = (TM_HALF_SQRT2) * (C[2][2] * W[2][0] + C[0][2] * W[2][2]);
    float a43 = (TM_HALF_SQRT2 * TM_HALF_SQRT2) * (C[2][0] * W[1][0] + C[2][1] * W[0][0]
            + C[0][0] * W[1][2] + C[0][1] * W[0][2]);
    float a44 = (TM_HALF_SQRT2 * TM_HALF_SQRT2) * (C[2][0] * W[2][0] + C[2][2] * W[0][0]
            + C[0][0] * W[2][2] + C[0][2] * W[0][2]) + alpha_shape;
    float a50 = (TM_HALF_SQRT2) * (C[2][0] * W[0][1] + C[1][0] * W[0][2]);
    float a51 = (TM_HALF_SQRT2) * (C[2][1] * W[1][1] + C[1][1] * W[1][2]);
    float a52 = (TM_HALF_SQRT2) * (C[2][2] * W[2][1] + C[1][2] * W[2][2]);
    float a53 = (TM_HALF_SQRT2 * TM_HALF_SQRT2) * (C[2][0] * W[1][1] + C[2][1] * W[0][1]
            + C[1][0] * W[1][2] + C[1][1] * W[0][2]);
    float a54 = (TM_HALF_SQRT2 * TM_HALF_SQRT2) * (C[2][0] * W[2][1] + C[2][2] * W[0][1]
            + C[1][0] * W[2][2] + C[1][2] * W[0][2]);
    float a55 = (TM_HALF_SQRT2 * TM_HALF_SQRT2) * (C[2][1] * W[2][1] + C[2][2] * W[1][1]
            + C[1][1] * W[2][2] + C[1][2] * W[1][2]) + alpha_shape;
    bool solvable = true;
    float pivot0 = a00;
    solvable = solvable && pivot0 > 0.0f;
    float d0 = solvable ? pivot0 : 1.0f;
    float inv_d0 = 1.0f / d0;
    float l10 = (a10) * inv_d0;
    float l20 = (a20) * inv_d0;
    float l30 = (a30) * inv_d0;
    float l40 = (a40) * inv_d0;
    float l50 = (a50) * inv_d0;
    float pivot1 = a11 - l10 * l10 * d0;
    solvable = solvable && pivot1 > 0.0f;
    float d1 = solvable ? pivot1 : 1.0f;
    float inv_d1 = 1.0f / d1;
    float l21 = (a21 - l20 * l10 * d0) * inv_d1;
    float l31 = (a31 - l30 * l10 * d0) * inv_d1;
    float l41 = (a41 - l40 * l10 * d0) * inv_d1;
    float l51 = (a51 - l50 * l10 * d0) * inv_d1;
    float pivot2 = a22 - l20 * l20 * d0 - l21 * l21 * d1;
    solvable = solvable && pivot2 > 0.0f;
    float d2 = solvable ? pivot2 : 1.0f;
    float inv_d2 = 1.0f / d2;
    float l32 = (a32 - l30 * l20 * d0 - l31 * l21 * d1) * inv_d2;
    float l42 = (a42 - l40 * l20 * d0 - l41 * l21 * d1) * inv_d2;
    float l52 = (a52 - l50 * l20 * d0 - l51 * l21 * d1) * inv_d2;
    float pivot3 = a33 - l30 * l30 * d0 - l31 * l31 * d1 - l32 * l32 * d2;
    solvable = solvable && pivot3 > 0.0f;
    float d3 = solvable ? pivot3 : 1.0f;
    float inv_d3 = 1.0f / d3;
    float l43 = (a43 - l40 * l30 * d0 - l41 * l31 * d1 - l42 * l32 * d2) * inv_d3;
    float l53 = (a53 - l50 * l30 * d0 - l51 * l31 * d1 - l52 * l32 * d2) * inv_d3;
    float pivot4 = a44 - l40 * l40 * d0 - l41 * l41 * d1 - l42 * l42 * d2 - l43 * l43 * d3;
    solvable = solvable && pivot4 > 0.0f;
    float d4 = solvable ? pivot4 : 1.0f;
    float inv_d4 = 1.0f / d4;
    float l54 = (a54 - l50 * l40 * d0 - l51 * l41 * d1 - l52 * l42 * d2 - l53 * l43 * d3) * inv_d4;
    float pivot5 = a55 - l50 * l50 * d0 - l51 * l51 * d1 - l52 * l52 * d2 - l53 * l53 * d3
            - l54 * l54 * d4;
    solvable = solvable && pivot5 > 0.0f;
    float d5 = solvable ? pivot5 : 1.0f;
    float inv_d5 = 1.0f / d5;
    float y0 = r0;
    float y1 = r1 - l10 * y0;
    float y2 = r2 - l20 * y0 - l21 * y1;
    float y3 = r3 - l30 * y0 - l31 * y1 - l32 * y2;
    float y4 = r4 - l40 * y0 - l41 * y1 - l42 * y2 - l43 * y3;
    float y5 = r5 - l50 * y0 - l51 * y1 - l52 * y2 - l53 * y3 - l54 * y4;
    float mu5 = solvable ? y5 * inv_d5 : 0.0f;
    float mu4 = solvable ? y4 * inv_d4 - l54 * mu5 : 0.0f;
    float mu3 = solvable ? y3 * inv_d3 - l43 * mu4 - l53 * mu5 : 0.0f;
    float mu2 = solvable ? y2 * inv_d2 - l32 * mu3 - l42 * mu4 - l52 * mu5 : 0.0f;
    float mu1 = solvable ? y1 * inv_d1 - l21 * mu2 - l31 * mu3 - l41 * mu4 - l51 * mu5 : 0.0f;
    float mu0 = solvable ? y0 * inv_d0 - l10 * mu1 - l20 * mu2 - l30 * mu3 - l40 * mu4
            - l50 * mu5 : 0.0f;
    mat3 lambda = mat3(mu0, mu3 * TM_HALF_SQRT2, mu4 * TM_HALF_SQRT2, mu3 * TM_HALF_SQRT2, mu1,
                       mu5 * TM_HALF_SQRT2, mu4 * TM_HALF_SQRT2, mu5 * TM_HALF_SQRT2, mu2);
    // dv_a = -w_a F lambda b_a.
    tm_shape_corrections(F * lambda * (-1.0f), B, w, dv0, dv1, dv2, dv3);
    if (volume_enabled) {
        vec3 g1;
        vec3 g2;
        vec3 g3;
        tm_volume_gradients(x0, x1, x2, x3, rest_volume, g1, g2, g3);
        vec3 g0 = -(g1 + g2 + g3);
        float volume_rate = dot(g0, v0 + dv0) + dot(g1, v1 + dv1) + dot(g2, v2 + dv2) +
                            dot(g3, v3 + dv3);
        float lambda_volume = 0.0f;
        float dlambda = tm_xpbd_dlambda(volume_rate, g0, g1, g2, g3, w, alpha_volume, 1.0f,
                                        lambda_volume);
        dv0 += (w.x * dlambda) * g0;
        dv1 += (w.y * dlambda) * g1;
        dv2 += (w.z * dlambda) * g2;
        dv3 += (w.w * dlambda) * g3;
    }
}
