// The interpenetration statistic on small worlds of lattice cubes whose
// answers are known exactly: apart, a vertex pushed 3 mm into a neighbour,
// a cube folded through itself, a cube resting exactly on another.
#include "core/lattice.h"
#include "core/penetration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

// Several bodies in one prepared mesh, at rest, with the positions to deform.
struct World {
    TetMesh mesh;
    std::vector<uint32_t> vertex_body;
    std::vector<glm::vec3> positions;
    std::vector<std::vector<uint32_t>> mesh_vertex;  // [body][vertex in its desc]

    uint32_t vertex(uint32_t body, uint32_t desc_vertex) const
    {
        return mesh_vertex[body][desc_vertex];
    }
    PenetrationReport measure() const
    {
        return measure_penetration(mesh, vertex_body, positions);
    }
};

World world_of(const std::vector<TetMeshDesc>& bodies)
{
    TetMeshDesc all;
    all.name = "world";
    std::vector<uint32_t> body_of_source;
    for (uint32_t b = 0; b < bodies.size(); ++b) {
        const uint32_t offset = static_cast<uint32_t>(all.positions.size());
        all.positions.insert(all.positions.end(), bodies[b].positions.begin(),
                             bodies[b].positions.end());
        for (const glm::uvec4& t : bodies[b].tets) all.tets.push_back(t + offset);
        body_of_source.resize(all.positions.size(), b);
    }
    Result<TetMesh> mesh = prepare_tet_mesh(all);
    EXPECT_TRUE(mesh.ok()) << mesh.error();

    World w;
    w.mesh = std::move(mesh).value();
    w.positions = w.mesh.rest_positions;
    w.mesh_vertex.resize(bodies.size());
    for (uint32_t b = 0; b < bodies.size(); ++b) {
        w.mesh_vertex[b].assign(bodies[b].positions.size(), PenetrationReport::kNone);
    }
    std::vector<uint32_t> first_of_body(bodies.size() + 1, 0);
    for (uint32_t b = 0; b < bodies.size(); ++b) {
        first_of_body[b + 1] = first_of_body[b] + static_cast<uint32_t>(bodies[b].positions.size());
    }
    for (uint32_t v = 0; v < w.mesh.vertex_count(); ++v) {
        const uint32_t source = w.mesh.source_vertex[v];
        const uint32_t body = body_of_source[source];
        w.vertex_body.push_back(body);
        w.mesh_vertex[body][source - first_of_body[body]] = v;
    }
    return w;
}

// Index of lattice vertex (i, j, k) in a box_lattice of `cells`.
uint32_t lattice_vertex(glm::ivec3 cells, int i, int j, int k)
{
    return static_cast<uint32_t>(i + (cells.x + 1) * (j + (cells.y + 1) * k));
}

constexpr glm::ivec3 kCells{2, 2, 2};

TetMeshDesc unit_cube_at(glm::vec3 min_corner)
{
    return box_lattice(kCells, min_corner, glm::vec3(1.0f));
}

TetMeshDesc rotated_about_z(TetMeshDesc desc, float radians)
{
    const float c = std::cos(radians), s = std::sin(radians);
    for (glm::vec3& p : desc.positions) p = {c * p.x - s * p.y, s * p.x + c * p.y, p.z};
    return desc;
}

// Cube A fills [-1, 0] x [0, 1]^2; cube B starts at x = 0.5 with the vertex
// in the middle of its -x face (at y = 0.6, z = 0.7: clear of A's vertices,
// and of the faces between the tets of A's cell) moved to x = -3 mm: 3 mm
// inside A, 3 mm below A's face x = 0. -0.003f is
// -0.003 to 3e-11, far closer than the 1e-9 asked.
struct PushedVertex {
    World world;
    uint32_t body_a, body_b, pushed;
};

PushedVertex vertex_pushed_3mm_into_a(bool a_first)
{
    const TetMeshDesc a = unit_cube_at({-1.0f, 0.0f, 0.0f});
    const TetMeshDesc b = unit_cube_at({0.5f, 0.1f, 0.2f});
    PushedVertex s;
    s.body_a = a_first ? 0 : 1;
    s.body_b = 1 - s.body_a;
    s.world = a_first ? world_of({a, b}) : world_of({b, a});
    s.pushed = s.world.vertex(s.body_b, lattice_vertex(kCells, 0, 1, 1));
    EXPECT_EQ(s.world.positions[s.pushed], glm::vec3(0.5f, 0.6f, 0.7f));
    s.world.positions[s.pushed].x = -0.003f;
    return s;
}

void expect_no_penetration(const PenetrationReport& r)
{
    EXPECT_EQ(r.max_depth_m, 0.0);
    EXPECT_EQ(r.vertices_inside, 0u);
    EXPECT_EQ(r.deepest_vertex, PenetrationReport::kNone);
    EXPECT_EQ(r.body_inside, PenetrationReport::kNone);
}

}  // namespace

// Turned 45 degrees about z, the two cubes face each other across a slanted
// 1 mm gap, B shifted a quarter of a metre along it: the vertices of each
// face then lie inside the boxes of the other's tets, so a vertex in a tet's
// box is no proof of anything.
TEST(Penetration, CubesApartDoNotPenetrate)
{
    const float turn = 0.25f * 3.14159265f;
    const World w = world_of({rotated_about_z(unit_cube_at({0.0f, 0.0f, 0.0f}), turn),
                              rotated_about_z(unit_cube_at({1.001f, 0.25f, 0.0f}), turn)});
    expect_no_penetration(w.measure());
}

TEST(Penetration, VertexPushed3mmIntoAnotherBodyIs3mmDeep)
{
    const PushedVertex s = vertex_pushed_3mm_into_a(true);
    const PenetrationReport r = s.world.measure();
    EXPECT_NEAR(r.max_depth_m, 0.003, 1e-9);
    EXPECT_EQ(r.deepest_vertex, s.pushed);
    EXPECT_EQ(r.body_inside, s.body_a);
    EXPECT_EQ(r.vertices_inside, 1u);
}

TEST(Penetration, BodyOrderDoesNotChangeTheResult)
{
    const PushedVertex first = vertex_pushed_3mm_into_a(true);
    const PushedVertex second = vertex_pushed_3mm_into_a(false);
    const PenetrationReport r1 = first.world.measure(), r2 = second.world.measure();
    EXPECT_GT(r1.max_depth_m, 0.0);
    EXPECT_EQ(r1.max_depth_m, r2.max_depth_m);  // bit for bit
    EXPECT_EQ(r1.vertices_inside, r2.vertices_inside);
    EXPECT_EQ(r1.deepest_vertex, first.pushed);
    EXPECT_EQ(r2.deepest_vertex, second.pushed);
    EXPECT_EQ(r1.body_inside, first.body_a);
    EXPECT_EQ(r2.body_inside, second.body_a);
}

// A vertex on the faces between A's tets is inside them all, and no less
// inside A: pushed to y = z (the plane between two of the six tets of A's
// cell), and then onto a vertex of A's interior, 0.5 m from every face.
TEST(Penetration, VertexBetweenTetsOfAnotherBodyIsInsideIt)
{
    const TetMeshDesc a = unit_cube_at({-1.0f, 0.0f, 0.0f});
    World w = world_of({a, unit_cube_at({0.5f, 0.1f, 0.1f})});
    const uint32_t pushed = w.vertex(1, lattice_vertex(kCells, 0, 1, 1));
    ASSERT_EQ(w.positions[pushed], glm::vec3(0.5f, 0.6f, 0.6f));

    w.positions[pushed].x = -0.003f;
    PenetrationReport r = w.measure();
    EXPECT_NEAR(r.max_depth_m, 0.003, 1e-9);
    EXPECT_EQ(r.deepest_vertex, pushed);
    EXPECT_EQ(r.body_inside, 0u);
    EXPECT_EQ(r.vertices_inside, 1u);

    w.positions[pushed] = a.positions[lattice_vertex(kCells, 1, 1, 1)];
    ASSERT_EQ(w.positions[pushed], glm::vec3(-0.5f, 0.5f, 0.5f));
    r = w.measure();
    EXPECT_NEAR(r.max_depth_m, 0.5, 1e-9);
    EXPECT_EQ(r.deepest_vertex, pushed);
    EXPECT_EQ(r.body_inside, 0u);
}

// A 4 m cube of 1 m cells whose corner (0, 0, 0) is pushed through its own
// body to (2.5, 2.375, 0.75), inside a tet of cell (2, 2, 0). The way out
// that is not its own (its own triangles came along with it) is the floor
// z = 0, 0.75 m below; the cell it left is 2 m away.
TEST(Penetration, CubeFoldedThroughItselfIsAsDeepAsTheVertexIsFromItsSurface)
{
    const glm::ivec3 cells{4, 4, 4};
    World w = world_of({box_lattice(cells, glm::vec3(0.0f), glm::vec3(4.0f))});
    const uint32_t corner = w.vertex(0, lattice_vertex(cells, 0, 0, 0));
    ASSERT_EQ(w.positions[corner], glm::vec3(0.0f));
    expect_no_penetration(w.measure());

    w.positions[corner] = {2.5f, 2.375f, 0.75f};
    const PenetrationReport r = w.measure();
    EXPECT_NEAR(r.max_depth_m, 0.75, 1e-9);
    EXPECT_EQ(r.deepest_vertex, corner);
    EXPECT_EQ(r.body_inside, 0u);
    EXPECT_EQ(r.vertices_inside, 1u);
}

// A vertex of the floor of a 3 m cube, (1, 1, 0), pushed up through the top
// of the cell it is the corner of, 0.125 m into the cell above: that deep,
// the distance back to the face it crossed, not the 1.125 m to the floor.
TEST(Penetration, VertexThroughTheFarSideOfItsOwnTetsIsAsDeepAsItIsPastIt)
{
    const glm::ivec3 cells{3, 3, 3};
    World w = world_of({box_lattice(cells, glm::vec3(0.0f), glm::vec3(3.0f))});
    const uint32_t v = w.vertex(0, lattice_vertex(cells, 1, 1, 0));
    ASSERT_EQ(w.positions[v], glm::vec3(1.0f, 1.0f, 0.0f));

    w.positions[v] = {1.25f, 1.375f, 1.125f};
    const PenetrationReport r = w.measure();
    EXPECT_NEAR(r.max_depth_m, 0.125, 1e-9);
    EXPECT_EQ(r.deepest_vertex, v);
    EXPECT_EQ(r.body_inside, 0u);
    EXPECT_EQ(r.vertices_inside, 1u);
}

// Cube B rests on A's face x = 0, shifted an eighth of a metre in y and z:
// four of B's vertices lie exactly on A's face triangles and four of A's on
// B's. Touching is not penetrating; 0.1 mm further in is, and the dent that
// this makes in B's face covers three of A's vertices on that face (of the
// four under the six triangles around the pushed vertex, one is under a
// triangle that does not move), each less than 0.1 mm inside B.
TEST(Penetration, VertexExactlyOnAnotherBodysSurfaceIsNotInside)
{
    World w = world_of({unit_cube_at({-1.0f, 0.0f, 0.0f}), unit_cube_at({0.0f, 0.125f, -0.125f})});
    expect_no_penetration(w.measure());

    const uint32_t on_face = w.vertex(1, lattice_vertex(kCells, 0, 1, 1));
    ASSERT_EQ(w.positions[on_face], glm::vec3(0.0f, 0.625f, 0.375f));
    w.positions[on_face].x = -1e-4f;
    const PenetrationReport r = w.measure();
    EXPECT_NEAR(r.max_depth_m, 1e-4, 1e-9);
    EXPECT_EQ(r.deepest_vertex, on_face);
    EXPECT_EQ(r.body_inside, 0u);
    EXPECT_EQ(r.vertices_inside, 4u);
}

// A diverged vertex elsewhere neither hides the penetration nor adds one.
TEST(Penetration, NonFinitePositionsAreLeftOut)
{
    PushedVertex s = vertex_pushed_3mm_into_a(true);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    s.world.positions[s.world.vertex(s.body_a, lattice_vertex(kCells, 0, 0, 0))] = glm::vec3(nan);
    s.world.positions[s.world.vertex(s.body_b, lattice_vertex(kCells, 2, 2, 2))].y =
        std::numeric_limits<float>::infinity();
    const PenetrationReport r = s.world.measure();
    EXPECT_NEAR(r.max_depth_m, 0.003, 1e-9);
    EXPECT_EQ(r.deepest_vertex, s.pushed);
    EXPECT_EQ(r.vertices_inside, 1u);
}
