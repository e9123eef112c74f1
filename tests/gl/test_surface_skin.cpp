// The drawn surface's GPU passes against the same sums on the CPU: the
// embedded positions, the crease-split normals and the strain view's stress.
#include "gl_test_support.h"

#include "../test_support.h"
#include "core/static_equilibrium.h"
#include "core/stress_math.h"
#include "gpu/surface_skin.h"

#include <cstring>

using SurfaceSkinTest = GlTest;

namespace {

GlBuffer upload_positions(const std::vector<glm::vec3>& positions)
{
    std::vector<glm::vec4> padded;
    for (const glm::vec3& p : positions) padded.emplace_back(p, 1.0f);
    GlBuffer buffer = make_buffer();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.get());
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(padded.size() * 16),
                 padded.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return buffer;
}

std::vector<glm::vec4> read_vec4s(GLuint buffer, size_t count)
{
    std::vector<glm::vec4> out(count);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(count * 16),
                       out.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return out;
}

// The stress the strain view should show at every drawn vertex: each tet's
// von Mises stress, averaged over a vertex's tets, blended over the tet's
// corners with the negative weights dropped.
std::vector<float> reference_stress(const World& world, const RenderSurface& surface,
                                    const std::vector<glm::vec3>& x, const LameParameters& lame)
{
    const TetMesh& mesh = *world.mesh;
    std::vector<float> tet_stress(mesh.tet_count());
    for (size_t t = 0; t < tet_stress.size(); ++t) {
        const glm::uvec4 c = mesh.tets[t];
        const glm::mat3 F = tet_math::tm_deformation_gradient(x[c.x], x[c.y], x[c.z], x[c.w],
                                                              inv_rest_shape(mesh, t));
        tet_stress[t] = tet_math::tm_von_mises_pa(F, lame.mu_pa, lame.lambda_pa);
    }
    std::vector<float> vertex_stress(mesh.vertex_count(), 0.0f);
    const Csr corners = vertex_tet_corners(mesh);
    for (size_t v = 0; v < vertex_stress.size(); ++v) {
        const uint32_t begin = corners.begin(v);
        const uint32_t end = corners.end(v);
        for (uint32_t s = begin; s < end; ++s) {
            vertex_stress[v] += tet_stress[corners.entries[s] / 4];
        }
        if (end > begin) vertex_stress[v] /= static_cast<float>(end - begin);
    }
    std::vector<float> drawn(surface.vertex_count());
    for (size_t i = 0; i < drawn.size(); ++i) {
        const glm::uvec4 c = surface.corners[i];
        glm::vec4 w = glm::max(surface.weights[i], glm::vec4(0.0f));
        w /= w.x + w.y + w.z + w.w;
        drawn[i] = w.x * vertex_stress[c.x] + w.y * vertex_stress[c.y] +
                   w.z * vertex_stress[c.z] + w.w * vertex_stress[c.w];
    }
    return drawn;
}

struct Compared {
    float position_error_m = 0.0f;
    float normal_error = 0.0f;
    float stress_error_pa = 0.0f;
    float largest_stress_pa = 0.0f;
};

Compared compare(const World& world, const std::vector<glm::vec3>& positions,
                 const LameParameters& lame)
{
    Compared result;
    Result<std::unique_ptr<SurfaceSkin>> skin = SurfaceSkin::create(ShaderLibrary());
    EXPECT_TRUE(skin.ok()) << skin.error();
    if (!skin) return result;
    const RenderSurface surface = build_render_surface(world, DrawnSurface::own);
    skin.value()->set_surface(world, surface);
    const GlBuffer simulation = upload_positions(positions);
    skin.value()->update(simulation.get(), std::vector<LameParameters>(world.body_count(), lame));
    const std::vector<glm::vec4> gpu_positions =
        read_vec4s(skin.value()->position_buffer(), surface.vertex_count());
    const std::vector<glm::vec4> gpu_normals =
        read_vec4s(skin.value()->normal_buffer(), surface.vertex_count());

    std::vector<glm::vec3> drawn, normals;
    skin_positions(surface, positions, drawn);
    skin_normals(surface, drawn, normals);
    const std::vector<float> stress = reference_stress(world, surface, positions, lame);
    for (size_t i = 0; i < drawn.size(); ++i) {
        result.position_error_m =
            std::max(result.position_error_m, glm::length(glm::vec3(gpu_positions[i]) - drawn[i]));
        result.normal_error =
            std::max(result.normal_error, glm::length(glm::vec3(gpu_normals[i]) - normals[i]));
        result.stress_error_pa =
            std::max(result.stress_error_pa, std::abs(gpu_positions[i].w - stress[i]));
        result.largest_stress_pa = std::max(result.largest_stress_pa, stress[i]);
    }
    return result;
}

}  // namespace

TEST_F(SurfaceSkinTest, SaggingBeamMatchesTheCpu)
{
    // The beam preset at its static sag under its weight (1 MPa).
    const std::shared_ptr<const World> world = single_body_world(preset_mesh(PresetId::beam));
    Result<StaticEquilibrium> equilibrium = solve_static_equilibrium(*world->mesh, StaticLoad{});
    ASSERT_TRUE(equilibrium.ok()) << equilibrium.error();
    std::vector<glm::vec3> positions;
    for (const glm::dvec3& p : equilibrium.value().positions_m) positions.emplace_back(p);
    const Compared c = compare(*world, positions, lame_parameters(1e6f, 0.3f));
    std::printf("beam at 1 MPa: largest drawn stress %.1f kPa; GPU - CPU: %.2g m, normals %.2g, "
                "stress %.2g Pa\n",
                c.largest_stress_pa / 1e3, c.position_error_m, c.normal_error, c.stress_error_pa);
    EXPECT_LT(c.position_error_m, 1e-5f);
    EXPECT_LT(c.normal_error, 1e-3f);
    EXPECT_LT(c.stress_error_pa, 1e-3f * c.largest_stress_pa);
    // Beam theory: 106 kPa at the root's top and bottom; the tets and the
    // averaging over a vertex's tets read less (StressMath.BentBeamFollowsBeamTheory).
    EXPECT_GT(c.largest_stress_pa, 40e3f);
    EXPECT_LT(c.largest_stress_pa, 106e3f);
}

TEST_F(SurfaceSkinTest, SquashedBunnySurfaceMatchesTheCpu)
{
    const std::shared_ptr<const World> world = single_body_world(preset_mesh(PresetId::bunny));
    std::vector<glm::vec3> squashed = world->mesh->rest_positions;
    for (glm::vec3& p : squashed) {
        p = glm::vec3(p.x * 1.2f + 0.1f * p.y, p.y * 0.7f, p.z * 1.1f);
    }
    const Compared c = compare(*world, squashed, lame_parameters(1e5f, 0.3f));
    EXPECT_LT(c.position_error_m, 1e-5f);
    EXPECT_LT(c.normal_error, 1e-3f);
    EXPECT_LT(c.stress_error_pa, 1e-3f * c.largest_stress_pa);
    EXPECT_GT(c.largest_stress_pa, 1e4f);  // a 30% squash of a 100 kPa body
}
