#include "app/offscreen_screenshot.h"

#include "app/orbit_camera.h"
#include "core/cpu_solver.h"
#include "gpu/body_buffers.h"
#include "gpu/body_colors.h"
#include "gpu/gpu_solver.h"
#include "gpu/offscreen_target.h"
#include "gpu/png_writer.h"
#include "gpu/renderer.h"

#include <memory>

Result<bool> render_offscreen_screenshot(const std::string& path, glm::ivec2 size,
                                         const Solver& solver)
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

    const TetMesh& mesh = solver.mesh();
    BodyDrawData body{};
    body.index_count = static_cast<GLsizei>(mesh.surface_triangles.size() * 3);
    std::vector<glm::vec3> positions;
    solver.read_positions(positions);  // once, to frame the camera and fit the shadow
    body.bounds_min = glm::vec3(INFINITY);
    body.bounds_max = glm::vec3(-INFINITY);
    for (const glm::vec3& p : positions) {
        body.bounds_min = glm::min(body.bounds_min, p);
        body.bounds_max = glm::max(body.bounds_max, p);
    }
    std::unique_ptr<BodyBuffers> uploaded;
    const SurfaceSource source = solver.surface_source();
    if (source.position_buffer != 0) {
        body.position_buffer = source.position_buffer;
        body.normal_buffer = source.normal_buffer;
        body.triangle_buffer = source.triangle_buffer;
    } else {
        uploaded = std::make_unique<BodyBuffers>(mesh);
        uploaded->upload(*source.positions, *source.normals);
        body.position_buffer = uploaded->position_buffer();
        body.normal_buffer = uploaded->normal_buffer();
        body.triangle_buffer = uploaded->triangle_buffer();
    }

    const World& world = solver.world();
    const GlBuffer albedos = make_body_albedo_buffer(world, std::nullopt);
    body.albedo_buffer = albedos.get();
    renderer.value()->set_obstacles(world.obstacles,
                                    pinned_fixtures(world, world.ground.value_or(true)));
    // Framed on the bodies: a scene's obstacles may stand far from them.
    OrbitCamera camera;
    camera.frame(body.bounds_min, body.bounds_max);
    target.value()->bind();
    renderer.value()->draw(body, camera.view(static_cast<float>(size.x) / size.y), size,
                           RenderOptions());
    return write_png(path, size, target.value()->read_rgba());
}
