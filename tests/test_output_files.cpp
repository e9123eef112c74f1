// The files the program writes: a write that fails says so, naming the path
// and the operating system's reason; and a run whose positions turn NaN is
// caught and reported as such, its figures null instead of a calm body.
#include "app/drag_script.h"
#include "app/headless_run.h"
#include "app/stats_json.h"
#include "core/file_output.h"
#include "gpu/png_writer.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string read_all(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

TEST(OutputFiles, WriteWholeFileWritesTheBytes)
{
    const auto path = std::filesystem::temp_directory_path() / "softbody_write_whole_file.txt";
    const std::string bytes("one\ntwo\0three", 13);
    Result<bool> written = write_whole_file(path.string(), bytes);
    ASSERT_TRUE(written.ok()) << written.error();
    EXPECT_EQ(read_all(path), bytes);
    std::filesystem::remove(path);
}

TEST(OutputFiles, AFullDiskIsAnErrorNamingThePathAndTheReason)
{
    // /dev/full accepts the open and fails every write with ENOSPC: the
    // failure only shows when the buffered bytes are flushed.
    Result<bool> written = write_whole_file("/dev/full", "some figures\n");
    ASSERT_FALSE(written.ok());
    EXPECT_NE(written.error().find("/dev/full"), std::string::npos) << written.error();
    EXPECT_NE(written.error().find(std::strerror(ENOSPC)), std::string::npos) << written.error();
}

TEST(OutputFiles, AMissingFolderIsAnErrorNamingThePath)
{
    const std::string path = "/nonexistent-softbody-folder/x.json";
    Result<bool> written = write_whole_file(path, "{}");
    ASSERT_FALSE(written.ok());
    EXPECT_NE(written.error().find(path), std::string::npos) << written.error();
    EXPECT_NE(written.error().find(std::strerror(ENOENT)), std::string::npos) << written.error();
    Result<bool> checked = check_writable_path(path);
    ASSERT_FALSE(checked.ok());
    EXPECT_NE(checked.error().find("/nonexistent-softbody-folder"), std::string::npos)
        << checked.error();
}

TEST(OutputFiles, PngWriteErrorsAreReported)
{
    const glm::ivec2 size(16, 16);
    const std::vector<uint8_t> pixels(16 * 16 * 4, 200);
    Result<bool> full = write_png("/dev/full", size, pixels);
    ASSERT_FALSE(full.ok()) << "stb's own writer said 'written' here";
    EXPECT_NE(full.error().find("/dev/full"), std::string::npos) << full.error();
    EXPECT_NE(full.error().find(std::strerror(ENOSPC)), std::string::npos) << full.error();

    const auto path = std::filesystem::temp_directory_path() / "softbody_png_writer.png";
    Result<bool> written = write_png(path.string(), size, pixels);
    ASSERT_TRUE(written.ok()) << written.error();
    EXPECT_EQ(read_all(path).rfind("\x89PNG\r\n\x1a\n", 0), 0u);
    std::filesystem::remove(path);
}

TEST(Divergence, NonFinitePositionsAreCounted)
{
    std::vector<glm::vec3> positions(5, glm::vec3(1.0f));
    EXPECT_EQ(count_non_finite(positions), 0u);
    positions[1].y = NAN;
    positions[3].z = -INFINITY;
    EXPECT_EQ(count_non_finite(positions), 2u);
}

TEST(Divergence, StatsOfADivergedBodyDoNotPretend)
{
    const auto mesh = preset_mesh(PresetId::cube);
    std::vector<glm::vec3> positions = mesh->rest_positions;
    std::vector<glm::vec3> velocities(positions.size(), glm::vec3(0.0f));
    positions[7] = glm::vec3(NAN);
    RunReport report;
    report.stats = compute_stats(*mesh, positions, velocities);
    report.diverged = true;
    EXPECT_EQ(report.stats.nan_count, 1u);
    EXPECT_TRUE(std::isnan(report.stats.min_y_m));
    EXPECT_TRUE(std::isnan(report.stats.centroid_m.y));
    EXPECT_TRUE(std::isnan(report.stats.max_speed_m_s));
    EXPECT_GT(report.stats.inverted_tets, 0u) << "tets at the NaN vertex have no volume";
    const nlohmann::json json = nlohmann::json::parse(report_to_json(report));
    EXPECT_EQ(json["nan_count"], 1) << json;
    EXPECT_EQ(json["diverged"], true) << json;
    EXPECT_TRUE(json["min_y"].is_null()) << json;
    EXPECT_EQ(json["centroid"], nlohmann::json::parse("[null, null, null]")) << json;
    EXPECT_TRUE(json["max_speed"].is_null()) << json;

    // The same body without the NaN: every figure defined.
    positions[7] = mesh->rest_positions[7];
    const SimStats fine = compute_stats(*mesh, positions, velocities);
    EXPECT_EQ(fine.nan_count, 0u);
    EXPECT_FALSE(std::isnan(fine.min_y_m));
    EXPECT_EQ(fine.max_speed_m_s, 0.0f);
}

// A body with one NaN vertex (as a drag of 1e38 m once made one: its
// |offset| overflowed in the grab): the NaN spreads through the tets, and the
// run must see it at its first check (one simulated second) and stop there.
TEST(Divergence, AHeadlessRunStopsAtTheFirstNonFinitePosition)
{
    const auto mesh = preset_mesh(PresetId::cube);
    CpuSolver solver;
    solver.load(mesh);
    std::vector<glm::vec3> poisoned = mesh->rest_positions;
    poisoned[0] = glm::vec3(NAN);
    solver.set_state(poisoned, std::vector<glm::vec3>(poisoned.size(), glm::vec3(0.0f)));
    DragScript drags({}, kDefaultGrabStiffness);
    std::vector<glm::vec3> positions;
    const FramesRun ran = run_frames_checked(solver, drags, SimParams(), 300, positions);
    EXPECT_TRUE(ran.diverged);
    EXPECT_EQ(ran.frames, 60);
    EXPECT_GT(count_non_finite(positions), 0u);

    CpuSolver calm;
    calm.load(mesh);
    DragScript no_drags({}, kDefaultGrabStiffness);
    const FramesRun fine = run_frames_checked(calm, no_drags, SimParams(), 61, positions);
    EXPECT_FALSE(fine.diverged);
    EXPECT_EQ(fine.frames, 61);
    EXPECT_EQ(count_non_finite(positions), 0u);
}
