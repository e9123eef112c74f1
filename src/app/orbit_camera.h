// The orbit camera: right drag orbits, middle drag pans, the wheel zooms.
#pragma once

#include "gpu/camera_view.h"

#include <glm/glm.hpp>

class OrbitCamera {
public:
    // Looks at the middle of the box from a distance that shows all of it.
    void frame(glm::vec3 box_min, glm::vec3 box_max);

    void orbit(glm::vec2 drag_px);
    void pan(glm::vec2 drag_px, float viewport_height_px);
    void zoom(float wheel_steps);

    CameraView view(float aspect) const;
    // The point the camera looks at and orbits: where new bodies are added.
    glm::vec3 focus() const { return target_; }

private:
    glm::vec3 target_{0.0f, 0.5f, 0.0f};
    float yaw_rad_ = 0.6f;
    float pitch_rad_ = 0.35f;
    float distance_m_ = 3.0f;
};
