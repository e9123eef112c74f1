#include "core/pinned_fixtures.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr float kWallThicknessM = 0.08f;
constexpr float kWallMarginM = 0.15f;  // beyond the pinned face on each side

}  // namespace

PinnedFixtures pinned_fixtures(const World& world, bool ground)
{
    PinnedFixtures fixtures;
    const TetMesh& mesh = *world.mesh;
    for (const WorldBody& body : world.bodies) {
        glm::vec3 pinned_lo(INFINITY);
        glm::vec3 pinned_hi(-INFINITY);
        glm::vec3 body_lo(INFINITY);
        glm::vec3 body_hi(-INFINITY);
        // The markers scale with the body's surface edges.
        const double edge_m = mesh.mean_surface_edge_m(body.first_triangle, body.triangle_count);
        const float marker_radius_m = 0.12f * (edge_m > 0.0 ? static_cast<float>(edge_m) : 0.05f);
        for (uint32_t v = body.first_vertex; v < body.first_vertex + body.vertex_count; ++v) {
            const glm::vec3 p = mesh.rest_positions[v];
            body_lo = glm::min(body_lo, p);
            body_hi = glm::max(body_hi, p);
            if (!mesh.pinned[v]) {
                continue;
            }
            pinned_lo = glm::min(pinned_lo, p);
            pinned_hi = glm::max(pinned_hi, p);
            if (fixtures.markers.size() < kMaxPinnedMarkers) {
                Obstacle marker;
                marker.shape = ObstacleShape::sphere;
                marker.a = p;
                marker.radius_m = marker_radius_m;
                fixtures.markers.push_back(marker);
            }
        }
        if (pinned_lo.x > pinned_hi.x) {
            continue;  // nothing pinned
        }
        // A face: flat along exactly one axis (much thinner than the body
        // there) and spread along the other two.
        const glm::vec3 pinned_size = pinned_hi - pinned_lo;
        const glm::vec3 body_size = body_hi - body_lo;
        int axis = -1;
        int flat_axes = 0;
        for (int a = 0; a < 3; ++a) {
            if (!(pinned_size[a] >= 0.05f * body_size[a])) {
                axis = a;
                ++flat_axes;
            }
        }
        if (flat_axes != 1) {
            continue;  // pinned at a point, along a line or in a lump: markers only
        }
        const float face = 0.5f * (pinned_lo[axis] + pinned_hi[axis]);
        const float body_centre = 0.5f * (body_lo[axis] + body_hi[axis]);
        const float away = body_centre > face ? -1.0f : 1.0f;
        glm::vec3 lo = pinned_lo - glm::vec3(kWallMarginM);
        glm::vec3 hi = pinned_hi + glm::vec3(kWallMarginM);
        lo[axis] = std::min(face, face + away * kWallThicknessM);
        hi[axis] = std::max(face, face + away * kWallThicknessM);
        if (ground && axis != 1) {
            lo.y = std::min(lo.y, 0.0f);  // a wall stands on the ground
        }
        Obstacle wall;
        wall.shape = ObstacleShape::box;
        wall.a = 0.5f * (lo + hi);
        wall.b = 0.5f * (hi - lo);
        fixtures.walls.push_back(wall);
    }
    return fixtures;
}
