#include "app/window_settings.h"

#include "app/json_numbers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <type_traits>

namespace {

using nlohmann::json;

// Reads `key` into `out` when it is there and of the right kind; names it
// in `skipped` otherwise (a missing key is not skipped, just absent). Whole
// numbers must be written whole and fit an int, other numbers must be finite
// floats, flags true or false: nlohmann's own conversions would cast 1e300 to
// an int (undefined) or read true as 1.
template <typename T>
void read(const json& object, const char* key, T& out, std::vector<std::string>& skipped)
{
    const auto found = object.find(key);
    if (found == object.end()) {
        return;
    }
    const json& value = *found;
    bool fits = false;
    if constexpr (std::is_same_v<T, bool>) {
        fits = value.is_boolean();
    } else if constexpr (std::is_integral_v<T>) {
        fits = value.is_number_integer() && value.get<long long>() >= -1000000000LL &&
               value.get<long long>() <= 1000000000LL;
    } else if constexpr (std::is_floating_point_v<T>) {
        fits = value.is_number() && std::isfinite(value.get<double>()) &&
               std::abs(value.get<double>()) <= 1e30;
    } else {
        fits = value.is_string();
    }
    if (fits) {
        out = value.get<T>();
    } else {
        skipped.emplace_back(key);
    }
}

}  // namespace

std::string settings_directory()
{
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && xdg[0] == '/') {
        return std::string(xdg) + "/softbody";
    }
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
        return std::string(home) + "/.config/softbody";
    }
    return {};
}

std::string settings_to_json(const WindowSettings& s)
{
    json out;
    if (s.window_size) {
        out["window_size"] = {s.window_size->x, s.window_size->y};
    }
    if (s.solver) {
        out["solver"] = *s.solver;
    }
    out["method"] = solver_method_name(s.params.method);
    out["substeps"] = s.params.substeps;
    out["iterations"] = s.params.iterations;
    out["jacobi_k"] = shortest_decimal(s.params.jacobi_k);
    out["air_damping_per_s"] = shortest_decimal(s.params.air_damping_per_s);
    out["material_damping_s"] = shortest_decimal(s.params.material_damping_s);
    out["wobble_damping_per_s"] = shortest_decimal(s.params.wobble_damping_per_s);
    out["static_friction"] = shortest_decimal(s.params.static_friction);
    out["dynamic_friction"] = shortest_decimal(s.params.dynamic_friction);
    out["body_contact"] = s.params.body_contact;
    out["grab_strength_n_per_m_kg"] = shortest_decimal(s.grab_strength_per_kg);
    out["grab_reach"] = shortest_decimal(s.grab_radius_fraction);
    if (s.render) {
        out["msaa_samples"] = s.render->msaa_samples;
        out["shadow_map_texels"] = s.render->shadow_map_texels;
        out["soft_shadows"] = s.render->soft_shadows;
        out["resolution_scale"] = shortest_decimal(s.render->resolution_scale);
    }
    out["wireframe"] = s.wireframe;
    out["follow"] = s.follow;
    out["arena"] = s.arena;
    out["tet_boundary"] = s.tet_boundary;
    out["strain_view"] = s.strain_view;
    return out.dump(2) + "\n";
}

Result<WindowSettings> settings_from_json(const std::string& text, const WindowSettings& defaults,
                                          std::vector<std::string>& skipped)
{
    const json in = json::parse(text, nullptr, false);
    if (in.is_discarded() || !in.is_object()) {
        return Result<WindowSettings>::failure("not a JSON object");
    }
    WindowSettings s = defaults;
    if (const auto size = in.find("window_size"); size != in.end()) {
        const bool whole_pair = size->is_array() && size->size() == 2 &&
                                (*size)[0].is_number_integer() && (*size)[1].is_number_integer();
        const auto in_range = [](const json& side) {
            return side.get<long long>() >= 16 && side.get<long long>() <= 16384;
        };
        if (whole_pair && in_range((*size)[0]) && in_range((*size)[1])) {
            s.window_size = glm::ivec2((*size)[0].get<int>(), (*size)[1].get<int>());
        } else {
            skipped.emplace_back("window_size");
        }
    }
    std::string solver;
    read(in, "solver", solver, skipped);
    if (solver == "gpu" || solver == "cpu") {
        s.solver = solver;
    } else if (!solver.empty()) {
        skipped.emplace_back("solver");
    }
    std::string method;
    read(in, "method", method, skipped);
    if (method == solver_method_name(SolverMethod::gauss_seidel)) {
        s.params.method = SolverMethod::gauss_seidel;
    } else if (method == solver_method_name(SolverMethod::jacobi)) {
        s.params.method = SolverMethod::jacobi;
    } else if (!method.empty()) {
        skipped.emplace_back("method");
    }
    read(in, "substeps", s.params.substeps, skipped);
    read(in, "iterations", s.params.iterations, skipped);
    read(in, "jacobi_k", s.params.jacobi_k, skipped);
    read(in, "air_damping_per_s", s.params.air_damping_per_s, skipped);
    read(in, "material_damping_s", s.params.material_damping_s, skipped);
    read(in, "wobble_damping_per_s", s.params.wobble_damping_per_s, skipped);
    read(in, "static_friction", s.params.static_friction, skipped);
    read(in, "dynamic_friction", s.params.dynamic_friction, skipped);
    read(in, "body_contact", s.params.body_contact, skipped);
    read(in, "grab_strength_n_per_m_kg", s.grab_strength_per_kg, skipped);
    read(in, "grab_reach", s.grab_radius_fraction, skipped);
    RenderSettings render = defaults.render.value_or(RenderSettings{});
    const RenderSettings render_defaults = render;
    read(in, "msaa_samples", render.msaa_samples, skipped);
    read(in, "shadow_map_texels", render.shadow_map_texels, skipped);
    read(in, "soft_shadows", render.soft_shadows, skipped);
    read(in, "resolution_scale", render.resolution_scale, skipped);
    read(in, "wireframe", s.wireframe, skipped);
    read(in, "follow", s.follow, skipped);
    read(in, "arena", s.arena, skipped);
    read(in, "tet_boundary", s.tet_boundary, skipped);
    read(in, "strain_view", s.strain_view, skipped);

    // Whatever was typed into the file, within the limits the panel keeps.
    s.params = sanitized(s.params);
    const Range<float> strength = ParamLimits::grab_strength_per_kg;
    if (!(s.grab_strength_per_kg >= strength.min && s.grab_strength_per_kg <= strength.max)) {
        s.grab_strength_per_kg = defaults.grab_strength_per_kg;
        skipped.emplace_back("grab_strength_n_per_m_kg");
    }
    const Range<float> reach = ParamLimits::grab_radius_fraction;
    if (!(s.grab_radius_fraction >= reach.min && s.grab_radius_fraction <= reach.max)) {
        s.grab_radius_fraction = defaults.grab_radius_fraction;
        skipped.emplace_back("grab_reach");
    }
    // Only what the panel offers.
    if (!is_offered(render.msaa_samples, kMsaaChoices)) {
        render.msaa_samples = render_defaults.msaa_samples;
        skipped.emplace_back("msaa_samples");
    }
    if (!is_offered(render.shadow_map_texels, kShadowMapChoices)) {
        render.shadow_map_texels = render_defaults.shadow_map_texels;
        skipped.emplace_back("shadow_map_texels");
    }
    if (!is_offered(render.resolution_scale, kResolutionChoices)) {
        render.resolution_scale = render_defaults.resolution_scale;
        skipped.emplace_back("resolution_scale");
    }
    if (in.contains("msaa_samples") || in.contains("shadow_map_texels") ||
        in.contains("soft_shadows") || in.contains("resolution_scale")) {
        s.render = render;
    }
    return Result<WindowSettings>(s);
}
