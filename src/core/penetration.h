// How far soft bodies interpenetrate: a statistic measured on the deformed
// positions of a world whose bodies share one TetMesh, for the tests and
// the run summary. Nothing here steers the simulation; it runs once per
// measurement (30-60 ms for 50,000 tets on one core), not once per step.
#pragma once

#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

struct PenetrationReport {
    static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

    double max_depth_m = 0.0;         // depth of the deepest vertex; 0 when none is inside
    uint32_t deepest_vertex = kNone;  // mesh vertex index, kNone when none is inside
    uint32_t body_inside = kNone;     // the body whose tet holds the deepest vertex
    size_t vertices_inside = 0;       // vertices inside another body, or their own past their own tets
    // The deepest a vertex lies inside another body, leaving out its own
    // (the contacts' part: a body folded into itself past its own tets is
    // the tets' and self-contact's).
    double max_depth_between_bodies_m = 0.0;
};

// How a vertex counts as inside a body: it lies in one of the body's tets,
// each barycentric coordinate above -margin (so that a vertex on a face,
// edge or corner between tets of the body is in them whatever the
// rounding), and its depth (below) exceeds margin x that tet's longest
// edge. A vertex exactly on another body's surface, or within rounding of
// it, touches without being inside; a vertex less than about 1e-6 of a
// tet's size inside is not counted either. (Strict barycentric containment
// alone would miss a vertex on a face between two tets of the other body:
// eight overlapping lattice cubes, offset equally along x and y, had every
// such vertex on a face and showed no penetration at all.)
constexpr double kPenetrationInsideMargin = 1e-6;

// A tet flattened below this fraction of the cube of its longest edge
// (|det Ds| <= kFlatTetFraction * longest^3; a regular tet has 0.71) has no
// inside: its volume is then of the order of the rounding of float
// positions, and its barycentric coordinates are noise. The sheets of
// zero-volume tets that a hard landing leaves on the ground are such tets.
constexpr double kFlatTetFraction = 1e-6;

// Measures, in double precision, the vertices that lie inside another body,
// or inside their own body in a tet that does not have them as a corner (a
// body folded through itself); inside as kPenetrationInsideMargin says. A
// vertex's depth is its distance to the boundary of what it has entered: for
// another body, the nearest of its surface triangles; for its own body, the
// nearest of its surface triangles that do not have the vertex as a corner
// (it is at distance 0 from those) and of the faces opposite the vertex in
// its own tets (the way out of the neighbouring tets it crept into). Inside
// several bodies, the deepest counts. The deepest vertex over all is
// reported; on equal depths the lowest vertex index, then the lowest body
// index, so that the result depends on the positions alone and not on the
// order of a search.
//
// `positions`: the deformed position of every mesh vertex; `vertex_body`:
// each vertex's body index (any numbers; a tet's body is its first
// corner's, a surface triangle's likewise). Vertices, tets and triangles
// with a non-finite position are left out (the run summary counts NaN
// separately).
PenetrationReport measure_penetration(const TetMesh& mesh,
                                      const std::vector<uint32_t>& vertex_body,
                                      const std::vector<glm::vec3>& positions);
