// The drawn surface on the GPU (core/render_surface.h): every frame it
// follows the simulation's positions, gets normals that keep creases sharp,
// and, for the strain view, each vertex's von Mises stress. Runs after
// either solver: the GPU solver's position buffer, or the CPU solver's
// positions uploaded for drawing. Needs compute shaders (OpenGL 4.3).
#pragma once

#include "core/material.h"
#include "core/render_surface.h"
#include "core/result.h"
#include "core/world.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_library.h"

#include <memory>
#include <vector>

class SurfaceSkin {
public:
    static Result<std::unique_ptr<SurfaceSkin>> create(const ShaderLibrary& shaders);

    // The most items one of its passes takes (one dispatch each): larger
    // surfaces are not drawn this way, and the stress of meshes with more
    // tets or vertices is not shown.
    static size_t max_items();

    // Draws `surface` of `world` from now on. The stress passes' buffers are
    // made the first time the stress is asked for.
    void set_surface(const World& world, RenderSurface surface);

    // Moves the drawn surface to `simulation_positions` (a buffer of one
    // vec4 per simulation vertex, xyz in metres). With one Lame pair per
    // body, the drawn positions' w is the local von Mises stress in Pa
    // (stress_math.glsl), else 0.
    void update(GLuint simulation_positions, const std::vector<LameParameters>& body_lame);

    // vec4 per drawn vertex (w: stress, Pa), vec4 unit normals, uint32
    // triangles counter-clockwise from outside.
    GLuint position_buffer() const { return positions_.get(); }
    GLuint normal_buffer() const { return normals_.get(); }
    GLuint triangle_buffer() const { return triangles_.get(); }
    size_t index_count() const { return surface_.triangles.size() * 3; }
    const RenderSurface& surface() const { return surface_; }

private:
    struct Pass {
        GlProgram program;
        GLuint group_size = 64;
    };
    SurfaceSkin() = default;
    void upload_stress_data();
    void dispatch(const Pass& pass, size_t items) const;

    Pass positions_pass_;
    Pass face_normals_pass_;
    Pass vertex_normals_pass_;
    Pass stress_tets_pass_;
    Pass stress_vertices_pass_;

    std::shared_ptr<const TetMesh> mesh_;  // the world's
    std::vector<uint32_t> vertex_body_;  // the world's: a tet's body is its first corner's
    size_t body_count_ = 0;
    RenderSurface surface_;
    GlBuffer corners_;
    GlBuffer weights_;
    GlBuffer positions_;
    GlBuffer normals_;
    GlBuffer triangles_;
    GlBuffer face_normals_;
    GlBuffer face_offsets_;
    GlBuffer face_entries_;
    // The stress passes' inputs and outputs, made on first use.
    bool stress_ready_ = false;
    GlBuffer vertex_stress_;
    GlBuffer stress_tets_;
    GlBuffer body_lame_;
    GlBuffer tet_stress_;
    GlBuffer corner_offsets_;
    GlBuffer corner_entries_;
};
