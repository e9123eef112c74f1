// Fuzz target: the .tet text parser (parse_tet_text), then the solvers'
// checks on whatever it accepts.
#include "fuzz_support.h"

#include "core/mesh_files.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string name = "fuzz.tet";
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Result<TetMeshDesc> mesh = parse_tet_text(text, name);
    fuzz::check_tet_mesh_outcome(mesh, name);
    return 0;
}
