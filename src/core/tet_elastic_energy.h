// The elastic energy of one tet that its two XPBD constraints stand for
// (docs/algorithm.md section 2), in double precision, with its gradient and
// Hessian in the corner positions: what the exact static solver
// (static_equilibrium.h) minimises.
//
//   E_tet = V0 * (mu |F - R|^2 + lambda/2 (J - 1)^2),  F = Ds B,  J = det F,
//
// R the rotation of the signed SVD F = U diag(sigma) V^T (det U = det V = +1,
// the sign of det F on the smallest sigma, as tet_math.glsl), so that
// |F - R|^2 = sum (sigma_k - 1)^2 is the squared shape constraint |Sigma - I|
// and an inverted tet is pushed back the way the solver pushes it.
#pragma once

#include <Eigen/Dense>

using Vector12d = Eigen::Matrix<double, 12, 1>;
using Matrix12d = Eigen::Matrix<double, 12, 12>;
using TetCorners = Eigen::Matrix<double, 3, 4>;  // column a: corner a, metres

struct LameParametersD {
    double mu_pa;
    double lambda_pa;
};

// The formulas of lame_parameters (material.h), in double precision.
LameParametersD lame_parameters_d(double youngs_modulus_pa, double poisson_ratio);

enum class TetHessian {
    none,       // energy and gradient only
    exact,      // the true second derivative; indefinite under compression
    projected,  // its negative eigenvalues (in F, 9 x 9) set to 0: positive semi-definite
};

struct TetEnergyTerms {
    double energy_j = 0.0;
    Vector12d gradient_n = Vector12d::Zero();  // dE / dx, corner after corner
    Matrix12d hessian_n_per_m = Matrix12d::Zero();
};

TetEnergyTerms tet_elastic_terms(const TetCorners& corners_m, const Eigen::Matrix3d& inv_rest_shape,
                                 double rest_volume_m3, const LameParametersD& lame,
                                 TetHessian hessian);
