// Draws what the mouse holds: a thin line from the grabbed point of the
// body to the target under the cursor, with a marker at each end. The
// grabbed point is read on the GPU from the simulation's buffer: no
// read-back.
#pragma once

#include "core/grab.h"
#include "core/result.h"
#include "gpu/camera_view.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_library.h"

#include <memory>

class GrabOverlay {
public:
    static Result<std::unique_ptr<GrabOverlay>> create(const ShaderLibrary& shaders);
    // Draws over whatever is in the framebuffer, without depth test.
    void draw(GLuint position_buffer, const Grab& grab, const CameraView& camera,
              float pixel_scale);

private:
    GrabOverlay() = default;
    GlProgram program_;
    GlVertexArray vertex_array_;
    GlTexture positions_texture_;
};
