#include "app/mouse_grab.h"

#include <cmath>

Ray cursor_ray(const CameraView& camera, glm::vec2 cursor_px, glm::vec2 window_px)
{
    const glm::vec2 ndc(2.0f * cursor_px.x / window_px.x - 1.0f,
                        1.0f - 2.0f * cursor_px.y / window_px.y);
    const glm::mat4 inverse = glm::inverse(camera.projection * camera.view);
    glm::vec4 near_point = inverse * glm::vec4(ndc, -1.0f, 1.0f);
    glm::vec4 far_point = inverse * glm::vec4(ndc, 1.0f, 1.0f);
    near_point /= near_point.w;
    far_point /= far_point.w;
    return {glm::vec3(near_point), glm::normalize(glm::vec3(far_point - near_point))};
}

namespace {

glm::vec3 view_forward(const CameraView& camera)
{
    // The view matrix's third row is the camera's backward axis.
    return -glm::vec3(camera.view[0][2], camera.view[1][2], camera.view[2][2]);
}

}  // namespace

bool MouseGrab::begin(Scene& scene, const Ray& ray, const CameraView& camera,
                      float radius_fraction)
{
    std::optional<SurfaceHit> hit = scene.pick(ray);
    if (!hit) {
        return false;
    }
    grab_ = scene.grab_patch(*hit, radius_fraction, kDefaultGrabStiffness);
    applied_target_m_ = grab_->target_m;
    plane_point_m_ = hit->point_m;
    plane_normal_ = -view_forward(camera);
    return true;
}

void MouseGrab::drag(const Ray& ray)
{
    if (!grab_) {
        return;
    }
    const float facing = glm::dot(ray.direction, plane_normal_);
    if (std::abs(facing) < 1e-4f) {
        return;  // the ray runs along the plane: keep the last target
    }
    const float t = glm::dot(plane_point_m_ - ray.origin_m, plane_normal_) / facing;
    if (t > 0.0f) {
        grab_->target_m = ray.origin_m + t * ray.direction;
    }
}

void MouseGrab::push(float wheel_steps, const CameraView& camera)
{
    if (!grab_ || wheel_steps == 0.0f) {
        return;
    }
    // 10% of the distance to the camera per wheel step.
    const glm::vec3 forward = view_forward(camera);
    const float distance = glm::dot(plane_point_m_ - camera.eye, forward);
    const glm::vec3 move = forward * (0.1f * wheel_steps * std::max(distance, 0.1f));
    plane_point_m_ += move;
    grab_->target_m += move;
}

void MouseGrab::end(Scene& scene)
{
    if (grab_) {
        grab_.reset();
        scene.set_grab(std::nullopt);
    }
}

void MouseGrab::apply(Scene& scene, float stiffness_n_per_m, float seconds)
{
    if (grab_) {
        grab_->stiffness_n_per_m = stiffness_n_per_m;
        applied_target_m_ = speed_limited_target(applied_target_m_, grab_->target_m, seconds);
        Grab applied = *grab_;
        applied.target_m = applied_target_m_;
        scene.set_grab(applied);
    }
}
