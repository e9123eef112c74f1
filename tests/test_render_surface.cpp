// The drawn surface: an OBJ's own surface embedded in the tets, crease
// splitting, and the stress the strain view shows.
#include "core/render_surface.h"
#include "core/static_equilibrium.h"
#include "core/stress_math.h"

#include "test_support.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <set>

namespace {

std::shared_ptr<const World> preset_world(PresetId id)
{
    return single_body_world(preset_mesh(id));
}

// Largest distance between the drawn surface at the rest positions and the
// body's own surface as placed.
float embedding_error(const World& world, const RenderSurface& surface)
{
    std::vector<glm::vec3> drawn;
    skin_positions(surface, world.mesh->rest_positions, drawn);
    // Splitting copies vertices in their order, body after body: map each
    // drawn vertex back to its skin vertex through the triangles.
    float worst = 0.0f;
    size_t first_triangle = 0;
    for (const WorldBody& body : world.bodies) {
        const SurfaceMesh& skin = *body.skin;
        for (size_t f = 0; f < skin.triangles.size(); ++f) {
            for (int a = 0; a < 3; ++a) {
                const glm::vec3 want = skin.positions[skin.triangles[f][a]];
                const glm::vec3 got = drawn[surface.triangles[first_triangle + f][a]];
                worst = std::max(worst, glm::length(want - got));
            }
        }
        first_triangle += skin.triangles.size();
    }
    return worst;
}

float von_mises(const glm::mat3& F, float youngs, float poisson)
{
    const LameParameters lame = lame_parameters(youngs, poisson);
    return tet_math::tm_von_mises_pa(F, lame.mu_pa, lame.lambda_pa);
}

}  // namespace

TEST(RenderSurface, BunnyDrawsItsScannedSurfaceWhereItLies)
{
    const std::shared_ptr<const World> world = preset_world(PresetId::bunny);
    ASSERT_TRUE(world->bodies[0].skin);
    const SurfaceMesh& skin = *world->bodies[0].skin;
    EXPECT_EQ(skin.triangles.size(), 3674u);  // assets/bunny.obj
    const RenderSurface surface = build_render_surface(*world, DrawnSurface::own);
    EXPECT_EQ(surface.triangles.size(), skin.triangles.size());
    // Barycentric weights reproduce every point, inside a tet or not.
    EXPECT_LT(embedding_error(*world, surface), 2e-6f);
    // The tets hold 97% of the surface's volume: most of the surface lies
    // just outside them (the tetrahedralizer cuts a little inside it), and
    // the ear tips up to 85 mm beyond. Those follow a nearby tet extended,
    // never more than two of its own sizes away (weights above -2).
    const double tet_edge_m =
        world->mesh->mean_surface_edge_m(0, world->mesh->surface_triangles.size());
    std::printf("bunny: %zu of %zu surface vertices outside the tets, at most %.1f mm "
                "(tet edges %.1f mm); %zu drawn vertices\n",
                surface.vertices_outside_tets, skin.positions.size(),
                1e3 * surface.farthest_outside_m, 1e3 * tet_edge_m, surface.vertex_count());
    EXPECT_LT(surface.farthest_outside_m, 3.0 * tet_edge_m);
    for (const glm::vec4& w : surface.weights) {
        EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
        EXPECT_GT(std::min(std::min(w.x, w.y), std::min(w.z, w.w)), -2.0f);
    }
}

TEST(RenderSurface, TetBoundaryIsTheSolversSurface)
{
    const std::shared_ptr<const World> world = preset_world(PresetId::bunny);
    const RenderSurface surface = build_render_surface(*world, DrawnSurface::tets);
    EXPECT_EQ(surface.triangles.size(), world->mesh->surface_triangles.size());
    std::vector<glm::vec3> drawn;
    skin_positions(surface, world->mesh->rest_positions, drawn);
    for (size_t f = 0; f < surface.triangles.size(); ++f) {
        for (int a = 0; a < 3; ++a) {
            EXPECT_EQ(drawn[surface.triangles[f][a]],
                      world->mesh->rest_positions[world->mesh->surface_triangles[f][a]]);
        }
    }
}

TEST(RenderSurface, CubeEdgesAreSplitAndItsFacesFlat)
{
    const std::shared_ptr<const World> world = preset_world(PresetId::cube);
    const RenderSurface surface = build_render_surface(*world, DrawnSurface::own);
    // 6 x 6 x 6 cells: 7^3 - 5^3 = 218 surface vertices; the 12 edges' 60
    // inner vertices get a second copy, the 8 corners two more each.
    EXPECT_EQ(surface.vertex_count(), 218u + 60u + 16u);
    std::vector<glm::vec3> drawn;
    std::vector<glm::vec3> normals;
    skin_positions(surface, world->mesh->rest_positions, drawn);
    skin_normals(surface, drawn, normals);
    // The preset is tilted: every normal is one of the six face normals.
    std::set<std::tuple<int, int, int>> directions;
    for (size_t v = 0; v < normals.size(); ++v) {
        const glm::ivec3 rounded(glm::round(normals[v] * 1000.0f));
        directions.insert({rounded.x, rounded.y, rounded.z});
    }
    EXPECT_EQ(directions.size(), 6u);
}

TEST(RenderSurface, SmoothBodiesKeepTheirVerticesWhole)
{
    // The bunny's scan bends by less than the crease angle almost everywhere.
    const std::shared_ptr<const World> world = preset_world(PresetId::bunny);
    const RenderSurface surface = build_render_surface(*world, DrawnSurface::own);
    const size_t skin_vertices = world->bodies[0].skin->positions.size();
    EXPECT_LT(surface.vertex_count(), skin_vertices + skin_vertices / 20);
    // A crease angle of 180 degrees splits nothing.
    const RenderSurface whole = build_render_surface(*world, DrawnSurface::own, 180.0f);
    EXPECT_EQ(whole.vertex_count(), skin_vertices);
}

TEST(RenderSurface, NormalsTurnWithTheBody)
{
    const std::shared_ptr<const World> world = preset_world(PresetId::bunny);
    const RenderSurface surface = build_render_surface(*world, DrawnSurface::own);
    const glm::mat3 turn(glm::rotate(glm::mat4(1.0f), 1.1f, glm::normalize(glm::vec3(1, 2, 3))));
    std::vector<glm::vec3> turned = world->mesh->rest_positions;
    for (glm::vec3& p : turned) p = turn * p;
    std::vector<glm::vec3> drawn, normals, drawn_turned, normals_turned;
    skin_positions(surface, world->mesh->rest_positions, drawn);
    skin_normals(surface, drawn, normals);
    skin_positions(surface, turned, drawn_turned);
    skin_normals(surface, drawn_turned, normals_turned);
    for (size_t v = 0; v < normals.size(); ++v) {
        EXPECT_NEAR(glm::length(normals_turned[v] - turn * normals[v]), 0.0f, 1e-4f) << v;
        EXPECT_NEAR(glm::length(drawn_turned[v] - turn * drawn[v]), 0.0f, 1e-5f) << v;
    }
}

TEST(RenderSurface, PlacedSceneBodiesCarryTheirSurface)
{
    Result<TetMeshDesc> bunny = make_preset_mesh(PresetId::bunny);
    ASSERT_TRUE(bunny.ok()) << bunny.error();
    WorldDesc desc;
    desc.name = "two bunnies";
    for (int i = 0; i < 2; ++i) {
        BodyDesc body;
        body.mesh = bunny.value();
        body.position_m = glm::vec3(1.5f * i, 1.0f, 0.0f);
        body.rotation_deg = glm::vec3(30.0f * i, 90.0f * i, 0.0f);
        desc.bodies.push_back(body);
    }
    Result<World> world = assemble_world(desc);
    ASSERT_TRUE(world.ok()) << world.error();
    const RenderSurface surface = build_render_surface(world.value(), DrawnSurface::own);
    EXPECT_LT(embedding_error(world.value(), surface), 4e-6f);
    EXPECT_EQ(surface.body.front(), 0u);
    EXPECT_EQ(surface.body.back(), 1u);
    // Rebuilt with a body less, the kept one keeps its surface where it was.
    std::vector<BodyDesc> placed = placed_body_descs(world.value());
    ASSERT_TRUE(placed[1].mesh.skin);
    WorldDesc again = world_desc_without_bodies(world.value());
    again.bodies = {placed[1]};
    Result<World> rebuilt = assemble_world(again);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error();
    EXPECT_EQ(rebuilt.value().bodies[0].skin->positions, world.value().bodies[1].skin->positions);
}

TEST(StressMath, NoStressForAnyRotation)
{
    const glm::mat3 turn(glm::rotate(glm::mat4(1.0f), 2.0f, glm::normalize(glm::vec3(3, 1, 2))));
    // Float rounding in the SVD: well under 1e-6 of E.
    EXPECT_LT(von_mises(glm::mat3(1.0f), 1e6f, 0.3f), 1.0f);
    EXPECT_LT(von_mises(turn, 1e6f, 0.3f), 1.0f);
}

TEST(StressMath, SmallPullIsYoungsModulusTimesStrain)
{
    glm::mat3 F(1.0f);
    F[0][0] = 1.001f;
    EXPECT_NEAR(von_mises(F, 1e6f, 0.0f), 1000.0f, 2.0f);
    // A turned pull is the same pull.
    const glm::mat3 turn(glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(0, 0, 1)));
    EXPECT_NEAR(von_mises(turn * F, 1e6f, 0.0f), 1000.0f, 2.0f);
}

TEST(StressMath, SmallShearIsRootThreeTimesShearStress)
{
    // Simple shear gamma: shear stress mu gamma, von Mises sqrt(3) mu gamma.
    glm::mat3 F(1.0f);
    F[1][0] = 0.002f;
    const LameParameters lame = lame_parameters(1e6f, 0.3f);
    EXPECT_NEAR(von_mises(F, 1e6f, 0.3f), std::sqrt(3.0f) * lame.mu_pa * 0.002f,
                0.01f * lame.mu_pa * 0.002f);
}

TEST(StressMath, EvenSqueezeHasNoVonMisesStress)
{
    EXPECT_LT(von_mises(glm::mat3(0.9f), 1e6f, 0.3f), 1e-2f * 1e6f * 1e-4f);
}

TEST(StressMath, BentBeamFollowsBeamTheory)
{
    // The beam preset (1.2 x 0.4 x 0.4 m, 1 MPa, 1000 kg/m^3) at its exact
    // static equilibrium: the mean stress of the top layer of tets in each
    // column against Euler-Bernoulli's M y / I at the layer's middle
    // (y = 0.15 m). The mesh is about 14% stiffer in bending than the beam
    // theory (its tip sags 164 mm, not 190 mm), and it reads that much less
    // stress; near the pinned face the clamp reads less again.
    const std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    Result<StaticEquilibrium> equilibrium = solve_static_equilibrium(*mesh, StaticLoad{});
    ASSERT_TRUE(equilibrium.ok()) << equilibrium.error();
    const LameParameters lame = lame_parameters(1e6f, 0.3f);
    const double weight_n_per_m = 1000.0 * 9.81 * 0.4 * 0.4;
    const double second_moment_m4 = 0.4 * std::pow(0.4, 3) / 12.0;
    for (int column = 3; column < 8; ++column) {
        const double from_wall_m = 0.1 * column + 0.05;
        double sum_pa = 0.0;
        int tets = 0;
        for (size_t t = 0; t < mesh->tet_count(); ++t) {
            const glm::uvec4 c = mesh->tets[t];
            glm::vec3 centre(0.0f), x[4];
            for (int a = 0; a < 4; ++a) {
                centre += 0.25f * mesh->rest_positions[c[a]];
                x[a] = glm::vec3(equilibrium.value().positions_m[c[a]]);
            }
            if (std::abs(centre.x + 0.6f - static_cast<float>(from_wall_m)) > 0.05f ||
                centre.y < 1.3f) {
                continue;  // another column, or below the top layer
            }
            const glm::mat3 F = tet_math::tm_deformation_gradient(x[0], x[1], x[2], x[3],
                                                                  inv_rest_shape(*mesh, t));
            sum_pa += tet_math::tm_von_mises_pa(F, lame.mu_pa, lame.lambda_pa);
            ++tets;
        }
        ASSERT_GT(tets, 0);
        const double arm_m = 1.2 - from_wall_m;
        const double theory_pa = weight_n_per_m * arm_m * arm_m / 2.0 * 0.15 / second_moment_m4;
        const double ratio = sum_pa / tets / theory_pa;
        std::printf("beam column %.2f m from the wall: %.1f kPa, beam theory %.1f kPa (%.3f)\n",
                    from_wall_m, sum_pa / tets / 1e3, theory_pa / 1e3, ratio);
        EXPECT_GT(ratio, 0.8);
        EXPECT_LT(ratio, 1.0);
    }
}

TEST(RenderSurface, SurfaceFarOutsideItsTetsFallsBackToTheTets)
{
    const std::shared_ptr<const World> bunny = preset_world(PresetId::bunny);
    // A stray triangle 10 m away: extended from the nearest tet it would fly
    // about; the body is drawn as its tets instead, and said so.
    World world = *bunny;
    auto skin = std::make_shared<SurfaceMesh>(*world.bodies[0].skin);
    const uint32_t first = static_cast<uint32_t>(skin->positions.size());
    for (const glm::vec3 corner : {glm::vec3(10, 0, 0), glm::vec3(10, 1, 0), glm::vec3(10, 0, 1)}) {
        skin->positions.push_back(corner);
    }
    skin->triangles.push_back({first, first + 1, first + 2});
    world.bodies[0].skin = skin;
    const RenderSurface surface = build_render_surface(world, DrawnSurface::own);
    EXPECT_EQ(surface.tets_instead, std::vector<uint32_t>{0});
    EXPECT_EQ(surface.triangles.size(), world.mesh->surface_triangles.size());
    EXPECT_NE(render_surface_note(world, surface).find("bunny"), std::string::npos);
    // An unused far vertex, or a non-finite one, is harmless.
    skin->triangles.pop_back();
    skin->positions.push_back(glm::vec3(INFINITY));
    const RenderSurface kept = build_render_surface(world, DrawnSurface::own);
    EXPECT_TRUE(kept.tets_instead.empty());
    EXPECT_EQ(kept.triangles.size(), bunny->bodies[0].skin->triangles.size());
}

TEST(RenderSurface, AFanOfSliversIsDrawnUnsplit)
{
    // 2,000 triangles around one vertex, alternately folded: the crease
    // test would compare every pair; past 64 the vertex stays whole.
    Result<TetMeshDesc> cube = make_preset_mesh(PresetId::cube);
    ASSERT_TRUE(cube.ok());
    auto fan = std::make_shared<SurfaceMesh>();
    fan->positions.push_back(glm::vec3(0.0f, 0.8f, 0.0f));
    const int blades = 2000;
    for (int i = 0; i <= blades; ++i) {
        const float a = 6.2831853f * i / blades;
        const float lift = (i % 2) ? 0.05f : -0.05f;
        fan->positions.push_back(glm::vec3(0.2f * std::cos(a), 0.8f + lift, 0.2f * std::sin(a)));
    }
    for (uint32_t i = 1; i <= static_cast<uint32_t>(blades); ++i) {
        fan->triangles.push_back({0u, i + 1, i});
    }
    cube.value().skin = fan;
    const std::shared_ptr<const World> world = single_body_world(prepare_or_fail(cube.value()));
    const RenderSurface surface = build_render_surface(*world, DrawnSurface::own);
    ASSERT_TRUE(surface.tets_instead.empty());
    size_t centre_copies = 0;
    std::vector<glm::vec3> drawn;
    skin_positions(surface, world->mesh->rest_positions, drawn);
    for (const glm::vec3& p : drawn) {
        centre_copies += glm::length(p - glm::vec3(0.0f, 0.8f, 0.0f)) < 1e-5f ? 1 : 0;
    }
    EXPECT_EQ(centre_copies, 1u);
}
