// A mesh file's body added to the running world (app/added_body.h and the
// window's load for it, app/window_loads.h): loaded in the background for
// that purpose, set down above the camera's focus, at rest, with the
// material it is given; a scene file is refused.
#include "app/added_body.h"
#include "app/scene_file.h"
#include "app/window_loads.h"

#include "core/bunny.h"
#include "core/presets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace {

// Polls as the window does, once per "frame", until the load has ended
// (a failure after two minutes).
Result<World> wait_for_load(WindowLoads& loads, PanelState& panel)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (std::chrono::steady_clock::now() < deadline) {
        if (std::optional<Result<World>> finished = loads.poll(panel)) {
            return std::move(*finished);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return Result<World>::failure("the load did not end within two minutes");
}

float lowest_y(const std::vector<glm::vec3>& positions)
{
    float y = positions.front().y;
    for (const glm::vec3& p : positions) y = std::min(y, p.y);
    return y;
}

TEST(AddedBody, AFileLoadedToBeAddedIsSetDownAboveTheFocus)
{
    const std::string path = asset_directory() + "/bunny.obj";
    WindowLoads loads;
    PanelState panel;
    loads.request(path, 8, LoadPurpose::add_to_world, panel);
    // A Load asked for meanwhile is refused, and the running load is still
    // one to add.
    loads.request(asset_directory() + "/bunny.tet", 8, LoadPurpose::replace_world, panel);
    EXPECT_NE(panel.load_error.find("already loading"), std::string::npos) << panel.load_error;
    Result<World> loaded = wait_for_load(loads, panel);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loads.purpose(), LoadPurpose::add_to_world);
    EXPECT_EQ(loads.path(), path);
    EXPECT_EQ(loaded.value().mesh->name, path);
    EXPECT_TRUE(panel.load_error.empty()) << panel.load_error;  // cleared by the outcome

    const glm::vec3 focus(2.0f, 0.3f, -1.0f);
    const BodyMaterial material{4.0e5f, 0.25f, 900.0f};
    Result<BodyDesc> body = body_to_add(loaded.value(), focus, material);
    ASSERT_TRUE(body.ok()) << body.error();
    EXPECT_EQ(body.value().material, material);
    EXPECT_EQ(body.value().velocity_m_s, glm::vec3(0.0f));
    EXPECT_EQ(body.value().angular_velocity_rad_s, glm::vec3(0.0f));
    ASSERT_NE(body.value().mesh.skin, nullptr) << "the OBJ's own surface comes along";

    // Beside a cube already in the world: the bunny's lowest point 1 m above
    // the focus, its volume's centre straight above the focus.
    WorldDesc desc;
    BodyDesc cube;
    cube.mesh = make_preset_mesh(PresetId::cube, PresetPose::upright).value();
    desc.bodies = {std::move(cube), std::move(body).value()};
    Result<World> world = assemble_world(desc);
    ASSERT_TRUE(world.ok()) << world.error();
    const WorldBody& added = world.value().bodies[1];
    const std::vector<glm::vec3> rest(
        world.value().mesh->rest_positions.begin() + added.first_vertex,
        world.value().mesh->rest_positions.begin() + added.first_vertex + added.vertex_count);
    EXPECT_NEAR(lowest_y(rest), focus.y + kAddedBodyDropHeight_m, 1e-4f);
    TetMeshDesc placed;
    placed.positions = rest;
    for (size_t t = 0; t < world.value().mesh->tet_count(); ++t) {
        const glm::uvec4 tet = world.value().mesh->tets[t];
        if (tet.x >= added.first_vertex) placed.tets.push_back(tet - glm::uvec4(added.first_vertex));
    }
    const glm::dvec3 centre = volume_centroid(placed);
    EXPECT_NEAR(centre.x, focus.x, 1e-4);
    EXPECT_NEAR(centre.z, focus.z, 1e-4);
}

TEST(AddedBody, ItsPinsAreLetGoSoThatItFalls)
{
    const std::shared_ptr<const World> beam = single_body_world(std::make_shared<const TetMesh>(
        prepare_tet_mesh(make_preset_mesh(PresetId::beam, PresetPose::upright).value()).value()));
    const auto pins = [](const TetMesh& mesh) {
        return std::count(mesh.pinned.begin(), mesh.pinned.end(), uint8_t{1});
    };
    ASSERT_GT(pins(*beam->mesh), 0);
    Result<BodyDesc> body = body_to_add(*beam, glm::vec3(0.0f), BodyMaterial{});
    ASSERT_TRUE(body.ok()) << body.error();
    Result<World> placed = assemble_world(WorldDesc{"", {std::move(body).value()}, {}, {}, {}});
    ASSERT_TRUE(placed.ok()) << placed.error();
    EXPECT_EQ(pins(*placed.value().mesh), 0);
}

TEST(AddedBody, BelowTheGroundTheFocusCountsAsTheGround)
{
    const std::shared_ptr<const World> world = single_body_world(std::make_shared<const TetMesh>(
        prepare_tet_mesh(make_preset_mesh(PresetId::cube, PresetPose::upright).value()).value()));
    Result<BodyDesc> body = body_to_add(*world, glm::vec3(0.0f, -3.0f, 0.0f), BodyMaterial{});
    ASSERT_TRUE(body.ok()) << body.error();
    Result<World> placed = assemble_world(WorldDesc{"", {std::move(body).value()}, {}, {}, {}});
    ASSERT_TRUE(placed.ok()) << placed.error();
    EXPECT_NEAR(lowest_y(placed.value().mesh->rest_positions), kAddedBodyDropHeight_m, 1e-4f);
}

TEST(AddedBody, ASceneIsLoadedNotAdded)
{
    // Refused at once, without loading it.
    WindowLoads loads;
    PanelState panel;
    loads.request(asset_directory() + "/scenes/example.json", 8, LoadPurpose::add_to_world,
                  panel);
    EXPECT_FALSE(loads.poll(panel).has_value()) << "nothing was loaded";
    EXPECT_NE(panel.load_error.find("scene file"), std::string::npos) << panel.load_error;
    // And a scene's world, however it came, is not made a body.
    Result<World> stack = load_scene_world("stack", kDefaultMeshResolution);
    ASSERT_TRUE(stack.ok()) << stack.error();
    Result<BodyDesc> body = body_to_add(stack.value(), glm::vec3(0.0f), BodyMaterial{});
    ASSERT_FALSE(body.ok());
    EXPECT_NE(body.error().find("scene file"), std::string::npos) << body.error();
}

}  // namespace
