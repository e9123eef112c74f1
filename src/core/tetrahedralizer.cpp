#include "core/tetrahedralizer.h"

#include "core/isosurface_stuffing.h"
#include "core/number_text.h"
#include "core/segment_crossings.h"
#include "core/tet_repair.h"
#include "core/winding_number.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace {

// A point is inside where |w| > 1/2: the absolute value makes a surface
// whose triangles all face inwards as good as a correct one.
constexpr double kInsideWinding = 0.5;

// Pieces smaller than this, against the largest, are crumbs of thin parts.
constexpr double kMinPieceFraction = 0.01;

// Bisection steps for a crossing that no triangle explains (the segment goes
// through a hole): 2^-12 of a lattice edge.
constexpr int kBisectionSteps = 12;

std::string prefix(const std::string& name)
{
    return "'" + name + "': ";
}

// The surface moved into a frame where its bounding box is centred on the
// origin and its longest side is 1, in double precision: the lattice and
// the winding number then work on numbers near 1 whatever the file's units.
// In the file's own units a cube of side 6e38 has a bounding box whose size
// overflows float, and one of side 2e38 a winding number whose products
// overflow, so that it "encloses no volume".
struct UnitFrame {
    glm::dvec3 centre{0.0};
    double longest = 0.0;  // file units per unit

    glm::vec3 to_unit(const glm::vec3& p) const
    {
        return glm::vec3((glm::dvec3(p) - centre) / longest);
    }
    glm::dvec3 to_file(const glm::vec3& q) const { return centre + glm::dvec3(q) * longest; }
};

// The frame of the vertices that the triangles use (checked finite).
UnitFrame unit_frame_of(const SurfaceMesh& surface)
{
    glm::dvec3 lo(surface.positions[surface.triangles[0].x]), hi = lo;
    for (const glm::uvec3& t : surface.triangles) {
        for (int a = 0; a < 3; ++a) {
            lo = glm::min(lo, glm::dvec3(surface.positions[t[a]]));
            hi = glm::max(hi, glm::dvec3(surface.positions[t[a]]));
        }
    }
    const glm::dvec3 size = hi - lo;
    UnitFrame frame;
    frame.centre = 0.5 * (lo + hi);
    frame.longest = std::max(size.x, std::max(size.y, size.z));
    return frame;
}

// The triangles' vertices in the unit frame; vertices no triangle uses are
// left at the origin (in the unit frame they might not fit a float).
SurfaceMesh in_unit_frame(const SurfaceMesh& surface, const UnitFrame& frame)
{
    SurfaceMesh unit;
    unit.triangles = surface.triangles;
    unit.positions.assign(surface.positions.size(), glm::vec3(0.0f));
    for (const glm::uvec3& t : surface.triangles) {
        for (int a = 0; a < 3; ++a) {
            unit.positions[t[a]] = frame.to_unit(surface.positions[t[a]]);
        }
    }
    return unit;
}

// The surface seen as a solid: inside tests from the winding number, and
// crossings from the triangles themselves, falling back to bisection on the
// winding number where a segment slips through a hole.
class SurfaceSolid {
public:
    explicit SurfaceSolid(const SurfaceMesh& surface)
        : surface_(surface), field_(surface), crossings_(surface)
    {
    }

    std::vector<bool> inside(const std::vector<glm::vec3>& points) const
    {
        const std::vector<double> w = field_.at_points(points);
        std::vector<bool> result(points.size());
        for (size_t i = 0; i < points.size(); ++i) {
            result[i] = std::abs(w[i]) > kInsideWinding;
        }
        return result;
    }

    glm::vec3 crossing(const glm::vec3& in, const glm::vec3& out) const
    {
        const double best = crossings_.first_hit(in, out).value_or(2.0);
        if (best <= 1.0) {
            return glm::vec3(glm::dvec3(in) + best * (glm::dvec3(out) - glm::dvec3(in)));
        }
        glm::vec3 a = in, b = out;
        for (int step = 0; step < kBisectionSteps; ++step) {
            const glm::vec3 mid = 0.5f * (a + b);
            (std::abs(field_.at(mid)) > kInsideWinding ? a : b) = mid;
        }
        return 0.5f * (a + b);
    }

private:
    const SurfaceMesh& surface_;
    WindingNumberField field_;
    SegmentCrossings crossings_;
};

}  // namespace

Result<TetMeshDesc> tetrahedralize(const SurfaceMesh& surface,
                                   const TetrahedralizeOptions& options,
                                   const std::string& name, TetrahedralizeReport* report)
{
    const auto start = std::chrono::steady_clock::now();
    const int resolution = options.cells_along_longest_side;
    if (resolution < kMinCellsAlongLongestSide || resolution > kMaxCellsAlongLongestSide) {
        return Result<TetMeshDesc>::failure(
            prefix(name) + "resolution " + std::to_string(resolution) + " is outside " +
            std::to_string(kMinCellsAlongLongestSide) + "-" +
            std::to_string(kMaxCellsAlongLongestSide) + " cells along the longest side");
    }
    if (surface.triangles.empty()) {
        return Result<TetMeshDesc>::failure(prefix(name) + "the surface has no triangles");
    }
    for (const glm::uvec3& t : surface.triangles) {
        for (int a = 0; a < 3; ++a) {
            if (t[a] >= surface.positions.size()) {
                return Result<TetMeshDesc>::failure(prefix(name) + "a triangle uses vertex " +
                                                    std::to_string(t[a]) + ", out of range");
            }
            const glm::vec3& p = surface.positions[t[a]];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
                return Result<TetMeshDesc>::failure(prefix(name) +
                                                    "a vertex has a non-finite coordinate");
            }
        }
    }
    const UnitFrame frame = unit_frame_of(surface);
    if (!(frame.longest > 0.0)) {
        return Result<TetMeshDesc>::failure(prefix(name) + "the surface is a single point");
    }
    const SurfaceMesh unit = in_unit_frame(surface, frame);
    const Bounds bounds = surface_bounds(unit);
    const glm::vec3 size = bounds.size();

    // The lattice: cubes of side 1 / resolution, one more on every side than
    // the box needs, so that its outer vertices are all outside. In the unit
    // frame a side needs at most resolution cells (one more where rounding
    // lifts the quotient above a whole number).
    BccLatticeSpec lattice;
    lattice.cell_m = 1.0f / static_cast<float>(resolution);
    for (int a = 0; a < 3; ++a) {
        const double cells = std::ceil(static_cast<double>(size[a]) / lattice.cell_m) + 2.0;
        if (!(cells >= 2.0 && cells <= resolution + 3.0)) {
            return Result<TetMeshDesc>::failure(prefix(name) + "the surface's bounding box "
                                                "cannot be covered by a lattice (" +
                                                short_number(cells) + " cells along an axis)");
        }
        lattice.cells[a] = static_cast<int>(cells);
    }
    const glm::vec3 unit_centre = 0.5f * (bounds.lo + bounds.hi);
    lattice.origin = unit_centre - 0.5f * lattice.cell_m * glm::vec3(lattice.cells);

    enter_stage(options.progress, kWindingNumbersStage);
    const SurfaceSolid solid(unit);
    ImplicitSolid implicit;
    implicit.inside = [&](const std::vector<glm::vec3>& p) { return solid.inside(p); };
    implicit.crossing = [&](const glm::vec3& in, const glm::vec3& out) {
        return solid.crossing(in, out);
    };
    StuffingStats stats;
    TetMeshDesc mesh = stuff_isosurface(lattice, implicit, name, &stats, options.progress);
    if (load_cancelled(options.progress)) {
        return Result<TetMeshDesc>::failure(load_cancelled_message(name));
    }
    if (mesh.tets.empty()) {
        return Result<TetMeshDesc>::failure(
            prefix(name) + "the surface encloses no volume at this resolution: the winding "
                           "number finds no inside (too open a surface, or thinner than a "
                           "cell of " + short_number(frame.longest / resolution) + ")");
    }

    // Crumbs first, so that a crumb hanging on a vertex is not split off
    // and kept.
    const size_t dropped_pieces = drop_small_pieces(mesh, kMinPieceFraction);
    const size_t split = split_pinched_vertices(mesh);
    drop_unused_vertices(mesh);

    // Back to the file's units, in double; a vertex that then does not fit a
    // float (a surface out at the edge of the float range, a lattice point
    // a little beyond it) refuses the mesh rather than making it infinite.
    for (glm::vec3& p : mesh.positions) {
        const glm::dvec3 q = frame.to_file(p);
        for (int a = 0; a < 3; ++a) {
            if (!(std::abs(q[a]) <= static_cast<double>(std::numeric_limits<float>::max()))) {
                return Result<TetMeshDesc>::failure(
                    prefix(name) + "the tet mesh does not fit in float coordinates (a vertex at " +
                    short_number(q[a]) + "): scale the surface down");
            }
        }
        p = glm::vec3(q);
    }

    if (report) {
        report->quality = measure_tet_quality(mesh);
        report->surface_volume = std::abs(signed_enclosed_volume(surface));
        report->volume_ratio = report->surface_volume > 0.0
                                   ? report->quality.volume_m3 / report->surface_volume
                                   : 0.0;
        report->lattice_vertices = stats.lattice_vertices;
        report->warped_vertices = stats.warped_vertices;
        report->dropped_tets = stats.dropped_flat_tets + dropped_pieces;
        report->split_vertices = split;
        report->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return mesh;
}
