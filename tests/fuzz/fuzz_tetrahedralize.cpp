// Fuzz target: the tetrahedralizer (winding number, BCC lattice, isosurface
// stuffing) on a small OBJ surface, then the solvers' checks on its tets.
#include "fuzz_support.h"

#include "core/tetrahedralizer.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

// The tetrahedralizer costs lattice vertices x triangles: 4 KiB of OBJ text
// (a few hundred triangles) at 4-8 cells keeps an iteration near a
// millisecond, so the fuzzer tries thousands of shapes in a short run.
constexpr size_t kMaxInputBytes = 4096;
constexpr int kFewestCells = 4;
constexpr int kCellChoices = 5;  // 4..8

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size > kMaxInputBytes) return 0;
    const std::string name = "fuzz.obj";
    const Result<SurfaceMesh> surface =
        parse_obj_surface(std::string(reinterpret_cast<const char*>(data), size), name);
    if (!surface) return 0;  // the OBJ target covers refusals

    // The resolution comes from the length, so that the seeds stay plain OBJ
    // files and each one still meets several resolutions as it mutates.
    TetrahedralizeOptions options;
    options.cells_along_longest_side = kFewestCells + static_cast<int>(size % kCellChoices);
    const Result<TetMeshDesc> mesh = tetrahedralize(surface.value(), options, name);
    fuzz::check_tet_mesh_outcome(mesh, name);
    return 0;
}
