// The two JSON files the program writes, --stats and --bench --json: every
// key in its order, null for what a NaN made meaningless, and readable by
// any JSON parser whatever bytes a mesh path or a machine name holds.
#include "app/bench_report.h"
#include "app/stats_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> keys_in_order(const Json& object)
{
    std::vector<std::string> keys;
    for (const auto& item : object.items()) {
        keys.push_back(item.key());
    }
    return keys;
}

RunReport calm_cube_report()
{
    RunReport r;
    r.preset = "cube";
    r.solver = "cpu";
    r.vertices = 343;
    r.tets = 1296;
    r.frames = 300;
    r.params.youngs_modulus_pa = 2e5f;
    r.params.poisson_ratio = 0.3f;
    r.ms_per_frame = 1.25;
    r.stats.min_y_m = 0.001f;
    r.stats.max_y_m = 0.5f;
    r.stats.centroid_m = glm::vec3(0.1f, 0.25f, -0.1f);
    r.stats.max_speed_m_s = 0.02f;
    r.stats.centroid_speed_m_s = 0.01f;
    r.mean_residual = 8e-8f;
    r.momenta.linear = glm::dvec3(0.5, -1.0, 0.0);
    r.momenta.angular = glm::dvec3(0.0, 0.25, 0.0);
    r.momenta.kinetic_energy_j = 0.75;
    BodyStats one;
    one.vertices = 300;
    one.tets = 1200;
    BodyStats two;
    two.vertices = 43;
    two.tets = 96;
    two.min_y_m = 0.25f;
    r.bodies = {one, two};
    r.max_penetration_m = 0.002;
    r.max_penetration_between_bodies_m = 0.001;
    return r;
}

BenchRow cube_row()
{
    BenchRow r;
    r.mesh = "cube";
    r.solver = "cpu";
    r.method = "gauss-seidel";
    r.threads = 2;
    r.simd = "avx512";
    r.vertices = 343;
    r.tets = 1296;
    r.substeps = 10;
    r.iterations = 8;
    r.frames = 3;
    r.ms_per_frame = 4.0;
    r.ms_p10 = 3.5;
    r.ms_p90 = 4.5;
    r.frame_clock = "wall clock";
    r.bytes_per_tet = 412.5;
    return r;
}

}  // namespace

TEST(StatsJson, EveryKeyInItsOrderWithItsValue)
{
    const std::string text = report_to_json(calm_cube_report());
    const Json json = Json::parse(text);
    const std::vector<std::string> keys{
        "preset", "solver", "vertices", "tets", "frames", "diverged", "method", "substeps",
        "iterations", "youngs_modulus_pa", "poisson_ratio", "ms_per_frame", "min_y", "max_y",
        "centroid", "inverted_tets", "nan_count", "max_speed", "centroid_speed", "momentum",
        "angular_momentum", "kinetic_energy", "mean_residual", "bodies", "max_penetration_m",
        "max_penetration_between_bodies_m"};
    EXPECT_EQ(keys_in_order(json), keys);
    ASSERT_EQ(json["bodies"].size(), 2u);
    EXPECT_EQ(keys_in_order(json["bodies"][1]),
              (std::vector<std::string>{"vertices", "tets", "centroid", "min_y", "inverted_tets"}));
    EXPECT_EQ(json["bodies"][1]["tets"], 96);
    EXPECT_EQ(json["bodies"][1]["min_y"].get<float>(), 0.25f);
    EXPECT_EQ(json["max_penetration_m"], 0.002);
    EXPECT_EQ(json["max_penetration_between_bodies_m"], 0.001);
    EXPECT_EQ(json["momentum"], Json::array({0.5, -1.0, 0.0}));
    EXPECT_EQ(json["angular_momentum"], Json::array({0.0, 0.25, 0.0}));
    EXPECT_EQ(json["kinetic_energy"], 0.75);
    EXPECT_EQ(json["preset"], "cube");
    EXPECT_EQ(json["vertices"], 343);
    EXPECT_EQ(json["frames"], 300);
    EXPECT_EQ(json["diverged"], false);
    EXPECT_EQ(json["method"], "gauss-seidel");
    EXPECT_EQ(json["substeps"], 10);
    EXPECT_EQ(json["iterations"], 8);
    EXPECT_EQ(json["ms_per_frame"], 1.25);
    EXPECT_EQ(json["centroid"].size(), 3u);
    EXPECT_EQ(json["centroid"][1].get<float>(), 0.25f);
    EXPECT_EQ(json["mean_residual"].get<float>(), 8e-8f);
    // Floats as their own shortest decimals, which read back as the same float.
    EXPECT_NE(text.find("\"poisson_ratio\": 0.3,"), std::string::npos) << text;
    EXPECT_NE(text.find("\"min_y\": 0.001,"), std::string::npos) << text;
    EXPECT_EQ(json["min_y"].get<float>(), 0.001f);
    EXPECT_EQ(json["youngs_modulus_pa"].get<float>(), 2e5f);
}

TEST(StatsJson, TwoSpaceIndentAndATrailingNewline)
{
    const std::string text = report_to_json(calm_cube_report());
    EXPECT_EQ(text.rfind("{\n  \"preset\": \"cube\",\n  \"solver\": \"cpu\",\n", 0), 0u) << text;
    EXPECT_EQ(text.substr(text.size() - 3), "\n}\n") << text;
}

TEST(StatsJson, NonFiniteFiguresAndAMissingResidualAreNull)
{
    RunReport r = calm_cube_report();
    r.diverged = true;
    r.stats.min_y_m = NAN;
    r.stats.centroid_m = glm::vec3(NAN, INFINITY, -INFINITY);
    r.stats.max_speed_m_s = INFINITY;
    r.ms_per_frame = NAN;
    r.mean_residual.reset();
    r.bodies[0].centroid_m = glm::vec3(NAN);
    r.max_penetration_m = NAN;
    r.max_penetration_between_bodies_m = NAN;
    const Json json = Json::parse(report_to_json(r));
    EXPECT_EQ(json["diverged"], true);
    EXPECT_TRUE(json["min_y"].is_null());
    EXPECT_EQ(json["centroid"], Json::parse("[null, null, null]"));
    EXPECT_TRUE(json["max_speed"].is_null());
    EXPECT_TRUE(json["ms_per_frame"].is_null());
    ASSERT_TRUE(json.contains("mean_residual"));
    EXPECT_TRUE(json["mean_residual"].is_null());
    EXPECT_EQ(json["bodies"][0]["centroid"], Json::parse("[null, null, null]"));
    EXPECT_TRUE(json["max_penetration_m"].is_null());
    EXPECT_TRUE(json["max_penetration_between_bodies_m"].is_null());
    EXPECT_EQ(json["max_y"].get<float>(), 0.5f) << "a finite figure stays a number";
}

TEST(StatsJson, StringsAreEscapedAndAPathThatIsNotUtf8IsStillWritten)
{
    RunReport r = calm_cube_report();
    r.preset = "/tmp/a \"quoted\"\\name\n\x01.obj";
    EXPECT_EQ(Json::parse(report_to_json(r))["preset"], r.preset);

    // Linux file names are bytes: 0xff is no UTF-8, and must not stop the write.
    r.preset = "/tmp/caf\xff.obj";
    std::string text;
    ASSERT_NO_THROW(text = report_to_json(r));
    EXPECT_EQ(Json::parse(text)["preset"], "/tmp/caf\xef\xbf\xbd.obj") << "U+FFFD in its place";
}

TEST(BenchJson, OneRowPerLineEveryKeyInItsOrder)
{
    BenchRow gpu = cube_row();
    gpu.solver = "gpu";
    gpu.simd = "-";
    gpu.threads = 1;
    // By name: PassTimes grows a field with every new pass.
    gpu.passes = PassTimes{.predict_ms = 0.1, .solve_ms = 3.0, .apply_ms = 0.2,
                           .contact_find_ms = 0.4, .contact_solve_ms = 0.6, .grab_ms = 0.0,
                           .velocity_ms = 0.3, .normals_ms = 0.05, .other_ms = 0.35,
                           .clock = "GL timer queries"};
    gpu.dispatches_per_frame = 333;
    gpu.tet_pass = "one workgroup (an iteration: colour by colour 0.4 ms, one workgroup 0.2 ms)";
    const std::string text = bench_json({cube_row(), gpu}, "test machine");

    EXPECT_EQ(text.rfind("[\n  {\"mesh\":\"cube\",", 0), 0u) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4) << "[, two rows, ]: " << text;
    EXPECT_EQ(text.substr(text.size() - 2), "]\n");

    const Json rows = Json::parse(text);
    ASSERT_EQ(rows.size(), 2u);
    const std::vector<std::string> keys{
        "mesh", "solver", "method", "simd", "threads", "ran_on_one_thread", "vertices", "tets", "substeps",
        "iterations", "frames", "ms_per_frame", "ms_p10", "ms_p90", "tet_solves_per_s",
        "frame_clock", "bytes_per_tet", "machine"};
    EXPECT_EQ(keys_in_order(rows[0]), keys)
        << "no dispatches_per_frame on the CPU, no passes_ms without pass times";
    std::vector<std::string> gpu_keys = keys;
    gpu_keys.insert(gpu_keys.end() - 1, "dispatches_per_frame");
    gpu_keys.insert(gpu_keys.end() - 1, "tet_pass");
    gpu_keys.push_back("passes_ms");
    EXPECT_EQ(keys_in_order(rows[1]), gpu_keys);
    EXPECT_EQ(keys_in_order(rows[1]["passes_ms"]),
              (std::vector<std::string>{"predict", "solve", "apply", "contact_find",
                                        "contact_solve", "grab", "velocity", "normals", "other",
                                        "clock"}));

    EXPECT_EQ(rows[0]["threads"], 2);
    EXPECT_EQ(rows[0]["ran_on_one_thread"], false);
    EXPECT_EQ(rows[0]["ms_p90"], 4.5);
    EXPECT_EQ(rows[0]["tet_solves_per_s"], cube_row().tet_solves_per_s()) << "exactly, not rounded";
    EXPECT_EQ(rows[0]["bytes_per_tet"], 412.5);
    EXPECT_EQ(rows[1]["dispatches_per_frame"], 333);
    EXPECT_EQ(rows[1]["machine"], "test machine");
    EXPECT_EQ(rows[1]["passes_ms"]["solve"], 3.0);
    EXPECT_EQ(rows[1]["passes_ms"]["contact_solve"], 0.6);
    EXPECT_EQ(rows[1]["passes_ms"]["clock"], "GL timer queries");
}

TEST(BenchJson, AProfiledRowListsItsProgramsInTheJsonAndBelowTheTable)
{
    BenchRow gpu = cube_row();
    gpu.solver = "gpu";
    gpu.method = "jacobi";
    for (int i = 0; i < 12; ++i) {  // most time first, as GpuSolver::dispatch_profile gives
        gpu.profile.push_back({"pass_" + std::to_string(i), 12.0 - i, 10.0});
    }
    const Json rows = Json::parse(bench_json({cube_row(), gpu}, "m"));
    EXPECT_FALSE(rows[0].contains("profile")) << "no profile, no key";
    ASSERT_EQ(rows[1]["profile"].size(), 12u);
    EXPECT_EQ(keys_in_order(rows[1]["profile"][0]),
              (std::vector<std::string>{"program", "ms_per_frame", "dispatches_per_frame"}));
    EXPECT_EQ(rows[1]["profile"][3]["program"], "pass_3");
    EXPECT_EQ(rows[1]["profile"][3]["ms_per_frame"], 9.0);

    const std::string table = bench_table({cube_row(), gpu});
    EXPECT_NE(table.find("profile of cube, jacobi on the gpu"), std::string::npos) << table;
    EXPECT_NE(table.find("pass_9 "), std::string::npos) << "the first ten by name";
    EXPECT_EQ(table.find("pass_10"), std::string::npos) << "the rest summed";
    const size_t others = table.find("the others");
    ASSERT_NE(others, std::string::npos);
    EXPECT_NE(table.find("3.000", others), std::string::npos) << "2 + 1 ms: " << table;
}

TEST(BenchJson, NonFiniteTimesAreNullAndNoRowsIsAnEmptyList)
{
    BenchRow row = cube_row();
    row.ms_p10 = NAN;
    row.ms_p90 = INFINITY;
    const Json rows = Json::parse(bench_json({row}, "machine \xff"));
    EXPECT_TRUE(rows[0]["ms_p10"].is_null());
    EXPECT_TRUE(rows[0]["ms_p90"].is_null());
    EXPECT_EQ(rows[0]["machine"], "machine \xef\xbf\xbd");
    EXPECT_EQ(Json::parse(bench_json({}, "m")), Json::array());
}
