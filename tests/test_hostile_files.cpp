// Hostile mesh files, as a fuzzer finds them: header counts far beyond the
// file, OBJ lines that tinyobjloader would misread, a byte-order mark,
// coordinates at the ends of the float range, a TetGen pair in upper case.
// Each is refused with a message that names the file (and the line), or
// loads and simulates; nothing throws, nothing reserves gigabytes. The
// committed files of tests/regressions/mesh_files are checked here too.
#include "mesh_shapes.h"
#include "scratch_dir_test.h"
#include "test_support.h"

#include "core/mesh_files.h"
#include "core/mesh_limits.h"
#include "core/surface_mesh.h"
#include "core/tetrahedralizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;

class HostileFiles : public ScratchDirTest {};

// load_mesh_file, which must not throw.
Result<TetMeshDesc> load(const std::string& path, const TetrahedralizeOptions& options = {})
{
    try {
        return load_mesh_file(path, options);
    } catch (const std::exception& e) {
        ADD_FAILURE() << path << " threw: " << e.what();
    }
    return Result<TetMeshDesc>::failure("threw");
}

// Refused, with a message that names the file and holds each of `parts`.
void expect_refused(const std::string& path, std::initializer_list<std::string> parts)
{
    SCOPED_TRACE(path);
    Result<TetMeshDesc> r = load(path);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("'" + path + "'"), std::string::npos) << r.error();
    for (const std::string& part : parts) {
        EXPECT_NE(r.error().find(part), std::string::npos) << "want '" << part << "' in: " << r.error();
    }
}

// Placed like a body from the command line, prepared, and a third of a
// second of simulation on the CPU solver, with every position finite and
// the body above the ground. An OBJ is filled coarsely (4 cells along its
// longest side): a cube at the default 12 has 22,464 tets, which ran at
// 0.84 s a frame on the (busy) 2-core development machine.
void expect_simulates(const std::string& path)
{
    SCOPED_TRACE(path);
    constexpr int kCoarseCells = 4;
    constexpr int kFrames = 20;
    Result<TetMeshDesc> body = Result<TetMeshDesc>::failure("threw");
    try {
        body = make_body_from_file(path, kCoarseCells);
    } catch (const std::exception& e) {
        FAIL() << "threw: " << e.what();
    }
    ASSERT_TRUE(body.ok()) << body.error();
    Result<TetMesh> prepared = prepare_tet_mesh(body.value());
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    for (size_t t = 0; t < prepared.value().tet_count(); ++t) {
        const glm::mat3 b = inv_rest_shape(prepared.value(), t);
        for (int c = 0; c < 3; ++c) {
            ASSERT_TRUE(std::isfinite(b[c].x) && std::isfinite(b[c].y) && std::isfinite(b[c].z));
        }
    }
    CpuSolver solver;
    solver.load(std::make_shared<const TetMesh>(std::move(prepared).value()));
    run_frames(solver, SimParams{}, kFrames);
    for (const glm::vec3& p : solver.positions()) {
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
        ASSERT_GT(p.y, -0.01f);
    }
}

const std::string kTetHeader = "softbody-tet 1\n";
const std::string kFourVertices = "vertices 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n";

// The unit cube as OBJ lines, outward counter-clockwise faces, scaled to
// +-half_side.
std::string cube_obj(const std::string& half_side)
{
    std::string s;
    for (int i = 0; i < 8; ++i) {
        s += "v";
        for (int a = 0; a < 3; ++a) s += (i >> a & 1 ? " " : " -") + half_side;
        s += "\n";
    }
    return s + "f 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\nf 1 2 6\nf 1 6 5\n"
               "f 3 7 8\nf 3 8 4\nf 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\n";
}

}  // namespace

TEST_F(HostileFiles, HeaderCountsBeyondTheFileAreRefusedBeforeAnythingIsReserved)
{
    // Each of these once ended the program in bad_alloc or length_error.
    for (const char* count : {"2147483648", "4294967296", "9223372036854775807"}) {
        expect_refused(write(std::string("v") + count + ".tet",
                             kTetHeader + "vertices " + count + "\n0 0 0\n"),
                       {"line 2: " + std::string(count) + " vertices announced",
                        "the 6 bytes left in the file hold at most 1"});
    }
    for (const char* count : {"1000000000000", "2147483648"}) {
        expect_refused(write(std::string("t") + count + ".tet",
                             kTetHeader + kFourVertices + "tets " + count + "\n0 1 2 3\n"),
                       {"line 7: " + std::string(count) + " tets announced"});
    }
    expect_refused(write("p.tet", kTetHeader + kFourVertices + "tets 1\n0 1 2 3\npinned 99\n0\n"),
                   {"line 9: 99 pinned announced"});
    expect_refused(write("v1e18.tet", kTetHeader + "vertices 1e18\n0 0 0\n"),
                   {"line 2: expected 'vertices COUNT'"});

    // TetGen: the header of either file; the fault in the partner is told
    // as the given file's.
    write("points.ele", "1 4 0\n0 0 1 2 3\n");
    const std::string points = write("points.node", "2147483648 3 0 0\n0 0 0 0\n");
    expect_refused(points, {"line 1: 2147483648 points announced"});
    expect_refused((dir_ / "points.ele").string(),
                   {"in its TetGen partner: '" + points + "' line 1: 2147483648 points"});
    write("tets.node", "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
    expect_refused(write("tets.ele", "2147483648 4 0\n0 0 1 2 3\n"),
                   {"line 1: 2147483648 tets announced"});

    // A file as long as the count needs, but over the limit: the limit is
    // checked before the lines are read (a string of spaces, not a file).
    const size_t over = kMaxMeshVertices + 1;
    Result<TetMeshDesc> big = parse_tet_text(
        kTetHeader + "vertices " + std::to_string(over) + "\n" +
            std::string(over * (kShortestTetVertexLine + 1), ' '),
        "big.tet");
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.error().find("'big.tet' line 2: 16777217 vertices, more than the 16777216 "
                               "this program can load"),
              std::string::npos)
        << big.error();
}

TEST_F(HostileFiles, CountsThatFitTheFileStillLoad)
{
    // The shortest lines the check allows for: "0 0 0" and "0 1 2 3", no
    // newline at the end.
    Result<TetMeshDesc> tight = parse_tet_text(kTetHeader + kFourVertices + "tets 1\n0 1 2 3", "t");
    ASSERT_TRUE(tight.ok()) << tight.error();
    Result<TetMeshDesc> one_short =
        parse_tet_text(kTetHeader + "vertices 2\n0 0 0\n1 0", "t");
    ASSERT_FALSE(one_short.ok());
    EXPECT_NE(one_short.error().find("hold at most 1"), std::string::npos) << one_short.error();
    // A count the bytes allow but the lines do not fill: the old message.
    Result<TetMeshDesc> cut = parse_tet_text(
        kTetHeader + kFourVertices + "tets 2\n0 1 2 3\n# some words, no tet\n", "t");
    ASSERT_FALSE(cut.ok());
    EXPECT_NE(cut.error().find("ends inside the tets"), std::string::npos) << cut.error();
}

TEST_F(HostileFiles, ByteOrderMarkIsSkipped)
{
    const std::string bom = "\xEF\xBB\xBF";
    const std::string tet = write("bom.tet", bom + kTetHeader + kFourVertices + "tets 1\n0 1 2 3\n");
    Result<TetMeshDesc> t = load(tet);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t.value().positions.size(), 4u);

    // In OBJ the first line is a vertex: without the skip, it was lost and
    // every face index moved by one.
    const std::string obj = write("bom.obj", bom + cube_obj("0.5"));
    Result<SurfaceMesh> s = load_obj_surface(obj);
    ASSERT_TRUE(s.ok()) << s.error();
    ASSERT_EQ(s.value().positions.size(), 8u);
    EXPECT_EQ(s.value().positions[0], glm::vec3(-0.5f));
    EXPECT_TRUE(load(obj).ok());

    write("bom.ele", bom + "1 4 0\n0 0 1 2 3\n");
    const std::string node = write("bom.node", bom + "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
    Result<TetMeshDesc> n = load(node);
    ASSERT_TRUE(n.ok()) << n.error();
}

TEST_F(HostileFiles, TetGenPartnerKeepsTheCaseOfTheGivenExtension)
{
    const std::string node_text = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
    const std::string ele_text = "1 4 0\n1 1 2 3 4\n";
    // Upper case both: M.NODE goes with M.ELE.
    const std::string upper = write("UP.NODE", node_text);
    write("UP.ELE", ele_text);
    Result<TetMeshDesc> a = load(upper);
    ASSERT_TRUE(a.ok()) << a.error();
    EXPECT_EQ(a.value().tets.size(), 1u);
    Result<TetMeshDesc> b = load((dir_ / "UP.ELE").string());
    ASSERT_TRUE(b.ok()) << b.error();
    // Mixed: the other case is tried when the same case is missing.
    write("mixed.NODE", node_text);
    write("mixed.ele", ele_text);
    Result<TetMeshDesc> c = load((dir_ / "mixed.NODE").string());
    ASSERT_TRUE(c.ok()) << c.error();
    // Neither: the message names the partner in the given case.
    expect_refused(write("alone.NODE", node_text), {"TetGen pair incomplete", "alone.ELE"});
}

TEST_F(HostileFiles, ObjLinesThatTinyObjLoaderWouldMisreadAreRefusedWithTheirLine)
{
    const std::string cube = cube_obj("0.5");
    struct Case {
        const char* name;
        std::string text;
        std::string expected;
    };
    const Case cases[] = {
        // Once the face (0, 1, 7): the index wrapped to -1, the last vertex.
        {"beyond_int.obj", cube + "f 1 2 99999999999999999999\n",
         "line 21: face corner '99999999999999999999': index beyond the int range"},
        // Once (1, 2, 0), and every later index one vertex off.
        {"two.obj", "v 1 2\n" + cube, "line 1: expected 'v x y z' (then an optional w, or r g b), "
                                      "found 2 numbers"},
        {"five.obj", "v 1 2 3 4 5\n" + cube, "line 1: expected 'v x y z'"},
        // Once read as 0.
        {"comma.obj", "v 0,5 0 0\n" + cube, "line 1: '0,5' is not a decimal number"},
        {"hex.obj", "v 0x1p3 0 0\n" + cube, "line 1: '0x1p3' is not a decimal number"},
        {"word.obj", cube + "v 1 2 three\n", "line 21: 'three' is not a decimal number"},
        {"nan.obj", "v nan 0 0\n" + cube, "line 1: a vertex has a non-finite coordinate ('nan')"},
        {"huge.obj", "v 1e39 0 0\n" + cube,
         "line 1: a vertex has a coordinate beyond the float range (+-3.4e38) ('1e39')"},
        {"zero.obj", cube + "f 0 1 2\n", "line 21: face corner '0': index 0 (OBJ counts from 1)"},
        {"high.obj", cube + "f 1 2 9\n",
         "line 21: face corner '9': vertex index 9 out of range (8 vertices above this line)"},
        // tinyobjloader drops a polygon with a forward index when an 'o' or
        // 'g' line comes between.
        {"forward.obj", "f 1 2 3 4\ng next\n" + cube,
         "line 1: face corner '1': vertex index 1 out of range (0 vertices above this line)"},
        {"before.obj", cube + "f 1 2 -9\n",
         "line 21: face corner '-9': vertex index -9 out of range (8 vertices above this line)"},
        {"texture.obj", cube + "f 1/1 2/1 3/1\n",
         "line 21: face corner '1/1': texture coordinate index 1 out of range"},
        {"normal.obj", cube + "vt 0 0\nf 1/1/2 2//1 3\n",
         "line 22: face corner '1/1/2': normal index 2 out of range"},
        {"slash.obj", cube + "f 1/ 2 3\n", "line 21: face corner '1/': not an index"},
        {"slashes.obj", cube + "f 1/1/1/1 2 3\n", "line 21: face corner '1/1/1/1': too many '/'"},
        {"two_corners.obj", cube + "f 1 2\n", "line 21: a face needs at least 3 corners, this one has 2"},
        {"huge_polygon.obj", cube + "f" + [] {
             std::string corners;
             for (int c = 0; c < 1025; ++c) corners += " " + std::to_string(c % 8 + 1);
             return corners;
         }() + "\n",
         "line 21: a face of 1025 corners, more than the 1024 allowed"},
        {"bare_f.obj", cube + "f\n", "line 21: a face needs at least 3 corners, this one has 0"},
        {"bare_v.obj", "v\n" + cube, "line 1: expected 'v x y z'"},
        {"face_comment.obj", cube + "f 1 2 3 # a comment\n", "line 21: face corner '#'"},
        // tinyobjloader ends a line at a lone carriage return too: line 2.
        {"cr.obj", "# x\rv 1 2\n" + cube, "line 2: expected 'v x y z'"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string path = write(c.name, c.text);
        Result<SurfaceMesh> s = load_obj_surface(path);
        ASSERT_FALSE(s.ok());
        EXPECT_NE(s.error().find("'" + path + "' " + c.expected), std::string::npos)
            << "want: " << c.expected << "\ngot:  " << s.error();
    }
}

TEST_F(HostileFiles, ObjLineFormsThatAreValidStillLoad)
{
    // w, colours, a comment after a vertex, CRLF and CR line ends, tabs,
    // the corner forms, relative indices, a polygon.
    const std::string text =
        "v -0.5 -0.5 -0.5 1.0\r\n"
        "v\t0.5 -0.5 -0.5 1 0 0\r\n"
        "v -0.5 0.5 -0.5 # a comment\r"
        "v +.5 5e-1 -0.5\n"
        "vt 0 0\nvn 0 0 1\n"
        "f 1/1/1 3//1 -1/-1/-1\n"   // -1: vertex 4, the last one above
        "f 1 4 2\n"
        "v -0.5 -0.5 0.5\nv 0.5 -0.5 0.5\nv -0.5 0.5 0.5\nv 0.5 0.5 0.5\n"
        "f 5 6 8 7\nf 1 2 6\nf 1 6 5\nf 3 7 8\nf 3 8 4\n"
        "f 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\n";
    Result<SurfaceMesh> s = parse_obj_surface(text, "forms.obj");
    ASSERT_TRUE(s.ok()) << s.error();
    ASSERT_EQ(s.value().positions.size(), 8u);
    EXPECT_EQ(s.value().positions[3], glm::vec3(0.5f, 0.5f, -0.5f));
    ASSERT_EQ(s.value().triangles.size(), 12u);
    EXPECT_EQ(s.value().triangles[0], glm::uvec3(0, 2, 3));
    EXPECT_NEAR(signed_enclosed_volume(s.value()), 1.0, 1e-6);

    // Coordinates rounded once from the text: 0.1 is the float nearest 0.1,
    // and a zero with a huge exponent is zero (tinyobjloader made it NaN).
    Result<SurfaceMesh> exact = parse_obj_surface("v 0.1 0e999 -0.3\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "e");
    ASSERT_TRUE(exact.ok()) << exact.error();
    EXPECT_EQ(exact.value().positions[0], glm::vec3(0.1f, 0.0f, -0.3f));
}

TEST_F(HostileFiles, PlacementWorksInDoubleAndRefusesAPoint)
{
    // Denormal coordinates: 0.6 m / 1e-40 overflowed float, and the body
    // was refused for "a non-finite coordinate" it did not have.
    const std::string tiny = write("tiny.tet", kTetHeader +
                                                   "vertices 4\n0 0 0\n1e-40 0 0\n0 1e-40 0\n"
                                                   "0 0 1e-40\ntets 1\n0 1 2 3\n");
    expect_simulates(tiny);
    const std::string huge = write("huge.tet", kTetHeader +
                                                   "vertices 4\n-3e38 -3e38 -3e38\n3e38 -3e38 -3e38\n"
                                                   "-3e38 3e38 -3e38\n-3e38 -3e38 3e38\ntets 1\n0 1 2 3\n");
    expect_simulates(huge);
    Result<TetMeshDesc> placed = make_body_from_file(tiny, 12);
    ASSERT_TRUE(placed.ok()) << placed.error();
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : placed.value().positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    EXPECT_NEAR(lo.y, 0.4f, 1e-6f);
    EXPECT_GT(glm::length(hi - lo), 0.6f);  // the 0.6 m edge, tilted

    TetMeshDesc point;
    point.name = "point";
    point.positions.assign(4, glm::vec3(1e-40f));
    point.tets = {{0, 1, 2, 3}};
    const Result<bool> refused = place_above_ground(point, 0.6f, 0.4f, 0.2f);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error(), "mesh 'point': all vertices are at one point: nothing to scale to 0.6 m");
    EXPECT_EQ(point.positions[0], glm::vec3(1e-40f));  // left as it was
}

// Every committed file: refuse-* refused naming the file, accept-* loads
// and simulates. New findings need only a file with the right prefix.
TEST(HostileFileRegressions, EveryRegressionFileGetsItsExpectedAnswer)
{
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(SOFTBODY_MESH_REGRESSION_DIR)) {
        if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 20u) << "the folder " << SOFTBODY_MESH_REGRESSION_DIR;
    for (const fs::path& file : files) {
        const std::string name = file.filename().string();
        if (name.rfind("refuse-", 0) == 0) {
            expect_refused(file.string(), {});
        } else if (name.rfind("accept-", 0) == 0) {
            SCOPED_TRACE(name);
            Result<TetMeshDesc> loaded = load(file.string());
            ASSERT_TRUE(loaded.ok()) << loaded.error();
            expect_simulates(file.string());
        } else {
            ADD_FAILURE() << name << ": name a regression file refuse-* or accept-*";
        }
    }
}
