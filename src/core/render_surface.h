// What the window draws of the bodies: the surface each body was made from
// (an OBJ's own triangles, every vertex embedded in the tet that holds it
// and moved with that tet), or the boundary of the tets. Either way a vertex
// is split where the surface folds sharply (a crease), so that normals
// averaged per drawn vertex keep a cube's edges crisp and a bunny's curves
// smooth.
#pragma once

#include "core/tet_mesh.h"
#include "core/world.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <vector>

enum class DrawnSurface {
    own,   // each body's own surface where it has one, else its tets' boundary
    tets,  // every body's tets' boundary
};

struct RenderSurface {
    // Per drawn vertex: the simulation vertices it follows and their weights
    // (barycentric in the tet it is embedded in; sum 1). A vertex of the
    // tets' boundary follows one simulation vertex with weight 1.
    std::vector<glm::uvec4> corners;
    std::vector<glm::vec4> weights;
    std::vector<uint32_t> body;         // per drawn vertex
    std::vector<glm::uvec3> triangles;  // the tets' counter-clockwise from outside; an OBJ's as the file winds them
    Csr vertex_triangles;               // drawn vertex -> its triangles
    // Own-surface vertices that lie in no tet (the tets fill a little less
    // than the surface): they follow the nearest tet, extended.
    size_t vertices_outside_tets = 0;
    float farthest_outside_m = 0.0f;  // the largest distance of one to the nearest tet
    // Bodies whose own surface strays too far from their tets (a piece the
    // tetrahedralizer dropped, a vertex far out): their tets are drawn.
    std::vector<uint32_t> tets_instead;

    size_t vertex_count() const { return corners.size(); }
};

// Two triangles that meet at a vertex along an edge are smoothed together
// there when their rest normals differ by less than this.
inline constexpr float kDefaultCreaseAngleDeg = 50.0f;

RenderSurface build_render_surface(const World& world, DrawnSurface choice,
                                   float crease_angle_deg = kDefaultCreaseAngleDeg);

// What the user should know about `surface`: the bodies drawn as their tets
// although they have a surface of their own; empty when none.
std::string render_surface_note(const World& world, const RenderSurface& surface);

// The drawn positions for the simulation's positions: the sums the GPU's
// skin pass makes (shaders/skin_positions.comp), on the CPU.
void skin_positions(const RenderSurface& surface, const std::vector<glm::vec3>& simulation,
                    std::vector<glm::vec3>& drawn);

// Unit normal per drawn vertex: the sum of its triangles' area-weighted
// normals, normalised; straight up where they cancel (as on the GPU).
void skin_normals(const RenderSurface& surface, const std::vector<glm::vec3>& drawn,
                  std::vector<glm::vec3>& normals);
