// The renderer on a headless context: draws the cube preset offscreen and
// checks regions of the picture (body colour, grey ground, blue sky, a
// shadow under the body), not a golden image, so that driver differences
// and look tweaks do not break it. Also the PNG writer.
#include "gl_test_support.h"

#include "core/presets.h"
#include "core/tet_mesh.h"
#include "gpu/camera_view.h"
#include "gpu/offscreen_target.h"
#include "gpu/png_writer.h"
#include "gpu/renderer.h"
#include "gpu/shader_library.h"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace {

constexpr glm::ivec2 kImageSize{1280, 720};

struct Rgb {
    int r, g, b;
    int luminance() const { return (2 * r + 5 * g + b) / 8; }
};

// The mesh's rest pose in GL buffers, laid out as the solver keeps them.
struct UploadedBody {
    GlBuffer positions;
    GlBuffer normals;
    GlBuffer triangles;
    BodyDrawData draw;
};

GlBuffer upload(GLenum target, const void* data, size_t bytes)
{
    GlBuffer buffer = make_buffer();
    glBindBuffer(target, buffer.get());
    glBufferData(target, static_cast<GLsizeiptr>(bytes), data, GL_STATIC_DRAW);
    glBindBuffer(target, 0);
    return buffer;
}

// `mirror_x` turns the body inside out: every triangle then winds clockwise
// seen from outside and its normals point inward, as in a badly inverted body.
UploadedBody upload_body(const TetMesh& mesh, bool mirror_x = false)
{
    std::vector<glm::vec3> placed;
    for (glm::vec3 p : mesh.rest_positions) {
        placed.push_back(mirror_x ? glm::vec3(-p.x, p.y, p.z) : p);
    }
    std::vector<glm::vec4> positions;
    glm::vec3 lo(INFINITY);
    glm::vec3 hi(-INFINITY);
    for (const glm::vec3& p : placed) {
        positions.emplace_back(p, 1.0f);
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    // Area-weighted vertex normals: the cross product's length is twice the area.
    std::vector<glm::vec3> sums(mesh.vertex_count(), glm::vec3(0.0f));
    std::vector<uint32_t> indices;
    for (const glm::uvec3& t : mesh.surface_triangles) {
        const glm::vec3 a = placed[t.x];
        const glm::vec3 area_normal = glm::cross(placed[t.y] - a, placed[t.z] - a);
        for (int corner = 0; corner < 3; ++corner) {
            sums[t[corner]] += area_normal;
            indices.push_back(t[corner]);
        }
    }
    std::vector<glm::vec4> normals;
    for (const glm::vec3& s : sums) {
        const float length = glm::length(s);
        normals.emplace_back(length > 0.0f ? s / length : glm::vec3(0.0f), 0.0f);
    }
    UploadedBody body;
    body.positions = upload(GL_ARRAY_BUFFER, positions.data(), positions.size() * 16);
    body.normals = upload(GL_ARRAY_BUFFER, normals.data(), normals.size() * 16);
    body.triangles = upload(GL_ELEMENT_ARRAY_BUFFER, indices.data(), indices.size() * 4);
    body.draw = {body.positions.get(), body.normals.get(), body.triangles.get(),
                 static_cast<GLsizei>(indices.size()), lo, hi};
    return body;
}

// Pixel of a world point, top-left origin, or (-1, -1) when behind the camera.
glm::ivec2 project(const CameraView& camera, glm::vec3 world)
{
    const glm::vec4 clip = camera.projection * camera.view * glm::vec4(world, 1.0f);
    if (clip.w <= 0.0f) {
        return {-1, -1};
    }
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return {static_cast<int>((ndc.x * 0.5f + 0.5f) * kImageSize.x),
            static_cast<int>((0.5f - ndc.y * 0.5f) * kImageSize.y)};
}

bool inside(glm::ivec2 pixel)
{
    return pixel.x >= 0 && pixel.y >= 0 && pixel.x < kImageSize.x && pixel.y < kImageSize.y;
}

// Mean colour of a (2 * radius + 1)^2 block: robust to the shadow filter's noise.
Rgb mean_color(const std::vector<uint8_t>& rgba, glm::ivec2 centre, int radius = 3)
{
    long sum[3] = {0, 0, 0};
    int count = 0;
    for (int y = centre.y - radius; y <= centre.y + radius; ++y) {
        for (int x = centre.x - radius; x <= centre.x + radius; ++x) {
            if (!inside({x, y})) {
                continue;
            }
            const size_t i = (static_cast<size_t>(y) * kImageSize.x + x) * 4;
            for (int c = 0; c < 3; ++c) {
                sum[c] += rgba[i + c];
            }
            ++count;
        }
    }
    if (count == 0) {
        return {0, 0, 0};
    }
    return {static_cast<int>(sum[0] / count), static_cast<int>(sum[1] / count),
            static_cast<int>(sum[2] / count)};
}

std::string describe(Rgb c)
{
    return "rgb(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " +
           std::to_string(c.b) + ")";
}

bool greyish(Rgb c, int tolerance)
{
    return std::abs(c.r - c.g) <= tolerance && std::abs(c.g - c.b) <= tolerance &&
           std::abs(c.r - c.b) <= tolerance;
}

// A picture and the camera it was taken with.
struct Rendered {
    CameraView camera;
    std::vector<uint8_t> pixels;
};

// Renders `body` at kImageSize with the default options and reads it back.
// The camera looks from the side of the sun's path, so that the shadow lies
// beside the body rather than behind it; a little from above, sky at the top.
Rendered render(const BodyDrawData& body)
{
    Result<std::unique_ptr<Renderer>> renderer = Renderer::create(ShaderLibrary());
    EXPECT_TRUE(renderer) << renderer.error();
    Result<std::unique_ptr<OffscreenTarget>> target = OffscreenTarget::create(kImageSize);
    EXPECT_TRUE(target) << target.error();
    if (!renderer || !target) {
        return {};
    }
    const glm::vec3 centre = 0.5f * (body.bounds_min + body.bounds_max);
    const glm::vec3 to_sun = Renderer::sun_direction();
    const float sun_yaw_rad = std::atan2(to_sun.x, to_sun.z);
    Rendered result;
    result.camera = orbit_camera_view(centre, sun_yaw_rad + glm::half_pi<float>(), 0.3f, 3.0f,
                                      static_cast<float>(kImageSize.x) / kImageSize.y);
    target.value()->bind();
    renderer.value()->draw(body, result.camera, kImageSize, RenderOptions{});
    result.pixels = target.value()->read_rgba();
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    return result;
}

}  // namespace

using RendererTest = GlTest;

TEST_F(RendererTest, CubeShowsBodyGroundSkyAndShadow)
{
    Result<TetMesh> mesh = prepare_tet_mesh(make_preset_mesh(PresetId::cube).value());
    ASSERT_TRUE(mesh) << mesh.error();
    const UploadedBody body = upload_body(mesh.value());
    const glm::vec3 centre = 0.5f * (body.draw.bounds_min + body.draw.bounds_max);
    const glm::vec3 to_sun = Renderer::sun_direction();
    const Rendered image = render(body.draw);
    const CameraView& camera = image.camera;
    const std::vector<uint8_t>& pixels = image.pixels;
    ASSERT_EQ(pixels.size(), static_cast<size_t>(kImageSize.x * kImageSize.y * 4));

    // The body's centre: orange, red well above blue.
    const Rgb body_pixel = mean_color(pixels, project(camera, centre));
    EXPECT_GT(body_pixel.r, body_pixel.b + 60) << "body centre " << describe(body_pixel);
    EXPECT_GT(body_pixel.r, body_pixel.g) << "body centre " << describe(body_pixel);

    // Top row: sky, blue above red.
    const Rgb sky_pixel = mean_color(pixels, {kImageSize.x / 2, 0}, 2);
    EXPECT_GT(sky_pixel.b, sky_pixel.r + 20) << "top row " << describe(sky_pixel);

    // Ground near the camera, bottom left: lit, neutral grey.
    const glm::ivec2 open_ground_at{kImageSize.x / 8, kImageSize.y * 7 / 8};
    const Rgb open_ground = mean_color(pixels, open_ground_at, 6);
    EXPECT_TRUE(greyish(open_ground, 25)) << "ground " << describe(open_ground);
    EXPECT_GT(open_ground.luminance(), 60) << "ground " << describe(open_ground);

    // The shadow of the body's centre on the ground, along the sun's rays:
    // grey, and clearly darker than open ground.
    const glm::vec3 shadow_world = centre - to_sun * (centre.y / to_sun.y);
    const glm::ivec2 shadow_at = project(camera, shadow_world);
    ASSERT_TRUE(inside(shadow_at)) << "shadow centre off screen";
    const Rgb shadow = mean_color(pixels, shadow_at, 6);
    EXPECT_TRUE(greyish(shadow, 25)) << "shadow " << describe(shadow);
    EXPECT_LT(shadow.luminance(), open_ground.luminance() * 3 / 4)
        << "shadow " << describe(shadow) << " vs open ground " << describe(open_ground);

    // Ground far off to the other side of the body, at the shadow's depth: lit.
    const glm::vec3 sunny_world = shadow_world + 2.0f * (centre - shadow_world) * glm::vec3(1, 0, 1);
    const Rgb sunny = mean_color(pixels, project(camera, sunny_world), 6);
    EXPECT_LT(shadow.luminance(), sunny.luminance() * 3 / 4)
        << "shadow " << describe(shadow) << " vs sunny ground " << describe(sunny);
}

TEST_F(RendererTest, ZeroSizeFramebufferDrawsNothing)
{
    Result<std::unique_ptr<Renderer>> renderer = Renderer::create(ShaderLibrary());
    ASSERT_TRUE(renderer) << renderer.error();
    const CameraView camera = orbit_camera_view(glm::vec3(0.0f), 0.0f, 0.3f, 3.0f, 1.0f);
    renderer.value()->draw(BodyDrawData{}, camera, {0, 720}, RenderOptions{});
    renderer.value()->draw(BodyDrawData{}, camera, {1280, 0}, RenderOptions{});
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(RendererTest, InsideOutBodyIsStillLit)
{
    // Two-sided lighting: back faces are lit with the flipped normal, so an
    // inverted body shows its colour instead of going black.
    Result<TetMesh> mesh = prepare_tet_mesh(make_preset_mesh(PresetId::cube).value());
    ASSERT_TRUE(mesh) << mesh.error();
    const UploadedBody body = upload_body(mesh.value(), true);
    const Rendered image = render(body.draw);
    ASSERT_EQ(image.pixels.size(), static_cast<size_t>(kImageSize.x * kImageSize.y * 4));
    const glm::vec3 centre = 0.5f * (body.draw.bounds_min + body.draw.bounds_max);
    const Rgb body_pixel = mean_color(image.pixels, project(image.camera, centre));
    EXPECT_GT(body_pixel.r, body_pixel.b + 60) << "body centre " << describe(body_pixel);
    EXPECT_GT(body_pixel.luminance(), 50) << "body centre " << describe(body_pixel);
}

namespace {

TEST(PngWriter, WritesAPngFile)
{
    const glm::ivec2 size{3, 2};
    std::vector<uint8_t> rgba(static_cast<size_t>(size.x * size.y * 4), 0);
    for (size_t i = 0; i < rgba.size(); ++i) {
        rgba[i] = static_cast<uint8_t>(i * 11);
    }
    const std::string path = ::testing::TempDir() + "softbody_png_writer_test.png";
    Result<bool> written = write_png(path, size, rgba);
    ASSERT_TRUE(written) << written.error();

    std::ifstream file(path, std::ios::binary);
    const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                           std::istreambuf_iterator<char>());
    const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    ASSERT_GE(bytes.size(), 8u);
    EXPECT_TRUE(std::equal(signature, signature + 8, bytes.begin()));
    std::remove(path.c_str());
}

TEST(PngWriter, RefusesAnUnwritablePathNamingIt)
{
    const std::string path = "/nonexistent-dir/x.png";
    Result<bool> written = write_png(path, {1, 1}, std::vector<uint8_t>(4, 255));
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().find(path), std::string::npos) << written.error();
}

TEST(PngWriter, RefusesPixelsOfTheWrongSize)
{
    Result<bool> written = write_png("/tmp/never-written.png", {2, 2}, std::vector<uint8_t>(4, 0));
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().find("/tmp/never-written.png"), std::string::npos);
}

}  // namespace
