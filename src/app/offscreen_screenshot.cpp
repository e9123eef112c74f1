#include "app/offscreen_screenshot.h"

#include "app/orbit_camera.h"
#include "gpu/drawn_bodies.h"
#include "gpu/offscreen_target.h"
#include "gpu/png_writer.h"
#include "gpu/renderer.h"

#include "gpu/gl_loader.h"

#include <iostream>
#include <memory>

Result<bool> render_offscreen_screenshot(const std::string& path, glm::ivec2 size,
                                         const Solver& solver, const BodyView& view,
                                         const SimParams& params)
{
    const ShaderLibrary shaders;
    Result<std::unique_ptr<Renderer>> renderer = Renderer::create(shaders);
    if (!renderer) {
        return Result<bool>::failure(renderer.error());
    }
    Result<std::unique_ptr<OffscreenTarget>> target = OffscreenTarget::create(size);
    if (!target) {
        return Result<bool>::failure(target.error());
    }

    const World& world = solver.world();
    DrawnBodies drawn(shaders, gl_context_version() >= kMinimumComputeGlVersion);
    drawn.set_world(world, view.surface);
    for (const std::string& note : {drawn.note(), drawn.surface_note()}) {
        if (!note.empty()) {
            std::cerr << "softbody: --screenshot: " << note << "\n";  // drawn all the same
        }
    }
    std::vector<LameParameters> lame;
    RenderOptions options;
    if (view.strain) {
        lame = body_lame_parameters(params, world);
        options.stress_full_scale_pa = view.strain_full_scale_pa.value_or(
            automatic_full_scale_pa(params, world, std::nullopt));
    }
    BodyDrawData body = drawn.draw_data(solver.surface_source(), lame);
    std::vector<glm::vec3> positions;
    solver.read_positions(positions);  // once, to frame the camera and fit the shadow
    body.bounds_min = glm::vec3(INFINITY);
    body.bounds_max = glm::vec3(-INFINITY);
    for (const glm::vec3& p : positions) {
        body.bounds_min = glm::min(body.bounds_min, p);
        body.bounds_max = glm::max(body.bounds_max, p);
    }
    renderer.value()->set_obstacles(world.obstacles,
                                    pinned_fixtures(world, world.ground.value_or(true)));
    // Framed on the bodies: a scene's obstacles may stand far from them.
    OrbitCamera camera;
    camera.frame(body.bounds_min, body.bounds_max);
    target.value()->bind();
    renderer.value()->draw(body, camera.view(static_cast<float>(size.x) / size.y), size,
                           options);
    return write_png(path, size, target.value()->read_rgba());
}
