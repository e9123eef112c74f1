// The body of the SIMD tet kernel. tet_block_kernel_isa.h includes it once
// per instruction set, inside that kernel's namespace so that no two copies
// merge at link time. Before it, that file defines:
//   kLanes                        tets per vf
//   vf, vi, vmask                 kLanes floats, int32s and lane masks
//   select(vmask, vf, vf)         per-lane choice
//   tb_sqrt                       IEEE sqrt
//   tb_load(const float*), tb_load(const int32_t*), tb_store(float*, vf)
//   tb_gather_xyz(const float*, vi, vf&, vf&, vf&), tb_scatter_xyz(float*,
//   vi, vf, vf, vf)                the three coordinates of points at once
//   tb_gather_xyzw(const float*, vi, vf&, vf&, vf&, vf&)  the four floats
//                                  of points stored four floats apart
// Every function mirrors one of shaders/tet_math.glsl, line for line, with
// branches turned into selects. No library function is called here (see
// TetBlockArrays for why).

inline vf splat(float value) { return vf{} + value; }
inline vf tb_abs(vf x) { return select(x < 0.0f, -x, x); }
inline vf tb_max(vf a, vf b) { return select(a > b, a, b); }
inline vf tb_min(vf a, vf b) { return select(a < b, a, b); }

struct v3 {
    vf x, y, z;
};
inline v3 operator+(v3 a, v3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline v3 operator-(v3 a, v3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline v3 operator-(v3 a) { return {-a.x, -a.y, -a.z}; }
inline v3 operator*(vf s, v3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline v3 operator*(v3 a, vf s) { return {a.x * s, a.y * s, a.z * s}; }
inline vf dot(v3 a, v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline v3 cross(v3 a, v3 b)
{
    return {a.y * b.z - b.y * a.z, a.z * b.x - b.z * a.x, a.x * b.y - b.x * a.y};
}
inline v3 select(vmask m, v3 a, v3 b)
{
    return {select(m, a.x, b.x), select(m, a.y, b.y), select(m, a.z, b.z)};
}

// Column-major like GLSL: c[column], components are rows.
struct m3 {
    v3 c[3];
};
inline v3 mul(const m3& m, v3 v) { return m.c[0] * v.x + m.c[1] * v.y + m.c[2] * v.z; }
inline m3 mul(const m3& a, const m3& b) { return {{mul(a, b.c[0]), mul(a, b.c[1]), mul(a, b.c[2])}}; }
// A * B^T: column j is sum_k A[k] * B[k][j].
inline m3 mul_transposed(const m3& a, const m3& b)
{
    m3 r;
    r.c[0] = a.c[0] * b.c[0].x + a.c[1] * b.c[1].x + a.c[2] * b.c[2].x;
    r.c[1] = a.c[0] * b.c[0].y + a.c[1] * b.c[1].y + a.c[2] * b.c[2].y;
    r.c[2] = a.c[0] * b.c[0].z + a.c[1] * b.c[1].z + a.c[2] * b.c[2].z;
    return r;
}
inline m3 transpose(const m3& m)
{
    return {{{m.c[0].x, m.c[1].x, m.c[2].x},
             {m.c[0].y, m.c[1].y, m.c[2].y},
             {m.c[0].z, m.c[1].z, m.c[2].z}}};
}
inline m3 identity()
{
    const vf one = splat(1.0f);
    const vf zero = splat(0.0f);
    return {{{one, zero, zero}, {zero, one, zero}, {zero, zero, one}}};
}

constexpr float kSvdGamma = 5.828427124746190f;
constexpr float kCosPi8 = 0.9238795325112868f;
constexpr float kSinPi8 = 0.3826834323650898f;
constexpr float kQrEpsilon = 1.0e-15f;
constexpr int kJacobiSweeps = 5;
constexpr float kShapeDeterminantFloor = 1.0e-30f;
constexpr float kDenominatorFloor = 1.0e-20f;
constexpr float kHalfSqrt2 = 0.70710678118654752f;  // TM_HALF_SQRT2
constexpr float kPolarNewtonMaxStep = 1.0e-2f;
constexpr float kPolarDefiniteFloor = 1.0e-4f;
constexpr float kVolumeBarrierJ = 0.3f;              // TM_VOLUME_BARRIER_J
constexpr float kVolumeBarrierTangentJ = 0.01875f;  // TM_VOLUME_BARRIER_TANGENT_J
constexpr int kVolumeBarrierExtraSteps = 4;          // TM_VOLUME_BARRIER_EXTRA_STEPS
constexpr float kVolumeBarrierExtraJ = 0.15f;        // TM_VOLUME_BARRIER_EXTRA_J
constexpr float kGroundHoldFromM = 2.0e-3f;           // TM_GROUND_HOLD_FROM_M
constexpr float kGroundHoldFullM = 5.0e-3f;           // TM_GROUND_HOLD_FULL_M
constexpr float kGroundHoldRegularisation = 1.0e-3f;  // TM_GROUND_HOLD_REGULARISATION

// tm_ground_held_mass (with tm_ground_free_share).
inline vf ground_held_mass(vf w, vf y, vf sink, vf move_y)
{
    const vf share = tb_min(tb_max((y + sink + kGroundHoldFullM) *
                                       (1.0f / (kGroundHoldFullM - kGroundHoldFromM)),
                                   splat(0.0f)),
                            splat(1.0f));
    return select(move_y < 0.0f, w * share, w);
}

// tm_rotation_from_half_angle. (Normalizing (ch, sh) with the hardware
// 1/sqrt estimate and a Newton step instead was as fast, but its rounding
// made every rotation a little longer than 1: a body at rest came out of
// the SVD with |Sigma - I| ~ 1e-5 and took spurious steps.) ch^2 + sh^2
// must be positive.
inline void rotation_from_half_angle(vf ch, vf sh, vf& c, vf& s)
{
    const vf cc = ch * ch;
    const vf ss = sh * sh;
    const vf inv_n = 1.0f / (cc + ss);
    c = (cc - ss) * inv_n;
    s = 2.0f * ch * sh * inv_n;
}

// tm_jacobi_half_angle then tm_rotation_from_half_angle.
inline void jacobi_rotation(vf s_pp, vf s_pq, vf s_qq, vf& c, vf& s)
{
    const vf ch = 2.0f * (s_pp - s_qq);
    const vf sh = s_pq;
    const vmask exact = kSvdGamma * sh * sh < ch * ch;  // then ch != 0
    rotation_from_half_angle(select(exact, ch, splat(kCosPi8)), select(exact, sh, splat(kSinPi8)),
                             c, s);
}

// tm_jacobi_conjugate.
inline void jacobi_conjugate(vf c, vf s, vf& s_pp, vf& s_pq, vf& s_qq, vf& s_rp, vf& s_rq)
{
    const vf pp = s_pp;
    const vf pq = s_pq;
    const vf qq = s_qq;
    const vf cc = c * c;
    const vf ss = s * s;
    const vf cs = c * s;
    s_pp = cc * pp + 2.0f * cs * pq + ss * qq;
    s_qq = ss * pp - 2.0f * cs * pq + cc * qq;
    s_pq = (cc - ss) * pq + cs * (qq - pp);
    const vf rp = s_rp;
    s_rp = c * rp + s * s_rq;
    s_rq = -s * rp + c * s_rq;
}

inline void rotate_columns(vf c, vf s, v3& p, v3& q)
{
    const v3 old_p = p;
    p = c * old_p + s * q;
    q = -s * old_p + c * q;
}

// tm_qr_half_angle then tm_rotation_from_half_angle.
inline void qr_rotation(vf a1, vf a2, vf& c, vf& s)
{
    const vf rho = tb_sqrt(a1 * a1 + a2 * a2);
    vf sh = select(rho > kQrEpsilon, a2, splat(0.0f));
    vf ch = tb_abs(a1) + tb_max(rho, splat(kQrEpsilon));
    const vmask negative = a1 < 0.0f;
    const vf swapped = sh;
    sh = select(negative, ch, sh);
    ch = select(negative, swapped, ch);
    rotation_from_half_angle(ch, sh, c, s);  // ch >= epsilon
}

// tm_swap_columns_if_smaller.
inline void swap_columns_if_smaller(v3& b_i, v3& b_j, v3& v_i, v3& v_j, vf& rho_i, vf& rho_j)
{
    const vmask swap = rho_i < rho_j;
    const v3 b_i_old = b_i;
    const v3 v_i_old = v_i;
    const vf rho_i_old = rho_i;
    b_i = select(swap, b_j, b_i);
    b_j = select(swap, -b_i_old, b_j);
    v_i = select(swap, v_j, v_i);
    v_j = select(swap, -v_i_old, v_j);
    rho_i = select(swap, rho_j, rho_i);
    rho_j = select(swap, rho_i_old, rho_j);
}

// Rotation of rows p and q of M (tm_rotate_rows_pq): each column's p and q
// components, and U's columns p and q.
inline void rotate_rows(vf c, vf s, vf& mp, vf& mq)
{
    const vf p = mp;
    const vf q = mq;
    mp = c * p + s * q;
    mq = -s * p + c * q;
}

// tm_signed_svd.
inline void signed_svd(const m3& F, m3& U, v3& sigma, m3& V)
{
    const vf s11_0 = dot(F.c[0], F.c[0]);
    vf s11 = s11_0;
    vf s21 = dot(F.c[0], F.c[1]);
    vf s31 = dot(F.c[0], F.c[2]);
    vf s22 = dot(F.c[1], F.c[1]);
    vf s32 = dot(F.c[1], F.c[2]);
    vf s33 = dot(F.c[2], F.c[2]);
    V = identity();
#pragma GCC unroll 5
    for (int sweep = 0; sweep < kJacobiSweeps; ++sweep) {
        vf c, s;
        jacobi_rotation(s11, s21, s22, c, s);
        jacobi_conjugate(c, s, s11, s21, s22, s31, s32);
        rotate_columns(c, s, V.c[0], V.c[1]);

        jacobi_rotation(s11, s31, s33, c, s);
        jacobi_conjugate(c, s, s11, s31, s33, s21, s32);
        rotate_columns(c, s, V.c[0], V.c[2]);

        jacobi_rotation(s22, s32, s33, c, s);
        jacobi_conjugate(c, s, s22, s32, s33, s21, s31);
        rotate_columns(c, s, V.c[1], V.c[2]);
    }

    m3 B = mul(F, V);
    vf rho0 = dot(B.c[0], B.c[0]);
    vf rho1 = dot(B.c[1], B.c[1]);
    vf rho2 = dot(B.c[2], B.c[2]);
    swap_columns_if_smaller(B.c[0], B.c[1], V.c[0], V.c[1], rho0, rho1);
    swap_columns_if_smaller(B.c[0], B.c[2], V.c[0], V.c[2], rho0, rho2);
    swap_columns_if_smaller(B.c[1], B.c[2], V.c[1], V.c[2], rho1, rho2);

    m3& R = B;
    U = identity();
    vf c, s;
    qr_rotation(R.c[0].x, R.c[0].y, c, s);
    for (int j = 0; j < 3; ++j) rotate_rows(c, s, R.c[j].x, R.c[j].y);
    rotate_columns(c, s, U.c[0], U.c[1]);
    qr_rotation(R.c[0].x, R.c[0].z, c, s);
    for (int j = 0; j < 3; ++j) rotate_rows(c, s, R.c[j].x, R.c[j].z);
    rotate_columns(c, s, U.c[0], U.c[2]);
    qr_rotation(R.c[1].y, R.c[1].z, c, s);
    for (int j = 0; j < 3; ++j) rotate_rows(c, s, R.c[j].y, R.c[j].z);
    rotate_columns(c, s, U.c[1], U.c[2]);
    sigma = {R.c[0].x, R.c[1].y, R.c[2].z};
}

// tm_rotation_of_quaternion; q = x, y, z, w.
inline m3 rotation_of_quaternion(const vf* q)
{
    const vf x = q[0];
    const vf y = q[1];
    const vf z = q[2];
    const vf w = q[3];
    const vf x2 = x + x;
    const vf y2 = y + y;
    const vf z2 = z + z;
    const vf xx = x * x2;
    const vf yy = y * y2;
    const vf zz = z * z2;
    const vf xy = x * y2;
    const vf xz = x * z2;
    const vf yz = y * z2;
    const vf wx = w * x2;
    const vf wy = w * y2;
    const vf wz = w * z2;
    const vf one = splat(1.0f);
    return {{{one - yy - zz, xy + wz, xz - wy},
             {xy - wz, one - xx - zz, yz + wx},
             {xz + wy, yz - wx, one - xx - yy}}};
}

// tm_quaternion_of_rotation, its four cases as selects.
inline void quaternion_of_rotation(const m3& R, vf* q)
{
    const vf r00 = R.c[0].x;
    const vf r11 = R.c[1].y;
    const vf r22 = R.c[2].z;
    const vf trace = r00 + r11 + r22;
    const vmask x_largest = (r00 > trace) & (r00 >= r11) & (r00 >= r22);
    const vmask y_largest = (r11 > trace) & (r11 > r00) & (r11 >= r22);
    const vmask z_largest = (r22 > trace) & (r22 > r00) & (r22 > r11);
    const vf largest =
        select(x_largest, r00, select(y_largest, r11, select(z_largest, r22, trace)));
    const vf big = 0.5f * tb_sqrt(tb_max(1.0f + 2.0f * largest - trace, splat(1.0e-30f)));
    const vf quarter_inv = 0.25f / big;
    // Entry r_ij is row i, column j: R.c[j] component i.
    const vf diff_zy = (R.c[1].z - R.c[2].y) * quarter_inv;  // r21 - r12
    const vf diff_xz = (R.c[2].x - R.c[0].z) * quarter_inv;  // r02 - r20
    const vf diff_yx = (R.c[0].y - R.c[1].x) * quarter_inv;  // r10 - r01
    const vf sum_xy = (R.c[1].x + R.c[0].y) * quarter_inv;
    const vf sum_xz = (R.c[2].x + R.c[0].z) * quarter_inv;
    const vf sum_yz = (R.c[2].y + R.c[1].z) * quarter_inv;
    q[0] = select(x_largest, big, select(y_largest, sum_xy, select(z_largest, sum_xz, diff_zy)));
    q[1] = select(x_largest, sum_xy, select(y_largest, big, select(z_largest, sum_yz, diff_xz)));
    q[2] = select(x_largest, sum_xz, select(y_largest, sum_yz, select(z_largest, big, diff_yx)));
    q[3] = select(x_largest, diff_zy, select(y_largest, diff_xz, select(z_largest, diff_yx, big)));
}

// tm_polar_newton_step.
inline vmask polar_newton_step(const m3& F, vf* q)
{
    const m3 R = rotation_of_quaternion(q);
    // S = R^T F, entry s_ij = row i, column j.
    const vf s00 = dot(R.c[0], F.c[0]);
    const vf s01 = dot(R.c[0], F.c[1]);
    const vf s02 = dot(R.c[0], F.c[2]);
    const vf s10 = dot(R.c[1], F.c[0]);
    const vf s11 = dot(R.c[1], F.c[1]);
    const vf s12 = dot(R.c[1], F.c[2]);
    const vf s20 = dot(R.c[2], F.c[0]);
    const vf s21 = dot(R.c[2], F.c[1]);
    const vf s22 = dot(R.c[2], F.c[2]);
    const v3 gradient = {s21 - s12, s02 - s20, s10 - s01};
    // H = tr(S) I - sym(S), and its adjugate.
    const vf h00 = s11 + s22;
    const vf h11 = s00 + s22;
    const vf h22 = s00 + s11;
    const vf h01 = -0.5f * (s01 + s10);
    const vf h02 = -0.5f * (s02 + s20);
    const vf h12 = -0.5f * (s12 + s21);
    const vf a00 = h11 * h22 - h12 * h12;
    const vf a11 = h00 * h22 - h02 * h02;
    const vf a22 = h00 * h11 - h01 * h01;
    const vf a01 = h02 * h12 - h01 * h22;
    const vf a02 = h01 * h12 - h02 * h11;
    const vf a12 = h01 * h02 - h00 * h12;
    const vf determinant = h00 * a00 + h01 * a01 + h02 * a02;
    const vf trace = h00 + h11 + h22;
    const vmask definite = (h00 > 0.0f) & (a22 > 0.0f) &
                           (determinant > kPolarDefiniteFloor * trace * trace * trace);
    const vf half_inv_det = 0.5f * (1.0f / determinant);
    const v3 half_step = v3{a00 * gradient.x + a01 * gradient.y + a02 * gradient.z,
                            a01 * gradient.x + a11 * gradient.y + a12 * gradient.z,
                            a02 * gradient.x + a12 * gradient.y + a22 * gradient.z} *
                         half_inv_det;
    const vmask short_step =
        dot(half_step, half_step) < 0.25f * kPolarNewtonMaxStep * kPolarNewtonMaxStep;
    const v3 qv = {q[0], q[1], q[2]};
    const vf w = q[3] - dot(qv, half_step);
    const v3 v = q[3] * half_step + qv + cross(qv, half_step);
    const vf inv_norm = 1.0f / tb_sqrt(w * w + dot(v, v));
    q[0] = v.x * inv_norm;
    q[1] = v.y * inv_norm;
    q[2] = v.z * inv_norm;
    q[3] = w * inv_norm;
    return definite & short_step;
}

// tm_xpbd_dlambda with omega = 1, for the lanes in `active`.
inline vf xpbd_dlambda(vmask active, vf C, v3 g0, v3 g1, v3 g2, v3 g3, const vf* w,
                       vf alpha_tilde, vf& lambda)
{
    const vf denominator = w[0] * dot(g0, g0) + w[1] * dot(g1, g1) + w[2] * dot(g2, g2) +
                           w[3] * dot(g3, g3) + alpha_tilde;
    const vmask steps = active & (denominator >= kDenominatorFloor);
    const vf dlambda = select(steps, -(C + alpha_tilde * lambda) / denominator, splat(0.0f));
    lambda += dlambda;
    return dlambda;
}

// tm_volume_constraint: C at J, and its slope dC/dJ.
inline vf volume_constraint(vf J, bool barrier, vf& slope)
{
    slope = splat(1.0f);
    if (!barrier) {
        return J - 1.0f;
    }
    const vmask below = J < kVolumeBarrierJ;
    const vf ratio = kVolumeBarrierJ / tb_max(J, splat(kVolumeBarrierTangentJ));
    const vf barrier_slope = ratio * ratio;
    const vf past = J - kVolumeBarrierTangentJ;
    const vf barrier_C = (2.0f * kVolumeBarrierJ - 1.0f) - kVolumeBarrierJ * ratio +
                         barrier_slope * select(past < 0.0f, past, splat(0.0f));
    slope = select(below, barrier_slope, slope);
    return select(below, barrier_C, J - 1.0f);
}

// tm_keep_angular_momentum, for every lane: a lane with a pinned corner
// (padding too: its inverse masses are 0) or start corners on a line keeps
// its step as it is.
inline void keep_angular_momentum(const v3* s, const vf* w, v3* d)
{
    const vmask unpinned = (w[0] > 0.0f) & (w[1] > 0.0f) & (w[2] > 0.0f) & (w[3] > 0.0f);
    const vf one = splat(1.0f);
    // Pinned lanes divide by zero here; their results are not used.
    vf m[4] = {one / w[0], one / w[1], one / w[2], one / w[3]};
    const vf inv_total = one / (m[0] + m[1] + m[2] + m[3]);
    for (int a = 0; a < 4; ++a) m[a] = m[a] * inv_total;
    const v3 c = m[0] * s[0] + m[1] * s[1] + m[2] * s[2] + m[3] * s[3];
    v3 r[4];
    v3 q[4];
    for (int a = 0; a < 4; ++a) {
        r[a] = s[a] - c;
        q[a] = m[a] * r[a];
    }
    const vf xx = q[0].x * r[0].x + q[1].x * r[1].x + q[2].x * r[2].x + q[3].x * r[3].x;
    const vf yy = q[0].y * r[0].y + q[1].y * r[1].y + q[2].y * r[2].y + q[3].y * r[3].y;
    const vf zz = q[0].z * r[0].z + q[1].z * r[1].z + q[2].z * r[2].z + q[3].z * r[3].z;
    const vf xy = q[0].x * r[0].y + q[1].x * r[1].y + q[2].x * r[2].y + q[3].x * r[3].y;
    const vf xz = q[0].x * r[0].z + q[1].x * r[1].z + q[2].x * r[2].z + q[3].x * r[3].z;
    const vf yz = q[0].y * r[0].z + q[1].y * r[1].z + q[2].y * r[2].z + q[3].y * r[3].z;
    const vf i_xx = yy + zz;
    const vf i_yy = xx + zz;
    const vf i_zz = xx + yy;
    const vf a_xx = i_yy * i_zz - yz * yz;
    const vf a_yy = i_xx * i_zz - xz * xz;
    const vf a_zz = i_xx * i_yy - xy * xy;
    const vf a_xy = xy * i_zz + xz * yz;
    const vf a_xz = xy * yz + xz * i_yy;
    const vf a_yz = i_xx * yz + xy * xz;
    const vf determinant = i_xx * a_xx - xy * a_xy - xz * a_xz;
    const vf trace = i_xx + i_yy + i_zz;
    const vmask invertible = unpinned & (determinant > 1.0e-6f * trace * trace * trace);
    const v3 l = cross(q[0], d[0]) + cross(q[1], d[1]) + cross(q[2], d[2]) + cross(q[3], d[3]);
    const v3 omega = v3{a_xx * l.x + a_xy * l.y + a_xz * l.z,
                        a_xy * l.x + a_yy * l.y + a_yz * l.z,
                        a_xz * l.x + a_yz * l.y + a_zz * l.z} *
                     (one / determinant);
    for (int a = 0; a < 4; ++a) d[a] = select(invertible, d[a] - cross(omega, r[a]), d[a]);
}

// tm_inverse_shape_system.
inline m3 inverse_shape_system(const vf* w, const m3& B, vf alpha)
{
    const v3 b1 = {B.c[0].x, B.c[1].x, B.c[2].x};
    const v3 b2 = {B.c[0].y, B.c[1].y, B.c[2].y};
    const v3 b3 = {B.c[0].z, B.c[1].z, B.c[2].z};
    const v3 b0 = -(b1 + b2 + b3);
    const v3 wb0 = w[0] * b0;
    const v3 wb1 = w[1] * b1;
    const v3 wb2 = w[2] * b2;
    const v3 wb3 = w[3] * b3;
    vf m00 = wb0.x * b0.x + wb1.x * b1.x + wb2.x * b2.x + wb3.x * b3.x + alpha;
    vf m11 = wb0.y * b0.y + wb1.y * b1.y + wb2.y * b2.y + wb3.y * b3.y + alpha;
    vf m22 = wb0.z * b0.z + wb1.z * b1.z + wb2.z * b2.z + wb3.z * b3.z + alpha;
    vf m01 = wb0.x * b0.y + wb1.x * b1.y + wb2.x * b2.y + wb3.x * b3.y;
    vf m02 = wb0.x * b0.z + wb1.x * b1.z + wb2.x * b2.z + wb3.x * b3.z;
    vf m12 = wb0.y * b0.z + wb1.y * b1.z + wb2.y * b2.z + wb3.y * b3.z;
    const vf scale = 1.0f / (m00 + m11 + m22);
    m00 = m00 * scale;
    m11 = m11 * scale;
    m22 = m22 * scale;
    m01 = m01 * scale;
    m02 = m02 * scale;
    m12 = m12 * scale;
    const vf a00 = m11 * m22 - m12 * m12;
    const vf a11 = m00 * m22 - m02 * m02;
    const vf a22 = m00 * m11 - m01 * m01;
    const vf a01 = m02 * m12 - m01 * m22;
    const vf a02 = m01 * m12 - m02 * m11;
    const vf a12 = m01 * m02 - m00 * m12;
    const vf determinant = m00 * a00 + m01 * a01 + m02 * a02;
    const vf factor = scale / tb_max(determinant, splat(kShapeDeterminantFloor));
    return {{{a00 * factor, a01 * factor, a02 * factor},
             {a01 * factor, a11 * factor, a12 * factor},
             {a02 * factor, a12 * factor, a22 * factor}}};
}

// tm_shape_corrections.
inline void shape_corrections(const m3& M, const m3& B, const vf* w, v3* d)
{
    const m3 G = mul_transposed(M, B);
    d[0] = -w[0] * (G.c[0] + G.c[1] + G.c[2]);
    d[1] = w[1] * G.c[0];
    d[2] = w[2] * G.c[1];
    d[3] = w[3] * G.c[2];
}

// tm_volume_gradients.
inline void volume_gradients(v3 p0, v3 p1, v3 p2, v3 p3, vf inv_rest_volume, v3* g)
{
    const v3 e1 = p1 - p0;
    const v3 e2 = p2 - p0;
    const v3 e3 = p3 - p0;
    const vf inv_six_v0 = inv_rest_volume * (1.0f / 6.0f);
    g[1] = cross(e2, e3) * inv_six_v0;
    g[2] = cross(e3, e1) * inv_six_v0;
    g[3] = cross(e1, e2) * inv_six_v0;
}

// A 3 x 3 matrix per lane from nine lane-major arrays, column-major as
// GLSL's mat3 ([3 * column + row]): B, or the shape multiplier.
inline m3 load_m3(const float* const* entries, size_t slot)
{
    m3 m;
    for (int column = 0; column < 3; ++column) {
        m.c[column] = {tb_load(entries[3 * column] + slot), tb_load(entries[3 * column + 1] + slot),
                       tb_load(entries[3 * column + 2] + slot)};
    }
    return m;
}

inline void store_m3(float* const* entries, size_t slot, const m3& m)
{
    for (int column = 0; column < 3; ++column) {
        tb_store(entries[3 * column] + slot, m.c[column].x);
        tb_store(entries[3 * column + 1] + slot, m.c[column].y);
        tb_store(entries[3 * column + 2] + slot, m.c[column].z);
    }
}

inline vf frobenius(const m3& m)
{
    return tb_sqrt(dot(m.c[0], m.c[0]) + dot(m.c[1], m.c[1]) + dot(m.c[2], m.c[2]));
}

// A block's rest volumes: 1 / V0, and which lanes are slivers (their V0
// stored negated).
struct RestVolumes {
    vf inverse;
    vmask sliver;
};

inline RestVolumes load_rest_volumes(const TetBlockArrays& blocks, size_t slot)
{
    const vf signed_v0 = tb_load(blocks.signed_rest_volume + slot);
    const vmask sliver = signed_v0 < 0.0f;
    return {1.0f / select(sliver, -signed_v0, signed_v0), sliver};
}

// A block's corners as the substep has them: where they were predicted to
// go, the correction gathered so far, where the substep began, and their
// inverse masses (stored beside the start, one load for both: a 16-lane
// gather of the masses alone, microcoded on AMD's Zen 4, took a tenth of
// the step).
struct BlockCorners {
    vi corner3[4];  // 3 x the vertex index: the first float of its x y z
    v3 predicted[4];
    v3 correction[4];
    v3 start[4];
    vf w[4];
};

inline BlockCorners gather_corners(const TetBlockArrays& blocks, const TetBlockStep& step,
                                   size_t slot)
{
    BlockCorners c;
    for (int a = 0; a < 4; ++a) {
        const vi corner = tb_load(blocks.corner[a] + slot);
        c.corner3[a] = corner * 3;
        tb_gather_xyz(step.predicted, c.corner3[a], c.predicted[a].x, c.predicted[a].y,
                      c.predicted[a].z);
        tb_gather_xyz(step.corrections, c.corner3[a], c.correction[a].x, c.correction[a].y,
                      c.correction[a].z);
        tb_gather_xyzw(step.start, corner * 4, c.start[a].x, c.start[a].y, c.start[a].z,
                       c.w[a]);
    }
    return c;
}

// Adds d to the corners' corrections. No two lanes share a vertex (padding
// lanes share the dummy vertex and add exactly zero to it), so the scatter
// has no conflicts.
inline void scatter_corrections(const TetBlockStep& step, const BlockCorners& c, const v3* d)
{
    for (int a = 0; a < 4; ++a) {
        const v3 updated = c.correction[a] + d[a];
        tb_scatter_xyz(step.corrections, c.corner3[a], updated.x, updated.y, updated.z);
    }
}

// What one block's step reports, per lane.
struct LaneSums {
    vf residual;    // |C + alpha~ lambda| before the step
    vf shape_step;  // |dLambda| of the shape multiplier
    vmask squeezed;  // the volume step found the tet within the barrier's reach (J < J_b)
};

// tm_deformation_gradient.
inline m3 deformation_gradient(const v3* x, const m3& B)
{
    const m3 Ds = {{x[1] - x[0], x[2] - x[0], x[3] - x[0]}};
    return mul(Ds, B);
}

inline vf determinant(const m3& m) { return dot(m.c[0], cross(m.c[1], m.c[2])); }

// GLSL's inverse: the rows of m^-1 are the columns' cross products over
// the determinant.
inline m3 inverse(const m3& m)
{
    const vf inv_det = 1.0f / determinant(m);
    return transpose({{cross(m.c[1], m.c[2]) * inv_det, cross(m.c[2], m.c[0]) * inv_det,
                       cross(m.c[0], m.c[1]) * inv_det}});
}

// tm_rest_spread.
inline m3 rest_spread(const m3& rest_edges)
{
    const v3 centre = splat(0.25f) * (rest_edges.c[0] + rest_edges.c[1] + rest_edges.c[2]);
    m3 S = mul_transposed(rest_edges, rest_edges);
    S.c[0] = S.c[0] - (4.0f * centre.x) * centre;
    S.c[1] = S.c[1] - (4.0f * centre.y) * centre;
    S.c[2] = S.c[2] - (4.0f * centre.z) * centre;
    return S;
}

// What tm_sliver_shape_step takes of a block's rest and present shapes:
// Dm, Ds, m = tr S / 3, and F S, reflected for the lanes of `sliver` that
// are inverted (the signed SVD only when there are some).
struct SliverShape {
    m3 rest_edges;
    m3 edges;
    vf mean;
    m3 weighted;
};

inline SliverShape sliver_shape(const v3* x, const m3& B, const m3& F, vmask sliver)
{
    SliverShape s;
    s.rest_edges = inverse(B);
    s.edges = {{x[1] - x[0], x[2] - x[0], x[3] - x[0]}};
    const m3 S = rest_spread(s.rest_edges);
    s.mean = (S.c[0].x + S.c[1].y + S.c[2].z) * (1.0f / 3.0f);
    const v3 centre = splat(0.25f) * (s.edges.c[0] + s.edges.c[1] + s.edges.c[2]);
    const v3 rest_centre =
        splat(0.25f) * (s.rest_edges.c[0] + s.rest_edges.c[1] + s.rest_edges.c[2]);
    s.weighted = mul_transposed(s.edges, s.rest_edges);
    s.weighted.c[0] = s.weighted.c[0] - (4.0f * rest_centre.x) * centre;
    s.weighted.c[1] = s.weighted.c[1] - (4.0f * rest_centre.y) * centre;
    s.weighted.c[2] = s.weighted.c[2] - (4.0f * rest_centre.z) * centre;
    const vmask inverted = sliver & (determinant(F) < 0.0f);
    if (any_lane(inverted)) {
        m3 U, V;
        v3 sigma;
        signed_svd(F, U, sigma, V);
        const v3 axis = V.c[2];
        const v3 image = mul(F, axis);
        const v3 spread_axis = mul(S, axis);
        const vf along[3] = {spread_axis.x, spread_axis.y, spread_axis.z};
        for (int column = 0; column < 3; ++column) {
            s.weighted.c[column] = select(
                inverted, s.weighted.c[column] - (2.0f * along[column]) * image,
                s.weighted.c[column]);
        }
    }
    return s;
}

// K^1/2 of tm_sliver_shape_step.
inline m3 half_centring()
{
    const vf on = splat(0.8333333333333333f);
    const vf off = splat(-0.1666666666666667f);
    return {{{on, off, off}, {off, on, off}, {off, off, on}}};
}

// tm_sliver_shape_step after the rotation: dlambda and the corrections d,
// returns the residual. lambda_shape is not updated here.
inline vf sliver_shape_step(const SliverShape& s, const m3& R, const vf* w, vf alpha,
                            const m3& lambda_shape, m3& dlambda, v3* d)
{
    const vf inv_root_mean = 1.0f / tb_sqrt(s.mean);
    const m3 K = half_centring();
    const m3 turned = mul(R, s.rest_edges);
    const m3 centred = mul(m3{{s.edges.c[0] - turned.c[0], s.edges.c[1] - turned.c[1],
                               s.edges.c[2] - turned.c[2]}},
                           K);
    m3 rhs;
    for (int column = 0; column < 3; ++column) {
        rhs.c[column] = centred.c[column] * inv_root_mean + alpha * lambda_shape.c[column];
    }
    const m3 masses = {{{w[0] + w[1], w[0], w[0]},
                        {w[0], w[0] + w[2], w[0]},
                        {w[0], w[0], w[0] + w[3]}}};
    const m3 KMK = mul(mul(K, masses), K);
    const vf inv_mean = 1.0f / s.mean;
    m3 Q;
    for (int column = 0; column < 3; ++column) Q.c[column] = KMK.c[column] * inv_mean;
    Q.c[0].x = Q.c[0].x + alpha;
    Q.c[1].y = Q.c[1].y + alpha;
    Q.c[2].z = Q.c[2].z + alpha;
    const m3 product = mul(rhs, inverse(Q));
    for (int column = 0; column < 3; ++column) dlambda.c[column] = product.c[column] * splat(-1.0f);
    const m3 G = mul(dlambda, K);
    const v3 g[3] = {G.c[0] * inv_root_mean, G.c[1] * inv_root_mean, G.c[2] * inv_root_mean};
    d[0] = -(w[0] * (g[0] + g[1] + g[2]));
    d[1] = w[1] * g[0];
    d[2] = w[2] * g[1];
    d[3] = w[3] * g[2];
    return frobenius(rhs);
}

// tm_tet_rotation, the block's rotations updated: a block takes the signed
// SVD only when one of its lanes needs it.
inline m3 tet_rotation(const TetBlockArrays& blocks, size_t slot, const m3& F, const vf* w)
{
    vf q[4];
    for (int i = 0; i < 4; ++i) q[i] = tb_load(blocks.rotation[i] + slot);
    const vmask found = polar_newton_step(F, q);
    m3 R = rotation_of_quaternion(q);
    const vmask moves = (w[0] + w[1] + w[2] + w[3]) > 0.0f;  // padding does not
    const vmask needs_svd = moves & ~found;
    if (any_lane(needs_svd)) {
        m3 U, V;
        v3 sigma;
        signed_svd(F, U, sigma, V);
        const m3 R_svd = mul_transposed(U, V);
        vf q_svd[4];
        quaternion_of_rotation(R_svd, q_svd);
        for (int column = 0; column < 3; ++column) {
            R.c[column] = select(needs_svd, R_svd.c[column], R.c[column]);
        }
        for (int i = 0; i < 4; ++i) q[i] = select(needs_svd, q_svd[i], q[i]);
    }
    for (int i = 0; i < 4; ++i) tb_store(blocks.rotation[i] + slot, q[i]);
    return R;
}

// tm_further_steps_entry.
inline vf further_steps_entry(vf J)
{
    return tb_min(tb_max((kVolumeBarrierExtraJ - J) *
                             (1.0f / (kVolumeBarrierExtraJ - kVolumeBarrierTangentJ)),
                         splat(0.0f)),
                  splat(1.0f));
}

// tm_volume_step for the lanes `on` (the others' corrections and
// multipliers kept, their residual 0); J is every lane's.
inline vf volume_step(const v3* x, const vf* w, vf inv_rest_volume, vf alpha_volume,
                      bool barrier, bool only_within_barrier, vf entry, vmask on,
                      vf& lambda_volume, v3* d, vf& J, bool ground, const vf* sink)
{
    const v3 p0 = x[0] + d[0];
    v3 g[4];
    volume_gradients(p0, x[1] + d[1], x[2] + d[2], x[3] + d[3], inv_rest_volume, g);
    J = dot(x[1] + d[1] - p0, g[1]);
    const vmask active = only_within_barrier ? on & (J < kVolumeBarrierJ) : on;
    vf slope;
    const vf C = volume_constraint(J, barrier, slope);
    for (int a = 1; a < 4; ++a) g[a] = g[a] * slope;
    g[0] = -(g[1] + g[2] + g[3]);
    const vf residual = select(active, tb_abs(C + alpha_volume * lambda_volume), splat(0.0f));
    const vf lambda_before = lambda_volume;
    // The ground's hold: the step moves corner a along -(C + alpha~
    // lambda) g_a.
    const vf push = C + alpha_volume * lambda_volume;
    vf w_y[4] = {w[0], w[1], w[2], w[3]};
    vmask held = splat(1.0f) < 0.0f;  // none
    if (ground) {
        for (int a = 0; a < 4; ++a) {
            w_y[a] = ground_held_mass(w[a], x[a].y, sink[a], -push * g[a].y);
            held = held | (w_y[a] != w[a]);
        }
    }
    vf dl = xpbd_dlambda(active & ~held, C, g[0], g[1], g[2], g[3], w, alpha_volume,
                         lambda_volume);
    if (any_lane(held)) {
        vf denominator = w[0] * (g[0].x * g[0].x + g[0].z * g[0].z) + w_y[0] * (g[0].y * g[0].y);
        for (int a = 1; a < 4; ++a) {
            denominator = denominator + w[a] * (g[a].x * g[a].x + g[a].z * g[a].z) +
                          w_y[a] * (g[a].y * g[a].y);
        }
        denominator = denominator + alpha_volume;
        const vmask steps = active & held & (denominator >= kDenominatorFloor);
        const vf held_dl = select(steps, -push / denominator, splat(0.0f));
        lambda_volume += held_dl;
        dl = dl + held_dl;
    }
    if (only_within_barrier) {
        const vf weight =
            entry * tb_min(tb_max((kVolumeBarrierJ - J) *
                                      (1.0f / (kVolumeBarrierJ - kVolumeBarrierTangentJ)),
                                  splat(0.0f)),
                           splat(1.0f));
        dl = dl * weight;
        lambda_volume = lambda_before + dl;
    }
    for (int a = 0; a < 4; ++a) {
        d[a].x = d[a].x + (w[a] * dl) * g[a].x;
        d[a].y = d[a].y + (w_y[a] * dl) * g[a].y;
        d[a].z = d[a].z + (w[a] * dl) * g[a].z;
    }
    return residual;
}

// tm_volume_steps for the lanes `on` (the others' corrections and
// multipliers kept): J is every lane's ratio where the first step found it.
inline vf volume_steps(const v3* x, const vf* w, vf inv_rest_volume, vf alpha_volume,
                       bool barrier, vmask on, vf& lambda_volume, v3* d, vf& J, bool ground,
                       const vf* sink)
{
    const vf residual = volume_step(x, w, inv_rest_volume, alpha_volume, barrier, false,
                                    splat(1.0f), on, lambda_volume, d, J, ground, sink);
    // Per lane, as tm_volume_steps's loop: on from below J_e, then while
    // its last step began within the barrier.
    const vf entry = further_steps_entry(J);
    vmask within = on & (entry > 0.0f);
    vf last_J = J;
    for (int extra = 0; barrier && extra < kVolumeBarrierExtraSteps && any_lane(within);
         ++extra) {
        volume_step(x, w, inv_rest_volume, alpha_volume, true, true, entry, within,
                    lambda_volume, d, last_J, ground, sink);
        within = within & (last_J < kVolumeBarrierJ);
    }
    return residual;
}

// Whether the ground's hold can take part in a block's step, with each
// corner's sink (how far the warm start moved it down) in `sink`: only a
// corner deeper than kGroundHoldFromM can be held, so a block with none
// (nearly all, nearly always) skips it.
inline bool ground_hold_sinks(const TetBlockStep& step, const BlockCorners& corners,
                              const v3* x, vf* sink)
{
    for (int a = 0; a < 4; ++a) sink[a] = splat(0.0f);
    vmask deep = x[0].y < -kGroundHoldFromM;
    for (int a = 1; a < 4; ++a) deep = deep | (x[a].y < -kGroundHoldFromM);
    if (!step.ground || !any_lane(deep)) {
        return false;
    }
    if (step.warm_start_moves == nullptr) {
        return true;
    }
    // A corner deep by the warm start's push alone is not held.
    deep = splat(1.0f) < 0.0f;  // none
    for (int a = 0; a < 4; ++a) {
        vf x_move;
        vf y_move;
        vf z_move;
        tb_gather_xyz(step.warm_start_moves, corners.corner3[a], x_move, y_move, z_move);
        sink[a] = tb_max(-y_move, splat(0.0f));
        deep = deep | (x[a].y + sink[a] < -kGroundHoldFromM);
    }
    return any_lane(deep);
}

// tm_solve_tet on one block.
inline LaneSums solve_block(const TetBlockArrays& blocks, const TetBlockStep& step, size_t slot)
{
    const BlockCorners corners = gather_corners(blocks, step, slot);
    const vf* w = corners.w;
    v3 x[4];
    for (int a = 0; a < 4; ++a) {
        // x = predicted + correction: the positions the scalar solver keeps.
        x[a] = corners.predicted[a] + corners.correction[a];
    }
    const m3 Bm = load_m3(blocks.b, slot);
    const RestVolumes rest_volumes = load_rest_volumes(blocks, slot);
    const vf inv_rest_volume = rest_volumes.inverse;
    m3 lambda_shape = load_m3(blocks.lambda_shape, slot);
    vf lambda_volume = tb_load(blocks.lambda_volume + slot);
    // alpha~ = (1 / (2 mu V0)) / h^2, as tm_solve_tet's callers compute it.
    const vf alpha_shape = tb_load(blocks.shape_compliance + slot) * step.inv_h2;

    const m3 F = deformation_gradient(x, Bm);
    // Slivers take tm_sliver_shape_step: a block computes it only when one
    // of its lanes is one.
    const vmask sliver = rest_volumes.sliver;
    const bool any_sliver = any_lane(sliver);
    SliverShape sliver_form;
    // The rotation's source: F, or F S for the sliver lanes. By pointer: a
    // copy of F cost GCC a `rep movsq` in the AVX2 kernel, 4% of the step.
    const m3* source = &F;
    m3 sliver_source;
    if (any_sliver) {
        sliver_form = sliver_shape(x, Bm, F, sliver);
        for (int column = 0; column < 3; ++column) {
            sliver_source.c[column] = select(sliver, sliver_form.weighted.c[column], F.c[column]);
        }
        source = &sliver_source;
    }
    const m3 R = tet_rotation(blocks, slot, *source, w);
    m3 rhs;
    for (int column = 0; column < 3; ++column) {
        rhs.c[column] = F.c[column] - R.c[column] + alpha_shape * lambda_shape.c[column];
    }
    LaneSums sums;
    sums.residual = frobenius(rhs);
    const m3 product = mul(rhs, inverse_shape_system(w, Bm, alpha_shape));
    m3 dlambda;
    for (int column = 0; column < 3; ++column) dlambda.c[column] = product.c[column] * splat(-1.0f);
    v3 d[4];
    shape_corrections(dlambda, Bm, w, d);
    if (any_sliver) {
        m3 sliver_dlambda;
        v3 sliver_d[4];
        const vf sliver_residual = sliver_shape_step(sliver_form, R, w, alpha_shape, lambda_shape,
                                                     sliver_dlambda, sliver_d);
        sums.residual = select(sliver, sliver_residual, sums.residual);
        for (int column = 0; column < 3; ++column) {
            dlambda.c[column] = select(sliver, sliver_dlambda.c[column], dlambda.c[column]);
        }
        for (int a = 0; a < 4; ++a) d[a] = select(sliver, sliver_d[a], d[a]);
    }
    // The ground's hold, non-sliver lanes only (tm_solve_tet).
    vf sink[4];
    const bool ground = ground_hold_sinks(step, corners, x, sink);
    if (ground) {
        vf w_y[4];
        vmask held[4];
        vmask ground_held = splat(1.0f) < 0.0f;  // none
        for (int a = 0; a < 4; ++a) {
            w_y[a] = select(sliver, w[a], ground_held_mass(w[a], x[a].y, sink[a], d[a].y));
            held[a] = w_y[a] != w[a];
            ground_held = ground_held | held[a];
        }
        if (any_lane(ground_held)) {
            const v3 b1 = {Bm.c[0].x, Bm.c[1].x, Bm.c[2].x};
            const v3 b2 = {Bm.c[0].y, Bm.c[1].y, Bm.c[2].y};
            const v3 b3 = {Bm.c[0].z, Bm.c[1].z, Bm.c[2].z};
            const v3 b0 = -(b1 + b2 + b3);
            const vf trace = w_y[0] * dot(b0, b0) + w_y[1] * dot(b1, b1) +
                             w_y[2] * dot(b2, b2) + w_y[3] * dot(b3, b3);
            const m3 inverse_y = inverse_shape_system(
                w_y, Bm, alpha_shape + kGroundHoldRegularisation * trace);
            const v3 rhs_y = {rhs.c[0].y, rhs.c[1].y, rhs.c[2].y};
            m3 dlambda_y = {};
            for (int column = 0; column < 3; ++column) {
                dlambda_y.c[column].y = dot(rhs_y, inverse_y.c[column]) * splat(-1.0f);
            }
            v3 d_y[4];
            shape_corrections(dlambda_y, Bm, w_y, d_y);
            for (int a = 0; a < 4; ++a) d[a].y = select(ground_held, d_y[a].y, d[a].y);
            // Its multiplier kept only where one corner is held.
            vf count = splat(0.0f);
            for (int a = 0; a < 4; ++a) count = count + select(held[a], splat(1.0f), splat(0.0f));
            const vf kept = select(count < 1.5f, splat(1.0f), splat(0.0f));
            for (int column = 0; column < 3; ++column) {
                dlambda.c[column].y =
                    select(ground_held, kept * dlambda_y.c[column].y, dlambda.c[column].y);
            }
        }
    }
    for (int column = 0; column < 3; ++column) {
        lambda_shape.c[column] = lambda_shape.c[column] + dlambda.c[column];
    }
    sums.shape_step = frobenius(dlambda);
    sums.squeezed = splat(1.0f) < 0.0f;  // none

    // Volume, on the positions after the shape step.
    if (step.volume_enabled) {
        const vf volume_compliance = tb_load(blocks.volume_compliance + slot);
        const vmask volume_on = volume_compliance >= 0.0f;  // per body: lambda > 0
        const vf alpha_volume = volume_compliance * step.inv_h2;
        vf J;
        sums.residual += volume_steps(x, w, inv_rest_volume, alpha_volume, step.volume_barrier,
                                      volume_on, lambda_volume, d, J, ground, sink);
        sums.squeezed = volume_on & (J < kVolumeBarrierJ);
    }
    store_m3(blocks.lambda_shape, slot, lambda_shape);
    tb_store(blocks.lambda_volume + slot, lambda_volume);
    keep_angular_momentum(corners.start, w, d);
    scatter_corrections(step, corners, d);
    return sums;
}

// tm_warm_start_tet on one block, its multipliers first scaled by the
// step's warm_fraction, a sliver's by zero (and kept so; tet_step.glsl
// says why).
inline void warm_start_block(const TetBlockArrays& blocks, const TetBlockStep& step, size_t slot)
{
    const BlockCorners corners = gather_corners(blocks, step, slot);
    const vf* w = corners.w;
    const v3* x = corners.predicted;
    const RestVolumes rest_volumes = load_rest_volumes(blocks, slot);
    const vf fraction = select(rest_volumes.sliver, splat(0.0f),
                               splat(step.warm_fraction));
    m3 lambda_shape = load_m3(blocks.lambda_shape, slot);
    for (int column = 0; column < 3; ++column) {
        lambda_shape.c[column] = lambda_shape.c[column] * fraction;
    }
    vf lambda_volume = tb_load(blocks.lambda_volume + slot) * fraction;
    v3 d[4];
    shape_corrections(lambda_shape, load_m3(blocks.b, slot), w, d);
    if (step.volume_enabled) {
        const vmask volume_on = tb_load(blocks.volume_compliance + slot) >= 0.0f;
        v3 g[4];
        volume_gradients(x[0], x[1], x[2], x[3], rest_volumes.inverse, g);
        if (step.volume_barrier) {
            // Where the substep began, or where it is predicted to go.
            const v3* s = corners.start;
            v3 g_start[4];
            volume_gradients(s[0], s[1], s[2], s[3], rest_volumes.inverse, g_start);
            const vmask within = volume_on & ((dot(s[1] - s[0], g_start[1]) < kVolumeBarrierJ) |
                                              (dot(x[1] - x[0], g[1]) < kVolumeBarrierJ));
            lambda_volume = select(within, splat(0.0f), lambda_volume);
        }
        const vf l = select(volume_on, lambda_volume, splat(0.0f));
        d[0] = d[0] - (w[0] * l) * (g[1] + g[2] + g[3]);
        for (int a = 1; a < 4; ++a) d[a] = d[a] + (w[a] * l) * g[a];
    }
    store_m3(blocks.lambda_shape, slot, lambda_shape);
    tb_store(blocks.lambda_volume + slot, lambda_volume);
    keep_angular_momentum(corners.start, w, d);
    scatter_corrections(step, corners, d);
}

// The pair (row, column) of basis matrix E_k of tm_damp_strain_rate: xx,
// yy, zz, xy, xz, yz.
constexpr int symmetric_row(int k) { return k < 3 ? k : (k == 5 ? 1 : 0); }
constexpr int symmetric_column(int k) { return k < 3 ? k : (k == 3 ? 1 : 2); }

// tm_damp_strain_rate on one block: its corners' velocities damped.
inline void damp_block(const TetBlockArrays& blocks, const TetBlockStep& step, size_t slot)
{
    vi corner3[4];
    v3 x[4];
    v3 v[4];
    vf w[4];
    for (int a = 0; a < 4; ++a) {
        const vi corner = tb_load(blocks.corner[a] + slot);
        tb_gather_xyzw(step.positions, corner * 4, x[a].x, x[a].y, x[a].z, w[a]);
        corner3[a] = corner * 3;
        tb_gather_xyz(step.velocities, corner3[a], v[a].x, v[a].y, v[a].z);
    }
    const m3 Bm = load_m3(blocks.b, slot);
    const m3 F = deformation_gradient(x, Bm);
    const m3 Ft = transpose(F);
    const m3 C = mul(Ft, F);
    const m3 rate = mul(Ft, deformation_gradient(v, Bm));
    const v3 b1 = {Bm.c[0].x, Bm.c[1].x, Bm.c[2].x};
    const v3 b2 = {Bm.c[0].y, Bm.c[1].y, Bm.c[2].y};
    const v3 b3 = {Bm.c[0].z, Bm.c[1].z, Bm.c[2].z};
    const v3 b0 = -(b1 + b2 + b3);
    // W = sum_a w_a b_a b_a^T, term by term as glm's outerProduct sums.
    m3 W;
    for (int column = 0; column < 3; ++column) {
        const vf c0 = column == 0 ? b0.x : column == 1 ? b0.y : b0.z;
        const vf c1 = column == 0 ? b1.x : column == 1 ? b1.y : b1.z;
        const vf c2 = column == 0 ? b2.x : column == 1 ? b2.y : b2.z;
        const vf c3 = column == 0 ? b3.x : column == 1 ? b3.y : b3.z;
        W.c[column] = w[0] * (b0 * c0) + w[1] * (b1 * c1) + w[2] * (b2 * c2) + w[3] * (b3 * c3);
    }
    const auto entry = [](const m3& m, int column, int row) {
        const v3& c = m.c[column];
        return row == 0 ? c.x : row == 1 ? c.y : c.z;
    };
    const vf inv_h_tau = splat(step.damping_inv_h_tau);
    const vf alpha_shape = tb_load(blocks.shape_compliance + slot) * inv_h_tau;
    const vf half_sqrt2 = splat(kHalfSqrt2);
    // The loops below are unrolled: their indices pick entries and terms,
    // which GCC keeps in registers and selects at compile time only once
    // every index is a constant (left rolled by GCC, the pass indexed its
    // arrays in memory and branched on the indices).
    vf a[6][6];
    vf r[6];
#pragma GCC unroll 6
    for (int k = 0; k < 6; ++k) {
        const int i = symmetric_row(k);
        const int j = symmetric_column(k);
        const vf s_k = k < 3 ? splat(1.0f) : half_sqrt2;
        r[k] = k < 3 ? entry(rate, i, i) : s_k * (entry(rate, j, i) + entry(rate, i, j));
#pragma GCC unroll 6
        for (int l = 0; l <= k; ++l) {
            const int p = symmetric_row(l);
            const int q = symmetric_column(l);
            const vf s_l = l < 3 ? splat(1.0f) : half_sqrt2;
            vf sum = entry(C, j, p) * entry(W, q, i);
            if (l >= 3) sum = sum + entry(C, j, q) * entry(W, p, i);
            if (k >= 3) {
                sum = sum + entry(C, i, p) * entry(W, q, j);
                if (l >= 3) sum = sum + entry(C, i, q) * entry(W, p, j);
            }
            a[k][l] = k == l ? s_k * s_l * sum + alpha_shape : s_k * s_l * sum;
        }
    }
    vf d[6];
    vf inv_d[6];
    vmask solvable = splat(0.0f) >= splat(0.0f);  // every lane
#pragma GCC unroll 6
    for (int j = 0; j < 6; ++j) {
        vf pivot = a[j][j];
#pragma GCC unroll 6
        for (int m = 0; m < j; ++m) pivot = pivot - a[j][m] * a[j][m] * d[m];
        solvable = solvable & (pivot > 0.0f);
        d[j] = select(solvable, pivot, splat(1.0f));
        inv_d[j] = 1.0f / d[j];
#pragma GCC unroll 6
        for (int i = j + 1; i < 6; ++i) {
            vf value = a[i][j];
#pragma GCC unroll 6
            for (int m = 0; m < j; ++m) value = value - a[i][m] * a[j][m] * d[m];
            a[i][j] = value * inv_d[j];
        }
    }
    vf mu[6];
#pragma GCC unroll 6
    for (int i = 0; i < 6; ++i) {
        vf y = r[i];
#pragma GCC unroll 6
        for (int m = 0; m < i; ++m) y = y - a[i][m] * mu[m];
        mu[i] = y;
    }
#pragma GCC unroll 6
    for (int i = 5; i >= 0; --i) {
        vf z = mu[i] * inv_d[i];
#pragma GCC unroll 6
        for (int m = i + 1; m < 6; ++m) z = z - a[m][i] * mu[m];
        mu[i] = select(solvable, z, splat(0.0f));
    }
    const m3 lambda = {{{mu[0], mu[3] * half_sqrt2, mu[4] * half_sqrt2},
                        {mu[3] * half_sqrt2, mu[1], mu[5] * half_sqrt2},
                        {mu[4] * half_sqrt2, mu[5] * half_sqrt2, mu[2]}}};
    const m3 product = mul(F, lambda);
    m3 damping;
    for (int column = 0; column < 3; ++column) {
        damping.c[column] = product.c[column] * splat(-1.0f);
    }
    v3 dv[4];
    shape_corrections(damping, Bm, w, dv);
    if (step.volume_enabled) {
        const vf volume_compliance = tb_load(blocks.volume_compliance + slot);
        const vmask volume_on = volume_compliance >= 0.0f;
        v3 g[4];
        volume_gradients(x[0], x[1], x[2], x[3], load_rest_volumes(blocks, slot).inverse, g);
        g[0] = -(g[1] + g[2] + g[3]);
        vf volume_rate = dot(g[0], v[0] + dv[0]);
        for (int c = 1; c < 4; ++c) volume_rate = volume_rate + dot(g[c], v[c] + dv[c]);
        vf lambda_volume = splat(0.0f);
        const vf dl = xpbd_dlambda(volume_on, volume_rate, g[0], g[1], g[2], g[3], w,
                                   volume_compliance * inv_h_tau, lambda_volume);
        for (int c = 0; c < 4; ++c) dv[c] = dv[c] + (w[c] * dl) * g[c];
    }
    for (int c = 0; c < 4; ++c) {
        const v3 updated = v[c] + dv[c];
        tb_scatter_xyz(step.velocities, corner3[c], updated.x, updated.y, updated.z);
    }
}

// tm_recover_tet on one block: the lanes inside out or flat (J <= 0 where
// the sweeps left them) take their volume steps, the others nothing; a
// block with none (nearly always) only looks. Returns how many stepped.
inline uint32_t recover_block(const TetBlockArrays& blocks, const TetBlockStep& step,
                              size_t slot)
{
    const BlockCorners corners = gather_corners(blocks, step, slot);
    v3 x[4];
    for (int a = 0; a < 4; ++a) x[a] = corners.predicted[a] + corners.correction[a];
    const vf volume_compliance = tb_load(blocks.volume_compliance + slot);
    const vmask inside_out = (volume_compliance >= 0.0f) &
                             (dot(x[1] - x[0], cross(x[2] - x[0], x[3] - x[0])) <= 0.0f);
    if (!any_lane(inside_out)) {
        return 0;
    }
    vf sink[4];
    const bool ground = ground_hold_sinks(step, corners, x, sink);
    vf lambda_volume = tb_load(blocks.lambda_volume + slot);
    v3 d[4];
    for (int a = 0; a < 4; ++a) d[a] = v3{splat(0.0f), splat(0.0f), splat(0.0f)};
    vf J;
    volume_steps(x, corners.w, load_rest_volumes(blocks, slot).inverse,
                 volume_compliance * step.inv_h2, step.volume_barrier, inside_out,
                 lambda_volume, d, J, ground, sink);
    tb_store(blocks.lambda_volume + slot, lambda_volume);
    keep_angular_momentum(corners.start, corners.w, d);
    scatter_corrections(step, corners, d);
    uint32_t stepped = 0;  // padding lanes have no volume term: never inside out
    for (int i = 0; i < kLanes; ++i) stepped += inside_out[i] != 0 ? 1u : 0u;
    return stepped;
}

// Steps the kLanes tets of `block` (or, with step.warm_start, applies their
// warm start; with step.damp, their material damping; with step.recover,
// the last sweep's steps) and stores the block's sums over its real tets.
inline void solve_and_sum(const TetBlockArrays& blocks, const TetBlockStep& step, size_t block,
                          BlockSums* block_sums)
{
    const size_t slot = block * static_cast<size_t>(kLanes);
    if (step.warm_start) {
        warm_start_block(blocks, step, slot);
        return;
    }
    if (step.damp) {
        damp_block(blocks, step, slot);
        return;
    }
    if (step.recover) {
        block_sums[block].recovered = recover_block(blocks, step, slot);
        return;
    }
    const LaneSums sums = solve_block(blocks, step, slot);
    const int real_tets = static_cast<int>(blocks.block_tet_count[block]);
    // Padding lanes are never squeezed (no volume term): a lane at a time
    // only when some lane is.
    uint32_t squeezed = 0;
    if (any_lane(sums.squeezed)) {
        for (int i = 0; i < real_tets; ++i) squeezed += sums.squeezed[i] != 0 ? 1u : 0u;
    }
    block_sums[block].squeezed = squeezed;
    if (!step.sums) return;  // a lane at a time in doubles: a few percent of the step
    double residual = 0.0;
    double shape_step = 0.0;
    for (int i = 0; i < real_tets; ++i) {
        residual += sums.residual[i];
        shape_step += sums.shape_step[i];
    }
    block_sums[block].residual = residual;
    block_sums[block].shape_step = shape_step;
}
