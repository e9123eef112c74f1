#include "core/grab.h"

#include "core/grab_math.h"

#include <algorithm>
#include <cmath>

Grab grab_vertex(uint32_t vertex, glm::vec3 target_m, float stiffness_n_per_m)
{
    return {glm::uvec3(vertex), glm::vec3(1.0f, 0.0f, 0.0f), target_m, stiffness_n_per_m,
            {GrabAnchor{vertex, 1.0f, glm::vec3(0.0f)}}};
}

Grab grab_hit(const SurfaceHit& hit, const std::vector<glm::vec3>& positions,
              float stiffness_n_per_m)
{
    Grab grab{hit.vertices, hit.barycentric, hit.point_m, stiffness_n_per_m, {}};
    for (int c = 0; c < 3; ++c) {
        const uint32_t v = hit.vertices[c];
        if (hit.barycentric[c] <= 0.0f) {
            continue;
        }
        // A corner listed twice (a one-vertex hit) adds its share.
        auto same = std::find_if(grab.anchors.begin(), grab.anchors.end(),
                                 [&](const GrabAnchor& a) { return a.vertex == v; });
        if (same != grab.anchors.end()) {
            same->share += hit.barycentric[c];
        } else {
            grab.anchors.push_back({v, hit.barycentric[c], positions[v] - hit.point_m});
        }
    }
    if (grab.anchors.empty()) {  // weights all zero: a degenerate hit
        grab.anchors.push_back({hit.vertices.x, 1.0f, positions[hit.vertices.x] - hit.point_m});
    }
    float total = 0.0f;
    for (const GrabAnchor& a : grab.anchors) total += a.share;
    for (GrabAnchor& a : grab.anchors) a.share /= total;
    return grab;
}

Grab spread_grab(const World& world, const std::vector<glm::vec3>& positions,
                 const SurfaceHit& hit, float radius_m, float stiffness_n_per_m)
{
    const TetMesh& mesh = *world.mesh;
    const uint32_t body = world.vertex_body[hit.vertices.x];
    const WorldBody& range = world.bodies[body];
    struct Candidate {
        float distance_m;
        uint32_t vertex;
    };
    std::vector<Candidate> reach;
    if (radius_m > 0.0f && std::isfinite(radius_m)) {
        for (uint32_t v = range.first_vertex; v < range.first_vertex + range.vertex_count; ++v) {
            const bool on_surface = mesh.vertex_triangles.begin(v) != mesh.vertex_triangles.end(v);
            const float d = glm::length(positions[v] - hit.point_m);
            if (on_surface && d < radius_m) {
                reach.push_back({d, v});
            }
        }
    }
    if (reach.size() < 3) {
        return grab_hit(hit, positions, stiffness_n_per_m);
    }
    if (reach.size() > kMaxGrabAnchors) {
        std::nth_element(reach.begin(), reach.begin() + kMaxGrabAnchors, reach.end(),
                         [](const Candidate& a, const Candidate& b) {
                             return a.distance_m < b.distance_m ||
                                    (a.distance_m == b.distance_m && a.vertex < b.vertex);
                         });
        reach.resize(kMaxGrabAnchors);
        std::sort(reach.begin(), reach.end(),
                  [](const Candidate& a, const Candidate& b) { return a.vertex < b.vertex; });
    }
    Grab grab{hit.vertices, hit.barycentric, hit.point_m, stiffness_n_per_m, {}};
    float total = 0.0f;
    for (const Candidate& c : reach) {
        const float q = 1.0f - (c.distance_m / radius_m) * (c.distance_m / radius_m);
        grab.anchors.push_back({c.vertex, q * q, positions[c.vertex] - hit.point_m});
        total += q * q;
    }
    for (GrabAnchor& a : grab.anchors) a.share /= total;
    return grab;
}

Grab spread_grab_at_vertex(const World& world, const std::vector<glm::vec3>& positions,
                           uint32_t vertex, float radius_m, float stiffness_n_per_m)
{
    SurfaceHit hit;
    hit.vertices = glm::uvec3(vertex);
    hit.barycentric = glm::vec3(1.0f, 0.0f, 0.0f);
    hit.point_m = positions[vertex];
    return spread_grab(world, positions, hit, radius_m, stiffness_n_per_m);
}

float grab_radius_m(const World& world, size_t body, float fraction)
{
    const WorldBody& range = world.bodies[body];
    glm::vec3 lo(INFINITY);
    glm::vec3 hi(-INFINITY);
    for (uint32_t v = range.first_vertex; v < range.first_vertex + range.vertex_count; ++v) {
        lo = glm::min(lo, world.mesh->rest_positions[v]);
        hi = glm::max(hi, world.mesh->rest_positions[v]);
    }
    const glm::vec3 size = hi - lo;
    return range.vertex_count > 0 ? fraction * std::max({size.x, size.y, size.z}) : 0.0f;
}

std::optional<SurfaceHit> pick_surface(const TetMesh& mesh,
                                       const std::vector<glm::vec3>& positions, const Ray& ray)
{
    std::optional<SurfaceHit> nearest;
    for (uint32_t f = 0; f < mesh.surface_triangles.size(); ++f) {
        const glm::uvec3& tri = mesh.surface_triangles[f];
        glm::vec3 barycentric;
        const float t = grab_math::tm_ray_triangle(ray.origin_m, ray.direction, positions[tri.x],
                                                   positions[tri.y], positions[tri.z],
                                                   barycentric);
        // Strictly nearer: on a tie the lower triangle index wins, as on the GPU.
        if (t > 0.0f && (!nearest || t < nearest->distance_m)) {
            nearest = SurfaceHit{f, tri, barycentric, t, ray.origin_m + t * ray.direction};
        }
    }
    return nearest;
}

float sanitized_grab_stiffness(float stiffness_n_per_m)
{
    if (!std::isfinite(stiffness_n_per_m)) {
        return kDefaultGrabStiffness;
    }
    return std::clamp(stiffness_n_per_m, 1.0f, 1.0e9f);
}

glm::vec3 speed_limited_target(const glm::vec3& previous, const glm::vec3& wanted,
                               float seconds)
{
    // In double: a far target's length must not overflow float.
    const glm::dvec3 move = glm::dvec3(wanted) - glm::dvec3(previous);
    const double distance = glm::length(move);
    const double reach = static_cast<double>(kGrabMaxTargetSpeed_m_s) * seconds;
    if (distance <= reach) {
        return wanted;
    }
    if (!std::isfinite(distance)) {
        return previous;  // nowhere sensible to head for
    }
    return glm::vec3(glm::dvec3(previous) + move * (reach / distance));
}

float grab_max_step_m(const TetMesh& mesh)
{
    const double edge_m = mesh.mean_surface_edge_m(0, mesh.surface_triangles.size());
    return edge_m > 0.0 ? static_cast<float>(0.5 * edge_m) : 0.05f;
}
