// The window's camera: the picture centred on the part the panel leaves
// free, framing that fits the narrower view, and following a body.
#include "app/mouse_grab.h"
#include "app/orbit_camera.h"

#include <gtest/gtest.h>

namespace {

// Where a world point lands in the window, pixels from the left.
float screen_x(const CameraView& view, glm::vec3 point, float width_px)
{
    const glm::vec4 clip = view.projection * view.view * glm::vec4(point, 1.0f);
    return (clip.x / clip.w * 0.5f + 0.5f) * width_px;
}

}  // namespace

TEST(FreeArea, PanelOnTheLeftMovesThePictureRight)
{
    const FreeArea area = free_area({1280.0f, 720.0f}, 10.0f, 440.0f);
    EXPECT_NEAR(area.aspect, (1280.0f - 440.0f) / 720.0f, 1e-5f);
    // The free part's middle is x = 860: 220 px right of the window's.
    EXPECT_NEAR(area.shift_ndc, 220.0f / 640.0f, 1e-5f);

    const FreeArea none = free_area({1280.0f, 720.0f}, 10.0f, 10.0f);  // collapsed
    EXPECT_FLOAT_EQ(none.shift_ndc, 0.0f);
    EXPECT_NEAR(none.aspect, 1280.0f / 720.0f, 1e-5f);

    const FreeArea right = free_area({1280.0f, 720.0f}, 900.0f, 1270.0f);
    EXPECT_LT(right.shift_ndc, 0.0f);
}

TEST(FreeArea, APanelOverMostOfASmallWindowLeavesThePictureOnIt)
{
    const FreeArea area = free_area({480.0f, 360.0f}, 10.0f, 440.0f);
    EXPECT_NEAR(area.shift_ndc, 0.6f, 1e-5f);  // 60% of the width at most counts
    EXPECT_GT(area.aspect, 0.5f);
    const FreeArea zero = free_area({0.0f, 0.0f}, 10.0f, 440.0f);  // minimised
    EXPECT_FLOAT_EQ(zero.shift_ndc, 0.0f);
    EXPECT_FLOAT_EQ(zero.aspect, 1.0f);
}

TEST(OrbitCamera, FramedBodyLandsInTheMiddleOfTheFreePart)
{
    OrbitCamera camera;
    const glm::vec3 lo(2.0f, 0.0f, -1.0f);
    const glm::vec3 hi(2.5f, 0.5f, -0.5f);
    const FreeArea area = free_area({1280.0f, 720.0f}, 10.0f, 440.0f);
    camera.frame(lo, hi, area.aspect);
    const CameraView view = camera.view(1280.0f / 720.0f, area.shift_ndc);
    EXPECT_NEAR(screen_x(view, camera.focus(), 1280.0f), 860.0f, 0.5f);
    // The whole box is inside the free part.
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y,
                          (corner & 4) ? hi.z : lo.z);
        const float x = screen_x(view, p, 1280.0f);
        EXPECT_GT(x, 440.0f);
        EXPECT_LT(x, 1280.0f);
    }
    // The cursor's ray through the free part's middle passes the focus.
    const Ray ray = cursor_ray(view, {860.0f, 360.0f}, {1280.0f, 720.0f});
    const glm::vec3 to_focus = camera.focus() - ray.origin_m;
    const float off_ray = glm::length(to_focus - glm::dot(to_focus, ray.direction) * ray.direction);
    EXPECT_LT(off_ray, 1e-3f);
}

TEST(OrbitCamera, NarrowViewFramesFromFurtherAway)
{
    OrbitCamera wide;
    OrbitCamera narrow;
    wide.frame(glm::vec3(-0.5f), glm::vec3(0.5f), 16.0f / 9.0f);
    narrow.frame(glm::vec3(-0.5f), glm::vec3(0.5f), 0.5f);
    const float wide_distance = glm::length(wide.view(1.0f).eye - wide.focus());
    const float narrow_distance = glm::length(narrow.view(1.0f).eye - narrow.focus());
    EXPECT_GT(narrow_distance, 1.5f * wide_distance);
}

TEST(OrbitCamera, FollowingEasesTowardTheBodyAndIgnoresNonsense)
{
    OrbitCamera camera;
    camera.frame(glm::vec3(-0.5f, 0.0f, -0.5f), glm::vec3(0.5f, 1.0f, 0.5f));
    const glm::vec3 start = camera.focus();
    const glm::vec3 body(4.0f, 0.5f, -3.0f);
    camera.follow(body, 0.5f);
    EXPECT_NEAR(glm::length(camera.focus() - 0.5f * (start + body)), 0.0f, 1e-5f);
    for (int i = 0; i < 40; ++i) {
        camera.follow(body, 0.5f);
    }
    EXPECT_NEAR(glm::length(camera.focus() - body), 0.0f, 1e-4f);
    camera.follow(glm::vec3(NAN), 0.5f);
    camera.follow(glm::vec3(1e30f), 0.5f);
    EXPECT_NEAR(glm::length(camera.focus() - body), 0.0f, 1e-4f);
}
