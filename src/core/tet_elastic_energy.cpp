#include "core/tet_elastic_energy.h"

#include <cmath>

namespace {

using Matrix9d = Eigen::Matrix<double, 9, 9>;
using Vector9d = Eigen::Matrix<double, 9, 1>;
using Matrix9x12d = Eigen::Matrix<double, 9, 12>;

// Column-major vec(), the order of dF / dx below.
Vector9d vec(const Eigen::Matrix3d& m)
{
    return Eigen::Map<const Vector9d>(m.data());
}

struct SignedSvd {
    Eigen::Matrix3d u;
    Eigen::Matrix3d v;
    Eigen::Vector3d sigma;  // descending in magnitude; sigma(2) < 0 when det F < 0
};

SignedSvd signed_svd(const Eigen::Matrix3d& f)
{
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(f, Eigen::ComputeFullU | Eigen::ComputeFullV);
    SignedSvd s{svd.matrixU(), svd.matrixV(), svd.singularValues()};
    // Make U and V rotations; the reflection goes onto the smallest value.
    if (s.u.determinant() < 0.0) {
        s.u.col(2) *= -1.0;
        s.sigma(2) *= -1.0;
    }
    if (s.v.determinant() < 0.0) {
        s.v.col(2) *= -1.0;
        s.sigma(2) *= -1.0;
    }
    return s;
}

Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& a)
{
    Eigen::Matrix3d m;
    m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
    return m;
}

// d vec(F) / d x for F = Ds B, Ds = [x1 - x0, x2 - x0, x3 - x0]: column j of
// F is sum_a c(a, j) x_a with c(a, j) = B(a - 1, j) and c(0, j) = -sum_i B(i, j).
Matrix9x12d deformation_jacobian(const Eigen::Matrix3d& b)
{
    Matrix9x12d d = Matrix9x12d::Zero();
    for (int j = 0; j < 3; ++j) {
        const double c[4] = {-b.col(j).sum(), b(0, j), b(1, j), b(2, j)};
        for (int a = 0; a < 4; ++a) {
            d.block<3, 3>(3 * j, 3 * a) = c[a] * Eigen::Matrix3d::Identity();
        }
    }
    return d;
}

// Hessian of mu |F - R|^2 in vec(F): 2 mu (I - sum_i s_i q_i q_i^T) with the
// twist modes q_i = vec(U T_i V^T) / sqrt(2) and s_i = 2 / (sigma_j +
// sigma_k), Smith, Goes and Kim 2019, "Analytic eigensystems for isotropic
// distortion energies", section 5.2. Where sigma_j + sigma_k -> 0 the
// rotation jumps; the mode is then given eigenvalue 0.
Matrix9d arap_hessian(const SignedSvd& s, double mu)
{
    Matrix9d h = 2.0 * mu * Matrix9d::Identity();
    const int pairs[3][2] = {{1, 2}, {0, 2}, {0, 1}};
    for (const auto& p : pairs) {
        const int j = p[0];
        const int k = p[1];
        Eigen::Matrix3d twist = Eigen::Matrix3d::Zero();
        twist(j, k) = 1.0;
        twist(k, j) = -1.0;
        const Vector9d q = vec(s.u * twist * s.v.transpose()) / std::sqrt(2.0);
        const double sum = s.sigma(j) + s.sigma(k);
        const double factor = std::abs(sum) > 1e-12 ? 2.0 / sum : 1.0;
        h -= 2.0 * mu * factor * q * q.transpose();
    }
    return h;
}

}  // namespace

LameParametersD lame_parameters_d(double youngs_modulus_pa, double poisson_ratio)
{
    const double e = youngs_modulus_pa;
    const double nu = poisson_ratio;
    return {e / (2.0 * (1.0 + nu)), e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))};
}

TetEnergyTerms tet_elastic_terms(const TetCorners& x, const Eigen::Matrix3d& b,
                                 double rest_volume_m3, const LameParametersD& lame,
                                 TetHessian hessian)
{
    Eigen::Matrix3d ds;
    for (int j = 0; j < 3; ++j) ds.col(j) = x.col(j + 1) - x.col(0);
    const Eigen::Matrix3d f = ds * b;
    const SignedSvd s = signed_svd(f);
    const Eigen::Matrix3d r = s.u * s.v.transpose();
    const double j_det = f.determinant();
    const double mu = lame.mu_pa;
    const double lambda = lame.lambda_pa;

    TetEnergyTerms terms;
    terms.energy_j = rest_volume_m3 * (mu * (s.sigma.array() - 1.0).square().sum() +
                                       0.5 * lambda * (j_det - 1.0) * (j_det - 1.0));

    // dJ / dF = cof F: columns f1 x f2, f2 x f0, f0 x f1.
    const Eigen::Vector3d f0 = f.col(0), f1 = f.col(1), f2 = f.col(2);
    Eigen::Matrix3d cofactor;
    cofactor << f1.cross(f2), f2.cross(f0), f0.cross(f1);
    const Eigen::Matrix3d stress = 2.0 * mu * (f - r) + lambda * (j_det - 1.0) * cofactor;
    const Matrix9x12d d = deformation_jacobian(b);
    terms.gradient_n = rest_volume_m3 * d.transpose() * vec(stress);
    if (hessian == TetHessian::none) return terms;

    // Volume term: lambda (g g^T + (J - 1) d^2 J / dF^2), the second
    // derivative of the determinant in cross-product blocks.
    Matrix9d hessian_j = Matrix9d::Zero();
    hessian_j.block<3, 3>(0, 3) = -cross_matrix(f2);
    hessian_j.block<3, 3>(0, 6) = cross_matrix(f1);
    hessian_j.block<3, 3>(3, 6) = -cross_matrix(f0);
    hessian_j.block<3, 3>(3, 0) = cross_matrix(f2);
    hessian_j.block<3, 3>(6, 0) = -cross_matrix(f1);
    hessian_j.block<3, 3>(6, 3) = cross_matrix(f0);
    const Vector9d g = vec(cofactor);
    Matrix9d h = arap_hessian(s, mu) +
                 lambda * (g * g.transpose() + (j_det - 1.0) * hessian_j);
    if (hessian == TetHessian::projected) {
        const Eigen::SelfAdjointEigenSolver<Matrix9d> eigen(h);
        h = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() *
            eigen.eigenvectors().transpose();
    }
    terms.hessian_n_per_m = rest_volume_m3 * d.transpose() * h * d;
    return terms;
}
