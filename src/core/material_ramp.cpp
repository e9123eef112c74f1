#include "core/material_ramp.h"

#include <algorithm>
#include <cmath>

namespace {

// One material a step of `dt_s` closer to `wanted` than `applied`.
BodyMaterial step_toward(const BodyMaterial& applied, const BodyMaterial& wanted, float dt_s,
                         bool& held_back)
{
    BodyMaterial next = wanted;
    const float most_youngs =
        applied.youngs_modulus_pa * std::pow(MaterialRamp::kStiffeningPerSecond, dt_s);
    if (wanted.youngs_modulus_pa > most_youngs) {
        next.youngs_modulus_pa = most_youngs;
        held_back = true;
    }
    const float most_poisson = applied.poisson_ratio + MaterialRamp::kPoissonPerSecond * dt_s;
    if (wanted.poisson_ratio > most_poisson) {
        next.poisson_ratio = most_poisson;
        held_back = true;
    }
    return next;
}

}  // namespace

void MaterialRamp::remove_body(size_t body)
{
    if (applied_.size() > 1 && body < applied_.size()) {
        applied_.erase(applied_.begin() + static_cast<std::ptrdiff_t>(body));
    }
}

SimParams MaterialRamp::next(const SimParams& wanted, float dt_s)
{
    const size_t bodies = std::max<size_t>(1, wanted.body_materials.size());
    ramping_ = false;
    if (applied_.size() == 1 && bodies > 1) {
        // "All bodies" split into one material each: each starts from the one.
        applied_.assign(bodies, applied_[0]);
    } else if (!applied_.empty() && bodies > applied_.size()) {
        // Bodies added at the end start as asked; the others keep ramping.
        for (size_t b = applied_.size(); b < bodies; ++b) {
            applied_.push_back(wanted.body_material(b));
        }
    } else if (applied_.size() != bodies) {
        // First frame, or a body added or removed: start from what is wanted.
        applied_.clear();
        for (size_t b = 0; b < bodies; ++b) {
            applied_.push_back(wanted.body_material(b));
        }
        return wanted;
    }
    SimParams params = wanted;
    for (size_t b = 0; b < bodies; ++b) {
        applied_[b] = step_toward(applied_[b], wanted.body_material(b), dt_s, ramping_);
    }
    if (wanted.body_materials.empty()) {
        params.youngs_modulus_pa = applied_[0].youngs_modulus_pa;
        params.poisson_ratio = applied_[0].poisson_ratio;
        params.density_kg_m3 = applied_[0].density_kg_m3;
    } else {
        params.body_materials = applied_;
    }
    return params;
}
