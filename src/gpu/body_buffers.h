// GL buffers holding a body's surface for drawing when the CPU solver runs:
// the CPU path's only per-frame upload (the GPU solver's buffers are drawn
// directly). Same layout as the GPU solver's: vec4 positions and normals,
// uint32 triangles.
#pragma once

#include "core/tet_mesh.h"
#include "gpu/gl_objects.h"

#include <glm/glm.hpp>

#include <vector>

class BodyBuffers {
public:
    explicit BodyBuffers(const TetMesh& mesh);
    void upload(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& normals);
    // The positions alone, when the drawn surface makes its own normals.
    void upload_positions(const std::vector<glm::vec3>& positions);

    GLuint position_buffer() const { return positions_.get(); }
    GLuint normal_buffer() const { return normals_.get(); }
    GLuint triangle_buffer() const { return triangles_.get(); }

private:
    GlBuffer positions_;
    GlBuffer normals_;
    GlBuffer triangles_;
    std::vector<glm::vec4> staging_;  // reused, no allocation per frame
};
