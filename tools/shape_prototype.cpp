// A one-thread, scalar prototype of the Gauss-Seidel substep, for trying
// other forms of the shape constraint and warm starts of its multipliers
// before they go into the solvers (docs/algorithm.md, 4, "Rest" and
// "Stiffer materials"). It has the solvers' predict, colour order, ground
// projection and friction and tm_keep_angular_momentum; body contact is left
// out. `--form nine --warm mesh:2` is what the solvers run, here in double
// precision; `--form scalar` with no warm start is the form they ran before,
// whose figures it reproduced to the digit.
//
//   softbody-shape-prototype [--form scalar|nine|six]
//                            [--warm none|all|fraction:B|tet:C|mesh:C|residual:C]
//                            [--test stiffness|rest|release|mirror|bounce] [--preset
//                            NAME|MESH-FILE]
//                            [--youngs PA] [--schedule SUBSTEPS,ITERATIONS]
//                            [--damping-tau SECONDS] [--strain-rate-tau SECONDS]
//                            [--sliver-rotation on|upright|solvers|off]
//
// Forms: `scalar` C = |F - R| with one multiplier (the solvers' before); `nine` the
// nine entries of F - R, R held within a step, a 3 x 3 multiplier in world
// axes; `six` the six of sym(R^T F) - I, a symmetric multiplier in the
// tet's axes. Warm starts (nine and six): each substep begins from the last
// one's multipliers, applied to the predicted positions in one pass over the
// tets, all of them or a fraction B; `tet:C` takes per tet
// 1 - C |dLambda of its last iteration| / |dLambda of its first|, `mesh:C`
// the same ratio summed over the mesh, `residual:C` the mesh's sums of
// |C + alpha~ Lambda| before the step instead (all clamped to [0, 1]).
// `--damping-tau` adds XPBD's constraint damping to the nine-entry form,
// gamma = tau / h (a damping proportional to the stiffness, of time
// constant tau). `--strain-rate-tau` adds the solvers' material damping.
// `--sliver-rotation on` gives sliver tets the rotation weighted by their
// rest shape and a cold start (the nine-entry form; rotation_weight below);
// `upright` the same only while they are the right way out; `solvers` the
// solvers' own sliver step (tm_sliver_shape_step: shape matching's energy),
// also cold.
// Tests: `stiffness` the beam cantilever of softbody-stiffness-sweep against
// the exact static answer at 0.1 to 100 MPa (or --youngs); `rest` the preset
// dropped as it drops, its fastest vertex every second for 15 s and how far
// any vertex moved since 5 s; `release` the preset in free space, 30%
// stretched along x and spinning, its angular momentum and kinetic energy;
// `mirror` the preset turned inside out in free space, its inverted tets;
// `bounce` the preset dropped, its centroid's height every 0.05 s for 2 s.
// --preset also takes a mesh file (.tet, .obj, .node/.ele), placed as the
// program's --mesh places it.
#include "cantilever.h"
#include "core/contact_math.h"
#include "core/material.h"
#include "core/presets.h"
#include "core/scenes.h"
#include "core/sim_params.h"
#include "core/sim_stats.h"
#include "core/substep_math.h"
#include "core/tet_math.h"
#include "core/tet_mesh.h"
#include "core/world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using glm::dmat3;
using glm::dvec3;
using glm::mat3;
using glm::vec3;

enum class Form { scalar, nine, six };
enum class Warm { none, fraction, per_tet, per_mesh, per_mesh_residual };
enum class SliverRotation { off, always, upright, solvers };

struct Options {
    Form form = Form::scalar;
    Warm warm = Warm::none;
    float warm_value = 0.0f;  // the fraction B, or C
    // Sliver tets (kSliverSpread below) take the rotation of the
    // deformation weighted by their rest shape, polar(F S), and start every
    // substep cold: docs/algorithm.md 4, "Slivers".
    SliverRotation sliver_rotation = SliverRotation::off;
    // XPBD constraint damping of the nine-entry form (Macklin et al. 2016,
    // eq. 26) with gamma = tau / h: a stiffness-proportional damping of time
    // constant tau (s); 0: none.
    float damping_tau_s = 0.0f;
    // The solvers' material damping after each substep (tm_damp_strain_rate),
    // time constant tau (s); 0: none, as the solvers' before it.
    float strain_rate_tau_s = 0.0f;
    std::string test = "rest";
    std::string preset = "bunny";
    std::optional<float> youngs_pa;
    int substeps = 10;
    int iterations = 8;
};

double frobenius(const dmat3& m)
{
    return std::sqrt(glm::dot(m[0], m[0]) + glm::dot(m[1], m[1]) + glm::dot(m[2], m[2]));
}

// The symmetric X solving sym(X W) + alpha X = -rhs, by its six entries.
dmat3 solve_symmetric_step(const dmat3& W, double alpha, const dmat3& rhs)
{
    const int row[6] = {0, 1, 2, 0, 0, 1};
    const int col[6] = {0, 1, 2, 1, 2, 2};
    double a[6][7];
    for (int c = 0; c < 6; ++c) {
        dmat3 basis(0.0);
        basis[col[c]][row[c]] = basis[row[c]][col[c]] = 1.0;
        const dmat3 xw = basis * W;
        const dmat3 y = 0.5 * (xw + glm::transpose(xw)) + alpha * basis;
        for (int r = 0; r < 6; ++r) a[r][c] = y[col[r]][row[r]];
    }
    for (int r = 0; r < 6; ++r) a[r][6] = -rhs[col[r]][row[r]];
    for (int p = 0; p < 6; ++p) {  // Gauss-Jordan with partial pivoting
        int pivot = p;
        for (int r = p + 1; r < 6; ++r) {
            if (std::fabs(a[r][p]) > std::fabs(a[pivot][p])) pivot = r;
        }
        for (int c = 0; c < 7; ++c) std::swap(a[p][c], a[pivot][c]);
        for (int r = 0; r < 6; ++r) {
            if (r == p) continue;
            const double f = a[r][p] / a[p][p];
            for (int c = p; c < 7; ++c) a[r][c] -= f * a[p][c];
        }
    }
    dmat3 x(0.0);
    for (int c = 0; c < 6; ++c) x[col[c]][row[c]] = x[row[c]][col[c]] = a[c][6] / a[c][c];
    return x;
}

// The volume constraint's gradients grad_a J at the corners p (J = det F =
// (p1 - p0) . ((p2 - p0) x (p3 - p0)) / 6 V0), as tm_solve_tet takes them.
void volume_gradients(const vec3* p, float rest_volume, vec3* g)
{
    const vec3 e1 = p[1] - p[0], e2 = p[2] - p[0], e3 = p[3] - p[0];
    const float inv_six_v0 = 1.0f / (6.0f * rest_volume);
    g[1] = glm::cross(e2, e3) * inv_six_v0;
    g[2] = glm::cross(e3, e1) * inv_six_v0;
    g[3] = glm::cross(e1, e2) * inv_six_v0;
    g[0] = -(g[1] + g[2] + g[3]);
}

// A sliver's rotation follows its long edges, not its thin side. S = sum_a
// (X_a - C)(X_a - C)^T over the rest corners (F S is the shape matching's
// A = sum_a (x_a - c)(X_a - C)^T) weighs each material direction by its
// rest extent squared; polar(F) weighs all three alike, so a thin side's
// small relative moves turn it (a 0.1 mm move across a 0.9 mm wedge, 0.05
// rad). The spread det S / (tr S / 3)^3 is 1 for a regular tet, 0.43 at the
// least for the cantilever's, 0.036 for the bunny's, 1e-5 for the fan's
// wedges; from kSliverSpread down to a tenth of it the weight goes from
// tr S / 3 I (polar(F), the energy's own rotation) to S, on a log scale.
constexpr float kSliverSpread = 1.0e-2f;

std::optional<mat3> rotation_weight(const TetMesh& mesh, size_t t)
{
    const glm::uvec4 tet = mesh.tets[t];
    const vec3 corners[4] = {mesh.rest_positions[tet.x], mesh.rest_positions[tet.y],
                             mesh.rest_positions[tet.z], mesh.rest_positions[tet.w]};
    const vec3 centre = 0.25f * (corners[0] + corners[1] + corners[2] + corners[3]);
    mat3 S(0.0f);
    for (const vec3& corner : corners) S += glm::outerProduct(corner - centre, corner - centre);
    const float mean = (S[0][0] + S[1][1] + S[2][2]) / 3.0f;
    const float spread = glm::determinant(S) / (mean * mean * mean);
    if (!(spread < kSliverSpread)) return std::nullopt;
    const float share = std::clamp(std::log10(kSliverSpread / spread), 0.0f, 1.0f);
    return (1.0f - share) * mean * mat3(1.0f) + share * S;
}

// The shape step as the solvers took it before the 3 x 3 multiplier: C = |F
// - R| with one multiplier, gradient (F - R) B^T / C; then the volume step.
void solve_tet_scalar_form(const vec3* p, glm::vec4 w, const mat3& B, float rest_volume,
                           float alpha, float alpha_volume, bool volume_on, float& lambda,
                           float& lambda_volume, glm::vec4& rotation, vec3* d)
{
    const mat3 F = tet_math::tm_deformation_gradient(p[0], p[1], p[2], p[3], B);
    const bool moves = w.x + w.y + w.z + w.w > 0.0f;
    const mat3 F_minus_R = F - tet_math::tm_tet_rotation(F, moves, rotation);
    const float C = std::sqrt(glm::dot(F_minus_R[0], F_minus_R[0]) +
                              glm::dot(F_minus_R[1], F_minus_R[1]) +
                              glm::dot(F_minus_R[2], F_minus_R[2]));
    for (int a = 0; a < 4; ++a) d[a] = vec3(0.0f);
    if (C > 1.0e-6f) {
        const mat3 G = F_minus_R * glm::transpose(B) * (1.0f / C);
        const vec3 g[4] = {-(G[0] + G[1] + G[2]), G[0], G[1], G[2]};
        const float dlambda =
            tet_math::tm_xpbd_dlambda(C, g[0], g[1], g[2], g[3], w, alpha, 1.0f, lambda);
        for (int a = 0; a < 4; ++a) d[a] = (w[a] * dlambda) * g[a];
    }
    if (volume_on) {
        const vec3 q[4] = {p[0] + d[0], p[1] + d[1], p[2] + d[2], p[3] + d[3]};
        vec3 g[4];
        volume_gradients(q, rest_volume, g);
        const float Cv = glm::dot(q[1] - q[0], g[1]) - 1.0f;
        const float dlambda = tet_math::tm_xpbd_dlambda(Cv, g[0], g[1], g[2], g[3], w,
                                                        alpha_volume, 1.0f, lambda_volume);
        for (int a = 0; a < 4; ++a) d[a] += (w[a] * dlambda) * g[a];
    }
}

class PrototypeSolver {
public:
    PrototypeSolver(const TetMesh& mesh, float youngs_pa, const Options& options)
        : mesh_(mesh), options_(options)
    {
        const size_t nt = mesh.tet_count();
        inverse_masses_ = ::inverse_masses(mesh, 1000.0f);
        const LameParameters lame = lame_parameters(youngs_pa, 0.3f);
        for (size_t t = 0; t < nt; ++t) {
            const float v0 = mesh.rest_volumes_m3[t];
            shape_compliance_.push_back(arap_compliance(lame, v0));
            inv_rest_shapes_.push_back(inv_rest_shape(mesh, t));
            rotation_weights_.push_back(rotation_weight(mesh, t));
            // `solvers`: a sliver's volume term as the solvers have it.
            const bool solvers_sliver =
                options.sliver_rotation == SliverRotation::solvers && is_sliver(mesh, t);
            volume_compliance_.push_back(
                solvers_sliver                    ? sliver_volume_compliance(lame, v0)
                : volume_constraint_enabled(lame) ? volume_compliance(lame, v0)
                                                  : -1.0f);
        }
        x = mesh.rest_positions;
        v.assign(x.size(), vec3(0.0f));
        predicted_ = x;
        start_ = x;
        correction_.assign(x.size(), vec3(0.0f));
        push_.assign(x.size(), 0.0f);
        lambda_.assign(nt, 0.0f);
        lambda_volume_.assign(nt, 0.0f);
        multiplier_.assign(nt, mat3(0.0f));
        rotation_.assign(nt, tet_math::TM_IDENTITY_ROTATION);
        first_step_.assign(nt, 0.0f);
        last_step_.assign(nt, 0.0f);
        first_residual_.assign(nt, 0.0f);
        last_residual_.assign(nt, 0.0f);
    }

    std::vector<vec3> x, v;
    bool ground = true;
    float air_damping_per_s = 0.1f;
    vec3 gravity{0.0f, -9.81f, 0.0f};

    const std::vector<float>& inverse_masses() const { return inverse_masses_; }

    void step_frame()
    {
        const float h = kFrameSeconds / float(options_.substeps);
        const float damping = substep_math::sm_velocity_damping(air_damping_per_s, h);
        for (int s = 0; s < options_.substeps; ++s) {
            for (size_t i = 0; i < x.size(); ++i) {
                push_[i] = 0.0f;
                correction_[i] = vec3(0.0f);
                if (inverse_masses_[i] != 0.0f)
                    substep_math::sm_predict(x[i], v[i], damping, gravity, h);
                predicted_[i] = x[i];
                start_[i] = x[i] - h * v[i];
            }
            start_multipliers();
            for (int iteration = 0; iteration < options_.iterations; ++iteration) {
                const Csr& colors = mesh_.tet_colors;
                for (size_t c = 0; c + 1 < colors.offsets.size(); ++c) {
                    for (uint32_t e = colors.offsets[c]; e < colors.offsets[c + 1]; ++e) {
                        step_tet(colors.entries[e], 1.0f / (h * h), iteration == 0);
                    }
                }
                for (size_t i = 0; i < x.size(); ++i) {
                    vec3 p = predicted_[i] + correction_[i];
                    if (ground && inverse_masses_[i] != 0.0f && p.y < 0.0f) {
                        push_[i] -= p.y;
                        correction_[i].y -= p.y;
                        p.y = 0.0f;
                    }
                    x[i] = p;
                }
            }
            for (size_t i = 0; i < x.size(); ++i) {
                vec3 velocity =
                    substep_math::sm_velocity_after_substep(v[i], correction_[i], 1.0f / h);
                if (push_[i] > 0.0f) {
                    velocity = contact_math::cm_apply_friction(velocity, vec3(0.0f, 1.0f, 0.0f),
                                                               push_[i], h, 0.6f, 0.4f);
                }
                v[i] = velocity;
            }
            if (options_.strain_rate_tau_s > 0.0f) damp_strain_rates(h);
        }
    }

private:
    // The solvers' material damping (tm_damp_strain_rate) of time constant
    // tau, tet by tet in colour order after the substep.
    void damp_strain_rates(float h)
    {
        const Csr& colors = mesh_.tet_colors;
        const float inv_h_tau = 1.0f / (h * options_.strain_rate_tau_s);
        for (size_t c = 0; c + 1 < colors.offsets.size(); ++c) {
            for (uint32_t e = colors.offsets[c]; e < colors.offsets[c + 1]; ++e) {
                const size_t t = colors.entries[e];
                const glm::uvec4 tet = mesh_.tets[t];
                const glm::vec4 w(inverse_masses_[tet.x], inverse_masses_[tet.y],
                                  inverse_masses_[tet.z], inverse_masses_[tet.w]);
                const bool volume_on = volume_compliance_[t] >= 0.0f;
                vec3 dv[4];
                tet_math::tm_damp_strain_rate(
                    x[tet.x], x[tet.y], x[tet.z], x[tet.w], v[tet.x], v[tet.y], v[tet.z],
                    v[tet.w], w, inv_rest_shapes_[t], mesh_.rest_volumes_m3[t],
                    shape_compliance_[t] * inv_h_tau,
                    volume_on ? volume_compliance_[t] * inv_h_tau : 0.0f, volume_on, dv[0], dv[1],
                    dv[2], dv[3]);
                for (int a = 0; a < 4; ++a) v[tet[a]] += dv[a];
            }
        }
    }

    // The corner vectors b_a with F = sum_a x_a b_a^T (b_0 = -b_1 - b_2 - b_3).
    void corner_vectors(size_t t, dvec3* b) const
    {
        const dmat3 rows = glm::transpose(dmat3(inv_rest_shapes_[t]));
        b[1] = rows[0];
        b[2] = rows[1];
        b[3] = rows[2];
        b[0] = -(b[1] + b[2] + b[3]);
    }

    float warm_fraction(size_t t) const
    {
        switch (options_.warm) {
        case Warm::none:
            return 0.0f;
        case Warm::fraction:
            return options_.warm_value;
        case Warm::per_tet: {
            const float ratio = first_step_[t] > 0.0f ? last_step_[t] / first_step_[t] : 0.0f;
            return std::clamp(1.0f - options_.warm_value * ratio, 0.0f, 1.0f);
        }
        case Warm::per_mesh:
        case Warm::per_mesh_residual:
            return mesh_fraction_;
        }
        return 0.0f;
    }

    // Each substep's multipliers: zero, or the last substep's (a fraction of
    // them) with their corrections applied to the predicted positions.
    void start_multipliers()
    {
        if (options_.warm == Warm::per_mesh || options_.warm == Warm::per_mesh_residual) {
            const bool residuals = options_.warm == Warm::per_mesh_residual;
            double last = 0.0, first = 0.0;
            for (size_t t = 0; t < last_step_.size(); ++t) {
                last += residuals ? last_residual_[t] : last_step_[t];
                first += residuals ? first_residual_[t] : first_step_[t];
            }
            mesh_fraction_ = std::clamp(
                1.0f - options_.warm_value * float(first > 0.0 ? last / first : 0.0), 0.0f, 1.0f);
        }
        for (size_t t = 0; t < mesh_.tet_count(); ++t) {
            const bool cold =
                options_.sliver_rotation != SliverRotation::off && rotation_weights_[t];
            const float fraction =
                options_.form == Form::scalar || cold ? 0.0f : warm_fraction(t);
            multiplier_[t] *= fraction;
            lambda_volume_[t] *= fraction;
            lambda_[t] = 0.0f;
            if (fraction == 0.0f) continue;
            const glm::uvec4 tet = mesh_.tets[t];
            const uint32_t corner[4] = {tet.x, tet.y, tet.z, tet.w};
            const glm::vec4 w(inverse_masses_[tet.x], inverse_masses_[tet.y],
                              inverse_masses_[tet.z], inverse_masses_[tet.w]);
            dvec3 b[4];
            corner_vectors(t, b);
            // In the tet's axes (six) the multiplier turns with its rotation.
            const dmat3 axes = options_.form == Form::six
                                   ? dmat3(tet_math::tm_rotation_of_quaternion(rotation_[t]))
                                   : dmat3(1.0);
            vec3 d[4];
            for (int a = 0; a < 4; ++a)
                d[a] = vec3(double(w[a]) * (axes * (dmat3(multiplier_[t]) * b[a])));
            if (volume_compliance_[t] >= 0.0f) {
                const vec3 p[4] = {x[tet.x], x[tet.y], x[tet.z], x[tet.w]};
                vec3 g[4];
                volume_gradients(p, mesh_.rest_volumes_m3[t], g);
                for (int a = 0; a < 4; ++a) d[a] += w[a] * lambda_volume_[t] * g[a];
            }
            tet_math::tm_keep_angular_momentum(start_[tet.x], start_[tet.y], start_[tet.z],
                                               start_[tet.w], w, d[0], d[1], d[2], d[3]);
            for (int a = 0; a < 4; ++a) correction_[corner[a]] += d[a];
        }
        for (size_t i = 0; i < x.size(); ++i) x[i] = predicted_[i] + correction_[i];
    }

    void step_tet(size_t t, float inv_h2, bool first_iteration)
    {
        const glm::uvec4 tet = mesh_.tets[t];
        const uint32_t corner[4] = {tet.x, tet.y, tet.z, tet.w};
        const glm::vec4 w(inverse_masses_[tet.x], inverse_masses_[tet.y], inverse_masses_[tet.z],
                          inverse_masses_[tet.w]);
        const vec3 p[4] = {x[tet.x], x[tet.y], x[tet.z], x[tet.w]};
        const float alpha = shape_compliance_[t] * inv_h2;
        const bool volume_on = volume_compliance_[t] >= 0.0f;
        const float alpha_volume = volume_on ? volume_compliance_[t] * inv_h2 : 0.0f;
        vec3 d[4];
        if (options_.sliver_rotation == SliverRotation::solvers && is_sliver(mesh_, t)) {
            // The solvers' own step for a sliver, in float.
            float residual = 0.0f;
            float size = 0.0f;
            bool inverted = false;
            tet_math::tm_solve_tet(p[0], p[1], p[2], p[3], w, inv_rest_shapes_[t],
                                   mesh_.rest_volumes_m3[t], 1.0f, alpha, alpha_volume,
                                   volume_on, false, false, glm::vec4(0.0f), 1.0f, multiplier_[t],
                                   lambda_volume_[t], rotation_[t], d[0], d[1], d[2], d[3],
                                   residual, size, inverted);
            if (first_iteration) first_step_[t] = size, first_residual_[t] = residual;
            last_step_[t] = size;
            last_residual_[t] = residual;
        } else if (options_.form == Form::scalar) {
            solve_tet_scalar_form(p, w, inv_rest_shapes_[t], mesh_.rest_volumes_m3[t], alpha,
                                  alpha_volume, volume_on, lambda_[t], lambda_volume_[t],
                                  rotation_[t], d);
        } else {
            const dmat3 F(
                tet_math::tm_deformation_gradient(p[0], p[1], p[2], p[3], inv_rest_shapes_[t]));
            const bool moves = w.x + w.y + w.z + w.w > 0.0f;
            dmat3 R(tet_math::tm_tet_rotation(mat3(F), moves, rotation_[t]));
            // `upright`: inside out, a sliver keeps polar(F) (weighted, its
            // inversion reads as a flip of its thin side).
            const bool weighted =
                options_.sliver_rotation == SliverRotation::always ||
                (options_.sliver_rotation == SliverRotation::upright && glm::determinant(F) > 0.0);
            if (weighted && rotation_weights_[t]) {
                mat3 U, V;
                vec3 sigma;
                tet_math::tm_signed_svd(mat3(F) * *rotation_weights_[t], U, sigma, V);
                R = dmat3(U * glm::transpose(V));
            }
            dvec3 b[4];
            corner_vectors(t, b);
            dmat3 W(0.0);
            for (int a = 0; a < 4; ++a) W += double(w[a]) * glm::outerProduct(b[a], b[a]);
            const dmat3 multiplier(multiplier_[t]);
            dmat3 step;
            dmat3 axes(1.0);
            double residual = 0.0;
            if (options_.form == Form::nine) {
                dmat3 rhs = F - R + double(alpha) * multiplier;
                residual = frobenius(rhs);
                // Damping: gamma dC/dx (x - x_start) = gamma (F - F_start).
                const double gamma = double(options_.damping_tau_s) * std::sqrt(double(inv_h2));
                if (gamma > 0.0) {
                    const dmat3 F_start(tet_math::tm_deformation_gradient(
                        start_[tet.x], start_[tet.y], start_[tet.z], start_[tet.w],
                        inv_rest_shapes_[t]));
                    rhs += gamma * (F - F_start);
                }
                step = -rhs * glm::inverse((1.0 + gamma) * W + double(alpha) * dmat3(1.0));
            } else {
                dmat3 S = glm::transpose(R) * F;
                S = 0.5 * (S + glm::transpose(S)) - dmat3(1.0);
                residual = frobenius(S + double(alpha) * multiplier);
                step = solve_symmetric_step(W, alpha, S + double(alpha) * multiplier);
                axes = R;
            }
            multiplier_[t] = mat3(multiplier + step);
            const float size = float(frobenius(step));
            if (first_iteration) first_step_[t] = size;
            last_step_[t] = size;
            for (int a = 0; a < 4; ++a) d[a] = vec3(double(w[a]) * (axes * (step * b[a])));
            if (volume_on) {  // the solvers' volume step, after the shape step
                const vec3 q[4] = {p[0] + d[0], p[1] + d[1], p[2] + d[2], p[3] + d[3]};
                vec3 g[4];
                volume_gradients(q, mesh_.rest_volumes_m3[t], g);
                const float C = glm::dot(q[1] - q[0], g[1]) - 1.0f;  // J - 1
                residual += std::fabs(C + alpha_volume * lambda_volume_[t]);
                const float dlambda = tet_math::tm_xpbd_dlambda(C, g[0], g[1], g[2], g[3], w,
                                                                alpha_volume, 1.0f,
                                                                lambda_volume_[t]);
                for (int a = 0; a < 4; ++a) d[a] += w[a] * dlambda * g[a];
            }
            if (first_iteration) first_residual_[t] = float(residual);
            last_residual_[t] = float(residual);
        }
        tet_math::tm_keep_angular_momentum(start_[tet.x], start_[tet.y], start_[tet.z],
                                           start_[tet.w], w, d[0], d[1], d[2], d[3]);
        for (int a = 0; a < 4; ++a) {
            correction_[corner[a]] += d[a];
            x[corner[a]] = predicted_[corner[a]] + correction_[corner[a]];
        }
    }

    const TetMesh& mesh_;
    Options options_;
    std::vector<float> inverse_masses_, shape_compliance_, volume_compliance_;
    std::vector<mat3> inv_rest_shapes_;
    std::vector<vec3> predicted_, start_, correction_;
    std::vector<float> push_, lambda_, lambda_volume_, first_step_, last_step_;
    std::vector<float> first_residual_, last_residual_;  // |C + alpha~ Lambda| before a step
    std::vector<mat3> multiplier_;
    std::vector<glm::vec4> rotation_;
    // Per tet, for --sliver-rotation: the weight S_w of polar(F S_w); unset
    // where the tet is no sliver (S_w would be a multiple of I).
    std::vector<std::optional<mat3>> rotation_weights_;
    float mesh_fraction_ = 0.0f;
};

// A built-in scene or preset by name, or a mesh file (.tet, .obj, TetGen's)
// placed as the program's --mesh places it.
std::shared_ptr<const World> preset_world(const std::string& name)
{
    Result<WorldDesc> desc = make_builtin_scene(name);
    if (!desc && name.find('.') != std::string::npos) {
        Result<TetMeshDesc> mesh = make_body_from_file(name, kDefaultMeshResolution, nullptr);
        if (!mesh) {
            std::fprintf(stderr, "%s\n", mesh.error().c_str());
            std::exit(2);
        }
        WorldDesc scene;
        scene.name = name;
        scene.bodies.emplace_back();
        scene.bodies.back().mesh = std::move(mesh).value();
        desc = Result<WorldDesc>(std::move(scene));
    }
    if (!desc) {
        std::fprintf(stderr, "%s\n", desc.error().c_str());
        std::exit(2);
    }
    Result<World> world = assemble_world(desc.value());
    if (!world) {
        std::fprintf(stderr, "%s\n", world.error().c_str());
        std::exit(2);
    }
    return std::make_shared<const World>(std::move(world).value());
}

float preset_youngs(const std::string& name, const Options& options)
{
    if (options.youngs_pa) return *options.youngs_pa;
    const std::optional<PresetId> id = preset_from_name(name);
    return id ? preset_info(*id).suggested_youngs_pa : 1.0e5f;
}

int test_rest(const Options& options)
{
    const auto world = preset_world(options.preset);
    PrototypeSolver solver(*world->mesh, preset_youngs(options.preset, options), options);
    std::vector<vec3> at_five;
    for (int frame = 1; frame <= 900; ++frame) {
        solver.step_frame();
        if (count_non_finite(solver.x) != 0) {
            std::printf("not finite at frame %d\n", frame);
            return 3;
        }
        if (frame == 300) at_five = solver.x;
        if (frame % 60 != 0) continue;
        float fastest = 0.0f, moved = 0.0f;
        size_t at = 0;
        for (size_t i = 0; i < solver.v.size(); ++i) {
            if (glm::length(solver.v[i]) > fastest) fastest = glm::length(solver.v[i]), at = i;
            if (!at_five.empty()) moved = std::max(moved, glm::length(solver.x[i] - at_five[i]));
        }
        std::printf("%4.1f s  fastest %.3e m/s (vertex %zu)  moved since 5 s %.3e "
                    "m  inverted tets %zu\n",
                    frame / 60.0, fastest, at, moved,
                    compute_stats(*world->mesh, solver.x, solver.v).inverted_tets);
    }
    return 0;
}

// The preset dropped as it drops: its centroid's height every 0.05 s for
// 2 s (how deep it squashes, how high it bounces).
int test_bounce(const Options& options)
{
    const auto world = preset_world(options.preset);
    PrototypeSolver solver(*world->mesh, preset_youngs(options.preset, options), options);
    for (int frame = 1; frame <= 120; ++frame) {
        solver.step_frame();
        if (frame % 3 != 0) continue;
        vec3 centre(0.0f);
        float lowest = 1e9f;
        for (const vec3& p : solver.x) centre += p, lowest = std::min(lowest, p.y);
        centre /= float(solver.x.size());
        std::printf("%5.2f s  centroid y %.4f m  lowest %.4f m\n", frame / 60.0, centre.y, lowest);
    }
    return 0;
}

int test_release(const Options& options)
{
    const auto world = preset_world(options.preset);
    PrototypeSolver solver(*world->mesh, options.youngs_pa.value_or(1.0e7f), options);
    solver.ground = false;
    solver.gravity = vec3(0.0f);
    solver.air_damping_per_s = 0.0f;
    vec3 centre(0.0f);
    for (const vec3& p : solver.x) centre += p;
    centre /= float(solver.x.size());
    const vec3 spin(0.3f, 2.0f, 0.5f);
    for (size_t i = 0; i < solver.x.size(); ++i) {
        vec3 r = solver.x[i] - centre;
        solver.v[i] = glm::cross(spin, r);
        r.x *= 1.3f;
        solver.x[i] = centre + r;
    }
    const auto report = [&](int frame) {
        const Momenta momenta = compute_momenta(solver.x, solver.v, solver.inverse_masses());
        std::printf("%5.2f s  |L| %.6f kg m^2/s  kinetic %.5f J\n", frame / 60.0,
                    glm::length(momenta.angular), momenta.kinetic_energy_j);
    };
    report(0);
    for (int frame = 1; frame <= 240; ++frame) {
        solver.step_frame();
        if (count_non_finite(solver.x) != 0) {
            std::printf("not finite at frame %d\n", frame);
            return 3;
        }
        if (frame % 15 == 0) report(frame);
    }
    return 0;
}

// The preset mirrored through the plane x = its centre (every tet inside
// out), in free space: how many tets are still inverted, every 0.25 s.
int test_mirror(const Options& options)
{
    const auto world = preset_world(options.preset);
    const TetMesh& mesh = *world->mesh;
    PrototypeSolver solver(mesh, preset_youngs(options.preset, options), options);
    solver.ground = false;
    solver.gravity = vec3(0.0f);
    float centre = 0.0f;
    for (const vec3& p : solver.x) centre += p.x;
    centre /= float(solver.x.size());
    for (vec3& p : solver.x) p.x = 2.0f * centre - p.x;
    for (int frame = 1; frame <= 120; ++frame) {
        solver.step_frame();
        if (count_non_finite(solver.x) != 0) {
            std::printf("not finite at frame %d\n", frame);
            return 3;
        }
        if (frame % 15 != 0) continue;
        std::printf("%5.2f s  inverted tets %zu of %zu\n", frame / 60.0,
                    compute_stats(mesh, solver.x, solver.v).inverted_tets, mesh.tet_count());
    }
    return 0;
}

// The cantilever of softbody-stiffness-sweep: 1.2 x 0.4 x 0.4 m, 12 x 4 x 4
// cells, damped near critically, 240 frames.
int test_stiffness(const Options& options)
{
    const Cantilever beam = make_cantilever({12, 4, 4}, 1.2f);
    std::vector<float> moduli = {1e5f, 1e6f, 1e7f, 2e7f, 1e8f};
    if (options.youngs_pa) moduli = {*options.youngs_pa};
    for (float youngs : moduli) {
        const double exact = tip_deflection_m(beam, exact_equilibrium(beam, youngs).positions_m);
        PrototypeSolver solver(*beam.mesh, youngs, options);
        solver.ground = false;
        solver.air_damping_per_s = settling_damping_per_s(beam, youngs);
        for (int frame = 0; frame < 240; ++frame) solver.step_frame();
        std::printf("E %9.3g Pa  exact tip deflection %9.4f mm  ratio %.4f\n", youngs,
                    1e3 * exact, tip_deflection_m(beam, solver.x) / exact);
        std::fflush(stdout);
    }
    return 0;
}

// `--warm`'s value: none, all, fraction:B, tet:C, mesh:C or residual:C.
bool parse_warm(const std::string& value, Options& options)
{
    const size_t colon = value.find(':');
    const std::string kind = value.substr(0, colon);
    char* end = nullptr;
    const float number =
        colon == std::string::npos ? -1.0f : std::strtof(value.c_str() + colon + 1, &end);
    const bool has_number = end && end != value.c_str() + colon + 1 && *end == '\0' &&
                            std::isfinite(number) && number >= 0.0f;
    if (value == "none") {
        options.warm = Warm::none;
    } else if (value == "all") {
        options.warm = Warm::fraction;
        options.warm_value = 1.0f;
    } else if (has_number &&
               (kind == "fraction" || kind == "tet" || kind == "mesh" || kind == "residual")) {
        options.warm = kind == "fraction" ? Warm::fraction
                       : kind == "tet"    ? Warm::per_tet
                       : kind == "mesh"   ? Warm::per_mesh
                                          : Warm::per_mesh_residual;
        options.warm_value = number;
    } else {
        return false;
    }
    return true;
}

bool parse(int argc, char** argv, Options& options)
{
    if (argc % 2 == 0) return false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        bool known = true;
        if (flag == "--form") {
            if (value == "scalar") options.form = Form::scalar;
            else if (value == "nine") options.form = Form::nine;
            else if (value == "six") options.form = Form::six;
            else known = false;
        } else if (flag == "--warm") {
            known = parse_warm(value, options);
        } else if (flag == "--test") {
            options.test = value;
        } else if (flag == "--preset") {
            options.preset = value;
        } else if (flag == "--youngs") {
            options.youngs_pa = std::strtof(value.c_str(), nullptr);
        } else if (flag == "--strain-rate-tau") {
            options.strain_rate_tau_s = std::strtof(value.c_str(), nullptr);
        } else if (flag == "--sliver-rotation") {
            known = value == "on" || value == "off" || value == "upright" || value == "solvers";
            options.sliver_rotation = value == "on"        ? SliverRotation::always
                                      : value == "upright" ? SliverRotation::upright
                                      : value == "solvers" ? SliverRotation::solvers
                                                           : SliverRotation::off;
        } else if (flag == "--damping-tau") {
            options.damping_tau_s = std::strtof(value.c_str(), nullptr);
        } else if (flag == "--schedule") {
            known = std::sscanf(value.c_str(), "%d,%d", &options.substeps,
                                &options.iterations) == 2;
        } else {
            known = false;
        }
        if (!known) return false;
    }
    return options.substeps >= 1 && options.iterations >= 1 &&
           (!options.youngs_pa || *options.youngs_pa > 0.0f) &&
           (options.test == "rest" || options.test == "release" || options.test == "stiffness" ||
            options.test == "mirror" || options.test == "bounce");
}

}  // namespace

int main(int argc, char** argv)
{
    Options options;
    if (!parse(argc, argv, options)) {
        std::fprintf(stderr,
                     "usage: %s [--form scalar|nine|six]\n"
                     "          [--warm none|all|fraction:B|tet:C|mesh:C|residual:C]\n"
                     "          [--test stiffness|rest|release|mirror|bounce] [--preset NAME|MESH-FILE]\n"
                     "          [--youngs PA] [--schedule SUBSTEPS,ITERATIONS]\n"
                     "          [--damping-tau SECONDS] [--strain-rate-tau SECONDS]\n"
                     "          [--sliver-rotation on|upright|solvers|off]\n",
                     argv[0]);
        return 2;
    }
    if (options.test == "stiffness") return test_stiffness(options);
    if (options.test == "release") return test_release(options);
    if (options.test == "mirror") return test_mirror(options);
    if (options.test == "bounce") return test_bounce(options);
    return test_rest(options);
}
