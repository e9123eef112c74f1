// Static colliders a scene places: spheres, boxes and capsules. They never
// move; the bodies' vertices are projected out of them every iteration, with
// the ground's friction (contact_math.glsl).
#pragma once

#include <glm/glm.hpp>

#include <string>

enum class ObstacleShape { sphere = 0, box = 1, capsule = 2 };

struct Obstacle {
    ObstacleShape shape = ObstacleShape::sphere;
    // sphere: a is the centre. box: a is the centre, b the half extents
    // (axis-aligned). capsule: the segment a-b.
    glm::vec3 a{0.0f};
    glm::vec3 b{0.0f};
    float radius_m = 0.0f;  // sphere and capsule

    bool operator==(const Obstacle&) const = default;
};

const char* obstacle_shape_name(ObstacleShape shape);

// The obstacle's bounding box, for drawing and for fitting the shadow map.
glm::vec3 obstacle_min(const Obstacle& obstacle);
glm::vec3 obstacle_max(const Obstacle& obstacle);
