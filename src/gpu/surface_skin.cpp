#include "gpu/surface_skin.h"

#include <algorithm>

namespace {

// Binding numbers of shaders/skin_buffers.glsl and stress_buffers.glsl.
enum Binding : GLuint {
    kSimulationPositions = 0,
    kSkinCorners = 1,
    kSkinWeights = 2,
    kDrawnPositions = 3,
    kDrawnNormals = 4,
    kDrawnTriangles = 5,
    kDrawnFaceNormals = 6,
    kDrawnFaceOffsets = 7,
    kDrawnFaceEntries = 8,
    kVertexStress = 9,
    kStressTets = 10,
    kBodyLame = 11,
    kTetStress = 12,
    kCornerOffsets = 13,
    kCornerEntries = 14,
};
// local_size_x of every pass (the shaders').
constexpr GLuint kGroupSize = 64;
// Uniform locations of skin_buffers.glsl.
constexpr GLint kCountsLocation = 0;
constexpr GLint kStressOnLocation = 1;

// Mirrors StressTet of stress_buffers.glsl (std430).
struct StressTetBlock {
    glm::uvec4 corners;
    glm::vec4 b0;
    glm::vec4 b1;
    glm::vec4 b2;
};
static_assert(sizeof(StressTetBlock) == 64, "std430 layout of StressTet");

template <typename T>
GlBuffer upload(const std::vector<T>& data)
{
    return make_storage_buffer(data, GL_STATIC_DRAW);
}

GlBuffer zeros(size_t bytes)
{
    return make_storage_buffer(std::vector<uint8_t>(bytes, 0), GL_DYNAMIC_DRAW);
}

}  // namespace

Result<std::unique_ptr<SurfaceSkin>> SurfaceSkin::create(const ShaderLibrary& shaders)
{
    using R = Result<std::unique_ptr<SurfaceSkin>>;
    std::unique_ptr<SurfaceSkin> skin(new SurfaceSkin());
    const std::pair<Pass*, const char*> passes[] = {
        {&skin->positions_pass_, "skin_positions.comp"},
        {&skin->face_normals_pass_, "skin_face_normals.comp"},
        {&skin->vertex_normals_pass_, "skin_vertex_normals.comp"},
        {&skin->stress_tets_pass_, "stress_tets.comp"},
        {&skin->stress_vertices_pass_, "stress_vertices.comp"},
    };
    for (const auto& [pass, file] : passes) {
        Result<GlProgram> program = shaders.compute_program(file);
        if (!program) {
            return R::failure(program.error());
        }
        pass->program = std::move(program).value();
        GLint size[3] = {64, 1, 1};
        glGetProgramiv(pass->program.get(), GL_COMPUTE_WORK_GROUP_SIZE, size);
        pass->group_size = static_cast<GLuint>(size[0]);
    }
    return R(std::move(skin));
}

size_t SurfaceSkin::max_items()
{
    GLint groups = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
    return static_cast<size_t>(std::max(groups, 0)) * kGroupSize;
}

void SurfaceSkin::set_surface(const World& world, RenderSurface surface)
{
    mesh_ = world.mesh;
    vertex_body_ = world.vertex_body;
    body_count_ = world.body_count();
    surface_ = std::move(surface);
    const size_t nv = surface_.vertex_count();
    corners_ = upload(surface_.corners);
    weights_ = upload(surface_.weights);
    positions_ = zeros(nv * sizeof(glm::vec4));
    normals_ = zeros(nv * sizeof(glm::vec4));
    triangles_ = upload(surface_.triangles);
    face_normals_ = zeros(surface_.triangles.size() * sizeof(glm::vec4));
    face_offsets_ = upload(surface_.vertex_triangles.offsets);
    face_entries_ = upload(surface_.vertex_triangles.entries);
    stress_ready_ = false;
    // Bound always (the positions pass declares it); filled by the stress passes.
    vertex_stress_ = zeros(mesh_->vertex_count() * sizeof(float));
}

void SurfaceSkin::upload_stress_data()
{
    const TetMesh& mesh = *mesh_;
    std::vector<StressTetBlock> tets(mesh.tet_count());
    for (size_t t = 0; t < tets.size(); ++t) {
        const glm::mat3 B = inv_rest_shape(mesh, t);
        tets[t].corners = mesh.tets[t];
        tets[t].b0 = glm::vec4(B[0], 0.0f);
        // As a float's value (exact below 2^24; at most kMaxWorldBodies):
        // a small integer's bits would be a denormal that a driver may flush.
        tets[t].b1 = glm::vec4(B[1], static_cast<float>(vertex_body_[mesh.tets[t].x]));
        tets[t].b2 = glm::vec4(B[2], 0.0f);
    }
    stress_tets_ = upload(tets);
    body_lame_ = zeros(body_count_ * sizeof(glm::vec2));
    tet_stress_ = zeros(mesh.tet_count() * sizeof(float));
    const Csr corners = vertex_tet_corners(mesh);
    corner_offsets_ = upload(corners.offsets);
    corner_entries_ = upload(corners.entries);
    stress_ready_ = true;
}

void SurfaceSkin::dispatch(const Pass& pass, size_t items) const
{
    if (items == 0) {
        return;
    }
    glUseProgram(pass.program.get());
    glDispatchCompute(static_cast<GLuint>((items + pass.group_size - 1) / pass.group_size), 1, 1);
}

void SurfaceSkin::update(GLuint simulation_positions, const std::vector<LameParameters>& body_lame)
{
    if (!mesh_ || surface_.vertex_count() == 0) {
        return;
    }
    const TetMesh& mesh = *mesh_;
    const bool stress = body_lame.size() == body_count_ &&
                        std::max(mesh.tet_count(), mesh.vertex_count()) <= max_items();
    const glm::uvec4 counts(surface_.vertex_count(), surface_.triangles.size(),
                            mesh.vertex_count(), mesh.tet_count());
    for (const Pass* pass : {&positions_pass_, &face_normals_pass_, &vertex_normals_pass_,
                             &stress_tets_pass_, &stress_vertices_pass_}) {
        glProgramUniform4ui(pass->program.get(), kCountsLocation, counts.x, counts.y, counts.z,
                            counts.w);
        glProgramUniform1ui(pass->program.get(), kStressOnLocation, stress ? 1u : 0u);
    }
    // The solver (or the CPU's upload) wrote the positions just before.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    const std::pair<GLuint, const GlBuffer*> bindings[] = {
        {kSkinCorners, &corners_},          {kSkinWeights, &weights_},
        {kDrawnPositions, &positions_},     {kDrawnNormals, &normals_},
        {kDrawnTriangles, &triangles_},     {kDrawnFaceNormals, &face_normals_},
        {kDrawnFaceOffsets, &face_offsets_}, {kDrawnFaceEntries, &face_entries_},
        {kVertexStress, &vertex_stress_},
    };
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kSimulationPositions, simulation_positions);
    for (const auto& [binding, buffer] : bindings) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer->get());
    }
    if (stress) {
        if (!stress_ready_) {
            upload_stress_data();
        }
        std::vector<glm::vec2> lame(body_lame.size());
        for (size_t b = 0; b < lame.size(); ++b) {
            lame[b] = glm::vec2(body_lame[b].mu_pa, body_lame[b].lambda_pa);
        }
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, body_lame_.get());
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                        static_cast<GLsizeiptr>(lame.size() * sizeof(glm::vec2)), lame.data());
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
        const std::pair<GLuint, const GlBuffer*> stress_bindings[] = {
            {kStressTets, &stress_tets_},       {kBodyLame, &body_lame_},
            {kTetStress, &tet_stress_},         {kCornerOffsets, &corner_offsets_},
            {kCornerEntries, &corner_entries_},
        };
        for (const auto& [binding, buffer] : stress_bindings) {
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer->get());
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        dispatch(stress_tets_pass_, mesh.tet_count());
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatch(stress_vertices_pass_, mesh.vertex_count());
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    dispatch(positions_pass_, surface_.vertex_count());
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(face_normals_pass_, surface_.triangles.size());
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatch(vertex_normals_pass_, surface_.vertex_count());
    // The renderer reads both as vertex attributes next.
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT);
    glUseProgram(0);
}
