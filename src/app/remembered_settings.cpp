#include "app/remembered_settings.h"

#include "app/log.h"

#include <fstream>
#include <sstream>
#include <vector>

std::optional<WindowSettings> read_remembered_settings(const std::string& directory)
{
    if (directory.empty()) {
        return std::nullopt;
    }
    const std::string path = directory + "/settings.json";
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return std::nullopt;  // a first run
    }
    std::ostringstream text;
    text << file.rdbuf();
    std::vector<std::string> skipped;
    Result<WindowSettings> settings = settings_from_json(text.str(), WindowSettings{}, skipped);
    if (!settings) {
        spdlog::warn("settings '{}': {}; starting from the defaults", path, settings.error());
        return std::nullopt;
    }
    if (!skipped.empty()) {
        spdlog::warn("settings '{}': left out {} (not what they should be)", path,
                     fmt::join(skipped, ", "));
    }
    spdlog::info("settings as in the last run, from '{}' (the panel's Defaults resets them)",
                 path);
    return std::move(settings).value();
}

std::optional<SolverKind> apply_remembered_settings(const WindowSettings& s,
                                                    const Options& options,
                                                    const MachineDefaults& machine,
                                                    PanelState& panel)
{
    SimParams& p = panel.params;
    if (!options.substeps) p.substeps = s.params.substeps;
    if (!options.iterations) p.iterations = s.params.iterations;
    if (!options.method) p.method = s.params.method;
    if (!options.damping_per_s) p.air_damping_per_s = s.params.air_damping_per_s;
    if (!options.material_damping_s) p.material_damping_s = s.params.material_damping_s;
    if (!options.wobble_damping_per_s) p.wobble_damping_per_s = s.params.wobble_damping_per_s;
    p.jacobi_k = s.params.jacobi_k;
    p.static_friction = s.params.static_friction;
    p.dynamic_friction = s.params.dynamic_friction;
    p.body_contact = s.params.body_contact;
    panel.grab_strength_per_kg = s.grab_strength_per_kg;
    panel.grab_radius_fraction = s.grab_radius_fraction;
    if (s.render) {
        panel.render = *s.render;
        if (machine.software_renderer) {
            panel.render_note = "As in the last run; Defaults restores the cheaper picture "
                                "this software renderer starts with.";
        }
    }
    panel.wireframe = s.wireframe;
    panel.follow = s.follow;
    panel.arena = s.arena;
    if (!options.view_given) {
        panel.view.surface = s.tet_boundary ? DrawnSurface::tets : DrawnSurface::own;
        panel.view.strain = s.strain_view;
    }
    if (options.solver || !s.solver) {
        return std::nullopt;
    }
    return *s.solver == "cpu" ? SolverKind::cpu : SolverKind::gpu;
}

WindowSettings settings_to_remember(const PanelState& panel, const Options& options,
                                    const std::optional<WindowSettings>& before,
                                    SolverKind solver, std::optional<glm::ivec2> window_size,
                                    const MachineDefaults& machine)
{
    WindowSettings s;
    if (window_size && window_size->x >= 16 && window_size->y >= 16) {
        s.window_size = window_size;
    }
    const auto name = [](SolverKind kind) { return kind == SolverKind::gpu ? "gpu" : "cpu"; };
    if (options.solver && *options.solver == name(solver)) {
        s.solver = before ? before->solver : std::nullopt;  // the command line's, this run's
    } else if (!machine.solver || solver != *machine.solver) {
        s.solver = name(solver);
    }
    const RenderSettings own_render =
        machine.software_renderer ? cheap_render_settings() : RenderSettings{};
    if (!(panel.render == own_render)) {
        s.render = panel.render;
    }
    s.params = panel.params;
    const SimParams remembered = before ? before->params : SimParams();
    const auto keep = [](auto now, const auto& from_command_line, auto earlier) {
        return from_command_line && now == *from_command_line ? earlier : now;
    };
    s.params.substeps = keep(s.params.substeps, options.substeps, remembered.substeps);
    s.params.iterations = keep(s.params.iterations, options.iterations, remembered.iterations);
    s.params.method = keep(s.params.method, options.method, remembered.method);
    s.params.air_damping_per_s =
        keep(s.params.air_damping_per_s, options.damping_per_s, remembered.air_damping_per_s);
    s.params.material_damping_s = keep(s.params.material_damping_s, options.material_damping_s,
                                       remembered.material_damping_s);
    s.params.wobble_damping_per_s = keep(s.params.wobble_damping_per_s,
                                         options.wobble_damping_per_s,
                                         remembered.wobble_damping_per_s);
    s.grab_strength_per_kg = panel.grab_strength_per_kg;
    s.grab_radius_fraction = panel.grab_radius_fraction;
    s.wireframe = panel.wireframe;
    s.follow = panel.follow;
    s.arena = panel.arena;
    // --view's choice, left as it was, is this run's only.
    const bool view_as_given = options.view_given &&
                               panel.view.surface == options.view.surface &&
                               panel.view.strain == options.view.strain;
    if (view_as_given && before) {
        s.tet_boundary = before->tet_boundary;
        s.strain_view = before->strain_view;
    } else if (!view_as_given) {
        s.tet_boundary = panel.view.surface == DrawnSurface::tets;
        s.strain_view = panel.view.strain;
    }
    return s;
}

std::optional<SolverKind> restore_default_settings(PanelState& panel, const Options& options,
                                                   const MachineDefaults& machine,
                                                   SolverKind current)
{
    const SimParams first = params_from_options(options);
    SimParams& p = panel.params;
    p.substeps = first.substeps;
    p.iterations = first.iterations;
    p.method = first.method;
    p.jacobi_k = first.jacobi_k;
    p.air_damping_per_s = first.air_damping_per_s;
    p.material_damping_s = first.material_damping_s;
    p.wobble_damping_per_s = first.wobble_damping_per_s;
    p.static_friction = first.static_friction;
    p.dynamic_friction = first.dynamic_friction;
    p.body_contact = first.body_contact;
    panel.grab_strength_per_kg = kDefaultGrabStrengthPerKg;
    panel.grab_radius_fraction = kDefaultGrabRadiusFraction;
    panel.render = machine.software_renderer ? cheap_render_settings() : RenderSettings{};
    panel.wireframe = false;
    panel.follow = false;
    panel.arena = false;
    panel.view = BodyView{};
    std::optional<SolverKind> own = machine.solver;
    if (!own && (options.solver == "cpu" || options.solver == "gpu")) {
        own = *options.solver == "cpu" ? SolverKind::cpu : SolverKind::gpu;  // as this run began
    }
    if (!own || current == *own) {
        return std::nullopt;
    }
    return own;
}
