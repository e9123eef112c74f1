// Loading bodies from files: the .tet format round trip, TetGen .node/.ele
// with 0- and 1-based numbering, OBJ tetrahedralized on load, placement in
// the world, the bunny preset, and every kind of bad file refused with a
// message that names it.
#include "mesh_shapes.h"
#include "scratch_dir_test.h"

#include "core/bunny.h"
#include "core/lattice.h"
#include "core/mesh_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

class MeshFiles : public ScratchDirTest {};

// Refused, with a message that names the file and says `reason`.
void expect_refused(const std::string& path, const std::string& reason)
{
    SCOPED_TRACE(path);
    Result<TetMeshDesc> r = load_mesh_file(path, {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find(fs::path(path).filename().string()), std::string::npos) << r.error();
    EXPECT_NE(r.error().find(reason), std::string::npos) << r.error();
}

// A 2 x 1 x 1 Kuhn lattice: 12 vertices, 12 tets.
TetMeshDesc small_mesh()
{
    TetMeshDesc m = box_lattice({2, 1, 1}, {0.0f, 0.0f, 0.0f}, {0.2f, 0.1f, 0.1f});
    m.name = "small";
    return m;
}

std::string tetgen_node(const TetMeshDesc& m, int base)
{
    std::string s = "# points, 3D, one attribute, boundary markers\n" +
                    std::to_string(m.positions.size()) + " 3 1 1\n";
    for (size_t v = 0; v < m.positions.size(); ++v) {
        const glm::vec3& p = m.positions[v];
        s += std::to_string(v + base) + "  " + std::to_string(p.x) + " " + std::to_string(p.y) +
             " " + std::to_string(p.z) + "  7.5  1\n";
    }
    return s;
}

std::string tetgen_ele(const TetMeshDesc& m, int base)
{
    std::ostringstream s;
    s << m.tets.size() << " 4 0\n";
    for (size_t t = 0; t < m.tets.size(); ++t) {
        s << t + base;
        for (int a = 0; a < 4; ++a) s << ' ' << m.tets[t][a] + base;
        s << "  # tet\n";
    }
    return s.str();
}

}  // namespace

TEST_F(MeshFiles, TetFormatRoundTripIsExact)
{
    TetMeshDesc m = small_mesh();
    m.positions[3] = {0.123456789f, -1.0e-7f, 3.4028e38f / 1e30f};  // digits that must survive
    m.pinned_vertices = {0, 5, 11};
    const std::string file = path("small.tet");
    Result<bool> saved = save_tet_file(file, m);
    ASSERT_TRUE(saved.ok()) << saved.error();
    Result<TetMeshDesc> loaded = load_tet_file(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loaded.value().positions, m.positions);
    EXPECT_EQ(loaded.value().tets, m.tets);
    EXPECT_EQ(loaded.value().pinned_vertices, m.pinned_vertices);
    EXPECT_EQ(loaded.value().name, file);

    // Comments, blank lines, and no pinned section.
    Result<TetMeshDesc> hand = parse_tet_text(
        "# a hand-written tet\nsoftbody-tet 1\n\nvertices 4  # four\n0 0 0\n1 0 0\n0 1 0\n"
        "0 0 1\ntets 1\n0 1 2 3\n",
        "hand.tet");
    ASSERT_TRUE(hand.ok()) << hand.error();
    EXPECT_EQ(hand.value().tets.size(), 1u);
    EXPECT_TRUE(hand.value().pinned_vertices.empty());
}

TEST_F(MeshFiles, TetGenZeroAndOneBasedLoadTheSame)
{
    const TetMeshDesc m = small_mesh();
    for (int base : {0, 1}) {
        SCOPED_TRACE(base);
        const std::string stem = "cube" + std::to_string(base);
        write(stem + ".node", tetgen_node(m, base));
        write(stem + ".ele", tetgen_ele(m, base));
        for (const char* ext : {".node", ".ele"}) {
            Result<TetMeshDesc> loaded = load_mesh_file(path(stem + ext), {});
            ASSERT_TRUE(loaded.ok()) << loaded.error();
            EXPECT_EQ(loaded.value().tets, m.tets);
            ASSERT_EQ(loaded.value().positions.size(), m.positions.size());
            for (size_t v = 0; v < m.positions.size(); ++v) {
                EXPECT_LT(glm::length(loaded.value().positions[v] - m.positions[v]), 1e-6f);
            }
        }
    }
}

TEST_F(MeshFiles, ObjIsTetrahedralizedOnLoad)
{
    const std::string file = write("ball.OBJ", uv_sphere(0.5f, 16, 32).text());
    TetrahedralizeOptions coarse, fine;
    coarse.cells_along_longest_side = 6;
    fine.cells_along_longest_side = 12;
    Result<TetMeshDesc> a = load_mesh_file(file, coarse);
    Result<TetMeshDesc> b = load_mesh_file(file, fine);
    ASSERT_TRUE(a.ok()) << a.error();
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_GT(b.value().tets.size(), 4 * a.value().tets.size());  // resolution is a parameter
    EXPECT_EQ(a.value().name, file);
}

TEST_F(MeshFiles, PlaceAboveGroundScalesCentresTiltsAndLifts)
{
    TetMeshDesc m = box_lattice({4, 2, 1}, {10.0f, 20.0f, 30.0f}, {4.0f, 2.0f, 1.0f});
    ASSERT_TRUE(place_above_ground(m, 0.5f, 0.3f, 0.0f).ok());
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : m.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    EXPECT_NEAR(hi.x - lo.x, 0.5f, 1e-5f);
    EXPECT_NEAR(hi.y - lo.y, 0.25f, 1e-5f);
    EXPECT_NEAR(lo.y, 0.3f, 1e-6f);
    EXPECT_NEAR(lo.x + hi.x, 0.0f, 1e-5f);
    EXPECT_NEAR(lo.z + hi.z, 0.0f, 1e-5f);

    TetMeshDesc tilted = box_lattice({2, 2, 2}, {0, 0, 0}, {1, 1, 1});
    ASSERT_TRUE(place_above_ground(tilted, 1.0f, 0.5f, 0.3f).ok());
    float lowest = INFINITY;
    for (const glm::vec3& p : tilted.positions) lowest = std::min(lowest, p.y);
    EXPECT_NEAR(lowest, 0.5f, 1e-6f);
    EXPECT_GT(tilted.positions[0].y - 0.5f, 0.0f);  // no longer a flat bottom face
}

TEST_F(MeshFiles, BunnyPresetIsABunnyAboveTheGround)
{
    Result<TetMeshDesc> bunny = make_bunny_mesh();
    ASSERT_TRUE(bunny.ok()) << bunny.error();
    const TetMeshDesc& m = bunny.value();
    EXPECT_GT(m.positions.size(), 1000u);
    EXPECT_LT(m.positions.size(), 1500u);
    EXPECT_GT(m.tets.size(), 4000u);
    EXPECT_LT(m.tets.size(), 5500u);
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : m.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    EXPECT_GT(hi.y - lo.y, 0.5f);  // y up, 0.5-0.6 m tall
    EXPECT_LT(hi.y - lo.y, 0.62f);
    EXPECT_NEAR(lo.y, 0.25f, 1e-5f);  // the drop height
    Result<TetMesh> prepared = prepare_tet_mesh(m);
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    EXPECT_EQ(prepared.value().dropped_degenerate_tets, 0u);
}

TEST_F(MeshFiles, BadFilesAreRefusedWithTheirNameAndReason)
{
    expect_refused(path("missing.obj"), "no such file");
    expect_refused(path("missing.tet"), "no such file");
    expect_refused(path("missing.node"), "no such file");
    fs::create_directories(dir_ / "folder.obj");
    expect_refused(path("folder.obj"), "not a regular file");
    expect_refused(write("empty.obj", ""), "empty");
    expect_refused(write("empty.tet", ""), "empty");
    write("empty.ele", "");
    expect_refused(write("empty.node", ""), "empty");
    expect_refused(write("text.obj", "hello\nthis is not a mesh\n"), "not an OBJ");
    expect_refused(write("binary.obj", std::string("\x7f" "ELF\0\0\x01", 7)), "binary");
    expect_refused(write("mesh.stl", "solid x\n"), "unknown kind");

    const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
    expect_refused(write("nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), "non-finite");
    expect_refused(write("inf.obj", "v 1e999 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), "non-finite");
    expect_refused(write("range.obj", tri + "f 1 2 9\n"), "out of range");
    expect_refused(write("nofaces.obj", tri), "no faces");
    expect_refused(write("open.obj", tri + "f 1 2 3\n"), "no inside");

    const std::string head = "softbody-tet 1\nvertices 4\n0 0 0\n1 0 0\n0 1 0\n";
    expect_refused(write("magic.tet", "tetmesh 1\n"), "not a softbody .tet file");
    expect_refused(write("version.tet", "softbody-tet 7\n"), "unsupported version");
    expect_refused(write("nan.tet", head + "nan 0 1\ntets 1\n0 1 2 3\n"), "non-finite");
    expect_refused(write("range.tet", head + "0 0 1\ntets 1\n0 1 2 4\n"), "out of range");
    expect_refused(write("short.tet", head + "0 0 1\ntets 2\n0 1 2 3\n"), "hold at most 1");
    expect_refused(write("cut.tet", head + "0 0 1\ntets 2\n0 1 2 3\n# no second tet\n"),
                   "ends inside the tets");
    expect_refused(write("words.tet", head + "0 0 one\ntets 1\n0 1 2 3\n"), "line 6");
    expect_refused(write("flat.tet", head + "1 1 0\ntets 1\n0 1 2 3\n"), "no volume");
    expect_refused(write("repeat.tet", head + "0 0 1\ntets 1\n0 1 2 2\n"), "repeats");
    expect_refused(write("pinned.tet", head + "0 0 1\ntets 1\n0 1 2 3\npinned 1\n9\n"), "below 4");

    const TetMeshDesc m = small_mesh();
    write("noele.node", tetgen_node(m, 0));
    expect_refused(path("noele.node"), "noele.ele");
    write("range.node", tetgen_node(m, 1));
    write("range.ele", tetgen_ele(m, 0));  // 0-based tets against 1-based points
    expect_refused(path("range.ele"), "out of range");
    write("twod.node", "3 2 0 0\n0 0 0\n1 1 0\n2 0 1\n");
    write("twod.ele", "0 4 0\n");
    expect_refused(path("twod.node"), "dimension 2");
}
