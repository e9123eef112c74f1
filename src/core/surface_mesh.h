// Triangle surfaces as they come from a file: the input of the
// tetrahedralizer. Nothing here assumes the surface is closed or consistently
// oriented; the tetrahedralizer copes with both (tetrahedralizer.h).
#pragma once

#include "core/result.h"

#include <glm/glm.hpp>

#include <memory>
#include <string>
#include <vector>

struct SurfaceMesh {
    std::vector<glm::vec3> positions;      // file units (metres once placed)
    std::vector<glm::uvec3> triangles;     // indices into positions
};

// Reads the vertices and faces of a Wavefront OBJ file with tinyobjloader,
// after a strict scan of its 'v' and 'f' lines (obj_scan.h) that refuses
// what tinyobjloader would misread; a UTF-8 byte-order mark is skipped;
// polygons are fanned into triangles, everything else (normals, texture
// coordinates, materials) is ignored. Fails, with a message that names the
// file (and the line, where there is one) and the reason, when the file is
// missing or unreadable, has a malformed 'v' or 'f' line, a coordinate
// that is not a finite float, a face index out of range, or no triangles.
Result<SurfaceMesh> load_obj_surface(const std::string& path);

// The same from OBJ text in memory; `name` names the source in messages.
Result<SurfaceMesh> parse_obj_surface(const std::string& obj_text, const std::string& name);

// Signed volume enclosed by the surface, sum over triangles of
// a . (b x c) / 6 (divergence theorem): positive for a closed surface whose
// triangles are counter-clockwise seen from outside, approximate for one
// with holes.
double signed_enclosed_volume(const SurfaceMesh& surface);

struct Bounds {
    glm::vec3 lo{0.0f};
    glm::vec3 hi{0.0f};
    glm::vec3 size() const { return hi - lo; }
    // Whether the two boxes share a point, boundary included.
    bool overlaps(const Bounds& other) const
    {
        return !(hi.x < other.lo.x || lo.x > other.hi.x || hi.y < other.lo.y ||
                 lo.y > other.hi.y || hi.z < other.lo.z || lo.z > other.hi.z);
    }
};

// Axis-aligned bounds of the vertices that the triangles use.
Bounds surface_bounds(const SurfaceMesh& surface);

// A copy of `surface` with every vertex moved by `place` (a placement of the
// body it belongs to); null stays null.
template <typename Place>
std::shared_ptr<const SurfaceMesh> moved_surface(const std::shared_ptr<const SurfaceMesh>& surface,
                                                 Place&& place)
{
    if (!surface) {
        return nullptr;
    }
    auto moved = std::make_shared<SurfaceMesh>(*surface);
    for (glm::vec3& p : moved->positions) {
        p = place(p);
    }
    return moved;
}
