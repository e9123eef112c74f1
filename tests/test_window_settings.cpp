// What the window remembers between runs: written and read back, and a
// hand-edited or broken file read as far as it makes sense.
#include "app/remembered_settings.h"
#include "app/window_settings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace {

const MachineDefaults kGpuMachine{false, SolverKind::gpu};
const MachineDefaults kLlvmpipe{true, SolverKind::cpu};

}  // namespace

TEST(WindowSettings, ReadBackAsWritten)
{
    WindowSettings s;
    s.window_size = glm::ivec2(1600, 900);
    s.solver = "gpu";
    s.render = RenderSettings{8, 4096, false, 0.5f};
    s.params.substeps = 20;
    s.params.iterations = 4;
    s.params.method = SolverMethod::jacobi;
    s.params.jacobi_k = 1.5f;
    s.params.air_damping_per_s = 0.3f;
    s.params.static_friction = 0.9f;
    s.params.dynamic_friction = 0.7f;
    s.params.body_contact = false;
    s.grab_strength_per_kg = 2.0e3f;
    s.grab_radius_fraction = 0.35f;
    s.wireframe = true;
    s.follow = true;
    s.arena = true;
    s.tet_boundary = true;
    s.strain_view = true;
    const std::string text = settings_to_json(s);
    EXPECT_NE(text.find("\"air_damping_per_s\": 0.3,"), std::string::npos) << text;
    std::vector<std::string> skipped;
    Result<WindowSettings> back = settings_from_json(text, WindowSettings{}, skipped);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_TRUE(skipped.empty());
    const WindowSettings& r = back.value();
    EXPECT_EQ(r.window_size, s.window_size);
    EXPECT_EQ(r.solver, s.solver);
    ASSERT_TRUE(r.render);
    EXPECT_EQ(r.render->msaa_samples, 8);
    EXPECT_EQ(r.render->shadow_map_texels, 4096);
    EXPECT_FALSE(r.render->soft_shadows);
    EXPECT_EQ(r.render->resolution_scale, 0.5f);
    EXPECT_EQ(r.params.substeps, 20);
    EXPECT_EQ(r.params.iterations, 4);
    EXPECT_EQ(r.params.method, SolverMethod::jacobi);
    EXPECT_EQ(r.params.jacobi_k, 1.5f);
    EXPECT_EQ(r.params.air_damping_per_s, 0.3f);
    EXPECT_EQ(r.params.static_friction, 0.9f);
    EXPECT_EQ(r.params.dynamic_friction, 0.7f);
    EXPECT_FALSE(r.params.body_contact);
    EXPECT_EQ(r.grab_strength_per_kg, 2.0e3f);
    EXPECT_EQ(r.grab_radius_fraction, 0.35f);
    EXPECT_TRUE(r.wireframe && r.follow && r.arena);
    EXPECT_TRUE(r.tet_boundary && r.strain_view);
}

TEST(WindowSettings, BrokenOrHandEditedFilesAreReadAsFarAsTheyMakeSense)
{
    std::vector<std::string> skipped;
    EXPECT_FALSE(settings_from_json("{\"substeps\": 3", WindowSettings{}, skipped).ok());
    EXPECT_FALSE(settings_from_json("[1, 2]", WindowSettings{}, skipped).ok());
    EXPECT_FALSE(settings_from_json("", WindowSettings{}, skipped).ok());

    WindowSettings defaults;
    defaults.params.iterations = 6;
    Result<WindowSettings> r = settings_from_json(
        R"({"substeps": "many", "iterations": 1e9, "wireframe": 3, "window_size": [1, 2],
            "solver": "quantum", "method": "guess", "msaa_samples": 3, "grab_reach": -1,
            "resolution_scale": 0.6, "static_friction": 0.8, "unknown": true,
            "jacobi_k": 1e300, "air_damping_per_s": "fast", "follow": 1})",
        defaults, skipped);
    ASSERT_TRUE(r.ok()) << r.error();
    const WindowSettings& s = r.value();
    EXPECT_EQ(s.params.substeps, defaults.params.substeps);  // a string: left out
    EXPECT_EQ(s.params.iterations, defaults.params.iterations);  // 1e9 is written as a float
    EXPECT_FALSE(s.wireframe);
    EXPECT_FALSE(s.window_size);
    EXPECT_FALSE(s.solver);
    EXPECT_EQ(s.params.method, defaults.params.method);
    ASSERT_TRUE(s.render);  // given in the file, if badly
    EXPECT_EQ(s.render->msaa_samples, RenderSettings{}.msaa_samples);
    EXPECT_EQ(s.grab_radius_fraction, defaults.grab_radius_fraction);
    EXPECT_EQ(s.render->resolution_scale, RenderSettings{}.resolution_scale);
    EXPECT_EQ(s.params.jacobi_k, defaults.params.jacobi_k);  // 1e300: no float
    EXPECT_FALSE(s.follow);  // 1 is not a flag
    EXPECT_EQ(s.params.static_friction, 0.8f);  // the good ones are kept
    for (const char* key : {"substeps", "iterations", "wireframe", "window_size", "solver",
                            "method", "msaa_samples", "grab_reach", "resolution_scale",
                            "jacobi_k", "air_damping_per_s", "follow"}) {
        EXPECT_NE(std::find(skipped.begin(), skipped.end(), key), skipped.end()) << key;
    }
}

TEST(WindowSettings, LiveInTheXdgConfigFolder)
{
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const std::string saved_xdg = xdg ? xdg : "";
    const char* home = std::getenv("HOME");
    const std::string saved_home = home ? home : "";
    setenv("XDG_CONFIG_HOME", "/tmp/somewhere", 1);
    EXPECT_EQ(settings_directory(), "/tmp/somewhere/softbody");
    setenv("XDG_CONFIG_HOME", "relative/is/ignored", 1);  // the specification's rule
    setenv("HOME", "/home/someone", 1);
    EXPECT_EQ(settings_directory(), "/home/someone/.config/softbody");
    const auto restore = [](const char* name, bool was_set, const std::string& value) {
        if (was_set) {
            setenv(name, value.c_str(), 1);
        } else {
            unsetenv(name);
        }
    };
    restore("XDG_CONFIG_HOME", xdg != nullptr, saved_xdg);
    restore("HOME", home != nullptr, saved_home);
}

TEST(RememberedSettings, TheCommandLineWinsForItsRunAndIsNotRemembered)
{
    WindowSettings before;
    before.params.substeps = 20;
    before.params.iterations = 4;
    before.wireframe = true;
    Options options;
    options.substeps = 40;  // --substeps 40, this run only
    PanelState panel;
    panel.params = params_from_options(options);
    EXPECT_FALSE(apply_remembered_settings(before, options, kGpuMachine, panel));
    EXPECT_EQ(panel.params.substeps, 40);
    EXPECT_EQ(panel.params.iterations, 4);
    EXPECT_TRUE(panel.wireframe);
    WindowSettings left =
        settings_to_remember(panel, options, before, SolverKind::gpu,
                             glm::ivec2(800, 600), kGpuMachine);
    EXPECT_EQ(left.params.substeps, 20) << "the file keeps what it had";
    EXPECT_EQ(left.window_size, glm::ivec2(800, 600));
    panel.params.substeps = 12;  // changed in the panel: remembered
    left = settings_to_remember(panel, options, before, SolverKind::gpu, std::nullopt, kGpuMachine);
    EXPECT_EQ(left.params.substeps, 12);
}

TEST(RememberedSettings, TheViewFromTheCommandLineIsThisRunsOnly)
{
    WindowSettings before;
    before.tet_boundary = true;
    Options options;
    PanelState panel;
    apply_remembered_settings(before, options, kGpuMachine, panel);
    EXPECT_EQ(panel.view.surface, DrawnSurface::tets);
    EXPECT_FALSE(panel.view.strain);

    options.view = *body_view_from_name("strain");  // --view strain
    options.view_given = true;
    panel = PanelState{};
    panel.view = options.view;
    apply_remembered_settings(before, options, kGpuMachine, panel);
    EXPECT_TRUE(panel.view.strain);
    EXPECT_EQ(panel.view.surface, DrawnSurface::own);
    WindowSettings left =
        settings_to_remember(panel, options, before, SolverKind::gpu, std::nullopt, kGpuMachine);
    EXPECT_TRUE(left.tet_boundary) << "the file keeps what it had";
    EXPECT_FALSE(left.strain_view);
    panel.view.strain = false;  // switched off in the panel: remembered
    left = settings_to_remember(panel, options, before, SolverKind::gpu, std::nullopt, kGpuMachine);
    EXPECT_FALSE(left.strain_view);
    EXPECT_FALSE(left.tet_boundary);
}

TEST(RememberedSettings, WhatTheMachineChoosesByItselfIsNotRemembered)
{
    Options options;
    PanelState panel;
    panel.render = cheap_render_settings();
    // On llvmpipe: the CPU solver and the cheap picture are its own choice.
    WindowSettings left =
        settings_to_remember(panel, options, std::nullopt, SolverKind::cpu,
                             std::nullopt, kLlvmpipe);
    EXPECT_FALSE(left.solver);
    EXPECT_FALSE(left.render);
    // Chosen in the panel there: remembered, and started from next time.
    panel.render.soft_shadows = true;
    left = settings_to_remember(panel, options, std::nullopt, SolverKind::gpu,
                                std::nullopt, kLlvmpipe);
    EXPECT_EQ(left.solver, std::string("gpu"));
    ASSERT_TRUE(left.render);
    PanelState next;
    EXPECT_EQ(apply_remembered_settings(left, options, kLlvmpipe, next), SolverKind::gpu);
    EXPECT_TRUE(next.render.soft_shadows);
    // --solver cpu for one run: the file keeps having no say.
    options.solver = "cpu";
    left = settings_to_remember(panel, options, std::nullopt, SolverKind::cpu,
                                std::nullopt, kGpuMachine);
    EXPECT_FALSE(left.solver);
    EXPECT_FALSE(apply_remembered_settings(left, options, kGpuMachine, next));
}

TEST(RememberedSettings, TheSolverTimedFasterIsTheMachinesOwn)
{
    // On a GPU machine whose timing at start found the CPU solver faster.
    const MachineDefaults timed{false, SolverKind::cpu};
    Options options;
    PanelState panel;
    WindowSettings left =
        settings_to_remember(panel, options, std::nullopt, SolverKind::cpu, std::nullopt, timed);
    EXPECT_FALSE(left.solver) << "timed, not chosen: the next run times again";
    left = settings_to_remember(panel, options, std::nullopt, SolverKind::gpu, std::nullopt, timed);
    EXPECT_EQ(left.solver, std::string("gpu")) << "chosen in the panel against the timing";
    EXPECT_EQ(restore_default_settings(panel, options, timed, SolverKind::gpu), SolverKind::cpu);
    EXPECT_FALSE(restore_default_settings(panel, options, timed, SolverKind::cpu));
}

TEST(RememberedSettings, AnUntimedSolverStaysAsChosen)
{
    // A GPU machine that started on the solver remembered from the last run
    // (so timed nothing): that solver is remembered again, whichever.
    const MachineDefaults untimed{false, std::nullopt};
    Options options;
    PanelState panel;
    for (const SolverKind kind : {SolverKind::gpu, SolverKind::cpu}) {
        const WindowSettings left =
            settings_to_remember(panel, options, std::nullopt, kind, std::nullopt, untimed);
        EXPECT_EQ(left.solver, std::string(kind == SolverKind::gpu ? "gpu" : "cpu"));
    }
    // Its Defaults switch to nothing (the window times them), unless the
    // command line named one.
    EXPECT_FALSE(restore_default_settings(panel, options, untimed, SolverKind::cpu));
    options.solver = "gpu";
    EXPECT_EQ(restore_default_settings(panel, options, untimed, SolverKind::cpu), SolverKind::gpu);
    EXPECT_FALSE(restore_default_settings(panel, options, untimed, SolverKind::gpu));
}

TEST(RememberedSettings, DefaultsPutBackAFirstRunButNotTheMaterial)
{
    Options options;
    PanelState panel;
    panel.params.substeps = 33;
    panel.params.youngs_modulus_pa = 7.0e6f;
    panel.wireframe = panel.follow = panel.arena = true;
    panel.grab_strength_per_kg = 5.0f;
    panel.render.msaa_samples = 8;
    EXPECT_EQ(restore_default_settings(panel, options, kLlvmpipe, SolverKind::gpu),
              SolverKind::cpu);
    EXPECT_EQ(panel.params.substeps, SimParams().substeps);
    EXPECT_EQ(panel.params.youngs_modulus_pa, 7.0e6f);
    EXPECT_FALSE(panel.wireframe || panel.follow || panel.arena);
    EXPECT_EQ(panel.grab_strength_per_kg, kDefaultGrabStrengthPerKg);
    EXPECT_EQ(panel.render, cheap_render_settings());
    EXPECT_FALSE(restore_default_settings(panel, options, kGpuMachine, SolverKind::gpu));
    EXPECT_EQ(panel.render, RenderSettings{});
}
