// Fuzz target: the OBJ loader (load_obj_surface), through a file as the
// program reads it (the file checks come before tinyobjloader's parser).
#include "fuzz_support.h"

#include "core/surface_mesh.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const fuzz::ScratchFolder folder;
    const std::string path =
        folder.write("surface.obj", std::string(reinterpret_cast<const char*>(data), size));
    const Result<SurfaceMesh> surface = load_obj_surface(path);
    if (!surface) {
        fuzz::check_refusal_names(surface, path);
        return 0;
    }
    fuzz::check_accepted(surface.value());
    return 0;
}
