// What the renderer is given of a running world: the drawn surface
// (core/render_surface.h) moved to the solver's state every frame, with the
// bodies' colours and, for the strain view, the stress. Shared by the window
// and the headless screenshot. Without compute shaders (or when the surface
// passes fail to build) it falls back to the solver's own tet boundary with
// smooth normals, and says why.
#pragma once

#include "core/material.h"
#include "core/render_surface.h"
#include "core/solver.h"
#include "gpu/body_buffers.h"
#include "gpu/renderer.h"
#include "gpu/shader_library.h"
#include "gpu/surface_skin.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

class DrawnBodies {
public:
    DrawnBodies(const ShaderLibrary& shaders, bool compute_available);

    // A new world, or another choice of surface: the drawn surface is made
    // again (embedding an OBJ's surface in the tets takes a moment).
    void set_world(const World& world, DrawnSurface choice);
    void set_highlighted(std::optional<size_t> body);

    // The buffers to draw `solver`'s current state (the CPU solver's is
    // uploaded here). `stress_lame`, one pair per body, asks for the stress
    // in the positions' w; empty: none. Bounds are left to the caller.
    // `source` is the solver's surface_source(), or the same with the CPU
    // solver's arrays replaced by copies.
    BodyDrawData draw_data(const SurfaceSource& source,
                           const std::vector<LameParameters>& stress_lame);

    // Whether the drawn surface (own surfaces, crisp creases, the stress)
    // is available; if not, note() says why.
    bool has_drawn_surface() const { return skin_ != nullptr && skin_in_use_; }
    const std::string& note() const { return note_; }
    // What set_world worked around (bodies drawn as their tets), or empty.
    const std::string& surface_note() const { return surface_note_; }
    // The drawn surface, or null without one.
    const RenderSurface* surface() const
    {
        return has_drawn_surface() ? &skin_->surface() : nullptr;
    }

private:
    void upload_colors();

    std::unique_ptr<SurfaceSkin> skin_;
    bool skin_in_use_ = false;  // this world's surface fits the passes
    std::string note_;
    std::string surface_note_;
    std::shared_ptr<const TetMesh> mesh_;
    std::vector<uint32_t> vertex_body_;
    size_t body_count_ = 0;
    std::optional<size_t> highlighted_;
    GlBuffer colors_;  // vec4 per drawn (or simulation) vertex; none for one body
    std::unique_ptr<BodyBuffers> uploaded_;  // the CPU solver's state, for drawing
};
