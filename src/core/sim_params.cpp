#include "core/sim_params.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <type_traits>

namespace {

constexpr size_t kNoBody = SIZE_MAX;

// `body`: which body's material the field is, or kNoBody.
template <typename T>
void clamp_field(const char* name, T& value, const Range<T>& range, T fallback,
                 std::ostringstream& note, size_t body = kNoBody)
{
    T original = value;
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value)) {
            value = fallback;
        }
    }
    value = std::clamp(value, range.min, range.max);
    if (!(value == original)) {
        if (body != kNoBody) {
            note << "body " << body + 1 << " ";
        }
        note << name << " " << original << " -> " << value << "; ";
    }
}

}  // namespace

const char* solver_method_name(SolverMethod method)
{
    switch (method) {
    case SolverMethod::jacobi: return "jacobi";
    case SolverMethod::gauss_seidel: return "gauss-seidel";
    }
    return "?";
}

SimParams sanitized(const SimParams& params, std::string* note)
{
    SimParams p;
    sanitize_into(params, p, note);
    return p;
}

void sanitize_into(const SimParams& params, SimParams& p, std::string* note)
{
    using L = ParamLimits;
    const SimParams defaults;
    p = params;  // reuses p's storage: no allocation once it has the room
    std::ostringstream changes;
    clamp_field("youngs_modulus_pa", p.youngs_modulus_pa, L::youngs_pa, defaults.youngs_modulus_pa,
                changes);
    clamp_field("poisson_ratio", p.poisson_ratio, L::poisson, defaults.poisson_ratio, changes);
    clamp_field("density_kg_m3", p.density_kg_m3, L::density_kg_m3, defaults.density_kg_m3,
                changes);
    for (size_t b = 0; b < p.body_materials.size(); ++b) {
        BodyMaterial& m = p.body_materials[b];
        clamp_field("youngs_modulus_pa", m.youngs_modulus_pa, L::youngs_pa,
                    defaults.youngs_modulus_pa, changes, b);
        clamp_field("poisson_ratio", m.poisson_ratio, L::poisson, defaults.poisson_ratio, changes,
                    b);
        clamp_field("density_kg_m3", m.density_kg_m3, L::density_kg_m3, defaults.density_kg_m3,
                    changes, b);
    }
    clamp_field("substeps", p.substeps, L::substeps, defaults.substeps, changes);
    clamp_field("iterations", p.iterations, L::iterations, defaults.iterations, changes);
    clamp_field("jacobi_k", p.jacobi_k, L::jacobi_k, defaults.jacobi_k, changes);
    clamp_field("air_damping_per_s", p.air_damping_per_s, L::damping_per_s,
                defaults.air_damping_per_s, changes);
    clamp_field("material_damping_s", p.material_damping_s, L::material_damping_s,
                defaults.material_damping_s, changes);
    clamp_field("wobble_damping_per_s", p.wobble_damping_per_s, L::damping_per_s,
                defaults.wobble_damping_per_s, changes);
    clamp_field("static_friction", p.static_friction, L::friction, defaults.static_friction,
                changes);
    clamp_field("dynamic_friction", p.dynamic_friction, L::friction, defaults.dynamic_friction,
                changes);
    for (int axis = 0; axis < 3; ++axis) {
        const char* names[3] = {"gravity.x", "gravity.y", "gravity.z"};
        clamp_field(names[axis], p.gravity_m_s2[axis], L::gravity_m_s2,
                    defaults.gravity_m_s2[axis], changes);
    }
    if (note) {
        *note = changes.str();
    }
}
