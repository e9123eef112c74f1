// Grabbing with the left mouse button: pick the deformed surface under the
// cursor, then move the grabbed point in the plane through it that faces the
// camera; the wheel pushes that plane away or pulls it nearer. Release keeps
// the body's velocity, so a quick flick throws it.
#pragma once

#include "app/scene.h"
#include "core/grab.h"
#include "gpu/camera_view.h"

#include <optional>

// The ray from the eye through a cursor position in window pixels.
Ray cursor_ray(const CameraView& camera, glm::vec2 cursor_px, glm::vec2 window_px);

class MouseGrab {
public:
    // True when the ray hit the body and the grab began; it holds the
    // surface within `radius_fraction` of the body's size around the hit.
    // The solver has it, with its stiffness, from the first apply().
    bool begin(Scene& scene, const Ray& ray, const CameraView& camera, float radius_fraction);
    void drag(const Ray& ray);
    // Moves the drag plane along the view: positive steps push it away.
    void push(float wheel_steps, const CameraView& camera);
    void end(Scene& scene);
    // Hands the current grab to the solver; call before the steps that
    // simulate `seconds`. The solver's target follows the cursor's at most
    // at kGrabMaxTargetSpeed_m_s (core/grab.h).
    void apply(Scene& scene, float stiffness_n_per_m, float seconds);

    bool active() const { return grab_.has_value(); }
    const Grab& grab() const { return *grab_; }

private:
    std::optional<Grab> grab_;       // its target is the cursor's
    glm::vec3 applied_target_m_{0.0f};  // the target the solver has
    glm::vec3 plane_point_m_{0.0f};
    glm::vec3 plane_normal_{0.0f, 0.0f, 1.0f};  // toward the camera
};
