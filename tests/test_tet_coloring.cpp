// Tet colouring and the refusal of pathological meshes: repeated tets are
// dropped, a vertex shared by thousands of tets is coloured quickly (one
// colour per tet there), more than kMaxTetColors is refused, and the
// presets' colourings are valid and no larger than the plain greedy one.
#include "test_support.h"

#include "core/tet_coloring.h"

#include <glm/gtc/constants.hpp>

#include <chrono>
#include <cstdio>
#include <set>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every tet has exactly one colour, and no two tets of a colour share a
// vertex.
void expect_valid_coloring(const Csr& colors, const std::vector<glm::uvec4>& tets,
                           size_t vertex_count)
{
    ASSERT_EQ(colors.entries.size(), tets.size());
    std::vector<int> seen(tets.size(), 0);
    std::vector<uint32_t> color_at_vertex(vertex_count, UINT32_MAX);
    for (uint32_t c = 0; c < colors.rows(); ++c) {
        EXPECT_LT(colors.begin(c), colors.end(c)) << "colour " << c << " is empty";
        for (uint32_t i = colors.begin(c); i < colors.end(c); ++i) {
            const uint32_t t = colors.entries[i];
            ASSERT_LT(t, tets.size());
            ++seen[t];
            for (int a = 0; a < 4; ++a) {
                ASSERT_NE(color_at_vertex[tets[t][a]], c)
                    << "two tets of colour " << c << " share vertex " << tets[t][a];
                color_at_vertex[tets[t][a]] = c;
            }
        }
    }
    for (size_t t = 0; t < tets.size(); ++t) {
        ASSERT_EQ(seen[t], 1) << "tet " << t;
    }
}

// The plain greedy colouring, written the slow and obvious way: each tet
// tries colours from 0 until none of its vertices has it.
size_t reference_greedy_color_count(const std::vector<glm::uvec4>& tets, size_t vertex_count)
{
    std::vector<std::set<uint32_t>> used(vertex_count);
    size_t count = 0;
    for (const glm::uvec4& t : tets) {
        uint32_t c = 0;
        while (used[t.x].count(c) || used[t.y].count(c) || used[t.z].count(c) ||
               used[t.w].count(c)) {
            ++c;
        }
        for (int a = 0; a < 4; ++a) used[t[a]].insert(c);
        count = std::max<size_t>(count, c + 1);
    }
    return count;
}

// `count` thin tets around the edge from (0,0,0) to (0,1,0), each spanning
// 1/count of a turn: every tet shares both edge vertices with every other.
TetMeshDesc fan_around_an_edge(uint32_t count)
{
    TetMeshDesc desc;
    desc.name = "fan of " + std::to_string(count);
    desc.positions = {{0, 0, 0}, {0, 1, 0}};
    for (uint32_t i = 0; i < count; ++i) {
        const float angle = glm::two_pi<float>() * i / count;
        desc.positions.push_back({0.5f * std::cos(angle), 0.5f, 0.5f * std::sin(angle)});
    }
    for (uint32_t i = 0; i < count; ++i) {
        desc.tets.push_back({0, 1, 2 + i, 2 + (i + 1) % count});
    }
    return desc;
}

}  // namespace

TEST(TetColoring, RepeatedTetsAreDroppedWithACount)
{
    // 100,000 copies of one tet, its vertices in four different orders: a
    // 1.5 MB file once took 18 s to load and 4 s a frame.
    TetMeshDesc desc;
    desc.name = "copies";
    desc.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const glm::uvec4 orders[4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {3, 2, 1, 0}, {2, 3, 0, 1}};
    for (int i = 0; i < 100000; ++i) desc.tets.push_back(orders[i % 4]);
    const auto start = std::chrono::steady_clock::now();
    Result<TetMesh> mesh = prepare_tet_mesh(desc);
    std::printf("[ copies       ] 100,000 copies of one tet prepared in %.1f ms\n",
                seconds_since(start) * 1e3);
    ASSERT_TRUE(mesh.ok()) << mesh.error();
    EXPECT_EQ(mesh.value().tet_count(), 1u);
    EXPECT_EQ(mesh.value().dropped_duplicate_tets, 99999u);
    EXPECT_EQ(mesh.value().dropped_degenerate_tets, 0u);
    EXPECT_EQ(mesh.value().tet_colors.rows(), 1u);
    EXPECT_EQ(mesh.value().tets[0], glm::uvec4(0, 1, 2, 3));  // the first one is kept
    const std::string warning = dropped_tets_warning(mesh.value());
    EXPECT_NE(warning.find("mesh 'copies': dropped 99999 repeated tets"), std::string::npos)
        << warning;
}

TEST(TetColoring, DistinctTetsOnTheSameVerticesAreNotRepeats)
{
    // Two tets on five vertices sharing a face: not repeats of each other.
    TetMeshDesc desc;
    desc.name = "two";
    desc.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    desc.tets = {{0, 1, 2, 3}, {1, 2, 3, 4}, {3, 2, 1, 0}};
    Result<TetMesh> mesh = prepare_tet_mesh(desc);
    ASSERT_TRUE(mesh.ok()) << mesh.error();
    EXPECT_EQ(mesh.value().tet_count(), 2u);
    EXPECT_EQ(mesh.value().dropped_duplicate_tets, 1u);
}

TEST(TetColoring, NoWarningWhenNothingIsDropped)
{
    EXPECT_EQ(dropped_tets_warning(*preset_mesh(PresetId::cube)), "");
}

TEST(TetColoring, ThousandsOfTetsAtOneEdgeGetOneColourEach)
{
    const TetMeshDesc desc = fan_around_an_edge(2000);
    const auto start = std::chrono::steady_clock::now();
    Result<TetMesh> mesh = prepare_tet_mesh(desc);
    std::printf("[ fan          ] 2,000 tets around one edge prepared in %.1f ms\n",
                seconds_since(start) * 1e3);
    ASSERT_TRUE(mesh.ok()) << mesh.error();
    EXPECT_EQ(mesh.value().tet_count(), 2000u);
    EXPECT_EQ(mesh.value().dropped_degenerate_tets, 0u);
    EXPECT_EQ(mesh.value().tet_colors.rows(), 2000u);
    expect_valid_coloring(mesh.value().tet_colors, mesh.value().tets, mesh.value().vertex_count());
}

TEST(TetColoring, RefusesMoreColoursThanTheCapNamingTheValence)
{
    const uint32_t count = kMaxTetColors + 1;
    Result<TetMesh> mesh = prepare_tet_mesh(fan_around_an_edge(count));
    ASSERT_FALSE(mesh.ok());
    const std::string& why = mesh.error();
    EXPECT_NE(why.find("mesh 'fan of"), std::string::npos) << why;
    EXPECT_NE(why.find("is shared by " + std::to_string(count) + " tets"), std::string::npos)
        << why;
    EXPECT_NE(why.find(std::to_string(kMaxTetColors)), std::string::npos) << why;
    // The cap itself is allowed.
    EXPECT_TRUE(color_tets(fan_around_an_edge(kMaxTetColors).tets, kMaxTetColors + 2).ok());
}

TEST(TetColoring, PresetsAreValidAndNoLargerThanThePlainGreedyColouring)
{
    for (const Preset& preset : all_presets()) {
        std::shared_ptr<const TetMesh> mesh = preset_mesh(preset.id);
        SCOPED_TRACE(mesh->name);
        const auto start = std::chrono::steady_clock::now();
        Result<Csr> colors = color_tets(mesh->tets, mesh->vertex_count());
        const double seconds = seconds_since(start);
        ASSERT_TRUE(colors.ok()) << colors.error();
        expect_valid_coloring(colors.value(), mesh->tets, mesh->vertex_count());
        const size_t reference = reference_greedy_color_count(mesh->tets, mesh->vertex_count());
        std::printf("[ %-12s ] %zu tets: %zu colours (plain greedy %zu) in %.2f ms\n",
                    mesh->name.c_str(), mesh->tet_count(), colors.value().rows(), reference,
                    seconds * 1e3);
        EXPECT_LE(colors.value().rows(), reference);
        EXPECT_EQ(mesh->tet_colors.entries, colors.value().entries);
    }
}
