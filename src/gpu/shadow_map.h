// The sun's shadow map: a depth texture rendered from the directional light
// through an orthographic frustum fitted around the body and the patch of
// ground its shadow falls on. The fitting is plain maths, apart from GL, so
// that it can be checked without a context.
#pragma once

#include "core/result.h"
#include "gpu/gl_objects.h"

#include <glm/glm.hpp>

#include <memory>

// gl_objects.h owns no sampler objects; the shadow map needs one.
namespace gl_delete {
inline void sampler(GLuint name) { glDeleteSamplers(1, &name); }
}  // namespace gl_delete
using GlSampler = GlName<gl_delete::sampler>;

// Where the shadow map looks from and what it covers.
struct SunFrustum {
    glm::mat4 view_projection;  // world -> light clip space
    glm::vec2 extent_m;         // width and height of the orthographic window
    float depth_range_m;        // far - near: converts a depth difference to metres
};

// Fits the light's orthographic frustum around the (padded) body bounds and
// their shadow on the ground plane y = 0. `to_sun` is a unit vector with
// y > 0. The window size is rounded up and its centre snapped to whole
// texels, so that the map does not shimmer while the body moves a little.
SunFrustum fit_sun_frustum(glm::vec3 to_sun, glm::vec3 bounds_min, glm::vec3 bounds_max,
                           int map_size_texels, float filter_margin_m);

class ShadowMap {
public:
    static Result<std::unique_ptr<ShadowMap>> create(int size_texels);

    int size_texels() const { return size_texels_; }
    // Binds the depth-only framebuffer and sets the viewport to the map.
    void bind_for_drawing() const;
    // Binds the map to two texture units: `compare_unit` with hardware depth
    // comparison (sampler2DShadow, bilinear PCF) and `depth_unit` as raw
    // depth (sampler2D) for the soft-shadow blocker search.
    void bind_for_sampling(GLuint compare_unit, GLuint depth_unit) const;
    // Undoes bind_for_sampling, so that later users of the units (Dear
    // ImGui) find no sampler object overriding their textures.
    void unbind_from_sampling(GLuint compare_unit, GLuint depth_unit) const;

private:
    ShadowMap() = default;
    int size_texels_ = 0;
    GlTexture depth_texture_;
    GlFramebuffer framebuffer_;
    GlSampler raw_depth_sampler_;
};
