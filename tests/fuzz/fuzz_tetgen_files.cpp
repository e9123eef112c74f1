// Fuzz target: the TetGen .node/.ele loader (load_tetgen_files), which takes
// a path. The input is the pair: the .node text, a 0 byte, the .ele text (no
// 0 byte: all of it is the .node file and the .ele file is empty).
#include "fuzz_support.h"

#include "core/mesh_files.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const fuzz::ScratchFolder folder;
    const std::string input(reinterpret_cast<const char*>(data), size);
    const size_t split = input.find('\0');
    const std::string node_text = input.substr(0, split);
    const std::string ele_text = split == std::string::npos ? "" : input.substr(split + 1);
    const std::string node_path = folder.write("mesh.node", node_text);
    folder.write("mesh.ele", ele_text);

    const Result<TetMeshDesc> mesh = load_tetgen_files(node_path);
    // A refusal names the .node or the .ele file: both share the stem.
    fuzz::check_tet_mesh_outcome(mesh, "mesh.");
    return 0;
}
