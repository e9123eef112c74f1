// The camera as the renderer needs it, and the orbit camera the app and the
// screenshots use to frame a body. No GL here: plain matrices.
#pragma once

#include <glm/glm.hpp>

struct CameraView {
    glm::mat4 view;
    glm::mat4 projection;
    glm::vec3 eye;  // world position, metres
};

// Perspective field of view and clip planes of the orbit camera. The near
// plane is small so that the camera can come close to a 0.5 m body.
inline constexpr float kOrbitFovYDeg = 45.0f;
inline constexpr float kOrbitNearM = 0.05f;
inline constexpr float kOrbitFarM = 100.0f;

// A camera on a sphere of radius `distance_m` around `target`, looking at it.
// yaw 0 looks along -z (the eye is on +z); positive pitch lifts the eye and
// looks down. Pitch is clamped short of the poles, where "up" is undefined.
CameraView orbit_camera_view(glm::vec3 target, float yaw_rad, float pitch_rad, float distance_m,
                             float aspect);
