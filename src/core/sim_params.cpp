#include "core/sim_params.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>

namespace {

template <typename T>
void clamp_field(const char* name, T& value, T lo, T hi, T fallback, std::ostringstream& note)
{
    T original = value;
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value)) {
            value = fallback;
        }
    }
    value = std::clamp(value, lo, hi);
    if (!(value == original)) {
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
    const SimParams defaults;
    SimParams p = params;
    std::ostringstream changes;
    clamp_field("youngs_modulus_pa", p.youngs_modulus_pa, ParamLimits::min_youngs_pa,
                ParamLimits::max_youngs_pa, defaults.youngs_modulus_pa, changes);
    clamp_field("poisson_ratio", p.poisson_ratio, ParamLimits::min_poisson,
                ParamLimits::max_poisson, defaults.poisson_ratio, changes);
    clamp_field("density_kg_m3", p.density_kg_m3, ParamLimits::min_density,
                ParamLimits::max_density, defaults.density_kg_m3, changes);
    clamp_field("substeps", p.substeps, 1, ParamLimits::max_substeps, defaults.substeps, changes);
    clamp_field("iterations", p.iterations, 1, ParamLimits::max_iterations, defaults.iterations,
                changes);
    clamp_field("jacobi_k", p.jacobi_k, 0.01f, 100.0f, defaults.jacobi_k, changes);
    clamp_field("air_damping_per_s", p.air_damping_per_s, 0.0f, ParamLimits::max_damping_per_s,
                defaults.air_damping_per_s, changes);
    clamp_field("static_friction", p.static_friction, 0.0f, 10.0f, defaults.static_friction,
                changes);
    clamp_field("dynamic_friction", p.dynamic_friction, 0.0f, 10.0f, defaults.dynamic_friction,
                changes);
    for (int axis = 0; axis < 3; ++axis) {
        const char* names[3] = {"gravity.x", "gravity.y", "gravity.z"};
        clamp_field(names[axis], p.gravity_m_s2[axis], -1000.0f, 1000.0f,
                    defaults.gravity_m_s2[axis], changes);
    }
    if (note) {
        *note = changes.str();
    }
    return p;
}
