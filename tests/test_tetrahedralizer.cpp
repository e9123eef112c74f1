// The tetrahedralizer (winding number + isosurface stuffing) on closed
// shapes, on the bunny, and on damaged surfaces: every tet positive, a
// closed manifold boundary, the enclosed volume kept, good angles.
#include "mesh_shapes.h"

#include "core/bunny.h"
#include "core/mesh_files.h"
#include "core/surface_mesh.h"
#include "core/tetrahedralizer.h"
#include "core/winding_number.h"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace {

// Isosurface stuffing with the paper's "all four on the surface" parameters
// proves dihedral angles in [9.3171, 161.6432] degrees; the bounds below
// leave room for float rounding of the cut points only.
constexpr double kMinDihedralBound_deg = 9.0;
constexpr double kMaxDihedralBound_deg = 162.0;
constexpr double kVolumeTolerance = 0.05;

SurfaceMesh parse(const ObjShape& shape, const std::string& name)
{
    Result<SurfaceMesh> s = parse_obj_surface(shape.text(), name);
    EXPECT_TRUE(s.ok()) << s.error();
    return s.ok() ? s.value() : SurfaceMesh{};
}

// Everything the issue asks of a tetrahedralized surface, against the
// volume the closed surface encloses.
void expect_good_tet_mesh(const SurfaceMesh& surface, int cells, double enclosed_volume,
                          const std::string& name)
{
    SCOPED_TRACE(name);
    TetrahedralizeOptions options;
    options.cells_along_longest_side = cells;
    TetrahedralizeReport report;
    Result<TetMeshDesc> mesh = tetrahedralize(surface, options, name, &report);
    ASSERT_TRUE(mesh.ok()) << mesh.error();

    EXPECT_EQ(report.quality.nonpositive_tets, 0u);
    std::string why;
    EXPECT_TRUE(boundary_is_closed_manifold(mesh.value(), &why)) << why;
    EXPECT_NEAR(report.quality.volume_m3 / enclosed_volume, 1.0, kVolumeTolerance);
    EXPECT_GT(report.quality.min_dihedral_deg, kMinDihedralBound_deg);
    EXPECT_LT(report.quality.max_dihedral_deg, kMaxDihedralBound_deg);

    // The solvers accept it as it is: nothing dropped, nothing flipped.
    Result<TetMesh> prepared = prepare_tet_mesh(mesh.value());
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    EXPECT_EQ(prepared.value().dropped_degenerate_tets, 0u);
    EXPECT_EQ(prepared.value().tet_count(), mesh.value().tets.size());
    EXPECT_EQ(prepared.value().vertex_count(), mesh.value().positions.size());
    for (size_t t = 0; t < mesh.value().tets.size(); ++t) {
        ASSERT_EQ(prepared.value().tets[t], mesh.value().tets[t]) << "tet " << t << " was flipped";
    }
    std::printf("[ %-14s ] %5zu vertices %6zu tets, dihedral %.1f-%.1f deg, volume ratio %.4f, %.0f ms\n",
                name.c_str(), report.quality.vertices, report.quality.tets,
                report.quality.min_dihedral_deg, report.quality.max_dihedral_deg,
                report.volume_ratio, report.seconds * 1e3);
}

}  // namespace

TEST(WindingNumber, IsOneInsideZeroOutsideAndMinusOneWhenFlipped)
{
    const SurfaceMesh sphere = parse(uv_sphere(1.0f, 12, 24), "sphere");
    const WindingNumberField w(sphere);
    // Far triangles count through the tree's expansions, about 1e-4 off
    // here (tests/test_winding_number.cpp compares with the exact sum).
    constexpr double kTreeTolerance = 1e-3;
    EXPECT_NEAR(w.at({0.0f, 0.0f, 0.0f}), 1.0, kTreeTolerance);
    EXPECT_NEAR(w.at({0.3f, -0.5f, 0.2f}), 1.0, kTreeTolerance);
    EXPECT_NEAR(w.at({2.0f, 0.0f, 0.0f}), 0.0, kTreeTolerance);
    EXPECT_NEAR(w.at({0.0f, -5.0f, 1.0f}), 0.0, kTreeTolerance);
    const WindingNumberField inverted(parse(flipped(uv_sphere(1.0f, 12, 24)), "flipped"));
    EXPECT_NEAR(inverted.at({0.0f, 0.0f, 0.0f}), -1.0, kTreeTolerance);
    // The batch version agrees with the single one.
    const std::vector<glm::vec3> points = {{0, 0, 0}, {0.9f, 0, 0}, {1.1f, 0, 0}};
    const std::vector<double> batch = w.at_points(points);
    for (size_t i = 0; i < points.size(); ++i) EXPECT_DOUBLE_EQ(batch[i], w.at(points[i]));
}

TEST(Tetrahedralizer, TestShapesAreClosedAndOutward)
{
    EXPECT_GT(signed_enclosed_volume(parse(uv_sphere(1.0f, 16, 32), "sphere")), 0.0);
    EXPECT_NEAR(signed_enclosed_volume(parse(box({1, 2, 3}), "box")), 6.0, 1e-5);
    EXPECT_GT(signed_enclosed_volume(parse(torus(1.0f, 0.4f, 32, 16), "torus")), 0.0);
}

TEST(Tetrahedralizer, Sphere)
{
    const SurfaceMesh s = parse(uv_sphere(1.0f, 24, 48), "sphere");
    expect_good_tet_mesh(s, 12, signed_enclosed_volume(s), "sphere");
}

TEST(Tetrahedralizer, BoxNotAlignedWithTheLattice)
{
    // 1 x 0.7 x 0.45: faces fall between lattice planes.
    const SurfaceMesh s = parse(box({1.0f, 0.7f, 0.45f}), "box");
    expect_good_tet_mesh(s, 9, signed_enclosed_volume(s), "box");
}

TEST(Tetrahedralizer, Torus)
{
    const SurfaceMesh s = parse(torus(1.0f, 0.4f, 48, 24), "torus");
    expect_good_tet_mesh(s, 16, signed_enclosed_volume(s), "torus");
}

TEST(Tetrahedralizer, SphereWithASmallHole)
{
    const ObjShape closed = uv_sphere(1.0f, 24, 48);
    const double volume = signed_enclosed_volume(parse(closed, "closed"));
    // Six triangles off the side of the sphere, about 0.1% of its area.
    expect_good_tet_mesh(parse(with_hole(closed, 48 * 2 * 5, 6), "holed sphere"), 12, volume,
                         "holed sphere");
}

TEST(Tetrahedralizer, InvertedOrientation)
{
    const ObjShape t = torus(1.0f, 0.4f, 48, 24);
    const double volume = signed_enclosed_volume(parse(t, "torus"));
    const SurfaceMesh inverted = parse(flipped(t), "inverted torus");
    EXPECT_LT(signed_enclosed_volume(inverted), 0.0);
    expect_good_tet_mesh(inverted, 16, volume, "inverted torus");
}

TEST(Tetrahedralizer, Bunny)
{
    Result<SurfaceMesh> bunny = load_obj_surface(asset_directory() + "/bunny.obj");
    ASSERT_TRUE(bunny.ok()) << bunny.error();
    EXPECT_EQ(bunny.value().positions.size(), 1839u);
    EXPECT_EQ(bunny.value().triangles.size(), 3674u);
    expect_good_tet_mesh(bunny.value(), 12, signed_enclosed_volume(bunny.value()), "bunny");
}

TEST(Tetrahedralizer, RefusesAnOpenSurfaceAndBadOptions)
{
    // One square: no point sees more than half the sphere of directions.
    ObjShape square;
    square.v = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}};
    square.f = {{0, 2, 1}, {0, 3, 2}};
    Result<TetMeshDesc> open = tetrahedralize(parse(square, "square.obj"), {}, "square.obj");
    ASSERT_FALSE(open.ok());
    EXPECT_NE(open.error().find("square.obj"), std::string::npos) << open.error();
    EXPECT_NE(open.error().find("no inside"), std::string::npos) << open.error();

    TetrahedralizeOptions too_fine;
    too_fine.cells_along_longest_side = 100000;
    Result<TetMeshDesc> refused = tetrahedralize(parse(box({1, 1, 1}), "b"), too_fine, "b.obj");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("resolution"), std::string::npos) << refused.error();
    EXPECT_FALSE(tetrahedralize(SurfaceMesh{}, {}, "empty.obj").ok());
}

// The tetrahedralizer works in a frame where the surface is centred and
// its longest side is 1, in double precision, so a body is filled the same
// at any float scale. In file units a sphere of diameter 6e38 had a bounding
// box of infinite size (then a NaN cell count cast to int), and one of 2e38
// a winding number whose products overflowed: "encloses no volume".
TEST(Tetrahedralizer, TheSameMeshAtEveryFloatScale)
{
    // Turned so that no lattice edge runs through a vertex of the sphere (a
    // pole on a lattice line): there the cut point depends on rounding.
    SurfaceMesh unit = parse(uv_sphere(0.5f, 8, 16), "unit sphere");
    const glm::mat3 turn(glm::rotate(glm::mat4(1.0f), 0.3f, glm::normalize(glm::vec3(1, 2, 3))));
    for (glm::vec3& p : unit.positions) p = turn * p;
    TetrahedralizeOptions options;
    options.cells_along_longest_side = 6;
    TetrahedralizeReport reference_report;
    Result<TetMeshDesc> reference = tetrahedralize(unit, options, "unit", &reference_report);
    ASSERT_TRUE(reference.ok()) << reference.error();
    for (double diameter : {1e-30, 1e30, 2e38, 6e38}) {
        SCOPED_TRACE(diameter);
        SurfaceMesh scaled = unit;
        for (glm::vec3& p : scaled.positions) p = glm::vec3(glm::dvec3(p) * diameter);
        TetrahedralizeReport report;
        Result<TetMeshDesc> mesh = tetrahedralize(scaled, options, "scaled", &report);
        ASSERT_TRUE(mesh.ok()) << mesh.error();
        EXPECT_EQ(mesh.value().tets, reference.value().tets);
        ASSERT_EQ(mesh.value().positions.size(), reference.value().positions.size());
        double worst = 0.0;
        for (size_t v = 0; v < mesh.value().positions.size(); ++v) {
            const glm::dvec3 back = glm::dvec3(mesh.value().positions[v]) / diameter;
            worst = std::max(worst, glm::length(back - glm::dvec3(reference.value().positions[v])));
        }
        EXPECT_LT(worst, 1e-6);
        EXPECT_EQ(report.quality.nonpositive_tets, 0u);
        EXPECT_NEAR(report.volume_ratio, reference_report.volume_ratio, 1e-5);
        EXPECT_TRUE(prepare_tet_mesh(mesh.value()).ok());
    }
}

// The bunny preset reads assets/bunny.tet, made once by the tool; it must
// still be what the tetrahedralizer makes of assets/bunny.obj.
TEST(Tetrahedralizer, CommittedBunnyTetMatchesTheTetrahedralizer)
{
    Result<SurfaceMesh> surface = load_obj_surface(asset_directory() + "/bunny.obj");
    ASSERT_TRUE(surface.ok()) << surface.error();
    TetrahedralizeOptions options;
    options.cells_along_longest_side = kBunnyTetResolution;
    Result<TetMeshDesc> fresh = tetrahedralize(surface.value(), options, "bunny");
    Result<TetMeshDesc> committed = load_tet_file(asset_directory() + "/bunny.tet");
    ASSERT_TRUE(fresh.ok()) << fresh.error();
    ASSERT_TRUE(committed.ok()) << committed.error();
    EXPECT_EQ(committed.value().tets, fresh.value().tets)
        << "regenerate: softbody-tetrahedralize assets/bunny.obj --resolution 12 --out "
           "assets/bunny.tet";
    ASSERT_EQ(committed.value().positions.size(), fresh.value().positions.size());
    for (size_t v = 0; v < fresh.value().positions.size(); ++v) {
        ASSERT_LT(glm::length(committed.value().positions[v] - fresh.value().positions[v]), 1e-4f)
            << "vertex " << v;
    }
}
