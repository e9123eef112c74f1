// The signed SVD of tet_math.glsl against Eigen's double-precision SVD, on
// generic, inverted, rank-deficient, badly scaled and near-degenerate
// matrices (DESIGN.md section 6).
#include "core/tet_math.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

// Relative tolerances, against the Frobenius norm of F (float arithmetic,
// five fixed Jacobi sweeps). Badly scaled matrices (condition numbers up to
// 1e8) get a looser bound: F^T F squares the condition number past float
// precision, which caps the accuracy of every method built on it at ~1e-4.
constexpr double kReconstructionTolerance = 2e-5;
constexpr double kBadlyScaledTolerance = 3e-4;
constexpr double kSingularValueTolerance = 2e-5;
constexpr double kOrthogonalityTolerance = 1e-5;

Eigen::Matrix3d to_eigen(const glm::mat3& m)
{
    Eigen::Matrix3d e;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) e(r, c) = m[c][r];
    return e;
}

glm::mat3 to_glm(const Eigen::Matrix3d& e)
{
    glm::mat3 m;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m[c][r] = static_cast<float>(e(r, c));
    return m;
}

Eigen::Matrix3d random_rotation(std::mt19937& rng)
{
    std::normal_distribution<double> n(0.0, 1.0);
    Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
    q.normalize();
    return q.toRotationMatrix();
}

struct Case {
    const char* kind;
    Eigen::Matrix3d F;
    double tolerance = kReconstructionTolerance;
};

// Builds F = R1 diag(s) R2 from chosen singular values, or fully random.
std::vector<Case> make_cases()
{
    std::mt19937 rng(1234);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    std::uniform_real_distribution<double> log_scale(-4.0, 4.0);
    std::vector<Case> cases;
    auto with_sigma = [&](const char* kind, double s1, double s2, double s3,
                          double tolerance = kReconstructionTolerance) {
        Eigen::Matrix3d F = random_rotation(rng) * Eigen::Vector3d(s1, s2, s3).asDiagonal() *
                            random_rotation(rng).transpose();
        cases.push_back({kind, F, tolerance});
    };
    for (int i = 0; i < 2000; ++i) {
        Eigen::Matrix3d F;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) F(r, c) = u(rng);
        cases.push_back({"random", F});
    }
    for (int i = 0; i < 1000; ++i) {
        with_sigma("inverted", std::abs(u(rng)) + 0.1, std::abs(u(rng)) + 0.1,
                   -(std::abs(u(rng)) + 0.1));
    }
    for (int i = 0; i < 500; ++i) {
        with_sigma("rank 2", std::abs(u(rng)) + 0.1, std::abs(u(rng)) + 0.1, 0.0);
        with_sigma("rank 1", std::abs(u(rng)) + 0.1, 0.0, 0.0);
    }
    for (int i = 0; i < 1000; ++i) {
        with_sigma("badly scaled", std::pow(10.0, log_scale(rng)), std::pow(10.0, log_scale(rng)),
                   (i % 2 ? -1.0 : 1.0) * std::pow(10.0, log_scale(rng)), kBadlyScaledTolerance);
    }
    for (int i = 0; i < 500; ++i) {
        with_sigma("repeated", 1.0, 1.0, 1.0);
        with_sigma("near identity", 1.0 + 1e-4 * u(rng), 1.0 + 1e-4 * u(rng), 1.0 + 1e-4 * u(rng));
        with_sigma("flattened, inverted", 1.0, 1.0, -1e-3);
    }
    cases.push_back({"zero", Eigen::Matrix3d::Zero()});
    cases.push_back({"identity", Eigen::Matrix3d::Identity()});
    cases.push_back({"mirror", Eigen::Vector3d(-1.0, 1.0, 1.0).asDiagonal()});
    cases.push_back({"point reflection", -Eigen::Matrix3d::Identity()});
    return cases;
}

}  // namespace

TEST(SignedSvd, MatchesDoublePrecisionReference)
{
    const std::vector<Case> cases = make_cases();
    ASSERT_GT(cases.size(), 6000u);
    double worst_reconstruction = 0.0;
    double worst_sigma = 0.0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        const glm::mat3 F = to_glm(c.F);
        const Eigen::Matrix3d Ff = to_eigen(F);  // the float matrix, exactly
        glm::mat3 U;
        glm::vec3 sigma;
        glm::mat3 V;
        tet_math::tm_signed_svd(F, U, sigma, V);

        const Eigen::Matrix3d Ue = to_eigen(U);
        const Eigen::Matrix3d Ve = to_eigen(V);
        const Eigen::Vector3d s(sigma.x, sigma.y, sigma.z);
        const double scale = std::max(Ff.norm(), 1e-30);
        SCOPED_TRACE(testing::Message() << "case " << i << " (" << c.kind << ")\nF =\n" << Ff);

        // Rotations: orthonormal with determinant +1.
        const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
        EXPECT_LT((Ue.transpose() * Ue - I).norm(), kOrthogonalityTolerance);
        EXPECT_LT((Ve.transpose() * Ve - I).norm(), kOrthogonalityTolerance);
        EXPECT_NEAR(Ue.determinant(), 1.0, kOrthogonalityTolerance);
        EXPECT_NEAR(Ve.determinant(), 1.0, kOrthogonalityTolerance);

        // Reconstruction.
        const double reconstruction = (Ue * s.asDiagonal() * Ve.transpose() - Ff).norm() / scale;
        worst_reconstruction = std::max(worst_reconstruction, reconstruction);
        EXPECT_LT(reconstruction, c.tolerance);

        // Ordering and sign: sigma1 >= sigma2 >= |sigma3|, sign(sigma3) = sign(det F).
        EXPECT_GE(s(0), s(1) - c.tolerance * scale);
        EXPECT_GE(s(1), std::abs(s(2)) - c.tolerance * scale);
        EXPECT_GE(s(1), 0.0);
        const double det = Ff.determinant();
        if (std::abs(det) > 1e-6 * scale * scale * scale) {
            EXPECT_EQ(s(2) > 0.0, det > 0.0) << "det F = " << det << ", sigma3 = " << s(2);
        }

        // Singular values against Eigen's (unsigned) in double precision.
        Eigen::JacobiSVD<Eigen::Matrix3d> reference(Ff);
        Eigen::Vector3d expected = reference.singularValues();
        if (det < 0.0) {
            expected(2) = -expected(2);
        }
        const double sigma_error = (s - expected).cwiseAbs().maxCoeff() / scale;
        worst_sigma = std::max(worst_sigma, sigma_error);
        EXPECT_LT(sigma_error, std::max(kSingularValueTolerance, c.tolerance));
    }
    std::printf("signed SVD over %zu matrices: worst reconstruction %.2e, worst sigma %.2e "
                "(relative to |F|)\n",
                cases.size(), worst_reconstruction, worst_sigma);
}

// The constraint value |Sigma - I| must equal |F - R| with R = U V^T: the
// identity the ARAP gradient (F - R) / C relies on.
TEST(SignedSvd, ArapDistanceEqualsFrobeniusDistanceToRotation)
{
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> u(-1.5f, 1.5f);
    for (int i = 0; i < 1000; ++i) {
        glm::mat3 F;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) F[c][r] = u(rng);
        glm::mat3 U, V;
        glm::vec3 sigma;
        tet_math::tm_signed_svd(F, U, sigma, V);
        const glm::mat3 D = F - U * glm::transpose(V);
        float frobenius = 0.0f;
        for (int c = 0; c < 3; ++c) frobenius += glm::dot(D[c], D[c]);
        EXPECT_NEAR(std::sqrt(frobenius), glm::length(sigma - glm::vec3(1.0f)), 1e-4f);
    }
}
