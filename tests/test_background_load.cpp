// The window's background load (app/background_load.h): it yields the same
// mesh as a load on the calling thread, refuses a second load while one
// runs, and a cancel ends it with "loading PATH cancelled".
#include "app/background_load.h"
#include "core/render_surface.h"

#include "core/bunny.h"
#include "core/presets.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace {

// Waits for the outcome as the window does, polling once per "frame".
Result<World> wait_for_outcome(BackgroundLoad& load, int* frames = nullptr)
{
    for (;;) {
        if (std::optional<Result<World>> finished = load.take_finished()) {
            return std::move(*finished);
        }
        if (frames) ++*frames;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

TEST(BackgroundLoad, GivesTheSameMeshAsALoadOnThisThread)
{
    const std::string path = asset_directory() + "/bunny.obj";
    BackgroundLoad load;
    EXPECT_FALSE(load.running());
    ASSERT_TRUE(load.start(path, 10).ok());
    EXPECT_TRUE(load.running());
    const Result<World> background = wait_for_outcome(load);
    EXPECT_FALSE(load.running());
    EXPECT_FALSE(load.take_finished().has_value()) << "the outcome is handed over once";
    ASSERT_TRUE(background.ok()) << background.error();
    EXPECT_EQ(load.fraction(), 1.0f);

    const Result<TetMesh> here = prepare_body_from_file(path, 10);
    ASSERT_TRUE(here.ok()) << here.error();
    const TetMesh& loaded = *background.value().mesh;
    EXPECT_EQ(background.value().body_count(), 1u);
    EXPECT_EQ(loaded.tets, here.value().tets);
    EXPECT_EQ(loaded.rest_positions, here.value().rest_positions);
    EXPECT_EQ(loaded.name, path);
    // With the drawn surface made there too: the OBJ's own, embedded.
    const RenderSurface* drawn = background.value().own_surface.get();
    ASSERT_NE(drawn, nullptr);
    const RenderSurface again = build_render_surface(background.value(), DrawnSurface::own);
    EXPECT_EQ(drawn->triangles, again.triangles);
    EXPECT_EQ(drawn->weights, again.weights);
    EXPECT_EQ(drawn->triangles.size(), background.value().bodies[0].skin->triangles.size());
}

TEST(BackgroundLoad, RefusesASecondLoadAndCancelsTheFirst)
{
    const std::string path = asset_directory() + "/bunny.obj";
    BackgroundLoad load;
    ASSERT_TRUE(load.start(path, 24).ok());
    const Result<bool> second = load.start(asset_directory() + "/bunny.tet", 12);
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.error().find("already loading " + path), std::string::npos)
        << second.error();
    EXPECT_EQ(load.path(), path);

    load.cancel();
    const Result<World> outcome = wait_for_outcome(load);
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.error(), "loading " + path + " cancelled");

    // Free again once the outcome is taken.
    ASSERT_TRUE(load.start(asset_directory() + "/bunny.tet", 12).ok());
    EXPECT_TRUE(wait_for_outcome(load).ok());
}

TEST(BackgroundLoad, TheCallerKeepsGoingWhileItLoads)
{
    BackgroundLoad load;
    ASSERT_TRUE(load.start(asset_directory() + "/bunny.obj", 16).ok());
    int frames = 0;
    const Result<World> outcome = wait_for_outcome(load, &frames);
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    // A load of a few hundred milliseconds at least: many polls came back
    // while it ran, none blocked until the end.
    EXPECT_GT(frames, 10);
}

TEST(BackgroundLoad, DestroyingItDuringALoadCancelsAndWaits)
{
    const auto start = std::chrono::steady_clock::now();
    {
        BackgroundLoad load;
        ASSERT_TRUE(load.start(asset_directory() + "/bunny.obj", 40).ok());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    // A full load at 40 cells takes about a minute on two cores; the cancel
    // is seen at the next chunk of winding numbers.
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(s, 15.0);
}

}  // namespace
