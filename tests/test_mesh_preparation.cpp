// Mesh preparation (DESIGN.md section 1): orientation, rest data, masses,
// the boundary surface, adjacency, and refusal of bad meshes.
#include "test_support.h"

#include "core/material.h"

#include <cmath>
#include <map>
#include <set>

namespace {

// One unit right-angle tet, deliberately given in negative orientation.
TetMeshDesc single_inverted_tet()
{
    TetMeshDesc desc;
    desc.name = "single";
    desc.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    desc.tets = {{0, 2, 1, 3}};
    return desc;
}

// Every edge of a closed, consistently oriented surface is used exactly
// once in each direction.
void expect_closed_manifold(const TetMesh& mesh)
{
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    for (const glm::uvec3& f : mesh.surface_triangles) {
        for (int a = 0; a < 3; ++a) {
            ++directed[{f[a], f[(a + 1) % 3]}];
        }
    }
    for (const auto& [edge, count] : directed) {
        EXPECT_EQ(count, 1) << "edge " << edge.first << "-" << edge.second << " used " << count
                            << " times in one direction";
        auto twin = directed.find({edge.second, edge.first});
        EXPECT_TRUE(twin != directed.end() && twin->second == 1)
            << "edge " << edge.first << "-" << edge.second << " has no opposite twin";
    }
}

// Outward orientation: the divergence theorem gives the enclosed volume
// as sum over faces of (x0 . (x1 x x2)) / 6, positive for outward faces.
double enclosed_volume(const TetMesh& mesh)
{
    double volume = 0.0;
    for (const glm::uvec3& f : mesh.surface_triangles) {
        const glm::dvec3 a(mesh.rest_positions[f.x]), b(mesh.rest_positions[f.y]),
            c(mesh.rest_positions[f.z]);
        volume += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return volume;
}

}  // namespace

TEST(MeshPreparation, FixesOrientationAndComputesRestData)
{
    Result<TetMesh> result = prepare_tet_mesh(single_inverted_tet());
    ASSERT_TRUE(result.ok()) << result.error();
    const TetMesh& mesh = result.value();
    ASSERT_EQ(mesh.tet_count(), 1u);
    // The last two indices are swapped: {0, 2, 3, 1}.
    EXPECT_EQ(mesh.tets[0], glm::uvec4(0, 2, 3, 1));
    EXPECT_NEAR(mesh.rest_volumes_m3[0], 1.0f / 6.0f, 1e-7f);
    // B = Dm^-1: B * Dm = I.
    const glm::vec3 x0 = mesh.rest_positions[0];
    const glm::mat3 Dm(mesh.rest_positions[2] - x0, mesh.rest_positions[3] - x0,
                       mesh.rest_positions[1] - x0);
    const glm::mat3 product = inv_rest_shape(mesh, 0) * Dm;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(product[c][r], c == r ? 1.0f : 0.0f, 1e-6f);
    EXPECT_EQ(mesh.surface_triangles.size(), 4u);
    expect_closed_manifold(mesh);
    EXPECT_NEAR(enclosed_volume(mesh), 1.0 / 6.0, 1e-7);
}

TEST(MeshPreparation, PresetsHaveTheSeedCountsAndAClosedOutwardSurface)
{
    struct Expected {
        PresetId id;
        size_t vertices;
        size_t tets;
    };
    for (const Expected& e : {Expected{PresetId::cube, 343, 1296},
                              Expected{PresetId::torus, 600, 2304},
                              Expected{PresetId::beam, 325, 1152}}) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(e.id);
        SCOPED_TRACE(mesh->name);
        EXPECT_EQ(mesh->vertex_count(), e.vertices);
        EXPECT_EQ(mesh->tet_count(), e.tets);
        EXPECT_EQ(mesh->dropped_degenerate_tets, 0u);
        expect_closed_manifold(*mesh);
        // Outward faces enclose exactly the tets' volume.
        EXPECT_NEAR(enclosed_volume(*mesh), mesh->total_rest_volume_m3(),
                    1e-5 * mesh->total_rest_volume_m3());
        // Above the ground.
        for (const glm::vec3& p : mesh->rest_positions) {
            EXPECT_GT(p.y, 0.0f);
        }
    }
}

TEST(MeshPreparation, TorusHasTheGenusOneSurface)
{
    // Euler characteristic V - E + F = 0 for a torus.
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::torus);
    std::set<uint32_t> vertices;
    std::set<std::pair<uint32_t, uint32_t>> edges;
    for (const glm::uvec3& f : mesh->surface_triangles) {
        for (int a = 0; a < 3; ++a) {
            vertices.insert(f[a]);
            edges.insert({std::min(f[a], f[(a + 1) % 3]), std::max(f[a], f[(a + 1) % 3])});
        }
    }
    const long euler = static_cast<long>(vertices.size()) - static_cast<long>(edges.size()) +
                       static_cast<long>(mesh->surface_triangles.size());
    EXPECT_EQ(euler, 0);
}

TEST(MeshPreparation, LumpedMassesSumToDensityTimesVolume)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::cube);
    const float density = 1000.0f;
    double mass = 0.0;
    for (float volume : mesh->lumped_volumes_m3) {
        mass += density * volume;
    }
    // 0.5 m cube: 125 kg.
    EXPECT_NEAR(mass, density * mesh->total_rest_volume_m3(), 1e-3);
    EXPECT_NEAR(mass, 125.0, 1e-3);
    const std::vector<float> w = inverse_masses(*mesh, density);
    for (size_t v = 0; v < w.size(); ++v) {
        EXPECT_NEAR(w[v], 1.0f / (density * mesh->lumped_volumes_m3[v]), 1e-3f * w[v]);
    }
}

TEST(MeshPreparation, PinnedVerticesHaveZeroInverseMass)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::beam);
    const std::vector<float> w = inverse_masses(*mesh, 1000.0f);
    size_t pinned = 0;
    for (size_t v = 0; v < w.size(); ++v) {
        const bool on_left_face = mesh->rest_positions[v].x < -0.6f + 1e-4f;
        EXPECT_EQ(mesh->pinned[v] != 0, on_left_face);
        EXPECT_EQ(w[v] == 0.0f, on_left_face);
        pinned += mesh->pinned[v];
    }
    EXPECT_EQ(pinned, 25u);  // the 5 x 5 vertices of the left face
}

TEST(MeshPreparation, AdjacencyListsEveryCornerOnceInOrder)
{
    std::shared_ptr<const TetMesh> mesh = preset_mesh(PresetId::torus);
    const Csr csr = vertex_tet_corners(*mesh);
    ASSERT_EQ(csr.rows(), mesh->vertex_count());
    ASSERT_EQ(csr.entries.size(), mesh->tet_count() * 4);
    std::vector<int> seen(csr.entries.size(), 0);
    for (size_t v = 0; v < csr.rows(); ++v) {
        uint32_t previous = 0;
        for (uint32_t s = csr.begin(v); s < csr.end(v); ++s) {
            const uint32_t slot = csr.entries[s];
            EXPECT_EQ(mesh->tets[slot / 4][slot % 4], v);
            EXPECT_TRUE(s == csr.begin(v) || slot > previous) << "slots out of order";
            previous = slot;
            ++seen[slot];
        }
    }
    for (int count : seen) {
        EXPECT_EQ(count, 1);
    }
    // Surface adjacency: each triangle listed under its three corners.
    const Csr& faces = mesh->vertex_triangles;
    size_t listed = 0;
    for (size_t v = 0; v < faces.rows(); ++v) {
        for (uint32_t s = faces.begin(v); s < faces.end(v); ++s) {
            const glm::uvec3& f = mesh->surface_triangles[faces.entries[s]];
            EXPECT_TRUE(f.x == v || f.y == v || f.z == v);
            ++listed;
        }
    }
    EXPECT_EQ(listed, mesh->surface_triangles.size() * 3);
}

TEST(MeshPreparation, JacobiWeightFollowsValence)
{
    EXPECT_FLOAT_EQ(jacobi_weight(1.8f, 6.0f), 0.3f);
    EXPECT_FLOAT_EQ(jacobi_weight(1.8f, 2.0f), 0.5f);    // clamped above
    EXPECT_FLOAT_EQ(jacobi_weight(1.8f, 100.0f), 0.08f); // clamped below
}

TEST(MeshPreparation, MaxCornerValenceCountsTheTetsAtEachCorner)
{
    Result<TetMesh> prepared = prepare_tet_mesh(box_lattice({3, 2, 2}, {0, 0, 0}, {1, 1, 1}));
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    const TetMesh& mesh = prepared.value();
    std::vector<uint32_t> tets_at(mesh.vertex_count(), 0u);
    for (const glm::uvec4& tet : mesh.tets) {
        for (int a = 0; a < 4; ++a) ++tets_at[tet[a]];
    }
    const Csr corners = vertex_tet_corners(mesh);
    float largest = 0.0f;
    for (size_t t = 0; t < mesh.tet_count(); ++t) {
        const glm::uvec4& tet = mesh.tets[t];
        const uint32_t expected = std::max(std::max(tets_at[tet.x], tets_at[tet.y]),
                                           std::max(tets_at[tet.z], tets_at[tet.w]));
        const float valence = max_corner_valence(corners, tet);
        ASSERT_EQ(valence, static_cast<float>(expected)) << "tet " << t;
        largest = std::max(largest, valence);
    }
    EXPECT_GT(largest, 4.0f);  // an interior vertex of the lattice has many tets
}

TEST(MeshPreparation, DropsDegenerateTetsAndUnusedVertices)
{
    TetMeshDesc desc = single_inverted_tet();
    desc.positions.push_back({2, 0, 0});  // used only by a flat tet
    desc.positions.push_back({5, 5, 5});  // used by nothing
    desc.tets.push_back({1, 4, 2, 3});  // a valid second tet
    desc.tets.push_back({0, 1, 4, 2});  // flat: 0, 1, 4 are collinear
    Result<TetMesh> result = prepare_tet_mesh(desc);
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_EQ(result.value().dropped_degenerate_tets, 1u);
    EXPECT_EQ(result.value().tet_count(), 2u);
    EXPECT_EQ(result.value().vertex_count(), 5u);  // (5, 5, 5) removed
}

TEST(MeshPreparation, RefusesBadMeshesWithAMessage)
{
    struct Bad {
        const char* what;
        TetMeshDesc desc;
        const char* message_part;
    };
    std::vector<Bad> cases;
    {
        TetMeshDesc d = single_inverted_tet();
        d.tets[0].w = 7;
        cases.push_back({"index out of range", d, "out of range"});
    }
    {
        TetMeshDesc d = single_inverted_tet();
        d.tets[0] = {0, 1, 1, 3};
        cases.push_back({"repeated index", d, "repeats vertex 1"});
    }
    {
        TetMeshDesc d = single_inverted_tet();
        d.positions[2].y = NAN;
        cases.push_back({"NaN coordinate", d, "non-finite"});
    }
    {
        TetMeshDesc d = single_inverted_tet();
        d.positions[3] = {0.5f, 0.5f, 0.0f};  // all four in the plane z = 0
        cases.push_back({"all degenerate", d, "degenerate"});
    }
    {
        TetMeshDesc d = single_inverted_tet();
        d.tets.clear();
        cases.push_back({"no tets", d, "no tetrahedra"});
    }
    {
        TetMeshDesc d;
        d.name = "empty";
        cases.push_back({"empty", d, "no vertices"});
    }
    for (const Bad& bad : cases) {
        Result<TetMesh> result = prepare_tet_mesh(bad.desc);
        EXPECT_FALSE(result.ok()) << bad.what;
        EXPECT_NE(result.error().find(bad.message_part), std::string::npos)
            << bad.what << ": '" << result.error() << "'";
        EXPECT_NE(result.error().find("mesh '"), std::string::npos) << "message names the mesh";
    }
}

TEST(Material, LameParametersAndCompliances)
{
    const LameParameters lame = lame_parameters(1.0e6f, 0.25f);
    EXPECT_NEAR(lame.mu_pa, 4.0e5f, 1.0f);
    EXPECT_NEAR(lame.lambda_pa, 4.0e5f, 1.0f);
    EXPECT_NEAR(arap_compliance(lame, 0.5f), 1.0f / (2.0f * 4.0e5f * 0.5f), 1e-12f);
    EXPECT_NEAR(volume_compliance(lame, 0.5f), 1.0f / (4.0e5f * 0.5f), 1e-12f);
    EXPECT_TRUE(volume_constraint_enabled(lame));
    const LameParameters no_volume = lame_parameters(1.0e6f, 0.0f);
    EXPECT_FLOAT_EQ(no_volume.mu_pa, 5.0e5f);
    EXPECT_FALSE(volume_constraint_enabled(no_volume));
}
