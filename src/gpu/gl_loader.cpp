#include "gpu/gl_loader.h"

int gl_context_version()
{
    if (glGetIntegerv == nullptr) {
        return 0;
    }
    GLint major = 0;
    GLint minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    return major * 10 + minor;
}

namespace {
std::string gl_text(GLenum name)
{
    const GLubyte* s = glGetString(name);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
}
}  // namespace

std::string gl_context_description()
{
    return gl_text(GL_VERSION) + ", " + gl_text(GL_RENDERER);
}

std::string gl_renderer_name() { return gl_text(GL_RENDERER); }
