#include "gpu/grab_overlay.h"

#include <glm/gtc/type_ptr.hpp>

Result<std::unique_ptr<GrabOverlay>> GrabOverlay::create(const ShaderLibrary& shaders)
{
    using R = Result<std::unique_ptr<GrabOverlay>>;
    Result<GlProgram> program = shaders.render_program("render_grab.vert", "render_grab.frag");
    if (!program) {
        return R::failure(program.error());
    }
    std::unique_ptr<GrabOverlay> overlay(new GrabOverlay());
    overlay->program_ = std::move(program).value();
    GLuint name = 0;
    glGenVertexArrays(1, &name);
    overlay->vertex_array_ = GlVertexArray(name);
    glGenTextures(1, &name);
    overlay->positions_texture_ = GlTexture(name);
    return R(std::move(overlay));
}

void GrabOverlay::draw(GLuint position_buffer, const Grab& grab, const CameraView& camera,
                       float pixel_scale)
{
    const GLuint p = program_.get();
    glUseProgram(p);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, positions_texture_.get());
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, position_buffer);
    glUniform1i(glGetUniformLocation(p, "u_positions"), 0);
    const glm::mat4 view_projection = camera.projection * camera.view;
    glUniformMatrix4fv(glGetUniformLocation(p, "u_view_projection"), 1, GL_FALSE,
                       glm::value_ptr(view_projection));
    glUniform3ui(glGetUniformLocation(p, "u_vertices"), grab.vertices.x, grab.vertices.y,
                 grab.vertices.z);
    glUniform3fv(glGetUniformLocation(p, "u_weights"), 1, glm::value_ptr(grab.weights));
    glUniform3fv(glGetUniformLocation(p, "u_target"), 1, glm::value_ptr(grab.target_m));

    glDisable(GL_DEPTH_TEST);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(vertex_array_.get());
    const GLint color = glGetUniformLocation(p, "u_color");
    const GLint round = glGetUniformLocation(p, "u_round");
    const GLint size = glGetUniformLocation(p, "u_point_size");
    glUniform1f(size, 1.0f);
    glUniform1i(round, 0);
    glUniform4f(color, 1.0f, 1.0f, 1.0f, 1.0f);
    glLineWidth(1.0f);  // core profiles guarantee only width 1
    glDrawArrays(GL_LINES, 0, 2);
    glUniform1i(round, 1);
    glUniform1f(size, 10.0f * pixel_scale);
    glUniform4f(color, 1.0f, 0.85f, 0.2f, 1.0f);  // the grabbed point
    glDrawArrays(GL_POINTS, 0, 1);
    glUniform1f(size, 7.0f * pixel_scale);
    glUniform4f(color, 1.0f, 1.0f, 1.0f, 1.0f);   // the target
    glDrawArrays(GL_POINTS, 1, 1);

    glBindVertexArray(0);
    glDisable(GL_PROGRAM_POINT_SIZE);
    glEnable(GL_DEPTH_TEST);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glUseProgram(0);
}
