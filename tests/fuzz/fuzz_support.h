// What the fuzz targets share: a private scratch folder for the loaders that
// take a path, and the checks that turn a wrong answer into a crash the
// fuzzer records (a loader that says "ok" must hand back a mesh the rest of
// the program can index safely; one that refuses must say which file).
#pragma once

#include "core/result.h"
#include "core/surface_mesh.h"
#include "core/tet_mesh.h"

#include <glm/glm.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fuzz {

// Stops the run with a message: libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const std::string& what)
{
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
}

// One folder per process, in memory (/dev/shm) where there is one: a fuzzer
// writes its files thousands of times a second. Removed at a normal exit; a
// crash leaves it behind, with the input that crashed in it.
class ScratchFolder {
public:
    ScratchFolder()
    {
        const std::filesystem::path base =
            std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                      : std::filesystem::temp_directory_path();
        std::string pattern = (base / "softbody-fuzz-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) fail("cannot create a folder under " + base.string());
        path_ = pattern;
    }
    ~ScratchFolder()
    {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    // Writes `content` as `name` in the folder and returns its path.
    std::string write(const std::string& name, const std::string& content) const
    {
        const std::string file = (path_ / name).string();
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        if (!out) fail("cannot write " + file);
        return file;
    }

private:
    std::filesystem::path path_;
};

inline bool finite(const glm::vec3& p)
{
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

// A mesh a loader accepted: finite positions, every index in range.
inline void check_accepted(const TetMeshDesc& mesh)
{
    const size_t nv = mesh.positions.size();
    for (const glm::vec3& p : mesh.positions) {
        if (!finite(p)) fail("accepted a non-finite position");
    }
    for (const glm::uvec4& t : mesh.tets) {
        for (int c = 0; c < 4; ++c) {
            if (t[c] >= nv) fail("accepted a tet index out of range");
        }
    }
    for (uint32_t v : mesh.pinned_vertices) {
        if (v >= nv) fail("accepted a pinned vertex out of range");
    }
}

inline void check_accepted(const SurfaceMesh& surface)
{
    const size_t nv = surface.positions.size();
    for (const glm::vec3& p : surface.positions) {
        if (!finite(p)) fail("accepted a non-finite position");
    }
    if (surface.triangles.empty()) fail("accepted a surface with no triangles");
    for (const glm::uvec3& t : surface.triangles) {
        for (int c = 0; c < 3; ++c) {
            if (t[c] >= nv) fail("accepted a triangle index out of range");
        }
    }
}

// A refusal must say which file it refuses (mesh_files.h, surface_mesh.h).
template <typename T>
void check_refusal_names(const Result<T>& result, const std::string& name)
{
    if (result.error().find(name) == std::string::npos) {
        fail("a refusal that does not name '" + name + "': " + result.error());
    }
}

// What load_mesh_file() does after a loader: the checks the solvers make.
// Its answer is not checked, only that it answers.
inline void prepare_as_the_program_does(const TetMeshDesc& mesh)
{
    const Result<TetMesh> prepared = prepare_tet_mesh(mesh);
    if (!prepared && prepared.error().empty()) fail("prepare_tet_mesh refused without a reason");
}

// A tet loader's answer: a refusal names `name`; an accepted mesh is sound
// and goes through what load_mesh_file() does next.
inline void check_tet_mesh_outcome(const Result<TetMeshDesc>& mesh, const std::string& name)
{
    if (!mesh) {
        check_refusal_names(mesh, name);
        return;
    }
    check_accepted(mesh.value());
    prepare_as_the_program_does(mesh.value());
}

}  // namespace fuzz
