#include "app/added_body.h"

#include <algorithm>

Result<BodyDesc> body_to_add(const World& loaded, glm::vec3 focus_m, const BodyMaterial& material)
{
    using R = Result<BodyDesc>;
    if (loaded.body_count() != 1 || !loaded.obstacles.empty()) {
        return R::failure(kSceneFileIsNotAdded);
    }
    std::vector<BodyDesc> bodies = placed_body_descs(loaded);
    BodyDesc& body = bodies.front();
    if (body.mesh.positions.empty()) {
        return R::failure("the file's body has no vertices");
    }
    float lowest_y = body.mesh.positions.front().y;
    for (const glm::vec3& p : body.mesh.positions) {
        lowest_y = std::min(lowest_y, p.y);
    }
    const glm::vec3 centre(volume_centroid(body.mesh));
    const float base_y = std::max(focus_m.y, 0.0f) + kAddedBodyDropHeight_m;
    body.position_m = glm::vec3(focus_m.x, base_y + (centre.y - lowest_y), focus_m.z);
    body.rotation_deg = glm::vec3(0.0f);
    body.velocity_m_s = glm::vec3(0.0f);
    body.angular_velocity_rad_s = glm::vec3(0.0f);
    body.material = material;
    body.pinned = false;
    return std::move(body);
}
