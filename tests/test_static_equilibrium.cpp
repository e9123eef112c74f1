// The exact static solver (core/static_equilibrium.h) that the stiffness
// tests measure the XPBD solvers against: its energy's derivatives against
// finite differences, and its answers against analytic ones.
#include "cantilever.h"
#include "core/tet_elastic_energy.h"

#include <ctime>
#include <cmath>
#include <random>

namespace {

constexpr double kGravity = 9.81;
constexpr double kDensity = 1000.0;

// A tet of this project's lattices: the corner cell of a Kuhn split.
TetCorners rest_corners()
{
    TetCorners x;
    x << 0.0, 0.1, 0.1, 0.1,  //
        0.0, 0.0, 0.1, 0.1,   //
        0.0, 0.0, 0.0, 0.1;
    return x;
}

Eigen::Matrix3d inv_rest_shape(const TetCorners& x)
{
    Eigen::Matrix3d dm;
    for (int j = 0; j < 3; ++j) dm.col(j) = x.col(j + 1) - x.col(0);
    return dm.inverse();
}

double rest_volume(const TetCorners& x)
{
    return inv_rest_shape(x).inverse().determinant() / 6.0;
}

// Deformed corners: a random affine map plus random corner noise; with
// `invert`, the map reflects (det < 0).
TetCorners deformed(std::mt19937& rng, bool invert)
{
    std::uniform_real_distribution<double> u(-0.3, 0.3);
    Eigen::Matrix3d a = Eigen::Matrix3d::Identity();
    for (int i = 0; i < 9; ++i) a(i) += u(rng);
    if (invert) a.row(0) *= -1.0;
    TetCorners x = a * rest_corners();
    for (int i = 0; i < 12; ++i) x(i) += 0.01 * u(rng);
    return x;
}

TetEnergyTerms terms(const TetCorners& x, const TetCorners& rest, const LameParametersD& lame,
                     TetHessian h = TetHessian::exact)
{
    return tet_elastic_terms(x, inv_rest_shape(rest), rest_volume(rest), lame, h);
}

std::shared_ptr<const TetMesh> hanging_bar(double length_m)
{
    // 0.2 x L x 0.2 m, 2 x 10 x 2 cells, the top face pinned.
    TetMeshDesc desc = box_lattice({2, 10, 2}, {-0.1f, 0.5f, -0.1f},
                                   {0.2f, float(length_m), 0.2f});
    desc.name = "hanging bar";
    for (uint32_t v = 0; v < desc.positions.size(); ++v) {
        if (desc.positions[v].y > 0.5f + float(length_m) - 1e-4f) desc.pinned_vertices.push_back(v);
    }
    return prepare_or_fail(desc);
}

}  // namespace

TEST(TetElasticEnergy, GradientAndHessianMatchFiniteDifferences)
{
    std::mt19937 rng(7);
    const TetCorners rest = rest_corners();
    const LameParametersD lame = lame_parameters_d(1.0e6, 0.4);
    for (int trial = 0; trial < 20; ++trial) {
        const TetCorners x = deformed(rng, trial % 4 == 3);
        const TetEnergyTerms t = terms(x, rest, lame);
        const double h = 1e-6;
        Vector12d fd_gradient;
        Matrix12d fd_hessian;
        for (int i = 0; i < 12; ++i) {
            TetCorners plus = x, minus = x;
            plus(i) += h;
            minus(i) -= h;
            const TetEnergyTerms tp = terms(plus, rest, lame);
            const TetEnergyTerms tm = terms(minus, rest, lame);
            fd_gradient(i) = (tp.energy_j - tm.energy_j) / (2.0 * h);
            fd_hessian.col(i) = (tp.gradient_n - tm.gradient_n) / (2.0 * h);
        }
        const double gradient_error =
            (fd_gradient - t.gradient_n).cwiseAbs().maxCoeff() / t.gradient_n.cwiseAbs().maxCoeff();
        const double hessian_error = (fd_hessian - t.hessian_n_per_m).cwiseAbs().maxCoeff() /
                                     t.hessian_n_per_m.cwiseAbs().maxCoeff();
        EXPECT_LT(gradient_error, 1e-7) << "trial " << trial << ", det F < 0: " << (trial % 4 == 3);
        EXPECT_LT(hessian_error, 1e-5) << "trial " << trial << ", det F < 0: " << (trial % 4 == 3);
    }
}

TEST(TetElasticEnergy, ZeroAtRestAndUnderRotationAndProjectedHessianIsPositiveSemiDefinite)
{
    const TetCorners rest = rest_corners();
    const LameParametersD lame = lame_parameters_d(1.0e6, 0.3);
    const Eigen::Matrix3d rotation =
        Eigen::AngleAxisd(0.7, Eigen::Vector3d(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
    const TetEnergyTerms rotated = terms(rotation * rest, rest, lame);
    EXPECT_NEAR(terms(rest, rest, lame).energy_j, 0.0, 1e-12);
    EXPECT_NEAR(rotated.energy_j, 0.0, 1e-9);
    EXPECT_LT(rotated.gradient_n.cwiseAbs().maxCoeff(), 1e-6);

    // Compressed along x: the exact Hessian has negative eigenvalues (the
    // twist modes), the projected one none.
    TetCorners squashed = rest;
    squashed.row(0) *= 0.5;
    const Matrix12d exact = terms(squashed, rest, lame, TetHessian::exact).hessian_n_per_m;
    const Matrix12d projected = terms(squashed, rest, lame, TetHessian::projected).hessian_n_per_m;
    const double scale = exact.cwiseAbs().maxCoeff();
    EXPECT_LT(Eigen::SelfAdjointEigenSolver<Matrix12d>(exact).eigenvalues().minCoeff(),
              -1e-3 * scale);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Matrix12d>(projected).eigenvalues().minCoeff(),
              -1e-9 * scale);
}

TEST(StaticEquilibrium, MeshGradientMatchesFiniteDifferencesOfTheEnergy)
{
    const Cantilever beam;
    StaticLoad load;
    load.youngs_modulus_pa = 1.0e5;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-0.01, 0.01);
    std::vector<glm::dvec3> x(beam.mesh->rest_positions.begin(), beam.mesh->rest_positions.end());
    for (glm::dvec3& p : x) p += glm::dvec3(u(rng), u(rng), u(rng));
    const std::vector<glm::dvec3> g = static_energy_gradient_n(*beam.mesh, load, x);
    double worst = 0.0, largest = 0.0;
    for (uint32_t v = 0; v < x.size(); v += 7) {
        for (int k = 0; k < 3; ++k) {
            const double h = 1e-6;
            std::vector<glm::dvec3> plus = x, minus = x;
            plus[v][k] += h;
            minus[v][k] -= h;
            const double fd = (static_energy_j(*beam.mesh, load, plus) -
                               static_energy_j(*beam.mesh, load, minus)) / (2.0 * h);
            worst = std::max(worst, std::abs(fd - g[v][k]));
            largest = std::max(largest, std::abs(g[v][k]));
        }
    }
    EXPECT_LT(worst / largest, 1e-6) << "largest gradient entry " << largest << " N";
}

TEST(StaticEquilibrium, HangingBarStretchesAsHookesLawSays)
{
    // nu = 0: no lateral contraction, and |F - R|^2 = (stretch - 1)^2 makes
    // the stress linear in the stretch, so rho g L^2 / (2 E) holds at any
    // strain; what is left is the mesh (lumped loads on Kuhn tets).
    const double length_m = 1.0;
    const std::shared_ptr<const TetMesh> bar = hanging_bar(length_m);
    for (const double youngs : {1.0e5, 1.0e7}) {
        StaticLoad load;
        load.youngs_modulus_pa = youngs;
        load.poisson_ratio = 0.0;
        const Result<StaticEquilibrium> exact = solve_static_equilibrium(*bar, load);
        ASSERT_TRUE(exact.ok()) << exact.error();
        double sum = 0.0;
        int count = 0;
        for (uint32_t v = 0; v < bar->vertex_count(); ++v) {
            if (bar->rest_positions[v].y < 0.5f + 1e-4f) {
                sum += bar->rest_positions[v].y - exact.value().positions_m[v].y;
                ++count;
            }
        }
        const double elongation = sum / count;
        const double analytic = kDensity * kGravity * length_m * length_m / (2.0 * youngs);
        std::printf("hanging bar, E %.0e Pa: exact static %.7f m, analytic %.7f m, ratio %.6f, "
                    "%d Newton iterations, residual %.1e\n",
                    youngs, elongation, analytic, elongation / analytic,
                    exact.value().newton_iterations, exact.value().relative_residual);
        EXPECT_NEAR(elongation / analytic, 1.0, 1e-3) << "E " << youngs;
        EXPECT_LE(exact.value().relative_residual, 1e-10);
    }
}

TEST(StaticEquilibrium, CantileverDeflectionScalesExactlyAsOneOverEAtSmallLoads)
{
    // At 1e9 Pa the tip moves 5e-5 of the length: linear elasticity, where
    // the deflection is proportional to 1 / E up to terms of the order of
    // the strain (measured: 2e-6 relative from 1e9 to 2e9, 4e-6 to 1e10).
    const Cantilever beam;
    const double d1 = beam.exact_tip_deflection(1.0e9f, 0.3f);
    const double d2 = beam.exact_tip_deflection(2.0e9f, 0.3f);
    const double d10 = beam.exact_tip_deflection(1.0e10f, 0.3f);
    std::printf("exact cantilever tip: 1e9 Pa %.6e m, 2e9 %.6e m (ratio %.7f), 1e10 %.6e m "
                "(ratio %.7f)\n",
                d1, d2, d1 / d2, d10, d1 / d10);
    EXPECT_NEAR(d1 / d2, 2.0, 2e-5);
    EXPECT_NEAR(d1 / d10, 10.0, 2e-4);
}

TEST(StaticEquilibrium, BeamPresetMatchesTheIndependentlyMeasuredDeflections)
{
    // The beam preset (1.2 x 0.4 x 0.4 m, 12 x 4 x 4 cells, nu 0.3), tip =
    // the free end face: these figures were computed independently, by a
    // separate implementation of the same discrete energy on the same mesh.
    // They pin the reference itself.
    const std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    const float free_end_x = 0.6f;
    const struct {
        double youngs_pa;
        double tip_mm;
    } expected[] = {{1e5, 1009.17}, {1e6, 164.17}, {2e6, 82.54},
                    {1e7, 16.52},   {2e7, 8.261},  {1e8, 1.652}};
    for (const auto& row : expected) {
        StaticLoad load;
        load.youngs_modulus_pa = row.youngs_pa;
        const std::clock_t start = std::clock();  // processor time: the machine may be shared
        const Result<StaticEquilibrium> exact = solve_static_equilibrium(*mesh, load);
        const double seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
        ASSERT_TRUE(exact.ok()) << exact.error();
        double sum = 0.0;
        int count = 0;
        for (uint32_t v = 0; v < mesh->vertex_count(); ++v) {
            if (mesh->rest_positions[v].x > free_end_x - 1e-4f) {
                sum += mesh->rest_positions[v].y - exact.value().positions_m[v].y;
                ++count;
            }
        }
        const double tip_mm = 1e3 * sum / count;
        std::printf("beam preset, E %.0e Pa: exact tip %.4f mm (expected %.6g, ratio %.5f), "
                    "%d Newton iterations, residual %.1e, %.3f s processor time\n",
                    row.youngs_pa, tip_mm, row.tip_mm, tip_mm / row.tip_mm,
                    exact.value().newton_iterations, exact.value().relative_residual, seconds);
        EXPECT_EQ(count, 25);
        EXPECT_NEAR(tip_mm / row.tip_mm, 1.0, 1e-3) << "E " << row.youngs_pa;
    }
}

TEST(StaticEquilibrium, RefusesABadMaterialAndAnUnpinnedBodySayingWhy)
{
    const Cantilever beam;
    StaticLoad incompressible;
    incompressible.poisson_ratio = 0.5;
    const Result<StaticEquilibrium> bad = solve_static_equilibrium(*beam.mesh, incompressible);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("nu < 0.5"), std::string::npos) << bad.error();

    TetMeshDesc desc = box_lattice({2, 2, 2}, {0.0f, 1.0f, 0.0f}, {0.2f, 0.2f, 0.2f});
    desc.name = "free cube";
    const std::shared_ptr<const TetMesh> cube = prepare_or_fail(desc);
    const Result<StaticEquilibrium> unpinned = solve_static_equilibrium(*cube, StaticLoad{});
    ASSERT_FALSE(unpinned.ok());
    EXPECT_NE(unpinned.error().find("pinned vertices"), std::string::npos) << unpinned.error();
    EXPECT_NE(unpinned.error().find("free cube"), std::string::npos) << unpinned.error();
}
