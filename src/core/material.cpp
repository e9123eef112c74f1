#include "core/material.h"

LameParameters lame_parameters(float youngs_modulus_pa, float poisson_ratio)
{
    const float E = youngs_modulus_pa;
    const float nu = poisson_ratio;
    return {E / (2.0f * (1.0f + nu)), E * nu / ((1.0f + nu) * (1.0f - 2.0f * nu))};
}

float arap_compliance(const LameParameters& lame, float rest_volume_m3)
{
    return 1.0f / (2.0f * lame.mu_pa * rest_volume_m3);
}

float volume_compliance(const LameParameters& lame, float rest_volume_m3)
{
    return 1.0f / (lame.lambda_pa * rest_volume_m3);
}

float sliver_volume_compliance(const LameParameters& lame, float rest_volume_m3)
{
    return 1.0f / ((lame.lambda_pa + 2.0f * lame.mu_pa) * rest_volume_m3);
}

bool volume_constraint_enabled(const LameParameters& lame)
{
    return lame.lambda_pa > 0.0f;
}

TetCompliances tet_compliances(const LameParameters& lame, float rest_volume_m3, bool sliver)
{
    const float shape = arap_compliance(lame, rest_volume_m3);
    if (sliver) {
        // Shape matching's energy hardly sees a sliver's thin side
        // (tm_sliver_shape_step): its volume term takes the stiffness across
        // that the strain's shape term had, lambda + 2 mu (a layer pressed
        // across, mu eps^2 + lambda eps^2 / 2), also where lambda = 0.
        return {shape, sliver_volume_compliance(lame, rest_volume_m3)};
    }
    const bool volume_on = volume_constraint_enabled(lame);
    return {shape, volume_on ? volume_compliance(lame, rest_volume_m3) : -1.0f};
}
