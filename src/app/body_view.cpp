#include "app/body_view.h"

#include <algorithm>

namespace {

// Red at this fraction of Young's modulus.
constexpr float kFullScaleStrain = 0.1f;

}  // namespace

std::optional<BodyView> body_view_from_name(const std::string& name)
{
    BodyView view;
    if (name == "surface") {
        return view;
    }
    if (name == "tets") {
        view.surface = DrawnSurface::tets;
        return view;
    }
    if (name == "strain") {
        view.strain = true;
        return view;
    }
    return std::nullopt;
}

float automatic_full_scale_pa(const SimParams& params, const World& world,
                              std::optional<size_t> selected)
{
    if (selected && *selected < world.body_count()) {
        return kFullScaleStrain * params.body_material(*selected).youngs_modulus_pa;
    }
    float stiffest = params.material().youngs_modulus_pa;
    if (world.body_count() > 0) {
        stiffest = 0.0f;
        for (size_t b = 0; b < world.body_count(); ++b) {
            stiffest = std::max(stiffest, params.body_material(b).youngs_modulus_pa);
        }
    }
    return kFullScaleStrain * stiffest;
}

std::vector<LameParameters> body_lame_parameters(const SimParams& params, const World& world)
{
    std::vector<LameParameters> lame(world.body_count());
    for (size_t b = 0; b < lame.size(); ++b) {
        const BodyMaterial m = params.body_material(b);
        lame[b] = lame_parameters(m.youngs_modulus_pa, m.poisson_ratio);
    }
    return lame;
}
