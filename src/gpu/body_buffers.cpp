#include "gpu/body_buffers.h"

namespace {

GlBuffer sized_buffer(GLenum target, size_t bytes, const void* data, GLenum usage)
{
    GlBuffer buffer = make_buffer();
    glBindBuffer(target, buffer.get());
    glBufferData(target, static_cast<GLsizeiptr>(std::max<size_t>(bytes, 16)), nullptr, usage);
    if (data != nullptr && bytes > 0) {
        glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
    }
    return buffer;
}

}  // namespace

BodyBuffers::BodyBuffers(const TetMesh& mesh)
{
    const size_t bytes = mesh.vertex_count() * sizeof(glm::vec4);
    positions_ = sized_buffer(GL_ARRAY_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
    normals_ = sized_buffer(GL_ARRAY_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
    std::vector<uint32_t> indices;
    indices.reserve(mesh.surface_triangles.size() * 3);
    for (const glm::uvec3& f : mesh.surface_triangles) {
        indices.insert(indices.end(), {f.x, f.y, f.z});
    }
    triangles_ = sized_buffer(GL_ARRAY_BUFFER, indices.size() * 4, indices.data(), GL_STATIC_DRAW);
    staging_.resize(mesh.vertex_count());
}

void BodyBuffers::upload_positions(const std::vector<glm::vec3>& positions)
{
    const GLsizeiptr bytes = static_cast<GLsizeiptr>(staging_.size() * sizeof(glm::vec4));
    for (size_t i = 0; i < staging_.size(); ++i) staging_[i] = glm::vec4(positions[i], 1.0f);
    glBindBuffer(GL_ARRAY_BUFFER, positions_.get());
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, staging_.data());
}

void BodyBuffers::upload(const std::vector<glm::vec3>& positions,
                         const std::vector<glm::vec3>& normals)
{
    upload_positions(positions);
    const GLsizeiptr bytes = static_cast<GLsizeiptr>(staging_.size() * sizeof(glm::vec4));
    for (size_t i = 0; i < staging_.size(); ++i) staging_[i] = glm::vec4(normals[i], 0.0f);
    glBindBuffer(GL_ARRAY_BUFFER, normals_.get());
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, staging_.data());
}
