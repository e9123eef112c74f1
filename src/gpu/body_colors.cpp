#include "gpu/body_colors.h"

namespace {

const glm::vec3 kPalette[] = {
    {0.90f, 0.22f, 0.08f}, {0.10f, 0.45f, 0.85f}, {0.95f, 0.65f, 0.05f},
    {0.25f, 0.70f, 0.20f}, {0.60f, 0.20f, 0.75f}, {0.05f, 0.65f, 0.60f},
    {0.85f, 0.30f, 0.45f}, {0.55f, 0.55f, 0.10f},
};
constexpr size_t kColors = sizeof kPalette / sizeof kPalette[0];

}  // namespace

std::vector<glm::vec4> body_albedos(const std::vector<uint32_t>& vertex_body,
                                    std::optional<size_t> highlighted)
{
    std::vector<glm::vec4> colors(vertex_body.size());
    for (size_t v = 0; v < colors.size(); ++v) {
        const size_t body = vertex_body[v];
        glm::vec3 c = kPalette[body % kColors];
        if (highlighted == body) {
            c = glm::mix(c, glm::vec3(1.0f), 0.45f);
        }
        colors[v] = glm::vec4(c, 1.0f);
    }
    return colors;
}

GlBuffer make_body_albedo_buffer(const std::vector<uint32_t>& vertex_body, size_t body_count,
                                 std::optional<size_t> highlighted)
{
    if (body_count < 2) {
        return GlBuffer();
    }
    const std::vector<glm::vec4> colors = body_albedos(vertex_body, highlighted);
    GlBuffer buffer = make_buffer();
    glBindBuffer(GL_ARRAY_BUFFER, buffer.get());
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(colors.size() * sizeof(glm::vec4)),
                 colors.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return buffer;
}
