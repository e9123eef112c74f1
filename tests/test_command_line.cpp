// The command line: every flag parsed, every bad value refused with a
// message that names the flag; and the parameter clamping that keeps absurd
// values from reaching the solver.
#include "app/command_line.h"

#include <gtest/gtest.h>

#include <cmath>

TEST(CommandLine, ParsesTheHeadlessFlags)
{
    Result<Options> r = parse_command_line(
        {"--headless", "--solver", "cpu", "--preset", "beam", "--frames", "42", "--substeps", "20",
         "--iterations", "16", "--youngs", "2.5e6", "--poisson", "0.45", "--damping", "0.5",
         "--stats", "s.json", "--dump-positions", "p.txt", "--method", "jacobi"});
    ASSERT_TRUE(r.ok()) << r.error();
    const Options& o = r.value();
    EXPECT_TRUE(o.headless);
    EXPECT_EQ(o.solver_or_default(), "cpu");
    EXPECT_EQ(o.preset, PresetId::beam);
    EXPECT_EQ(o.frames_or_default(), 42);
    EXPECT_EQ(o.stats_path, "s.json");
    EXPECT_EQ(o.dump_positions_path, "p.txt");
    const SimParams p = params_from_options(o);
    EXPECT_EQ(p.substeps, 20);
    EXPECT_EQ(p.iterations, 16);
    EXPECT_FLOAT_EQ(p.youngs_modulus_pa, 2.5e6f);
    EXPECT_FLOAT_EQ(p.poisson_ratio, 0.45f);
    EXPECT_FLOAT_EQ(p.air_damping_per_s, 0.5f);
    EXPECT_EQ(p.method, SolverMethod::jacobi);
    EXPECT_EQ(SimParams().method, SolverMethod::gauss_seidel);  // the default
}

TEST(CommandLine, WindowDefaultsToTheGpuSolver)
{
    Result<Options> window = parse_command_line({"--preset", "torus", "--size", "800x600"});
    ASSERT_TRUE(window.ok()) << window.error();
    EXPECT_FALSE(window.value().headless);
    EXPECT_EQ(window.value().solver_or_default(), "gpu");
    EXPECT_FALSE(window.value().frames.has_value());
    EXPECT_EQ(window.value().size, glm::ivec2(800, 600));
    Result<Options> headless = parse_command_line({"--headless", "--screenshot", "a.png"});
    ASSERT_TRUE(headless.ok());
    EXPECT_EQ(headless.value().solver_or_default(), "cpu");
    EXPECT_EQ(headless.value().frames_or_default(), 300);
    EXPECT_EQ(headless.value().screenshot_path, "a.png");
}

TEST(CommandLine, DefaultsUseThePresetsStiffness)
{
    Result<Options> r = parse_command_line({"--headless", "--preset", "beam"});
    ASSERT_TRUE(r.ok());
    EXPECT_FLOAT_EQ(params_from_options(r.value()).youngs_modulus_pa,
                    preset_info(PresetId::beam).suggested_youngs_pa);
    EXPECT_EQ(params_from_options(r.value()).substeps, 10);
    EXPECT_EQ(params_from_options(r.value()).iterations, 8);
}

TEST(CommandLine, RefusesBadFlagsNamingThem)
{
    const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
        {{"--frames", "-1"}, "--frames"},       {{"--frames", "1e3"}, "--frames"},
        {{"--frames", ""}, "--frames"},         {{"--substeps", "65"}, "--substeps"},
        {{"--iterations", "0"}, "--iterations"}, {{"--youngs", "nan"}, "--youngs"},
        {{"--youngs", "1e20"}, "--youngs"},     {{"--poisson", "0.5"}, "--poisson"},
        {{"--poisson", "-0.1"}, "--poisson"},   {{"--damping", "-1"}, "--damping"},
        {{"--preset", "teapot"}, "--preset"},   {{"--solver", "magic"}, "--solver"},
        {{"--stats"}, "--stats"},               {{"--wobble"}, "--wobble"},
        {{"--size", "800"}, "--size"},          {{"--size", "0x600"}, "--size"},
        {{"--threads", "0"}, "--threads"},      {{"--threads", "many"}, "--threads"},
        {{"--solver", "both"}, "--bench"},      {{"--json", "x.json"}, "--bench"},
        {{"--bench-meshes", "cube"}, "--bench"}, {{"--bench", "--frames", "0"}, "--frames"},
    };
    for (const auto& [args, flag] : bad) {
        Result<Options> r = parse_command_line(args);
        EXPECT_FALSE(r.ok()) << args.front();
        EXPECT_NE(r.error().find(flag), std::string::npos) << r.error();
    }
}

TEST(CommandLine, ParsesTheBenchmarkFlags)
{
    Result<Options> r = parse_command_line({"--bench", "--solver", "both", "--bench-meshes",
                                            "cube,lattice-50k", "--json", "b.json", "--threads",
                                            "3", "--frames", "7"});
    ASSERT_TRUE(r.ok()) << r.error();
    const Options& o = r.value();
    EXPECT_TRUE(o.bench);
    EXPECT_EQ(o.solver, "both");
    EXPECT_EQ(o.bench_meshes, "cube,lattice-50k");
    EXPECT_EQ(o.json_path, "b.json");
    EXPECT_EQ(o.threads_or_default(), 3);
    EXPECT_EQ(o.frames, 7);

    Result<Options> defaults = parse_command_line({"--bench"});
    ASSERT_TRUE(defaults.ok()) << defaults.error();
    EXPECT_EQ(defaults.value().bench_meshes, "all");
    EXPECT_GE(defaults.value().threads_or_default(), 1);
}

TEST(SimParams, SanitizedClampsAbsurdValues)
{
    SimParams p;
    p.youngs_modulus_pa = -5.0f;
    p.poisson_ratio = 0.7f;
    p.substeps = 0;
    p.iterations = 100000;
    p.density_kg_m3 = NAN;
    std::string note;
    const SimParams s = sanitized(p, &note);
    EXPECT_EQ(s.youngs_modulus_pa, ParamLimits::min_youngs_pa);
    EXPECT_EQ(s.poisson_ratio, ParamLimits::max_poisson);
    EXPECT_EQ(s.substeps, 1);
    EXPECT_EQ(s.iterations, ParamLimits::max_iterations);
    EXPECT_EQ(s.density_kg_m3, SimParams().density_kg_m3);
    EXPECT_NE(note.find("poisson_ratio"), std::string::npos) << note;

    std::string unchanged;
    sanitized(SimParams(), &unchanged);
    EXPECT_TRUE(unchanged.empty()) << unchanged;
}
