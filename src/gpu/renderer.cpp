#include "gpu/renderer.h"

#include "core/obstacle_mesh.h"


#include <cmath>
#include <string>

namespace {

// Binding points and units shared with shaders/render_common.glsl and
// shaders/render_shadow_lookup.glsl.
constexpr GLuint kFrameUniformBinding = 7;
constexpr GLuint kShadowCompareUnit = 0;
constexpr GLuint kShadowDepthUnit = 1;

// The widest soft-shadow filter, metres (render_shadow_lookup.glsl); the
// shadow frustum keeps this margin so that filter taps stay inside the map.
constexpr float kMaxPenumbraM = 0.12f;

// Sun: 57 degrees up, from -x and a little +z, so that from a camera on the
// +z side the tops and one flank are lit and the shadow falls off to the side
// where it can be seen. Radiance in linear units, a touch warm; the sky
// fills in cooler light.
const glm::vec3 kToSun = glm::normalize(glm::vec3(-0.55f, 1.0f, 0.35f));
const glm::vec3 kSunRadiance(2.7f, 2.55f, 2.3f);

// Mirrors `RenderFrame` in render_common.glsl (std140: mat4 and vec4 only).
struct FrameUniforms {
    glm::mat4 view_projection;
    glm::mat4 inverse_view_projection;
    glm::mat4 light_view_projection;
    glm::vec4 eye_position;
    glm::vec4 to_sun;
    glm::vec4 sun_radiance;
    glm::vec4 body_sphere;
    glm::vec4 shadow_extent;
    glm::vec4 output_encoding;
    glm::vec4 shadow_taps;
};
static_assert(sizeof(FrameUniforms) == 3 * 64 + 7 * 16, "std140 layout of RenderFrame");

// Soft shadows: taps of the blocker search and of the filter per pixel
// (render_shadow_lookup.glsl); hard shadows take none.
constexpr glm::vec2 kSoftShadowTaps{16.0f, 32.0f};

// Albedos, sRGB: the obstacles a light concrete grey, the wall a pinned body
// is fixed to a darker one, the markers on pinned vertices a deep red.
constexpr glm::vec3 kObstacleColor{0.62f, 0.62f, 0.60f};
constexpr glm::vec3 kWallColor{0.45f, 0.43f, 0.40f};
constexpr glm::vec3 kPinnedMarkerColor{0.55f, 0.08f, 0.06f};

float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// Whether the bound draw framebuffer stores sRGB: then the hardware encodes.
bool draw_framebuffer_is_srgb()
{
    GLint buffer = GL_NONE;
    glGetIntegerv(GL_DRAW_BUFFER0, &buffer);
    if (buffer == GL_NONE) {
        return false;
    }
    // The default framebuffer answers for its left buffers only.
    GLenum attachment = static_cast<GLenum>(buffer);
    if (attachment == GL_BACK) {
        attachment = GL_BACK_LEFT;
    } else if (attachment == GL_FRONT) {
        attachment = GL_FRONT_LEFT;
    }
    GLint encoding = GL_LINEAR;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, attachment,
                                          GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &encoding);
    return encoding == GL_SRGB;
}

// Bounds that are empty or not finite (no body yet) become a small box at
// the origin, so that the shadow frustum stays well defined.
void sanitise_bounds(glm::vec3& lo, glm::vec3& hi)
{
    const bool finite = glm::all(glm::equal(lo, lo)) && glm::all(glm::equal(hi, hi)) &&
                        glm::all(glm::lessThan(glm::abs(lo), glm::vec3(1e6f))) &&
                        glm::all(glm::lessThan(glm::abs(hi), glm::vec3(1e6f)));
    if (!finite || glm::any(glm::greaterThan(lo, hi))) {
        lo = glm::vec3(-0.5f, 0.0f, -0.5f);
        hi = glm::vec3(0.5f, 1.0f, 0.5f);
    }
}

}  // namespace

glm::vec3 Renderer::sun_direction() { return kToSun; }

Result<std::unique_ptr<Renderer>> Renderer::create(const ShaderLibrary& shaders)
{
    using R = Result<std::unique_ptr<Renderer>>;
    std::unique_ptr<Renderer> renderer(new Renderer());
    struct ProgramSpec {
        GlProgram* program;
        const char* vertex;
        const char* fragment;
    };
    const ProgramSpec specs[] = {
        {&renderer->sky_program_, "render_sky.vert", "render_sky.frag"},
        {&renderer->ground_program_, "render_ground.vert", "render_ground.frag"},
        {&renderer->surface_program_, "render_surface.vert", "render_surface.frag"},
        {&renderer->wire_program_, "render_surface.vert", "render_wire.frag"},
        {&renderer->shadow_program_, "render_shadow.vert", "render_shadow.frag"},
    };
    for (const ProgramSpec& spec : specs) {
        Result<GlProgram> program = shaders.render_program(spec.vertex, spec.fragment);
        if (!program) {
            return R::failure(program.error());
        }
        *spec.program = std::move(program).value();
    }

    renderer->stress_per_pa_location_ =
        glGetUniformLocation(renderer->surface_program_.get(), "u_stress_per_pa");

    Result<std::unique_ptr<ShadowMap>> shadow_map = ShadowMap::create(kDefaultShadowMapTexels);
    if (!shadow_map) {
        return R::failure(shadow_map.error());
    }
    renderer->shadow_map_ = std::move(shadow_map).value();

    GLuint name = 0;
    glGenVertexArrays(1, &name);
    renderer->body_vertex_array_ = GlVertexArray(name);
    glGenVertexArrays(1, &name);
    renderer->empty_vertex_array_ = GlVertexArray(name);
    glGenVertexArrays(1, &name);
    renderer->obstacle_vertex_array_ = GlVertexArray(name);

    renderer->frame_uniforms_ = make_buffer();
    glBindBuffer(GL_UNIFORM_BUFFER, renderer->frame_uniforms_.get());
    glBufferData(GL_UNIFORM_BUFFER, sizeof(FrameUniforms), nullptr, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return R(std::move(renderer));
}

void Renderer::draw(const BodyDrawData& body, const CameraView& camera,
                    glm::ivec2 framebuffer_size, const RenderOptions& options)
{
    if (framebuffer_size.x <= 0 || framebuffer_size.y <= 0) {
        return;
    }
    GLint target_framebuffer = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target_framebuffer);
    const bool hardware_srgb = draw_framebuffer_is_srgb();
    const bool has_body = body.index_count > 0 && body.position_buffer != 0 &&
                          body.normal_buffer != 0 && body.triangle_buffer != 0;

    // The solver writes positions and normals from compute shaders; make
    // those writes visible to vertex fetch (the solver may already have).
    // glMemoryBarrier is GL 4.2: below that (the CPU solver's 3.3 fallback)
    // no shader wrote the buffers and there is nothing to wait for.
    if (glMemoryBarrier != nullptr) {
        glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT);
    }

    glm::vec3 bounds_min = body.bounds_min;
    glm::vec3 bounds_max = body.bounds_max;
    sanitise_bounds(bounds_min, bounds_max);
    if (obstacle_index_count_ > 0) {  // they cast shadows too
        bounds_min = glm::min(bounds_min, obstacle_min_);
        bounds_max = glm::max(bounds_max, obstacle_max_);
    }
    const int map_texels = shadow_map_->size_texels();
    const SunFrustum sun =
        fit_sun_frustum(kToSun, bounds_min, bounds_max, map_texels, kMaxPenumbraM);

    FrameUniforms frame;
    frame.view_projection = camera.projection * camera.view;
    frame.inverse_view_projection = glm::inverse(frame.view_projection);
    frame.light_view_projection = sun.view_projection;
    frame.eye_position = glm::vec4(camera.eye, 1.0f);
    frame.to_sun = glm::vec4(kToSun, 0.0f);
    frame.sun_radiance = glm::vec4(kSunRadiance, 0.0f);
    // The body as a sphere, for the soft darkening of the ground beneath it:
    // centred in the bounds, as big as their mean half-extent.
    const glm::vec3 half_extent = 0.5f * (bounds_max - bounds_min);
    const float sphere_radius_m =
        has_body ? (half_extent.x + half_extent.y + half_extent.z) / 3.0f : 0.0f;
    frame.body_sphere = glm::vec4(0.5f * (bounds_min + bounds_max), sphere_radius_m);
    frame.shadow_extent = glm::vec4(sun.extent_m, sun.depth_range_m, 1.0f / map_texels);
    frame.output_encoding = glm::vec4(hardware_srgb ? 0.0f : 1.0f, 0.0f, 0.0f, 0.0f);
    frame.shadow_taps = glm::vec4(options.soft_shadows ? kSoftShadowTaps : glm::vec2(0.0f), 0.0f,
                                  0.0f);
    glBindBuffer(GL_UNIFORM_BUFFER, frame_uniforms_.get());
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof frame, &frame);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    glBindBufferBase(GL_UNIFORM_BUFFER, kFrameUniformBinding, frame_uniforms_.get());

    // Whatever the caller (or Dear ImGui last frame) left on.
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glDisable(GL_STENCIL_TEST);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_TRUE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);

    if (has_body) {
        glBindVertexArray(body_vertex_array_.get());
        glBindBuffer(GL_ARRAY_BUFFER, body.position_buffer);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
        glEnableVertexAttribArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, body.normal_buffer);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 16, nullptr);
        glEnableVertexAttribArray(1);
        if (body.albedo_buffer != 0) {
            glBindBuffer(GL_ARRAY_BUFFER, body.albedo_buffer);
            glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, 16, nullptr);
            glEnableVertexAttribArray(2);
        } else {
            glDisableVertexAttribArray(2);  // then the constant set in draw_body
        }
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, body.triangle_buffer);
    }

    // 1. Shadow map. Cleared even without a body, so that nothing stale casts.
    shadow_map_->bind_for_drawing();
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glClear(GL_DEPTH_BUFFER_BIT);
    if (has_body) {
        draw_shadow_pass(body);
    }
    draw_obstacles(shadow_program_);

    // 2. The picture, into the caller's framebuffer.
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(target_framebuffer));
    glViewport(0, 0, framebuffer_size.x, framebuffer_size.y);
    if (hardware_srgb) {
        glEnable(GL_FRAMEBUFFER_SRGB);
    } else {
        glDisable(GL_FRAMEBUFFER_SRGB);
    }
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    shadow_map_->bind_for_sampling(kShadowCompareUnit, kShadowDepthUnit);

    // Nearest first, so that the depth test spares the shading of what lies
    // behind (a software renderer pays for every shaded pixel).
    if (has_body) {
        draw_body(body, options);
    }
    draw_obstacles(surface_program_);  // their albedo is a vertex array

    // Ground: one quad made in the vertex shader.
    glBindVertexArray(empty_vertex_array_.get());
    glUseProgram(ground_program_.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

    // Sky: a full-screen triangle on the far plane, where nothing was drawn.
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glUseProgram(sky_program_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);

    // Leave a plain state behind for Dear ImGui and the caller.
    shadow_map_->unbind_from_sampling(kShadowCompareUnit, kShadowDepthUnit);
    glUseProgram(0);
    glBindVertexArray(0);
    glDisable(GL_FRAMEBUFFER_SRGB);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_POLYGON_OFFSET_LINE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDepthFunc(GL_LESS);
}

Result<bool> Renderer::set_shadow_map_texels(int texels)
{
    if (texels == shadow_map_->size_texels()) {
        return Result<bool>(true);
    }
    Result<std::unique_ptr<ShadowMap>> shadow_map = ShadowMap::create(texels);
    if (!shadow_map) {
        return Result<bool>::failure(shadow_map.error() + " (keeping " +
                                     std::to_string(shadow_map_->size_texels()) + ")");
    }
    shadow_map_ = std::move(shadow_map).value();
    return Result<bool>(true);
}

void Renderer::draw_shadow_pass(const BodyDrawData& body)
{
    // No culling: a squashed body may turn triangles inside out, and both
    // sides must cast. Slope-scaled offset pushes depths back where the
    // surface is steep to the light, which is where acne starts.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(2.0f, 4.0f);
    glUseProgram(shadow_program_.get());
    glDrawElements(GL_TRIANGLES, body.index_count, GL_UNSIGNED_INT, nullptr);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

void Renderer::draw_body(const BodyDrawData& body, const RenderOptions& options)
{
    glBindVertexArray(body_vertex_array_.get());
    // Read where no albedo array is bound (a disabled attribute's value).
    glVertexAttrib3f(2, srgb_to_linear(options.body_color.r), srgb_to_linear(options.body_color.g),
                     srgb_to_linear(options.body_color.b));
    if (options.wireframe) {
        // Push the fill back a little so the edge lines win the depth test.
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
    }
    glUseProgram(surface_program_.get());
    const float full_scale = options.stress_full_scale_pa;
    glUniform1f(stress_per_pa_location_, full_scale > 0.0f ? 1.0f / full_scale : 0.0f);
    glDrawElements(GL_TRIANGLES, body.index_count, GL_UNSIGNED_INT, nullptr);
    glUniform1f(stress_per_pa_location_, 0.0f);  // the obstacles keep their grey
    glDisable(GL_POLYGON_OFFSET_FILL);

    if (options.wireframe) {
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        glDepthFunc(GL_LEQUAL);
        glUseProgram(wire_program_.get());
        glDrawElements(GL_TRIANGLES, body.index_count, GL_UNSIGNED_INT, nullptr);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        glDepthFunc(GL_LESS);
    }
}

void Renderer::set_obstacles(const std::vector<Obstacle>& obstacles,
                             const PinnedFixtures& fixtures)
{
    // One mesh of all three, each part its own albedo.
    ObstacleMesh mesh;
    std::vector<glm::vec3> albedo;
    const auto add = [&](const std::vector<Obstacle>& shapes, glm::vec3 srgb) {
        const ObstacleMesh part = make_obstacle_mesh(shapes);
        const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
        mesh.positions.insert(mesh.positions.end(), part.positions.begin(), part.positions.end());
        mesh.normals.insert(mesh.normals.end(), part.normals.begin(), part.normals.end());
        for (const uint32_t i : part.indices) mesh.indices.push_back(base + i);
        const glm::vec3 linear(srgb_to_linear(srgb.r), srgb_to_linear(srgb.g),
                               srgb_to_linear(srgb.b));
        albedo.resize(mesh.positions.size(), linear);
    };
    add(obstacles, kObstacleColor);
    add(fixtures.walls, kWallColor);
    add(fixtures.markers, kPinnedMarkerColor);
    obstacle_index_count_ = static_cast<GLsizei>(mesh.indices.size());
    if (mesh.indices.empty()) {
        return;
    }
    obstacle_min_ = glm::vec3(INFINITY);
    obstacle_max_ = glm::vec3(-INFINITY);
    for (const glm::vec3& p : mesh.positions) {
        obstacle_min_ = glm::min(obstacle_min_, p);
        obstacle_max_ = glm::max(obstacle_max_, p);
    }
    const auto upload = [](GlBuffer& buffer, GLenum target, const void* data, size_t bytes) {
        buffer = make_buffer();
        glBindBuffer(target, buffer.get());
        glBufferData(target, static_cast<GLsizeiptr>(bytes), data, GL_STATIC_DRAW);
    };
    glBindVertexArray(obstacle_vertex_array_.get());
    upload(obstacle_positions_, GL_ARRAY_BUFFER, mesh.positions.data(),
           mesh.positions.size() * sizeof(glm::vec3));
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 12, nullptr);
    glEnableVertexAttribArray(0);
    upload(obstacle_normals_, GL_ARRAY_BUFFER, mesh.normals.data(),
           mesh.normals.size() * sizeof(glm::vec3));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 12, nullptr);
    glEnableVertexAttribArray(1);
    upload(obstacle_albedo_, GL_ARRAY_BUFFER, albedo.data(), albedo.size() * sizeof(glm::vec3));
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, 12, nullptr);
    glEnableVertexAttribArray(2);
    upload(obstacle_indices_, GL_ELEMENT_ARRAY_BUFFER, mesh.indices.data(),
           mesh.indices.size() * sizeof(uint32_t));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void Renderer::draw_obstacles(const GlProgram& program) const
{
    if (obstacle_index_count_ == 0) {
        return;
    }
    glBindVertexArray(obstacle_vertex_array_.get());
    glUseProgram(program.get());
    glDrawElements(GL_TRIANGLES, obstacle_index_count_, GL_UNSIGNED_INT, nullptr);
}
