#include "core/static_equilibrium.h"

#include "core/tet_elastic_energy.h"

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace {

// The discrete problem in double precision: rest data and loads of the mesh.
struct Problem {
    const TetMesh& mesh;
    LameParametersD lame;
    std::vector<Eigen::Matrix3d> inv_rest_shapes;  // B, from the rest positions in double
    std::vector<double> rest_volumes_m3;
    std::vector<glm::dvec3> load_n;  // m_v g, pinned vertices included
    double load_scale_n = 0.0;       // max |m_v g| over free vertices
    std::vector<int> free_index;     // first unknown of a vertex; -1 when pinned
    int unknowns = 0;
};

Problem make_problem(const TetMesh& mesh, const StaticLoad& load)
{
    Problem p{mesh, lame_parameters_d(load.youngs_modulus_pa, load.poisson_ratio), {}, {}, {},
              0.0, {}, 0};
    // B and V0 again in double, from the same rest positions: with the
    // mesh's float B, F at rest is I only to 1e-7, a prestress that made
    // the deflection at 1e10 Pa 0.3% off 1 / E.
    p.inv_rest_shapes.reserve(mesh.tet_count());
    p.rest_volumes_m3.reserve(mesh.tet_count());
    for (const glm::uvec4& tet : mesh.tets) {
        Eigen::Matrix3d dm;
        for (int j = 0; j < 3; ++j) {
            const glm::dvec3 edge = glm::dvec3(mesh.rest_positions[tet[j + 1]]) -
                                    glm::dvec3(mesh.rest_positions[tet[0]]);
            dm.col(j) = Eigen::Vector3d(edge.x, edge.y, edge.z);
        }
        p.inv_rest_shapes.push_back(dm.inverse());
        p.rest_volumes_m3.push_back(dm.determinant() / 6.0);  // > 0: prepare_tet_mesh orients
    }
    p.load_n.resize(mesh.vertex_count());
    p.free_index.assign(mesh.vertex_count(), -1);
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const double mass_kg = load.density_kg_m3 * double(mesh.lumped_volumes_m3[v]);
        p.load_n[v] = mass_kg * load.gravity_m_s2;
        if (!mesh.pinned[v]) {
            p.free_index[v] = p.unknowns;
            p.unknowns += 3;
            p.load_scale_n = std::max(p.load_scale_n, glm::length(p.load_n[v]));
        }
    }
    return p;
}

TetCorners tet_corners(const Problem& p, size_t tet, const std::vector<glm::dvec3>& x)
{
    TetCorners c;
    for (int a = 0; a < 4; ++a) {
        const glm::dvec3& v = x[p.mesh.tets[tet][a]];
        c.col(a) = Eigen::Vector3d(v.x, v.y, v.z);
    }
    return c;
}

TetEnergyTerms tet_terms(const Problem& p, size_t tet, const std::vector<glm::dvec3>& x,
                         TetHessian hessian)
{
    return tet_elastic_terms(tet_corners(p, tet, x), p.inv_rest_shapes[tet],
                             p.rest_volumes_m3[tet], p.lame, hessian);
}

struct Energy {
    double elastic_j = 0.0;
    double gravity_work_j = 0.0;
    double total_j() const { return elastic_j - gravity_work_j; }
    // Rounding in the sum: below this, two energies cannot be told apart.
    double noise_j() const { return 1e-12 * (std::abs(elastic_j) + std::abs(gravity_work_j)); }
};

// The energy and its gradient in one pass over the tets.
struct Evaluation {
    Energy energy;
    std::vector<glm::dvec3> gradient_n;
};

Evaluation evaluate(const Problem& p, const std::vector<glm::dvec3>& x)
{
    Evaluation e;
    e.gradient_n.resize(x.size());
    for (size_t v = 0; v < x.size(); ++v) {
        e.energy.gravity_work_j += glm::dot(p.load_n[v], x[v] - glm::dvec3(p.mesh.rest_positions[v]));
        e.gradient_n[v] = -p.load_n[v];
    }
    for (size_t t = 0; t < p.mesh.tet_count(); ++t) {
        const TetEnergyTerms terms = tet_terms(p, t, x, TetHessian::none);
        e.energy.elastic_j += terms.energy_j;
        for (int a = 0; a < 4; ++a) {
            e.gradient_n[p.mesh.tets[t][a]] += glm::dvec3(
                terms.gradient_n(3 * a), terms.gradient_n(3 * a + 1), terms.gradient_n(3 * a + 2));
        }
    }
    return e;
}

double relative_residual(const Problem& p, const std::vector<glm::dvec3>& g)
{
    double worst = 0.0;
    for (size_t v = 0; v < g.size(); ++v) {
        if (p.free_index[v] >= 0) worst = std::max(worst, glm::length(g[v]));
    }
    return p.load_scale_n > 0.0 ? worst / p.load_scale_n : worst;
}

Eigen::SparseMatrix<double> assemble_hessian(const Problem& p, const std::vector<glm::dvec3>& x,
                                             TetHessian kind)
{
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(p.mesh.tet_count() * 144);
    for (size_t t = 0; t < p.mesh.tet_count(); ++t) {
        const Matrix12d h = tet_terms(p, t, x, kind).hessian_n_per_m;
        for (int a = 0; a < 4; ++a) {
            const int row = p.free_index[p.mesh.tets[t][a]];
            if (row < 0) continue;
            for (int b = 0; b < 4; ++b) {
                const int col = p.free_index[p.mesh.tets[t][b]];
                if (col < 0) continue;
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j)
                        entries.emplace_back(row + i, col + j, h(3 * a + i, 3 * b + j));
            }
        }
    }
    Eigen::SparseMatrix<double> m(p.unknowns, p.unknowns);
    m.setFromTriplets(entries.begin(), entries.end());
    return m;
}

using Ldlt = Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>;

bool factorized_positive_definite(Ldlt& ldlt, const Eigen::SparseMatrix<double>& m)
{
    ldlt.factorize(m);
    return ldlt.info() == Eigen::Success && ldlt.vectorD().minCoeff() > 0.0;
}

// The Newton step -H^-1 g with the exact Hessian where the assembled one is
// positive definite (near the answer: quadratic convergence), else with the
// per-tet projected one (far from it, under compression), which is positive
// definite once the pins hold the rigid motions.
Result<Eigen::VectorXd> newton_step(const Problem& p, const std::vector<glm::dvec3>& x,
                                    const std::vector<glm::dvec3>& g, Ldlt& ldlt)
{
    Eigen::VectorXd rhs(p.unknowns);
    for (size_t v = 0; v < g.size(); ++v) {
        const int i = p.free_index[v];
        if (i >= 0) rhs.segment<3>(i) = -Eigen::Vector3d(g[v].x, g[v].y, g[v].z);
    }
    Eigen::SparseMatrix<double> h = assemble_hessian(p, x, TetHessian::exact);
    if (!factorized_positive_definite(ldlt, h)) {
        h = assemble_hessian(p, x, TetHessian::projected);
        if (!factorized_positive_definite(ldlt, h)) {
            return Result<Eigen::VectorXd>::failure(
                "the projected Hessian is singular: do the pinned vertices hold the body?");
        }
    }
    return Eigen::VectorXd(ldlt.solve(rhs));
}

std::vector<glm::dvec3> moved(const Problem& p, const std::vector<glm::dvec3>& x,
                              const Eigen::VectorXd& dx, double step)
{
    std::vector<glm::dvec3> y = x;
    for (size_t v = 0; v < x.size(); ++v) {
        const int i = p.free_index[v];
        if (i >= 0) y[v] += step * glm::dvec3(dx(i), dx(i + 1), dx(i + 2));
    }
    return y;
}

std::string failure_message(const TetMesh& mesh, const char* reason, int iteration,
                            double residual)
{
    std::ostringstream s;
    s << "static equilibrium of '" << mesh.name << "': " << reason << " (Newton iteration "
      << iteration << ", relative residual " << residual << ")";
    return s.str();
}

}  // namespace

double static_energy_j(const TetMesh& mesh, const StaticLoad& load,
                       const std::vector<glm::dvec3>& positions_m)
{
    return evaluate(make_problem(mesh, load), positions_m).energy.total_j();
}

std::vector<glm::dvec3> static_energy_gradient_n(const TetMesh& mesh, const StaticLoad& load,
                                                 const std::vector<glm::dvec3>& positions_m)
{
    return evaluate(make_problem(mesh, load), positions_m).gradient_n;
}

Result<StaticEquilibrium> solve_static_equilibrium(const TetMesh& mesh, const StaticLoad& load,
                                                   const StaticSolveOptions& options)
{
    const bool material_ok = std::isfinite(load.youngs_modulus_pa) && load.youngs_modulus_pa > 0.0 &&
                             load.poisson_ratio >= 0.0 && load.poisson_ratio < 0.5 &&
                             std::isfinite(load.density_kg_m3) && load.density_kg_m3 > 0.0;
    if (!material_ok) {
        return Result<StaticEquilibrium>::failure(
            "static equilibrium of '" + mesh.name +
            "': needs E > 0, 0 <= nu < 0.5 and a positive density");
    }
    const Problem p = make_problem(mesh, load);
    StaticEquilibrium out;
    out.positions_m.assign(mesh.rest_positions.begin(), mesh.rest_positions.end());
    if (p.unknowns == 0) return out;

    Ldlt ldlt;
    ldlt.analyzePattern(assemble_hessian(p, out.positions_m, TetHessian::none));
    Evaluation now = evaluate(p, out.positions_m);
    out.relative_residual = relative_residual(p, now.gradient_n);
    for (int it = 0;; ++it) {
        out.newton_iterations = it;
        if (out.relative_residual <= options.relative_tolerance) return out;
        if (it == options.max_newton_iterations) {
            return Result<StaticEquilibrium>::failure(failure_message(
                mesh, "no convergence within the iteration limit", it, out.relative_residual));
        }
        const Result<Eigen::VectorXd> dx = newton_step(p, out.positions_m, now.gradient_n, ldlt);
        if (!dx) {
            return Result<StaticEquilibrium>::failure(
                failure_message(mesh, dx.error().c_str(), it, out.relative_residual));
        }
        // Backtracking (Armijo) on the energy. Once the energy changes less
        // than its rounding, a step that lowers the residual is taken.
        double slope = 0.0;
        for (size_t v = 0; v < now.gradient_n.size(); ++v) {
            const int i = p.free_index[v];
            if (i >= 0) {
                slope += glm::dot(now.gradient_n[v],
                                  glm::dvec3(dx.value()(i), dx.value()(i + 1), dx.value()(i + 2)));
            }
        }
        bool accepted = false;
        for (double step = 1.0; step > 1e-12 && !accepted; step *= 0.5) {
            std::vector<glm::dvec3> trial = moved(p, out.positions_m, dx.value(), step);
            Evaluation trial_eval = evaluate(p, trial);
            const double trial_residual = relative_residual(p, trial_eval.gradient_n);
            const double before_j = now.energy.total_j();
            const double after_j = trial_eval.energy.total_j();
            const bool decreases = after_j <= before_j + 1e-4 * step * slope;
            const bool within_rounding = after_j <= before_j + now.energy.noise_j() &&
                                         trial_residual < out.relative_residual;
            if (decreases || within_rounding) {
                out.positions_m = std::move(trial);
                now = std::move(trial_eval);
                out.relative_residual = trial_residual;
                accepted = true;
            }
        }
        if (!accepted) {
            return Result<StaticEquilibrium>::failure(failure_message(
                mesh, "the line search found no lower energy", it, out.relative_residual));
        }
        if (dx.value().cwiseAbs().maxCoeff() <= options.step_tolerance_m) {
            out.newton_iterations = it + 1;
            return out;
        }
    }
}
