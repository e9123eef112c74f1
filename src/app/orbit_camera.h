// The orbit camera: right drag orbits, middle drag pans, the wheel zooms.
#pragma once

#include "gpu/camera_view.h"

#include <glm/glm.hpp>

// The part of the window the panel leaves free: the picture is centred
// there, not on the whole window. `shift_ndc` moves the projection's centre
// sideways (NDC units, +1 = half the width); `aspect` is the free part's.
struct FreeArea {
    float shift_ndc = 0.0f;
    float aspect = 1.0f;
};

// `panel_x0_px`..`panel_x1_px`: the panel's columns in a window of
// `window_px`; the free part is the wider side. Without a panel (x1 <= x0)
// it is the whole window. At most 60% of the width counts as covered, so that
// a panel over most of a small window does not push the picture off it.
FreeArea free_area(glm::vec2 window_px, float panel_x0_px, float panel_x1_px);

class OrbitCamera {
public:
    // Looks at the middle of the box from a distance that shows all of it in
    // a view of `aspect` (width / height).
    void frame(glm::vec3 box_min, glm::vec3 box_max, float aspect = 16.0f / 9.0f);
    // Moves the point looked at `fraction` (0..1) of the way to `point`,
    // keeping the angles and the distance: a camera that follows a body.
    void follow(glm::vec3 point, float fraction);

    void orbit(glm::vec2 drag_px);
    void pan(glm::vec2 drag_px, float viewport_height_px);
    void zoom(float wheel_steps);

    // `aspect`: the whole window's; `shift_ndc`: FreeArea's.
    CameraView view(float aspect, float shift_ndc = 0.0f) const;
    // The point the camera looks at and orbits: where new bodies are added.
    glm::vec3 focus() const { return target_; }

private:
    glm::vec3 target_{0.0f, 0.5f, 0.0f};
    float yaw_rad_ = 0.6f;
    float pitch_rad_ = 0.35f;
    float distance_m_ = 3.0f;
};
