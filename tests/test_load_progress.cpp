// Watching and cancelling a load (load_progress.h): the fraction only grows
// and reaches 1 through the four stages in order, a cancel request stops a
// load at the next check with "loading NAME cancelled", and a load nobody
// watches is the same load.
#include "core/bunny.h"
#include "core/lattice.h"
#include "core/presets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string bunny_obj() { return asset_directory() + "/bunny.obj"; }

TEST(LoadProgress, ReachesOneThroughTheStagesInOrderAndNeverGoesBack)
{
    LoadProgress progress;
    std::vector<float> fractions;
    std::vector<std::string> stages;
    progress.on_report = [&](float fraction) {
        fractions.push_back(fraction);
        if (stages.empty() || stages.back() != progress.stage_name()) {
            stages.emplace_back(progress.stage_name());
        }
    };
    Result<TetMesh> loaded = prepare_body_from_file(bunny_obj(), 12, &progress);
    ASSERT_TRUE(loaded.ok()) << loaded.error();

    ASSERT_FALSE(fractions.empty());
    EXPECT_EQ(fractions.front(), 0.0f);
    for (size_t i = 1; i < fractions.size(); ++i) {
        EXPECT_GE(fractions[i], fractions[i - 1]) << "report " << i;
    }
    EXPECT_EQ(fractions.back(), 1.0f);
    EXPECT_EQ(progress.fraction(), 1.0f);
    EXPECT_EQ(stages, (std::vector<std::string>{"reading", "winding numbers", "stuffing",
                                                "preparing"}));
    // Coarse but not silent: a bar that moves, not one that jumps to the end.
    EXPECT_GE(fractions.size(), 20u);
    EXPECT_LE(fractions.size(), 1000u);

    // Watching changes nothing in the result.
    Result<TetMesh> unwatched = prepare_body_from_file(bunny_obj(), 12);
    ASSERT_TRUE(unwatched.ok()) << unwatched.error();
    EXPECT_EQ(unwatched.value().tets, loaded.value().tets);
    EXPECT_EQ(unwatched.value().rest_positions, loaded.value().rest_positions);
}

TEST(LoadProgress, CancelStopsTheBunnyAtTheNextCheckWithAMessage)
{
    // Cancel from the loading thread's own report once a fifth is done, as
    // the window's Cancel button would from another thread.
    LoadProgress progress;
    std::optional<Clock::time_point> cancelled_at;
    double longest_gap_s = 0.0;
    Clock::time_point last_report = Clock::now();
    int reports_after_cancel = 0;
    progress.on_report = [&](float fraction) {
        const Clock::time_point now = Clock::now();
        if (cancelled_at) {
            ++reports_after_cancel;
            return;
        }
        longest_gap_s = std::max(longest_gap_s,
                                 std::chrono::duration<double>(now - last_report).count());
        last_report = now;
        if (fraction > 0.2f) {
            progress.request_cancel();
            cancelled_at = now;
        }
    };
    const std::string path = bunny_obj();
    Result<TetMesh> loaded = prepare_body_from_file(path, 24, &progress);
    ASSERT_TRUE(cancelled_at.has_value()) << "the load never got past 0.2";
    const double stop_s = seconds_since(*cancelled_at);

    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error(), "loading " + path + " cancelled");
    // Stopped at the next check: at most one more report, the stage it was
    // in, and no longer than about one interval between reports.
    EXPECT_LE(reports_after_cancel, 1);
    EXPECT_STREQ(progress.stage_name(), "winding numbers");
    EXPECT_LT(progress.fraction(), 0.5f);
    EXPECT_LT(stop_s, 2.0 * longest_gap_s + 0.2)
        << "reports came every " << longest_gap_s << " s at most";
}

TEST(LoadProgress, PreparationStopsWhenCancelledAndSaysSo)
{
    TetMeshDesc desc = box_lattice(glm::ivec3(4), glm::vec3(0.0f), glm::vec3(1.0f));
    desc.name = "box";
    LoadProgress progress;
    int reports = 0;
    progress.on_report = [&](float) {
        if (++reports == 2) progress.request_cancel();  // after validation
    };
    Result<TetMesh> prepared = prepare_tet_mesh(desc, &progress);
    ASSERT_FALSE(prepared.ok());
    EXPECT_EQ(prepared.error(), "loading box cancelled");
    EXPECT_EQ(reports, 2);

    LoadProgress watched;
    ASSERT_TRUE(prepare_tet_mesh(desc, &watched).ok());
    EXPECT_EQ(watched.fraction(), 1.0f);
    EXPECT_STREQ(watched.stage_name(), "preparing");
}

TEST(LoadProgress, ATetFileLoadAlsoEndsAtOne)
{
    LoadProgress progress;
    ASSERT_TRUE(prepare_body_from_file(asset_directory() + "/bunny.tet", 12, &progress).ok());
    EXPECT_EQ(progress.fraction(), 1.0f);
}

}  // namespace
