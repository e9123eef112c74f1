#include "gpu/headless_context.h"

#include "gpu/gl_loader.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

GLADapiproc egl_proc(const char* name)
{
    return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

bool has_extension(const char* extensions, const char* name)
{
    if (extensions == nullptr) {
        return false;
    }
    // Whole words only: EGL_EXT_device_base must not match EGL_EXT_device_base_x.
    const size_t length = std::strlen(name);
    for (const char* at = std::strstr(extensions, name); at != nullptr;
         at = std::strstr(at + 1, name)) {
        const bool starts = at == extensions || at[-1] == ' ';
        const bool ends = at[length] == ' ' || at[length] == '\0';
        if (starts && ends) {
            return true;
        }
    }
    return false;
}

// A display initialised with a current OpenGL 4.3+ core context and the GL
// functions loaded, or why not; on failure nothing is left behind.
Result<EGLContext> make_context(EGLDisplay display)
{
    using R = Result<EGLContext>;
    EGLint major = 0;
    EGLint minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
        return R::failure("cannot initialise the EGL display");
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
    // Contexts without a surface need no config; pass none when there is none.
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
        return R::failure("EGL cannot make a context without a surface current");
    }
    if (gladLoadGL(egl_proc) == 0) {
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(display, context);
        eglTerminate(display);
        return R::failure("cannot load the OpenGL functions");
    }
    return R(context);
}

struct Candidate {
    EGLDisplay display;
    std::string name;  // "EGL device 0", "EGL surfaceless"
};

// The EGL devices (EGL_EXT_platform_device: NVIDIA's driver offers its
// GPUs this way, and has no surfaceless platform), hardware first. Mesa
// lists a software device too (EGL_MESA_device_software), taken only when
// `software_too`: on Mesa the surfaceless platform is the tested way.
std::vector<Candidate> device_displays(const char* client_extensions, bool software_too)
{
    std::vector<Candidate> displays;
    if (!has_extension(client_extensions, "EGL_EXT_platform_device") ||
        !(has_extension(client_extensions, "EGL_EXT_device_enumeration") ||
          has_extension(client_extensions, "EGL_EXT_device_base"))) {
        return displays;
    }
    auto query_devices =
        reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto query_device_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(
        eglGetProcAddress("eglQueryDeviceStringEXT"));
    auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (query_devices == nullptr || query_device_string == nullptr ||
        get_platform_display == nullptr) {
        return displays;
    }
    EGLint count = 0;
    EGLDeviceEXT devices[16];
    if (!query_devices(16, devices, &count)) {
        return displays;
    }
    for (EGLint d = 0; d < count; ++d) {
        const char* extensions = query_device_string(devices[d], EGL_EXTENSIONS);
        const bool software = has_extension(extensions, "EGL_MESA_device_software");
        if (software && !software_too) {
            continue;
        }
        const EGLDisplay display =
            get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr);
        displays.push_back({display, "EGL device " + std::to_string(d) +
                                         (software ? " (software)" : "")});
    }
    return displays;
}

}  // namespace

Result<std::unique_ptr<HeadlessGlContext>> HeadlessGlContext::create()
{
    using R = Result<std::unique_ptr<HeadlessGlContext>>;
    const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    // SOFTBODY_EGL_PLATFORM=device: the device platform even for a software
    // device (tests the device path on Mesa); =surfaceless: that one only.
    const char* forced = std::getenv("SOFTBODY_EGL_PLATFORM");
    const std::string platform = forced != nullptr ? forced : "";
    std::vector<Candidate> candidates;
    if (platform != "surfaceless") {
        candidates = device_displays(client_extensions, platform == "device");
    }
    auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (platform != "device" && get_platform_display != nullptr &&
        has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
        candidates.push_back(
            {get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
             "EGL surfaceless"});
    }
    if (candidates.empty()) {
        return R::failure(
            "EGL offers neither a device (EGL_EXT_platform_device) nor the surfaceless "
            "platform (EGL_MESA_platform_surfaceless)" +
            (platform.empty() ? std::string() : " for SOFTBODY_EGL_PLATFORM=" + platform));
    }
    std::string why_not;
    for (const Candidate& candidate : candidates) {
        Result<EGLContext> context = make_context(candidate.display);
        if (!context) {
            why_not += (why_not.empty() ? "" : "; ") + candidate.name + ": " + context.error();
            continue;
        }
        std::unique_ptr<HeadlessGlContext> result(new HeadlessGlContext());
        result->display_ = candidate.display;
        result->context_ = context.value();
        result->description_ = gl_context_description() + " (" + candidate.name + ")";
        return R(std::move(result));
    }
    return R::failure(why_not);
}

HeadlessGlContext::~HeadlessGlContext()
{
    EGLDisplay display = static_cast<EGLDisplay>(display_);
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, static_cast<EGLContext>(context_));
    eglTerminate(display);
}
