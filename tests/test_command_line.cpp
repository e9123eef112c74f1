// The command line: every flag parsed, every bad value refused with a
// message that names the flag; and the parameter clamping that keeps absurd
// values from reaching the solver.
#include "app/command_line.h"
#include "core/param_limits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

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

TEST(CommandLine, WindowDefaultsToTimingBothSolvers)
{
    Result<Options> window = parse_command_line({"--preset", "torus", "--size", "800x600"});
    ASSERT_TRUE(window.ok()) << window.error();
    EXPECT_FALSE(window.value().headless);
    EXPECT_EQ(window.value().solver_or_default(), "auto");
    Result<Options> asked = parse_command_line({"--solver", "auto"});
    ASSERT_TRUE(asked.ok()) << asked.error();
    EXPECT_EQ(asked.value().solver, "auto");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--headless", "--solver", "auto"},
          std::vector<std::string>{"--bench", "--solver", "auto"}}) {
        Result<Options> refused = parse_command_line(args);
        ASSERT_FALSE(refused.ok()) << args[0];
        EXPECT_NE(refused.error().find("--solver auto is the window's"), std::string::npos)
            << refused.error();
    }
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
        {{"--bench-profile"}, "--bench"},
        {{"--simd", "neon"}, "--simd"},         {{"--simd", ""}, "--simd"},
    };
    for (const auto& [args, flag] : bad) {
        Result<Options> r = parse_command_line(args);
        EXPECT_FALSE(r.ok()) << args.front();
        EXPECT_NE(r.error().find(flag), std::string::npos) << r.error();
    }
}

TEST(CommandLine, ParsesTheBenchmarkFlags)
{
    const std::string threads = std::to_string(cpu_thread_range().max);
    Result<Options> r = parse_command_line({"--bench", "--solver", "both", "--bench-meshes",
                                            "cube,lattice-50k", "--json", "b.json", "--threads",
                                            threads, "--frames", "7", "--bench-profile"});
    ASSERT_TRUE(r.ok()) << r.error();
    const Options& o = r.value();
    EXPECT_TRUE(o.bench);
    EXPECT_EQ(o.solver, "both");
    EXPECT_EQ(o.bench_meshes, "cube,lattice-50k");
    EXPECT_EQ(o.json_path, "b.json");
    EXPECT_EQ(o.threads_or_default(), cpu_thread_range().max);
    EXPECT_EQ(o.frames, 7);
    EXPECT_TRUE(o.bench_profile);

    Result<Options> defaults = parse_command_line({"--bench"});
    ASSERT_TRUE(defaults.ok()) << defaults.error();
    EXPECT_EQ(defaults.value().bench_meshes, "all");
    EXPECT_FALSE(defaults.value().bench_profile);
    EXPECT_GE(defaults.value().threads_or_default(), 1);
}

TEST(CommandLine, SimdNamesAKernelThisCpuRuns)
{
    // SSE2 is in every x86-64 CPU; the default is the widest kernel.
    Result<Options> sse2 = parse_command_line({"--bench", "--simd", "sse2"});
    ASSERT_TRUE(sse2.ok()) << sse2.error();
    EXPECT_STREQ(sse2.value().tet_kernel_or_default().name, "sse2");
    EXPECT_EQ(sse2.value().tet_kernel_or_default().lanes, 4);
    Result<Options> defaults = parse_command_line({"--headless"});
    ASSERT_TRUE(defaults.ok()) << defaults.error();
    EXPECT_STREQ(defaults.value().tet_kernel_or_default().name,
                 available_tet_block_kernels().front().name);

    // A kernel this CPU cannot run is refused with the ones it can.
    if (!tet_block_kernel_named("avx512")) {
        Result<Options> r = parse_command_line({"--simd", "avx512"});
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().find("this CPU does not run it"), std::string::npos) << r.error();
    }
    Result<Options> unknown = parse_command_line({"--simd", "avx1024"});
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find(available_tet_block_kernel_names()), std::string::npos)
        << unknown.error();
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
    EXPECT_EQ(s.youngs_modulus_pa, ParamLimits::youngs_pa.min);
    EXPECT_EQ(s.poisson_ratio, ParamLimits::poisson.max);
    EXPECT_EQ(s.substeps, 1);
    EXPECT_EQ(s.iterations, ParamLimits::iterations.max);
    EXPECT_EQ(s.density_kg_m3, SimParams().density_kg_m3);
    EXPECT_NE(note.find("poisson_ratio"), std::string::npos) << note;

    std::string unchanged;
    sanitized(SimParams(), &unchanged);
    EXPECT_TRUE(unchanged.empty()) << unchanged;
}

// The sanitizer clamps into the same table as the command line and the
// panel, for the fields only the panel sets too.
TEST(SimParams, SanitizedClampsIntoTheOneTable)
{
    SimParams p;
    p.jacobi_k = 1000.0f;
    p.static_friction = 50.0f;
    p.dynamic_friction = -1.0f;
    p.gravity_m_s2 = glm::vec3(0.0f, -1.0e6f, INFINITY);
    p.air_damping_per_s = 1.0e4f;
    const SimParams s = sanitized(p);
    EXPECT_EQ(s.jacobi_k, ParamLimits::jacobi_k.max);
    EXPECT_EQ(s.static_friction, ParamLimits::friction.max);
    EXPECT_EQ(s.dynamic_friction, ParamLimits::friction.min);
    EXPECT_EQ(s.gravity_m_s2.y, ParamLimits::gravity_m_s2.min);
    EXPECT_EQ(s.gravity_m_s2.z, SimParams().gravity_m_s2.z);  // non-finite: the default
    EXPECT_EQ(s.air_damping_per_s, ParamLimits::damping_per_s.max);
}

namespace {

std::string text_of(int value)
{
    return std::to_string(value);
}

std::string text_of(float value)
{
    std::ostringstream out;  // the precision the messages use
    out << value;
    return out.str();
}

// A flag at the edges of its ParamLimits range: both ends accepted, one
// step outside refused with a message that names the flag.
template <typename T>
void expect_range_enforced(const std::string& flag, const Range<T>& range, T step,
                           std::vector<std::string> extra = {"--headless"})
{
    for (const T inside : {range.min, range.max}) {
        std::vector<std::string> args = extra;
        args.insert(args.end(), {flag, text_of(inside)});
        Result<Options> r = parse_command_line(args);
        EXPECT_TRUE(r.ok()) << flag << " " << text_of(inside) << ": " << r.error();
    }
    for (const T outside : {range.min - step, range.max + step}) {
        std::vector<std::string> args = extra;
        args.insert(args.end(), {flag, text_of(outside)});
        Result<Options> r = parse_command_line(args);
        ASSERT_FALSE(r.ok()) << flag << " " << text_of(outside);
        EXPECT_NE(r.error().find(flag), std::string::npos) << r.error();
        EXPECT_NE(r.error().find(text_of(range.max)), std::string::npos)
            << "the message states the limit: " << r.error();
    }
}

}  // namespace

TEST(CommandLine, EveryNumberIsCheckedAgainstTheTable)
{
    using L = ParamLimits;
    expect_range_enforced("--frames", L::frames, 1);
    expect_range_enforced("--substeps", L::substeps, 1);
    expect_range_enforced("--iterations", L::iterations, 1);
    expect_range_enforced("--resolution", L::mesh_resolution, 1);
    expect_range_enforced("--threads", cpu_thread_range(), 1);
    expect_range_enforced("--youngs", L::youngs_pa, 1.0e9f);
    expect_range_enforced("--poisson", L::poisson, 0.005f);
    expect_range_enforced("--damping", L::damping_per_s, 0.5f);
    expect_range_enforced("--grab-stiffness", L::grab_stiffness_n_per_m, 1.0e8f);
}

TEST(CommandLine, LimitMessagesGiveTheirReason)
{
    auto error_of = [](std::vector<std::string> args) {
        Result<Options> r = parse_command_line(args);
        EXPECT_FALSE(r.ok());
        return r.ok() ? std::string() : r.error();
    };
    const std::string resolution = error_of({"--resolution", "200"});
    EXPECT_NE(resolution.find("above " + std::to_string(ParamLimits::mesh_resolution.max)),
              std::string::npos)
        << resolution;
    EXPECT_NE(resolution.find(std::to_string(ParamLimits::max_tets_at_max_resolution)),
              std::string::npos)
        << resolution;
    const std::string threads = error_of({"--threads", "256"});
    EXPECT_NE(threads.find("this machine has " + std::to_string(cpu_thread_range().max) +
                           " hardware threads"),
              std::string::npos)
        << threads;
    const std::string size = error_of({"--size", "8192x8192"});
    EXPECT_NE(size.find("4096"), std::string::npos) << size;
    EXPECT_NE(size.find("42 s"), std::string::npos) << size;
}

TEST(CommandLine, SizeEachSideWithinTheTable)
{
    const int most = ParamLimits::image_side_px.max;
    const int least = ParamLimits::image_side_px.min;
    for (const std::string& ok : {std::to_string(most) + "x" + std::to_string(most),
                                  std::to_string(least) + "x" + std::to_string(least)}) {
        Result<Options> r = parse_command_line({"--size", ok});
        EXPECT_TRUE(r.ok()) << ok << ": " << r.error();
    }
    for (const std::string& bad :
         {std::to_string(most + 1) + "x100", "100x" + std::to_string(most + 1),
          std::to_string(least - 1) + "x100", "100x" + std::to_string(least - 1),
          std::string("99999999999999999999x100"), std::string("100x-100")}) {
        Result<Options> r = parse_command_line({"--size", bad});
        EXPECT_FALSE(r.ok()) << bad;
    }
}

TEST(CommandLine, RefusesDragOffsetsBeyondTheLimit)
{
    const float limit = ParamLimits::max_drag_offset_m;
    // What the fuzz run found: length(offset) overflowed and every vertex
    // turned NaN.
    for (const std::string& bad :
         {std::string("0:2:0:1e38,1e38,1e38"), std::string("0:2:0:0,0,-2e19"),
          "0:2:0:" + text_of(limit * 1.01f) + ",0,0", "0:2:0:0,0," + text_of(-limit * 1.01f),
          std::string("0:2:0:1e39,0,0"),
          "0:" + std::to_string(ParamLimits::frames.max + 1) + ":0:0,0,0"}) {
        Result<Options> r = parse_command_line({"--headless", "--drag", bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().find("--drag"), std::string::npos) << r.error();
    }
    Result<Options> r = parse_command_line({"--headless", "--drag", "0:2:0:1e38,1e38,1e38"});
    EXPECT_NE(r.error().find(text_of(limit) + " m"), std::string::npos) << r.error();
    const std::string edge = "0:2:0:" + text_of(limit) + "," + text_of(-limit) + ",0";
    Result<Options> at_limit = parse_command_line({"--headless", "--drag", edge});
    ASSERT_TRUE(at_limit.ok()) << at_limit.error();
    EXPECT_EQ(at_limit.value().drags[0].offset_m, glm::vec3(limit, -limit, 0.0f));
}

TEST(CommandLine, RefusesEmptyPathsNamingTheFlag)
{
    for (const std::string flag : {"--mesh", "--stats", "--dump-positions", "--screenshot"}) {
        Result<Options> r = parse_command_line({"--headless", flag, ""});
        ASSERT_FALSE(r.ok()) << flag;
        EXPECT_NE(r.error().find(flag), std::string::npos) << r.error();
        EXPECT_NE(r.error().find("empty"), std::string::npos) << r.error();
    }
    for (const std::string flag : {"--json", "--bench-meshes"}) {
        Result<Options> r = parse_command_line({"--bench", flag, ""});
        ASSERT_FALSE(r.ok()) << flag;
        EXPECT_NE(r.error().find(flag), std::string::npos) << r.error();
    }
    Result<Options> positional = parse_command_line({"--headless", ""});
    ASSERT_FALSE(positional.ok());
    EXPECT_NE(positional.error().find("empty"), std::string::npos) << positional.error();
}

TEST(CommandLine, UsageStatesTheTablesLimits)
{
    using L = ParamLimits;
    const std::string usage = usage_text();
    for (const std::string& range :
         {std::to_string(L::mesh_resolution.min) + "-" + std::to_string(L::mesh_resolution.max),
          std::to_string(L::frames.min) + "-" + std::to_string(L::frames.max),
          std::to_string(L::substeps.min) + "-" + std::to_string(L::substeps.max),
          std::to_string(L::iterations.min) + "-" + std::to_string(L::iterations.max),
          std::to_string(L::image_side_px.min) + "-" + std::to_string(L::image_side_px.max),
          "1-" + std::to_string(cpu_thread_range().max), text_of(L::max_drag_offset_m) + " m"}) {
        EXPECT_NE(usage.find(range), std::string::npos) << range;
    }
    EXPECT_NE(usage.find("3 the simulation diverged"), std::string::npos);
}

TEST(CommandLine, OutputPathsAreCheckedBeforeTheRun)
{
    namespace fs = std::filesystem;
    const fs::path folder = fs::temp_directory_path() / "softbody_output_paths_test";
    fs::create_directories(folder);
    const std::string missing = (folder / "no_such_folder" / "x.json").string();

    auto check = [](std::vector<std::string> args) {
        Result<Options> parsed = parse_command_line(args);
        EXPECT_TRUE(parsed.ok()) << parsed.error();
        return check_output_paths(parsed.value());
    };
    EXPECT_TRUE(check({"--headless", "--stats", (folder / "s.json").string(), "--dump-positions",
                       (folder / "p.txt").string(), "--screenshot", (folder / "a.png").string()})
                    .ok());
    EXPECT_TRUE(check({"--headless"}).ok());
    for (const std::string flag : {"--stats", "--dump-positions", "--screenshot"}) {
        Result<bool> r = check({"--headless", flag, missing});
        ASSERT_FALSE(r.ok()) << flag;
        EXPECT_NE(r.error().find(flag + " '" + missing + "'"), std::string::npos) << r.error();
        EXPECT_NE(r.error().find("does not exist"), std::string::npos) << r.error();
        // A folder is not a file to write.
        Result<bool> onto_folder = check({"--headless", flag, folder.string()});
        ASSERT_FALSE(onto_folder.ok()) << flag;
        EXPECT_NE(onto_folder.error().find("folder"), std::string::npos) << onto_folder.error();
    }
    Result<bool> json = check({"--bench", "--json", missing});
    ASSERT_FALSE(json.ok());
    EXPECT_NE(json.error().find("--json"), std::string::npos) << json.error();
    // A "folder" that is a file.
    const fs::path file = folder / "plain_file";
    { std::FILE* f = std::fopen(file.c_str(), "w"); ASSERT_NE(f, nullptr); std::fclose(f); }
    Result<bool> under_file = check({"--headless", "--stats", (file / "x.json").string()});
    ASSERT_FALSE(under_file.ok());
    EXPECT_NE(under_file.error().find("not a folder"), std::string::npos) << under_file.error();
    fs::remove_all(folder);
}

TEST(CommandLine, DescribesTheRunForMessages)
{
    Result<Options> preset =
        parse_command_line({"--headless", "--preset", "cube", "--frames", "7"});
    ASSERT_TRUE(preset.ok());
    EXPECT_EQ(describe_run(preset.value()), "preset cube, cpu solver, 7 frames headless");
    Result<Options> mesh = parse_command_line({"--mesh", "a.obj", "--resolution", "9"});
    ASSERT_TRUE(mesh.ok());
    EXPECT_EQ(describe_run(mesh.value()), "mesh 'a.obj' at resolution 9, auto solver, window");
}

TEST(CommandLine, ScenesByNameOrFileAndNotWithAnotherBody)
{
    Result<Options> pile = parse_command_line({"--headless", "--scene", "pile"});
    ASSERT_TRUE(pile.ok()) << pile.error();
    EXPECT_EQ(pile.value().scene, "pile");
    EXPECT_NE(describe_run(pile.value()).find("scene pile"), std::string::npos);
    // A preset's name is a scene of its one body; a .json is a file, read later.
    EXPECT_TRUE(parse_command_line({"--scene", "torus"}).ok());
    EXPECT_TRUE(parse_command_line({"--scene", "mine.json"}).ok());

    Result<Options> unknown = parse_command_line({"--scene", "heap"});
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("--scene 'heap': unknown scene"), std::string::npos)
        << unknown.error();
    EXPECT_NE(unknown.error().find("pile, stack"), std::string::npos) << unknown.error();

    for (const std::vector<std::string>& both :
         {std::vector<std::string>{"--scene", "stack", "--preset", "cube"},
          std::vector<std::string>{"--scene", "stack", "model.obj"}}) {
        Result<Options> refused = parse_command_line(both);
        ASSERT_FALSE(refused.ok());
        EXPECT_NE(refused.error().find("give one"), std::string::npos) << refused.error();
    }
    EXPECT_FALSE(parse_command_line({"--scene", ""}).ok()) << "an empty scene is a mistake";
}
