#include "core/warm_start.h"

#include <algorithm>
#include <cmath>

namespace {

// K / q^2 at or above which the warm start is whole (warm_start.h): bodies
// at rest taking it whole went unstable at 0.113 or less and stayed stable
// at 0.14 or more, at 1 to 16 iterations.
constexpr float kLeastSweepsPerSquaredCrossing = 0.2f;

// The same for the pressure wave, sqrt((lambda + 2 mu) / rho), which the
// volume term carries. Scaled so that at nu = 0.3 (where the pressure
// modulus is 7/2 of the shear modulus) both give the same limit: below
// nu = 0.3 the shear wave decides, above it the pressure wave. The beam
// preset hanging with the whole warm start went unstable at 1.5e8 Pa at nu
// = 0.3, 1e8 at 0.4, 5e7 at 0.45 and 1.5e7 at 0.49, 1.25 to 1.7 times the
// limit this gives (docs/algorithm.md 4, "The volume term's wave").
constexpr float kLeastSweepsPerSquaredPressureCrossing =
    kLeastSweepsPerSquaredCrossing * 2.0f / 7.0f;

// The share of a body's tets smaller than its "small tet".
constexpr float kSmallTetShare = 0.05f;

// How many small tets a wave of elastic modulus `modulus_pa` in `material`
// crosses in a substep of h seconds.
float wave_crossings_per_substep(float modulus_pa, const BodyMaterial& material,
                                 float small_tet_size_m, float h)
{
    const float wave_m_s = std::sqrt(modulus_pa / material.density_kg_m3);
    return wave_m_s * h / small_tet_size_m;
}

}  // namespace

std::vector<float> small_tet_sizes_m(const World& world)
{
    const TetMesh& mesh = *world.mesh;
    std::vector<float> sizes(world.body_count(), 0.0f);
    std::vector<float> volumes;
    for (size_t b = 0; b < world.body_count(); ++b) {
        const WorldBody& body = world.bodies[b];
        if (body.tet_count == 0) {
            continue;
        }
        const auto first = mesh.rest_volumes_m3.begin() + body.first_tet;
        volumes.assign(first, first + body.tet_count);
        const auto nth =
            volumes.begin() + static_cast<std::ptrdiff_t>(kSmallTetShare * (volumes.size() - 1));
        std::nth_element(volumes.begin(), nth, volumes.end());
        sizes[b] = std::cbrt(*nth);
    }
    return sizes;
}

float shear_crossings_per_substep(const BodyMaterial& material, float small_tet_size_m, float h)
{
    const LameParameters lame = lame_parameters(material.youngs_modulus_pa, material.poisson_ratio);
    return wave_crossings_per_substep(lame.mu_pa, material, small_tet_size_m, h);
}

float pressure_crossings_per_substep(const BodyMaterial& material, float small_tet_size_m,
                                    float h)
{
    const LameParameters lame = lame_parameters(material.youngs_modulus_pa, material.poisson_ratio);
    return wave_crossings_per_substep(lame.lambda_pa + 2.0f * lame.mu_pa, material,
                                      small_tet_size_m, h);
}

bool sweeps_keep_up(const std::vector<BodyMaterial>& materials,
                    const std::vector<float>& small_tet_sizes_m, float h, int iterations)
{
    for (size_t b = 0; b < materials.size() && b < small_tet_sizes_m.size(); ++b) {
        if (small_tet_sizes_m[b] <= 0.0f) {
            continue;  // no tets
        }
        const float q = shear_crossings_per_substep(materials[b], small_tet_sizes_m[b], h);
        const float p = pressure_crossings_per_substep(materials[b], small_tet_sizes_m[b], h);
        const float sweeps = static_cast<float>(iterations);
        if (sweeps < kLeastSweepsPerSquaredCrossing * q * q ||
            sweeps < kLeastSweepsPerSquaredPressureCrossing * p * p) {
            return false;
        }
    }
    return true;
}
