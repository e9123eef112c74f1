#include "gpu/camera_view.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

CameraView orbit_camera_view(glm::vec3 target, float yaw_rad, float pitch_rad, float distance_m,
                             float aspect)
{
    // 89 degrees: lookAt with up = +y degenerates when looking straight down.
    const float max_pitch_rad = glm::radians(89.0f);
    const float pitch = std::clamp(pitch_rad, -max_pitch_rad, max_pitch_rad);
    const float distance = std::max(distance_m, kOrbitNearM * 2.0f);
    const glm::vec3 offset(std::cos(pitch) * std::sin(yaw_rad), std::sin(pitch),
                           std::cos(pitch) * std::cos(yaw_rad));
    CameraView camera;
    camera.eye = target + distance * offset;
    camera.view = glm::lookAt(camera.eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
    // A minimised window reports a zero height; keep the matrix finite.
    const float safe_aspect = (aspect > 0.0f && std::isfinite(aspect)) ? aspect : 1.0f;
    camera.projection =
        glm::perspective(glm::radians(kOrbitFovYDeg), safe_aspect, kOrbitNearM, kOrbitFarM);
    return camera;
}
