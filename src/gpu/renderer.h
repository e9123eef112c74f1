// Draws the scene: sky, ground and the soft body, lit by a sun with soft
// shadows. The body is drawn straight from the simulation's GPU buffers.
//
// Colour handling: all lighting is done in linear space. When the draw
// framebuffer is sRGB-encoded (the OffscreenTarget's GL_SRGB8_ALPHA8, or an
// sRGB-capable window), draw() enables GL_FRAMEBUFFER_SRGB and lets the
// hardware encode; otherwise the shaders encode to sRGB themselves. Either
// way the picture looks the same. draw() disables GL_FRAMEBUFFER_SRGB again
// before returning, because Dear ImGui's colours are already sRGB values and
// must be written unchanged.
#pragma once

#include "core/obstacle.h"
#include "core/pinned_fixtures.h"
#include "core/result.h"
#include "gpu/camera_view.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_library.h"
#include "gpu/shadow_map.h"

#include <glm/glm.hpp>

#include <memory>
#include <vector>

// The simulation's own GPU buffers, drawn directly (no copies).
struct BodyDrawData {
    // vec4 per vertex, stride 16 bytes: xyz position in metres, w the stress
    // in Pa when the drawn surface's (anything otherwise, and then
    // RenderOptions::stress_full_scale_pa must stay 0).
    GLuint position_buffer = 0;
    GLuint normal_buffer = 0;    // vec4 per vertex (xyz = unit normal), stride 16 bytes
    GLuint triangle_buffer = 0;  // uint32 indices, 3 per surface triangle, counter-clockwise seen from outside
    GLsizei index_count = 0;     // 3 * triangles
    // Rough world bounds of the body, for fitting the shadow map; may be a
    // frame or so stale (the renderer pads them).
    glm::vec3 bounds_min{0.0f};
    glm::vec3 bounds_max{0.0f};
    // vec4 per vertex, linear RGB albedo (each body its own colour); 0: every
    // vertex takes RenderOptions::body_color.
    GLuint albedo_buffer = 0;
    // The solver's vec4 per simulation vertex (the grab overlay reads it);
    // position_buffer may be the drawn surface's instead.
    GLuint simulation_positions = 0;
};

// The shadow map's side in texels when nothing else is asked for.
inline constexpr int kDefaultShadowMapTexels = 2048;

struct RenderOptions {
    bool wireframe = false;                        // triangle edges over the shaded surface
    // Soft shadows filter the map with 48 taps per pixel; hard ones take one
    // bilinear compare (much cheaper on a software renderer).
    bool soft_shadows = true;
    glm::vec3 body_color{0.95f, 0.45f, 0.25f};     // sRGB, as a colour picker shows it
    // The strain view: > 0 colours the bodies by the stress in their
    // positions' w, this many pascals at the top of the scale; 0: by colour.
    float stress_full_scale_pa = 0.0f;
};

class Renderer {
public:
    static Result<std::unique_ptr<Renderer>> create(const ShaderLibrary& shaders);

    // A new shadow map of texels x texels (512 .. 4096 make sense); on a
    // refusal the previous one stays and the error says why.
    Result<bool> set_shadow_map_texels(int texels);
    int shadow_map_texels() const { return shadow_map_->size_texels(); }

    // The static obstacles drawn from now on (tessellated once here), with
    // what shows pinned vertices (a wall, markers), drawn alike but darker.
    void set_obstacles(const std::vector<Obstacle>& obstacles,
                       const PinnedFixtures& fixtures = {});

    // Draws ground + body with shadows into the currently bound draw
    // framebuffer of the given size. Returns at once for a zero size (a
    // minimised window). Reads nothing back from the GPU. Leaves the caller's
    // framebuffer bound, no program, no vertex array, fill mode, no blending,
    // and texture unit 0 active.
    void draw(const BodyDrawData& body, const CameraView& camera, glm::ivec2 framebuffer_size,
              const RenderOptions& options);

    // Unit vector from the ground toward the sun, world space: where shadows
    // fall (the tests look for the body's shadow along it).
    static glm::vec3 sun_direction();

private:
    Renderer() = default;
    void draw_shadow_pass(const BodyDrawData& body);
    void draw_body(const BodyDrawData& body, const RenderOptions& options);
    void draw_obstacles(const GlProgram& program) const;

    GlProgram sky_program_;
    GlProgram ground_program_;
    GlProgram surface_program_;
    GLint stress_per_pa_location_ = -1;  // surface_program_'s u_stress_per_pa
    GlProgram wire_program_;
    GlProgram shadow_program_;
    GlVertexArray body_vertex_array_;
    GlVertexArray obstacle_vertex_array_;
    GlBuffer obstacle_positions_;  // vec3 positions, vec3 normals, uint32 indices
    GlBuffer obstacle_normals_;
    GlBuffer obstacle_albedo_;  // vec3 per vertex, linear
    GlBuffer obstacle_indices_;
    GLsizei obstacle_index_count_ = 0;
    glm::vec3 obstacle_min_{0.0f};
    glm::vec3 obstacle_max_{0.0f};
    GlVertexArray empty_vertex_array_;  // core profile draws need one even without attributes
    GlBuffer frame_uniforms_;
    std::unique_ptr<ShadowMap> shadow_map_;
};
