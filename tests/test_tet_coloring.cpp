// Tet colouring and the refusal of pathological meshes: repeated tets are
// dropped, a vertex shared by thousands of tets is coloured quickly (one
// colour per tet there), more than kMaxTetColors is refused, the presets'
// colourings are valid and no larger than the plain greedy one, and large
// meshes' colourings by region keep the promises a region sweep makes.
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

namespace {

// A region sweep's promise to a GPU workgroup that owns a region: its
// colours' entries are listed region by region and cover the colours
// exactly, and no vertex belongs to tets of two regions of one sweep.
void expect_valid_sweeps(const Csr& colors, const std::vector<RegionSweep>& sweeps,
                         const std::vector<glm::uvec4>& tets, size_t vertex_count)
{
    uint32_t next_color = 0;
    for (const RegionSweep& sweep : sweeps) {
        EXPECT_EQ(sweep.first_color, next_color) << "sweeps run one after another from 0";
        ASSERT_LT(sweep.first_color, sweep.color_end);
        ASSERT_LE(sweep.color_end, colors.rows());
        const uint32_t sweep_colors = sweep.color_end - sweep.first_color;
        ASSERT_EQ(sweep.region_starts.size(), size_t{sweep_colors} * sweep.regions + 1);
        std::vector<uint32_t> region_of_vertex(vertex_count, UINT32_MAX);
        for (uint32_t c = 0; c < sweep_colors; ++c) {
            const uint32_t* starts = &sweep.region_starts[size_t{c} * sweep.regions];
            EXPECT_EQ(starts[0], colors.begin(sweep.first_color + c));
            EXPECT_EQ(starts[sweep.regions], colors.end(sweep.first_color + c));
            for (uint32_t r = 0; r < sweep.regions; ++r) {
                ASSERT_LE(starts[r], starts[r + 1]);
                for (uint32_t e = starts[r]; e < starts[r + 1]; ++e) {
                    for (int a = 0; a < 4; ++a) {
                        uint32_t& owner = region_of_vertex[tets[colors.entries[e]][a]];
                        ASSERT_TRUE(owner == UINT32_MAX || owner == r)
                            << "vertex " << tets[colors.entries[e]][a] << " in regions " << owner
                            << " and " << r;
                        owner = r;
                    }
                }
            }
        }
        next_color = sweep.color_end;
    }
}

}  // namespace

TEST(TetColoring, RegionSweepsOnALatticeLeaveNoTetToAColourOfItsOwn)
{
    // The 200k-tet benchmark lattice's shape at a tenth of the tets: four
    // sweeps take every tet, so the GPU solves them in four dispatches an
    // iteration instead of one per colour.
    const TetMeshDesc lattice = box_lattice(glm::ivec3(16), glm::vec3(0.0f), glm::vec3(1.0f));
    const float side = 5.0f / 16.0f;  // about 750 tets a region
    Result<TetColoring> coloring = color_tets_by_region(lattice.tets, lattice.positions, side);
    ASSERT_TRUE(coloring.ok()) << coloring.error();
    const TetColoring& c = coloring.value();
    expect_valid_coloring(c.colors, lattice.tets, lattice.positions.size());
    expect_valid_sweeps(c.colors, c.sweeps, lattice.tets, lattice.positions.size());
    ASSERT_EQ(c.sweeps.size(), 4u);
    EXPECT_EQ(c.sweeps.back().color_end, c.colors.rows()) << "no tet left for colours of its own";
    for (const RegionSweep& sweep : c.sweeps) {
        std::printf("sweep of colours %u-%u: %u regions, %u tets\n", sweep.first_color,
                    sweep.color_end - 1, sweep.regions,
                    sweep.region_starts.back() - sweep.region_starts.front());
        EXPECT_GT(sweep.regions, 1u);
    }
}

TEST(TetColoring, RegionSweepsLeaveTheRestToPlainColours)
{
    // An irregular mesh: the bunny, cut into cubes of a third of its size.
    // What straddles every sweep's cube faces gets colours of its own.
    std::shared_ptr<const TetMesh> bunny = preset_mesh(PresetId::bunny);
    Result<TetColoring> coloring = color_tets_by_region(
        bunny->tets, bunny->rest_positions,
        region_side_for(bunny->total_rest_volume_m3(), bunny->tet_count(), 256.0));
    ASSERT_TRUE(coloring.ok()) << coloring.error();
    const TetColoring& c = coloring.value();
    expect_valid_coloring(c.colors, bunny->tets, bunny->vertex_count());
    expect_valid_sweeps(c.colors, c.sweeps, bunny->tets, bunny->vertex_count());
    ASSERT_FALSE(c.sweeps.empty());
    const uint32_t swept = c.sweeps.back().region_starts.back();
    std::printf("bunny, %zu tets: %zu sweeps take %u, %zu colours after them (%zu plain)\n",
                bunny->tet_count(), c.sweeps.size(), swept,
                c.colors.rows() - c.sweeps.back().color_end, bunny->tet_colors.rows());
    EXPECT_GT(swept, bunny->tet_count() * 4 / 5);
}

TEST(TetColoring, LargeMeshesAreColouredByRegionSmallOnesAreNot)
{
    std::shared_ptr<const TetMesh> small = prepare_or_fail(
        box_lattice(glm::ivec3(12), glm::vec3(0.0f), glm::vec3(1.0f)));
    EXPECT_TRUE(small->region_sweeps.empty()) << small->tet_count() << " tets";
    std::shared_ptr<const TetMesh> large = prepare_or_fail(
        box_lattice(glm::ivec3(20), glm::vec3(0.0f), glm::vec3(1.0f)));
    ASSERT_GE(large->tet_count(), kRegionSweepMinTets);
    expect_valid_coloring(large->tet_colors, large->tets, large->vertex_count());
    expect_valid_sweeps(large->tet_colors, large->region_sweeps, large->tets,
                        large->vertex_count());
    EXPECT_EQ(large->region_sweeps.size(), 4u);
}
