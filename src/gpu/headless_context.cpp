#include "gpu/headless_context.h"

#include "gpu/gl_loader.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>

namespace {

GLADapiproc egl_proc(const char* name)
{
    return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

bool has_extension(const char* extensions, const char* name)
{
    return extensions != nullptr && std::strstr(extensions, name) != nullptr;
}

}  // namespace

Result<std::unique_ptr<HeadlessGlContext>> HeadlessGlContext::create()
{
    using R = Result<std::unique_ptr<HeadlessGlContext>>;
    const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
        return R::failure("EGL has no surfaceless platform (EGL_MESA_platform_surfaceless)");
    }
    auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (get_platform_display == nullptr) {
        return R::failure("EGL lacks eglGetPlatformDisplayEXT");
    }
    EGLDisplay display =
        get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0;
    EGLint minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
        return R::failure("cannot initialise the EGL surfaceless display");
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        eglTerminate(display);
        return R::failure("EGL cannot bind the desktop OpenGL API");
    }
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint config_count = 0;
    eglChooseConfig(display, config_attributes, &config, 1, &config_count);
    // Surfaceless contexts need no config; pass none when there is none.
    if (config_count == 0) {
        config = nullptr;
    }

    EGLContext context = EGL_NO_CONTEXT;
    for (const int version : {46, 45, 43}) {
        const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, version / 10,
                                     EGL_CONTEXT_MINOR_VERSION, version % 10,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
        if (context != EGL_NO_CONTEXT) {
            break;
        }
    }
    if (context == EGL_NO_CONTEXT) {
        eglTerminate(display);
        return R::failure("EGL cannot create an OpenGL 4.3 core context");
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        eglDestroyContext(display, context);
        eglTerminate(display);
        return R::failure("EGL cannot make the surfaceless context current");
    }
    if (gladLoadGL(egl_proc) == 0) {
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(display, context);
        eglTerminate(display);
        return R::failure("cannot load the OpenGL functions");
    }
    std::unique_ptr<HeadlessGlContext> result(new HeadlessGlContext());
    result->display_ = display;
    result->context_ = context;
    result->description_ = gl_context_description();
    return R(std::move(result));
}

HeadlessGlContext::~HeadlessGlContext()
{
    EGLDisplay display = static_cast<EGLDisplay>(display_);
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, static_cast<EGLContext>(context_));
    eglTerminate(display);
}
