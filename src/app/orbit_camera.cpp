#include "app/orbit_camera.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>

namespace {
constexpr float kRadiansPerPixel = 0.006f;
constexpr float kZoomPerStep = 0.9f;
constexpr float kMinDistanceM = 0.3f;
constexpr float kMaxDistanceM = 40.0f;
}  // namespace

void OrbitCamera::frame(glm::vec3 box_min, glm::vec3 box_max)
{
    // Aim a little below the middle, at the ground-facing part of the body:
    // it falls, and the ground under it is part of the picture.
    target_ = 0.5f * (box_min + box_max);
    target_.y = std::max(0.3f, 0.6f * target_.y);
    const float radius = 0.5f * glm::length(box_max - box_min);
    distance_m_ = std::clamp(radius / std::tan(glm::radians(kOrbitFovYDeg) * 0.5f) * 1.6f,
                             kMinDistanceM, kMaxDistanceM);
    yaw_rad_ = 0.6f;
    pitch_rad_ = 0.35f;
}

void OrbitCamera::orbit(glm::vec2 drag_px)
{
    yaw_rad_ -= drag_px.x * kRadiansPerPixel;
    pitch_rad_ = std::clamp(pitch_rad_ + drag_px.y * kRadiansPerPixel, -0.2f, 1.5f);
}

void OrbitCamera::pan(glm::vec2 drag_px, float viewport_height_px)
{
    // Move the target so the point under the cursor follows it.
    const float metres_per_px = 2.0f * distance_m_ *
                                std::tan(glm::radians(kOrbitFovYDeg) * 0.5f) /
                                std::max(viewport_height_px, 1.0f);
    const CameraView v = view(1.0f);
    const glm::vec3 right(v.view[0][0], v.view[1][0], v.view[2][0]);
    const glm::vec3 up(v.view[0][1], v.view[1][1], v.view[2][1]);
    target_ += (-drag_px.x * right + drag_px.y * up) * metres_per_px;
}

void OrbitCamera::zoom(float wheel_steps)
{
    distance_m_ = std::clamp(distance_m_ * std::pow(kZoomPerStep, wheel_steps), kMinDistanceM,
                             kMaxDistanceM);
}

CameraView OrbitCamera::view(float aspect) const
{
    return orbit_camera_view(target_, yaw_rad_, pitch_rad_, distance_m_, aspect);
}
