#include "core/obstacle.h"

const char* obstacle_shape_name(ObstacleShape shape)
{
    switch (shape) {
    case ObstacleShape::sphere: return "sphere";
    case ObstacleShape::box: return "box";
    case ObstacleShape::capsule: return "capsule";
    }
    return "?";
}

glm::vec3 obstacle_min(const Obstacle& o)
{
    switch (o.shape) {
    case ObstacleShape::box: return o.a - o.b;
    case ObstacleShape::capsule: return glm::min(o.a, o.b) - glm::vec3(o.radius_m);
    case ObstacleShape::sphere: break;
    }
    return o.a - glm::vec3(o.radius_m);
}

glm::vec3 obstacle_max(const Obstacle& o)
{
    switch (o.shape) {
    case ObstacleShape::box: return o.a + o.b;
    case ObstacleShape::capsule: return glm::max(o.a, o.b) + glm::vec3(o.radius_m);
    case ObstacleShape::sphere: break;
    }
    return o.a + glm::vec3(o.radius_m);
}
