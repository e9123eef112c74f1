#include "app/panel.h"

#include "app/log.h"
#include "core/scenes.h"
#include "core/stress_colors.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

namespace {

struct MaterialPreset {
    const char* name;
    float youngs_modulus_pa;
    float poisson_ratio;
};

// Named starting points. Real gelatine is ~1e4 Pa; "jelly" here is stiffer
// so that a 0.5 m body holds its shape under its own weight.
constexpr MaterialPreset kMaterials[] = {
    {"Jelly", 1.0e5f, 0.30f},
    {"Soft rubber", 1.0e6f, 0.45f},
    {"Stiff rubber", 1.0e7f, 0.45f},
    {"Plastic", 1.0e8f, 0.35f},
};

using L = ParamLimits;

// A tooltip in plain words for the control just drawn.
void tip(const char* text)
{
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::SetTooltip("%s", text);
    }
}

// Ranges that span decades get a logarithmic slider.
constexpr ImGuiSliderFlags kDecades = ImGuiSliderFlags_Logarithmic;

// A slider over one of ParamLimits' ranges. Ctrl+click typing is clamped
// into it too.
void slider(const char* label, float& value, const Range<float>& range, const char* format,
            ImGuiSliderFlags flags = 0)
{
    ImGui::SliderFloat(label, &value, range.min, range.max, format,
                       flags | ImGuiSliderFlags_AlwaysClamp);
}

// Which body the material sliders edit: all, or the selected one.
void body_choice(PanelState& s, const Scene& scene)
{
    const World& world = scene.world();
    if (s.selected_body && *s.selected_body >= world.body_count()) {
        s.selected_body.reset();
    }
    const auto label = [&](size_t b) {
        return std::to_string(b + 1) + ": " + world.bodies[b].name;
    };
    const std::string current = s.selected_body ? label(*s.selected_body) : "all bodies";
    if (ImGui::BeginCombo("Edit", current.c_str())) {
        if (ImGui::Selectable("all bodies", !s.selected_body)) s.selected_body.reset();
        for (size_t b = 0; b < world.body_count(); ++b) {
            if (ImGui::Selectable(label(b).c_str(), s.selected_body == b)) s.selected_body = b;
        }
        ImGui::EndCombo();
    }
    ImGui::TextDisabled("Grab a body to select it.");
}

void material_section(PanelState& s, const Scene& scene)
{
    SimParams& p = s.params;
    const size_t bodies = scene.loaded() ? scene.world().body_count() : 1;
    if (bodies > 1) {
        body_choice(s, scene);
    }
    BodyMaterial m = s.selected_body ? p.body_material(*s.selected_body) : p.material();
    const BodyMaterial before = m;
    slider("Young's modulus", m.youngs_modulus_pa, L::youngs_pa, "%.3g Pa", kDecades);
    tip("Stiffness: the stress (Pa) that would stretch the material to twice\n"
        "its length. Jelly 1e4-1e5, rubber 1e6-1e7, plastic 1e8-1e9.\n"
        "Ctrl+click to type a value.");
    slider("Poisson ratio", m.poisson_ratio, L::poisson, "%.3f");
    tip("How much the material bulges sideways when squashed: 0 not at\n"
        "all, 0.5 keeps its volume exactly (rubber is about 0.45-0.49).");
    slider("Density", m.density_kg_m3, L::density_kg_m3, "%.0f kg/m^3", kDecades);
    tip("Mass per cubic metre (water: 1000). Heavier bodies sag more\n"
        "under their own weight and push harder on what they land on.");
    for (const MaterialPreset& preset : kMaterials) {
        if (ImGui::Button(preset.name)) {
            m.youngs_modulus_pa = preset.youngs_modulus_pa;
            m.poisson_ratio = preset.poisson_ratio;
        }
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("Young's modulus %.0e Pa, Poisson ratio %.2f",
                              preset.youngs_modulus_pa, preset.poisson_ratio);
        }
        ImGui::SameLine();
    }
    ImGui::NewLine();
    if (s.material_ramping) {
        // Always the same line's height, shown or not, so nothing below moves.
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "stiffening gradually...");
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("A much stiffer material takes effect over a second or two,\n"
                              "so that a crushed body unfolds where it lies instead of\n"
                              "being thrown up.");
        }
    } else {
        ImGui::TextDisabled("stiffening takes effect gradually");
    }
    // Always one line too, warning or not.
    if (s.sweeps_keep_up) {
        ImGui::TextDisabled("at rest it sags as this material does");
    } else {
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "softer than set: more substeps");
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Gauss-Seidel gives the stiffness you set where its iterations keep\n"
                          "up with the material: the stiffer the material, the lighter the\n"
                          "mesh's smaller tets, and the longer the substep, the more they must\n"
                          "carry a correction in one substep. Past that, a body at rest sags\n"
                          "more than this material would (about twice at 120 MPa on the beam).\n"
                          "Twice the substeps keep up with four times the stiffness.");
    }
    if (m == before) {
        return;
    }
    if (s.selected_body) {
        // The others keep what they have.
        p.body_materials.resize(bodies, p.material());
        p.body_materials[*s.selected_body] = m;
    } else {
        p.youngs_modulus_pa = m.youngs_modulus_pa;
        p.poisson_ratio = m.poisson_ratio;
        p.density_kg_m3 = m.density_kg_m3;
        for (BodyMaterial& each : p.body_materials) each = m;
    }
}

void solver_section(PanelState& s, const Scene& scene)
{
    SimParams& p = s.params;
    int solver = scene.solver_kind() == SolverKind::gpu ? 0 : 1;
    if (ImGui::RadioButton("GPU", solver == 0)) s.solver_requested = SolverKind::gpu;
    tip("Simulate in OpenGL compute shaders (fast on a real graphics card).");
    ImGui::SameLine();
    if (ImGui::RadioButton("CPU", solver == 1)) s.solver_requested = SolverKind::cpu;
    tip("Simulate on the processor with vector instructions: the same maths,\n"
        "faster where OpenGL draws on the CPU (no graphics card).");
    // Always one line, so that the rows below never move.
    const std::string how = scene.solver().how_it_runs();
    ImGui::TextDisabled("%s", how.empty() ? "compute shaders" : how.c_str());
    if (!s.solver_timing.empty()) {
        ImGui::TextDisabled("%s", s.solver_timing.c_str());
        tip("At start the window ran both solvers on the first world for a moment\n"
            "and kept the faster (--solver auto); a choice here is remembered.");
    }
    if (!scene.compute_available()) {
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f),
                           "No compute shaders (OpenGL < 4.3): CPU solver,\n"
                           "positions uploaded every frame.");
    }
    int method = p.method == SolverMethod::gauss_seidel ? 0 : 1;
    ImGui::RadioButton("Gauss-Seidel", &method, 0);
    tip("Solves the tetrahedra group by group, each group seeing the last\n"
        "one's result: the stiffness you set, at the default effort.");
    ImGui::SameLine();
    ImGui::RadioButton("Jacobi (reference)", &method, 1);
    tip("Solves every tetrahedron at once and averages: the textbook\n"
        "reference, softer than asked unless given many iterations.");
    p.method = method == 0 ? SolverMethod::gauss_seidel : SolverMethod::jacobi;
    // The same rows for both methods, so that a drag never lands on another slider.
    ImGui::TextDisabled("%zu groups of tetrahedra sharing no corner",
                        scene.mesh().tet_colors.rows());
    tip("Gauss-Seidel solves each group in one pass per iteration (the\n"
        "groups are the 'colours' of a graph colouring).");
    ImGui::SliderInt("Substeps", &p.substeps, L::substeps.min, L::substeps.max, "%d",
                     ImGuiSliderFlags_AlwaysClamp | kDecades);
    tip("Each 1/60 s frame is cut into this many time steps: more make\n"
        "stiff bodies stiffer and contacts firmer, at proportional cost.");
    ImGui::SliderInt("Iterations", &p.iterations, L::iterations.min, L::iterations.max, "%d",
                     ImGuiSliderFlags_AlwaysClamp | kDecades);
    tip("Passes over all the tetrahedra in each substep: more bring the\n"
        "body closer to the stiffness you set, at proportional cost.");
    ImGui::BeginDisabled(p.method != SolverMethod::jacobi);
    slider("Jacobi weight k", p.jacobi_k, L::jacobi_k, "%.2f", kDecades);
    tip("Jacobi only: how much of each tetrahedron's correction a shared\n"
        "corner takes (k divided by the most tetrahedra at a corner).\n"
        "Higher converges faster until it overshoots.");
    ImGui::EndDisabled();
    // Downward only: the ground is below.
    slider("Gravity", p.gravity_m_s2.y, {L::gravity_m_s2.min, 0.0f}, "%.2f m/s^2");
    tip("Downward acceleration: -9.81 on Earth, 0 for floating bodies.");
    slider("Air damping", p.air_damping_per_s, L::damping_per_s, "%.2f /s", kDecades);
    tip("The share of its speed a body loses per second to the air.");
    slider("Material damping", p.material_damping_s, L::material_damping_s, "%.4f s", kDecades);
    tip("How fast the material's own wobble dies: a damping force this\n"
        "many seconds times the stiffness's. A mode of frequency f loses\n"
        "about (2 pi f)^2 x this / 2 of its size per second: at 0.003 s a\n"
        "jelly's wobble dies within a second and it still bounces; 0 wobbles\n"
        "on; 0.1 hardly bounces at all.");
    slider("Wobble damping", p.wobble_damping_per_s, L::damping_per_s, "%.2f /s", kDecades);
    tip("The share of its wobble a body loses per second: of everything it\n"
        "does besides drifting and spinning as a whole, or, pinned, of all\n"
        "its motion. Unlike the material damping it stills slow swings as\n"
        "fast as quick ones: at 3 the beam's swing is still within 5 s;\n"
        "0 leaves the slow swings to the material damping.");
    slider("Static friction", p.static_friction, L::friction, "%.2f");
    tip("Grip at rest, against the ground, obstacles and other bodies:\n"
        "a body stays put while sideways force < this x pressing force.");
    slider("Dynamic friction", p.dynamic_friction, L::friction, "%.2f");
    tip("Drag while sliding: sideways force = this x pressing force.");
    slider("Grab strength", s.grab_strength_per_kg, L::grab_strength_per_kg, "%.3g N/m per kg",
           kDecades);
    tip("How hard the mouse pulls, per kilogram of the grabbed body, so\n"
        "that a heavy body follows as well as a light one: at 1000 a body\n"
        "hanging from the cursor sags 1 cm below it, at 100 it sags 10 cm.");
    float reach_percent = 100.0f * s.grab_radius_fraction;
    slider("Grab reach", reach_percent,
           {100.0f * L::grab_radius_fraction.min, 100.0f * L::grab_radius_fraction.max},
           "%.0f%% of the body");
    s.grab_radius_fraction = reach_percent / 100.0f;
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("A grab holds the surface within this distance of the point\n"
                          "under the cursor (a share of the body's largest side), more\n"
                          "firmly near the point: pulling an ear lifts the bunny\n"
                          "instead of drawing the ear out. 0: one point.");
    }
    if (scene.solver_kind() == SolverKind::gpu && ImGui::Button("Reload shaders (F5)")) {
        s.reload_shaders_requested = true;
    }
}

void loading_progress(const PanelState::LoadingView& load, PanelState& s)
{
    ImGui::TextColored(ImVec4(0.5f, 0.8f, 1.0f, 1.0f), "loading %s", load.path.c_str());
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s %.0f%%, %.1f s",
                  load.cancelling ? "cancelling" : load.stage.c_str(), load.fraction * 100.0f,
                  load.elapsed_s);
    const float button_width = ImGui::CalcTextSize("Cancel").x +
                               2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::ProgressBar(load.fraction,
                       ImVec2(-(button_width + ImGui::GetStyle().ItemSpacing.x), 0.0f), overlay);
    ImGui::SameLine();
    ImGui::BeginDisabled(load.cancelling);
    if (ImGui::Button("Cancel")) s.cancel_load_requested = true;
    ImGui::EndDisabled();
}

void mesh_file_section(PanelState& s, const Scene& scene)
{
    ImGui::TextWrapped(".obj (tetrahedralized), .node/.ele (TetGen), .tet, or a scene .json; "
                       "or drop a file onto the window.");
    const bool entered = ImGui::InputText("Path", s.mesh_path, sizeof s.mesh_path,
                                          ImGuiInputTextFlags_EnterReturnsTrue);
    tip("A file path, relative to the folder the program started in;\n"
        "Enter loads it.");
    ImGui::SliderInt("OBJ resolution", &s.mesh_resolution, ParamLimits::mesh_resolution.min,
                     ParamLimits::mesh_resolution.max, "%d cells", ImGuiSliderFlags_AlwaysClamp);
    tip("An OBJ surface is filled with tetrahedra on a grid of this many\n"
        "cells along its longest side: finer follows the shape better\n"
        "and costs more to simulate."); 
    if ((ImGui::Button("Load") || entered) && s.mesh_path[0] != '\0') {
        s.file_requested = std::string(s.mesh_path);
    }
    tip("Replaces the running world with the file's body or scene.");
    ImGui::SameLine();
    ImGui::BeginDisabled(!scene.loaded());
    if (ImGui::Button("Add to the world") && s.mesh_path[0] != '\0') {
        s.file_add_requested = std::string(s.mesh_path);
    }
    ImGui::EndDisabled();
    tip("Drops the mesh file's body above the camera's focus, beside the\n"
        "bodies already there (a scene file can only be loaded).");
    if (s.loading) {
        loading_progress(*s.loading, s);
    }
    if (!s.load_error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "%s", s.load_error.c_str());
        ImGui::PopTextWrapPos();
    }
}

// A scrolling plot from 0 to a little above its largest value, the scale
// written at its right edge in `format` (with the unit) and what the
// horizontal axis spans beneath it.
void history_plot(const char* id, const char* title, const std::vector<float>& values,
                  const char* format, float least_top, float height)
{
    if (values.empty()) {
        return;
    }
    const float top =
        std::max(*std::max_element(values.begin(), values.end()) * 1.2f, least_top);
    char top_text[32];
    std::snprintf(top_text, sizeof top_text, format, top);
    const float label_width = ImGui::CalcTextSize(top_text).x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::PlotLines(id, values.data(), static_cast<int>(values.size()), 0, title, 0.0f, top,
                     ImVec2(ImGui::GetContentRegionAvail().x - label_width, height));
    ImGui::SameLine();
    const ImVec2 corner = ImGui::GetCursorPos();
    ImGui::TextUnformatted(top_text);
    ImGui::SetCursorPos(ImVec2(corner.x, corner.y + height - ImGui::GetTextLineHeight()));
    char zero_text[32];
    std::snprintf(zero_text, sizeof zero_text, format, 0.0f);
    ImGui::TextUnformatted(zero_text);
    ImGui::TextDisabled("the last %zu displayed frames, newest at the right", values.size());
}

// A combo over one of render_settings.h's lists of choices.
template <typename T, size_t N>
void choice_combo(const char* label, T& value, const std::array<RenderChoice<T>, N>& choices,
                  const char* tooltip)
{
    const auto current = std::find_if(choices.begin(), choices.end(),
                                      [&](const RenderChoice<T>& c) { return c.value == value; });
    if (ImGui::BeginCombo(label, current != choices.end() ? current->name : "?")) {
        for (const RenderChoice<T>& choice : choices) {
            if (ImGui::Selectable(choice.name, choice.value == value)) value = choice.value;
        }
        ImGui::EndCombo();
    }
    tip(tooltip);
}

void render_section(PanelState& s)
{
    RenderSettings& r = s.render;
    choice_combo("Anti-aliasing", r.msaa_samples, kMsaaChoices,
                 "Multisampling smooths the edges; each step up costs a\n"
                 "software renderer about a tenth more per frame.");
    choice_combo("Shadow map", r.shadow_map_texels, kShadowMapChoices,
                 "Texels on each side of the sun's depth map: finer\n"
                 "shadow edges for more memory.");
    choice_combo("Resolution", r.resolution_scale, kResolutionChoices,
                 "The scene's pixels along each side of the window, stretched to\n"
                 "fill it (the panel stays sharp). 75% shades half the pixels.");
    ImGui::Checkbox("Soft shadows", &r.soft_shadows);
    tip("Penumbrae that widen with the distance to the caster\n"
        "(48 shadow-map reads a pixel); off: four reads, hard edges.\n"
        "Most of a software renderer's frame when on.");
    if (!s.render_note.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", s.render_note.c_str());
        ImGui::PopTextWrapPos();
    }
}

// The strain view's colour bar, the colours the renderer paints, with its
// scale in kPa, and the scale's control.
void strain_scale(PanelState& s, const Scene& scene)
{
    const float full_kpa = strain_full_scale_pa(s, scene) / 1000.0f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::CalcItemWidth();
    const float height = ImGui::GetFrameHeight() * 0.6f;
    constexpr int kSegments = 16;
    const auto color_at = [](float fraction) {
        const glm::vec3 c = stress_colors::stress_color_srgb(fraction);
        return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
    };
    for (int i = 0; i < kSegments; ++i) {
        const float a = static_cast<float>(i) / kSegments;
        const float b = static_cast<float>(i + 1) / kSegments;
        const ImU32 left = color_at(a);
        const ImU32 right = color_at(b);
        draw->AddRectFilledMultiColor(ImVec2(origin.x + a * width, origin.y),
                                      ImVec2(origin.x + b * width, origin.y + height), left,
                                      right, right, left);
    }
    ImGui::Dummy(ImVec2(width, height));
    tip("Von Mises stress of the body's own energy (Kirchhoff), smoothed\n"
        "from its tets to its surface: blue none, red at the top of the\n"
        "scale and beyond. Shear and stretch show; an even squeeze does not.");
    ImGui::Text("0");
    ImGui::SameLine(width * 0.5f - ImGui::GetFontSize());
    ImGui::Text("%.3g", 0.5f * full_kpa);
    ImGui::SameLine(width - 2.0f * ImGui::GetFontSize());
    ImGui::Text("%.3g kPa", full_kpa);
    bool automatic = !s.view.strain_full_scale_pa.has_value();
    if (ImGui::Checkbox("Automatic scale", &automatic)) {
        s.view.strain_full_scale_pa =
            automatic ? std::nullopt : std::optional<float>(full_kpa * 1000.0f);
    }
    tip("Red at a tenth of the selected body's Young's modulus (of the\n"
        "stiffest body when none is selected): about 10% strain.");
    if (!automatic) {
        ImGui::SameLine();
        float kpa = full_kpa;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
        if (ImGui::SliderFloat("Top (kPa)", &kpa, 1e-3f, 1e7f, "%.3g",
                               ImGuiSliderFlags_Logarithmic)) {
            s.view.strain_full_scale_pa = std::clamp(kpa, 1e-3f, 1e7f) * 1000.0f;
        }
        tip("The stress drawn red, in kilopascals.");
    }
}

// What is drawn of the bodies: their own surface or the tets', and the
// strain view.
void view_controls(PanelState& s, const Scene& scene)
{
    const bool available = !scene.loaded() || scene.drawn_bodies().has_drawn_surface();
    ImGui::BeginDisabled(!available);
    bool tets = s.view.surface == DrawnSurface::tets;
    if (ImGui::Checkbox("Tet boundary", &tets)) {
        s.view.surface = tets ? DrawnSurface::tets : DrawnSurface::own;
    }
    tip("Draws the outside of the tets the solver moves instead of each\n"
        "body's own surface (an OBJ's triangles, carried by the tets they\n"
        "lie in). The cube, torus and beam are their tets either way.");
    ImGui::SameLine();
    ImGui::Checkbox("Strain view (V)", &s.view.strain);
    tip("Colours the bodies by how hard they are stressed: a grabbed\n"
        "ear, the beam's root, the bottom of a heap light up.");
    ImGui::EndDisabled();
    if (!available) {
        ImGui::PushTextWrapPos(0.0f);
        const DrawnBodies& drawn = scene.drawn_bodies();
        ImGui::TextDisabled("%s",
                            (drawn.note().empty() ? drawn.surface_note() : drawn.note()).c_str());
        ImGui::PopTextWrapPos();
    } else if (s.view.strain && scene.loaded()) {
        strain_scale(s, scene);
    }
}

void stats_section(PanelState& s, const Scene& scene)
{
    ImGui::Text("%.1f fps, %.1f ms per displayed frame", s.display_fps, s.frame_ms);
    if (s.time_scale < 0.95 && !s.paused) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "slow motion x%.2f", s.time_scale);
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("The machine cannot simulate in real time at these settings:\n"
                              "each displayed frame runs the steps its time budget allows.\n"
                              "Fewer substeps or iterations, or a smaller mesh, speed it up.");
        }
    }
    ImGui::Text("simulation %.2f ms per 1/60 s step (%s)", s.simulation_ms, s.simulation_timing);
    history_plot("##simms", "simulation time per step", s.simulation_ms_history, "%.1f ms",
                 1.0f, 60.0f);
    if (s.residual) {
        // How far the last iteration was from solving its substep: rising
        // means the solver is not keeping up with the stiffness asked for.
        ImGui::Text("residual %.2e (mean per tet)", *s.residual);
        tip("How far the last iteration left each tetrahedron from its\n"
            "exact answer (|C + alpha~ lambda|): rising means the solver\n"
            "cannot keep up with the stiffness; add iterations.");
        history_plot("##residual", "residual", s.residual_history, "%.1e", 1e-9f, 50.0f);
    }
    const TetMesh& mesh = scene.mesh();
    const size_t bodies = scene.world().body_count();
    ImGui::Text("%zu %s, %zu vertices, %zu tets, %zu surface triangles", bodies,
                bodies == 1 ? "body" : "bodies", mesh.vertex_count(), mesh.tet_count(),
                mesh.surface_triangles.size());
    ImGui::TextWrapped("OpenGL %s", s.gl_description.c_str());
}

// The keys and what they do, over the picture.
void draw_help(PanelState& s)
{
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                   viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.9f);
    if (!ImGui::Begin("Help (F1 closes)", &s.show_help,
                      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    constexpr std::array<std::pair<const char*, const char*>, 20> kKeys = {{
        {"left drag", "grab the surface and pull; let go to throw"},
        {"wheel while grabbing", "pull the grabbed point nearer or push it away"},
        {"right drag", "orbit the camera"},
        {"middle drag", "pan"},
        {"wheel", "zoom"},
        {"R", "reset the bodies and the camera"},
        {"Space", "pause / run"},
        {"N", "one step of 1/60 s"},
        {"F", "frame: the camera onto the selected body, or all"},
        {"G", "follow the selected body (or all) with the camera"},
        {"1 2 3 4", "bunny, cube, torus, beam"},
        {"W", "wireframe"},
        {"V", "strain view: colours by stress"},
        {"C", "body contact on / off"},
        {"T", "throw a jelly cube along the cursor's ray"},
        {"Del", "delete the selected (last grabbed) body"},
        {"F1", "this help"},
        {"F5", "recompile the compute shaders"},
        {"F12", "screenshot (PNG in the working folder)"},
        {"Esc", "quit"},
    }};
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
        for (const auto& [key, action] : kKeys) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(key);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(action);
        }
        ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextUnformatted("Drop a mesh (.obj, .node/.ele, .tet) or a scene (.json)\n"
                           "on the window to simulate it. Hover a control for what it does.");
    ImGui::End();
}

}  // namespace

void push_history(std::vector<float>& history, float value, size_t capacity)
{
    if (history.size() >= capacity) {
        history.erase(history.begin());
    }
    history.push_back(value);
}

void draw_panel(PanelState& s, const Scene& scene)
{
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(430, 0), ImGuiCond_FirstUseEver);
    const bool open = ImGui::Begin("softbody");
    s.covered_x0_px = ImGui::GetWindowPos().x;
    s.covered_x1_px = open ? s.covered_x0_px + ImGui::GetWindowSize().x : s.covered_x0_px;
    ImGui::PushItemWidth(ImGui::GetFontSize() * -11.0f);  // room for the labels

    for (const Preset& p : all_presets()) {
        if (ImGui::RadioButton(p.name, scene.preset() == p.id)) s.preset_requested = p.id;
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("Start over with the %s alone (key %d): %s", p.name,
                              static_cast<int>(&p - all_presets().data()) + 1, p.description);
        }
        ImGui::SameLine();
    }
    ImGui::NewLine();
    const std::optional<std::string>& running = scene.builtin_scene();
    if (ImGui::BeginCombo("Scene", running ? running->c_str() : "(pick a scene)")) {
        for (const SceneInfo& info : builtin_scenes()) {
            if (ImGui::Selectable(info.name, running == info.name)) s.scene_requested = info.name;
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.description);
        }
        ImGui::EndCombo();
    }
    if (!scene.loaded()) {
        ImGui::TextDisabled("No body yet: the first one is loading.");
    } else {
        if (!scene.preset() && !running) {
            ImGui::TextWrapped("Running: %s", scene.body_name().c_str());
        }
        if (ImGui::CollapsingHeader("Add and remove bodies")) {
            ImGui::TextUnformatted("Add above the camera's focus:");
            for (const Preset& p : all_presets()) {
                ImGui::SameLine();
                if (ImGui::SmallButton(p.name)) s.add_requested = p.id;
            }
            ImGui::BeginDisabled(!s.selected_body || scene.world().body_count() < 2);
            if (ImGui::Button("Delete the selected body (Del)")) s.remove_requested = true;
            tip("Grab a body to select it; the last body cannot be deleted.");
            ImGui::EndDisabled();
            ImGui::SameLine();
            if (ImGui::Button("Throw a cube (T)")) s.throw_requested = true;
            ImGui::TextDisabled("T throws it from the camera along the cursor's ray.");
        }
    }
    if (ImGui::Button("Reset (R)")) s.reset_requested = true;
    tip("Every body back to where it started, and the camera too.");
    ImGui::SameLine();
    if (ImGui::Button(s.paused ? "Run (Space)" : "Pause (Space)")) s.paused = !s.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step (N)")) s.step_requested = true;
    tip("One frame of 1/60 s, while paused.");
    ImGui::SameLine();
    if (ImGui::Button("Help (F1)")) s.show_help = !s.show_help;
    ImGui::SameLine();
    if (ImGui::Button("Defaults")) s.defaults_requested = true;
    tip("The solver, friction, grab, render and view settings back to\n"
        "where a first run starts (the window remembers them between runs;\n"
        "the material stays).");
    ImGui::Checkbox("Wireframe (W)", &s.wireframe);
    tip("Draws the surface triangles' edges.");
    ImGui::SameLine();
    ImGui::Checkbox("Body contact (C)", &s.params.body_contact);
    tip("Bodies collide with each other and with themselves; off, they\n"
        "pass through (the ground and obstacles still hold)."); 
    if (ImGui::Button("Frame (F)")) s.frame_requested = true;
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Turns the camera onto the selected body, or onto all of them.");
    }
    ImGui::SameLine();
    ImGui::Checkbox("Follow (G)", &s.follow);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("The camera keeps the selected body (or all bodies) in the\n"
                          "middle of the view, wherever it is thrown.");
    }
    ImGui::SameLine();
    ImGui::Checkbox("Arena walls", &s.arena);
    tip("Four 1 m walls around the stage, 1 m beyond the bodies (at\n"
        "least 5 m across): thrown bodies bounce back instead of leaving.");
    view_controls(s, scene);

    // Opened when a load starts or fails: the progress and the error are
    // shown there, by the Load button.
    if (std::exchange(s.show_mesh_file_section, false)) ImGui::SetNextItemOpen(true);
    if (ImGui::CollapsingHeader("Mesh file")) mesh_file_section(s, scene);
    if (ImGui::CollapsingHeader("Material", ImGuiTreeNodeFlags_DefaultOpen)) {
        material_section(s, scene);
    }
    if (scene.loaded()) {
        if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) {
            solver_section(s, scene);
        }
        if (ImGui::CollapsingHeader("Statistics", ImGuiTreeNodeFlags_DefaultOpen)) {
            stats_section(s, scene);
        }
    }
    if (ImGui::CollapsingHeader("Render")) render_section(s);
    if (!s.solver_note.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "%s", s.solver_note.c_str());
    }
    if (ImGui::CollapsingHeader("Messages")) {
        for (const std::string& line : recent_log_lines(12)) {
            ImGui::TextWrapped("%s", line.c_str());
        }
    }
    ImGui::TextDisabled("Left drag grabs, right drag orbits, middle drag pans,\n"
                        "wheel zooms. F1: every key.");
    ImGui::PopItemWidth();
    ImGui::End();
    if (s.show_help) {
        draw_help(s);
    }
}

float strain_full_scale_pa(const PanelState& s, const Scene& scene)
{
    if (s.view.strain_full_scale_pa) {
        return *s.view.strain_full_scale_pa;
    }
    if (!scene.loaded()) {
        return automatic_full_scale_pa(s.params, World{}, std::nullopt);
    }
    return automatic_full_scale_pa(s.params, scene.world(), s.selected_body);
}
