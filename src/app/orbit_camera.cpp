#include "app/orbit_camera.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace {
constexpr float kRadiansPerPixel = 0.006f;
constexpr float kZoomPerStep = 0.9f;
constexpr float kMinDistanceM = 0.3f;
constexpr float kMaxDistanceM = 40.0f;
}  // namespace

FreeArea free_area(glm::vec2 window_px, float panel_x0_px, float panel_x1_px)
{
    FreeArea area;
    if (!(window_px.x > 0.0f) || !(window_px.y > 0.0f)) {
        return area;
    }
    float left = 0.0f;
    float right = window_px.x;
    const float x0 = std::clamp(panel_x0_px, 0.0f, window_px.x);
    const float x1 = std::clamp(panel_x1_px, 0.0f, window_px.x);
    if (x1 > x0) {
        if (x0 < window_px.x - x1) {
            left = std::min(x1, 0.6f * window_px.x);  // the panel on the left
        } else {
            right = std::max(x0, 0.4f * window_px.x);
        }
    }
    area.shift_ndc = (left + right - window_px.x) / window_px.x;
    area.aspect = (right - left) / window_px.y;
    return area;
}

void OrbitCamera::frame(glm::vec3 box_min, glm::vec3 box_max, float aspect)
{
    // Aim a little below the middle, at the ground-facing part of the body:
    // it falls, and the ground under it is part of the picture.
    target_ = 0.5f * (box_min + box_max);
    target_.y = std::max(0.3f, 0.6f * target_.y);
    const float radius = 0.5f * glm::length(box_max - box_min);
    // The narrower of the two angles of view decides.
    const float half_fov_y = glm::radians(kOrbitFovYDeg) * 0.5f;
    const float safe_aspect = aspect > 0.0f && std::isfinite(aspect) ? aspect : 1.0f;
    const float half_fov = std::min(half_fov_y, std::atan(std::tan(half_fov_y) * safe_aspect));
    distance_m_ = std::clamp(radius / std::tan(half_fov) * 1.6f, kMinDistanceM, kMaxDistanceM);
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

void OrbitCamera::follow(glm::vec3 point, float fraction)
{
    if (!glm::all(glm::lessThan(glm::abs(point), glm::vec3(1e4f)))) {
        return;  // not finite, or far beyond anything worth looking at
    }
    target_ += std::clamp(fraction, 0.0f, 1.0f) * (point - target_);
}

CameraView OrbitCamera::view(float aspect, float shift_ndc) const
{
    CameraView camera = orbit_camera_view(target_, yaw_rad_, pitch_rad_, distance_m_, aspect);
    // Shifting clip-space x by shift * w moves the whole picture sideways
    // on the screen without turning the camera.
    const float shift = std::isfinite(shift_ndc) ? std::clamp(shift_ndc, -1.0f, 1.0f) : 0.0f;
    camera.projection =
        glm::translate(glm::mat4(1.0f), glm::vec3(shift, 0.0f, 0.0f)) * camera.projection;
    return camera;
}
