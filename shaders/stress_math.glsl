// Stress of a tet, for the strain view. Included by the stress pass and,
// through src/core/stress_math.h, by the C++ tests: one definition.
// Needs tet_math.glsl (the signed SVD) included before it.

// The von Mises stress (Pa) of the Kirchhoff stress of the energy the
// solvers minimise, psi = mu |F - R|^2 + lambda / 2 (J - 1)^2 per unit rest
// volume. With F = U diag(s) V^T its principal first Piola-Kirchhoff
// stresses are dpsi/ds_i = 2 mu (s_i - 1) + lambda (J - 1) dJ/ds_i, and the
// Kirchhoff ones those times s_i: 2 mu (s_i - 1) s_i + lambda (J - 1) J,
// which is Cauchy's times J and stays finite as a tet flattens. 0 for any
// rotation; E times the strain for a small pull along one axis at nu = 0.
TM_FN float tm_von_mises_pa(mat3 F, float mu, float lambda)
{
    mat3 U;
    vec3 s;
    mat3 V;
    tm_signed_svd(F, U, s, V);
    float J = s.x * s.y * s.z;
    // The volume term adds the same to all three: von Mises ignores it,
    // but it is kept so that the expression reads as the stress.
    vec3 kirchhoff = 2.0f * mu * (s - vec3(1.0f)) * s + vec3(lambda * (J - 1.0f) * J);
    vec3 d = vec3(kirchhoff.x - kirchhoff.y, kirchhoff.y - kirchhoff.z, kirchhoff.z - kirchhoff.x);
    return sqrt(0.5f * dot(d, d));
}
