// Move-only owners of OpenGL object names, so that buffers and programs are
// released exactly once, also on the error paths.
#pragma once

#include "gpu/gl_loader.h"

#include <algorithm>
#include <utility>
#include <vector>

template <void (*Delete)(GLuint)>
class GlName {
public:
    GlName() = default;
    explicit GlName(GLuint name) : name_(name) {}
    ~GlName() { reset(); }
    GlName(GlName&& other) noexcept : name_(std::exchange(other.name_, 0)) {}
    GlName& operator=(GlName&& other) noexcept
    {
        if (this != &other) {
            reset();
            name_ = std::exchange(other.name_, 0);
        }
        return *this;
    }
    GlName(const GlName&) = delete;
    GlName& operator=(const GlName&) = delete;

    GLuint get() const { return name_; }
    explicit operator bool() const { return name_ != 0; }
    void reset()
    {
        if (name_ != 0) {
            Delete(name_);
            name_ = 0;
        }
    }

private:
    GLuint name_ = 0;
};

namespace gl_delete {
inline void buffer(GLuint name) { glDeleteBuffers(1, &name); }
inline void program(GLuint name) { glDeleteProgram(name); }
inline void vertex_array(GLuint name) { glDeleteVertexArrays(1, &name); }
inline void texture(GLuint name) { glDeleteTextures(1, &name); }
inline void framebuffer(GLuint name) { glDeleteFramebuffers(1, &name); }
inline void renderbuffer(GLuint name) { glDeleteRenderbuffers(1, &name); }
inline void query(GLuint name) { glDeleteQueries(1, &name); }
}  // namespace gl_delete

using GlBuffer = GlName<gl_delete::buffer>;
using GlProgram = GlName<gl_delete::program>;
using GlVertexArray = GlName<gl_delete::vertex_array>;
using GlTexture = GlName<gl_delete::texture>;
using GlFramebuffer = GlName<gl_delete::framebuffer>;
using GlRenderbuffer = GlName<gl_delete::renderbuffer>;
using GlQuery = GlName<gl_delete::query>;

inline GlBuffer make_buffer()
{
    GLuint name = 0;
    glGenBuffers(1, &name);
    return GlBuffer(name);
}

// A new buffer holding `data`, left bound to GL_SHADER_STORAGE_BUFFER. An
// empty one still gets 16 bytes: binding a zero-size buffer to a block is
// an error.
template <typename T>
GlBuffer make_storage_buffer(const std::vector<T>& data, GLenum usage)
{
    GlBuffer buffer = make_buffer();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.get());
    const size_t bytes = std::max<size_t>(data.size() * sizeof(T), 16);
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, usage);
    if (!data.empty()) {
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                        static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data());
    }
    return buffer;
}
