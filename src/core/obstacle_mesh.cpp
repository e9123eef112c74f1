#include "core/obstacle_mesh.h"

#include <glm/gtc/constants.hpp>

#include <cmath>

namespace {

constexpr int kSegments = 32;  // around
constexpr int kRings = 16;     // pole to pole (a capsule's two halves get 8 each)

// A sphere of `radius` around `centre`, its upper half lifted by `lift`
// along `axis`: a capsule when lift > 0. The grid is closed at the poles.
void add_round(ObstacleMesh& mesh, glm::vec3 centre, glm::vec3 axis, float lift, float radius)
{
    // An orthonormal frame with `axis` as its y.
    const glm::vec3 y = glm::normalize(axis);
    const glm::vec3 helper = std::abs(y.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 0, 1);
    const glm::vec3 x = glm::normalize(glm::cross(helper, y));
    const glm::vec3 z = glm::cross(x, y);
    const uint32_t first = static_cast<uint32_t>(mesh.positions.size());
    // Rings 0..kRings from the top pole; the capsule repeats the equator so
    // that its cylinder is a band of its own.
    const int rings = lift > 0.0f ? kRings + 1 : kRings;
    for (int r = 0; r <= rings; ++r) {
        const int latitude_step = lift > 0.0f && r > kRings / 2 ? r - 1 : r;
        const float theta = glm::pi<float>() * static_cast<float>(latitude_step) / kRings;
        const bool upper = lift > 0.0f ? r <= kRings / 2 : false;
        for (int s = 0; s <= kSegments; ++s) {
            const float phi = glm::two_pi<float>() * static_cast<float>(s) / kSegments;
            const glm::vec3 n = std::sin(theta) * (std::cos(phi) * x + std::sin(phi) * z) +
                                std::cos(theta) * y;
            mesh.positions.push_back(centre + radius * n + (upper ? lift * y : glm::vec3(0.0f)));
            mesh.normals.push_back(n);
        }
    }
    for (int r = 0; r < rings; ++r) {
        for (int s = 0; s < kSegments; ++s) {
            const uint32_t a = first + static_cast<uint32_t>(r * (kSegments + 1) + s);
            const uint32_t b = a + kSegments + 1;
            // a is above b; a + 1 is one segment on: counter-clockwise from outside.
            mesh.indices.insert(mesh.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
        }
    }
}

void add_box(ObstacleMesh& mesh, glm::vec3 centre, glm::vec3 half)
{
    for (int axis = 0; axis < 3; ++axis) {
        for (const float side : {-1.0f, 1.0f}) {
            glm::vec3 n(0.0f);
            n[axis] = side;
            // Two tangents such that (u, v, n) is right-handed.
            glm::vec3 u(0.0f);
            u[(axis + 1) % 3] = 1.0f;
            glm::vec3 v = glm::cross(n, u);
            const glm::vec3 face = centre + n * half[axis];
            const float hu = half[(axis + 1) % 3];
            const float hv = glm::dot(glm::abs(v), half);
            const uint32_t first = static_cast<uint32_t>(mesh.positions.size());
            for (const glm::vec2 corner : {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1),
                                           glm::vec2(-1, 1)}) {
                mesh.positions.push_back(face + corner.x * hu * u + corner.y * hv * v);
                mesh.normals.push_back(n);
            }
            mesh.indices.insert(mesh.indices.end(),
                                {first, first + 1, first + 2, first, first + 2, first + 3});
        }
    }
}

}  // namespace

ObstacleMesh make_obstacle_mesh(const std::vector<Obstacle>& obstacles)
{
    ObstacleMesh mesh;
    for (const Obstacle& o : obstacles) {
        switch (o.shape) {
        case ObstacleShape::sphere:
            add_round(mesh, o.a, glm::vec3(0, 1, 0), 0.0f, o.radius_m);
            break;
        case ObstacleShape::capsule: {
            const glm::vec3 axis = o.b - o.a;
            const float length = glm::length(axis);
            add_round(mesh, o.a, length > 0.0f ? axis : glm::vec3(0, 1, 0), length, o.radius_m);
            break;
        }
        case ObstacleShape::box: add_box(mesh, o.a, o.b); break;
        }
    }
    return mesh;
}
