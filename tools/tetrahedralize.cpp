// softbody-tetrahedralize: fills a closed OBJ surface with tetrahedra, as the
// program does when it loads an OBJ, prints the mesh's figures and
// optionally writes it as a .tet file (format in src/core/mesh_files.h).
//
//   softbody-tetrahedralize IN.obj [--resolution N] [--out OUT.tet]
#include "core/mesh_files.h"
#include "core/surface_mesh.h"
#include "core/tetrahedralizer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

int usage(const char* message)
{
    if (message) std::fprintf(stderr, "softbody-tetrahedralize: %s\n", message);
    std::fprintf(stderr,
                 "usage: softbody-tetrahedralize IN.obj [--resolution N] [--out OUT.tet]\n"
                 "  --resolution N  lattice cells along the longest side, %d-%d (default %d)\n"
                 "  --out OUT.tet   write the tet mesh in the softbody .tet format\n",
                 kMinCellsAlongLongestSide, kMaxCellsAlongLongestSide,
                 TetrahedralizeOptions{}.cells_along_longest_side);
    return 2;
}

// The whole program but for the last line of defence in main().
int run(int argc, char** argv, std::string& in_path)
{
    std::string out_path;
    TetrahedralizeOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            usage(nullptr);
            return 0;
        } else if (arg == "--resolution" && i + 1 < argc) {
            char* end = nullptr;
            const long n = std::strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < kMinCellsAlongLongestSide || n > kMaxCellsAlongLongestSide) {
                return usage("--resolution needs a whole number in range");
            }
            options.cells_along_longest_side = static_cast<int>(n);
        } else if (arg == "--out" && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!arg.empty() && arg[0] != '-' && in_path.empty()) {
            in_path = arg;
        } else {
            return usage(("unexpected argument '" + arg + "'").c_str());
        }
    }
    if (in_path.empty()) return usage("no input file");

    const auto load_start = std::chrono::steady_clock::now();
    Result<SurfaceMesh> surface = load_obj_surface(in_path);
    if (!surface) {
        std::fprintf(stderr, "softbody-tetrahedralize: %s\n", surface.error().c_str());
        return 1;
    }
    const double load_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
    TetrahedralizeReport report;
    Result<TetMeshDesc> mesh = tetrahedralize(surface.value(), options, in_path, &report);
    if (!mesh) {
        std::fprintf(stderr, "softbody-tetrahedralize: %s\n", mesh.error().c_str());
        return 1;
    }
    // The name goes into the .tet file's comment: how it was made.
    mesh.value().name = in_path + ", tetrahedralized by softbody-tetrahedralize --resolution " +
                        std::to_string(options.cells_along_longest_side);
    std::string why;
    const bool manifold = boundary_is_closed_manifold(mesh.value(), &why);
    std::printf("surface:        %zu vertices, %zu triangles, enclosed volume %.6g (read in %.1f ms)\n",
                surface.value().positions.size(), surface.value().triangles.size(),
                report.surface_volume, load_s * 1e3);
    std::printf("resolution:     %d cells along the longest side (%zu lattice vertices, %zu snapped)\n",
                options.cells_along_longest_side, report.lattice_vertices, report.warped_vertices);
    std::printf("tet mesh:       %zu vertices, %zu tets\n", report.quality.vertices,
                report.quality.tets);
    std::printf("dihedral:       min %.2f deg, max %.2f deg\n", report.quality.min_dihedral_deg,
                report.quality.max_dihedral_deg);
    std::printf("volume ratio:   %.4f (tets %.6g / surface %.6g)\n", report.volume_ratio,
                report.quality.volume_m3, report.surface_volume);
    std::printf("repairs:        %zu tets dropped, %zu vertices split\n", report.dropped_tets,
                report.split_vertices);
    std::printf("boundary:       %s\n", manifold ? "closed manifold" : ("NOT manifold: " + why).c_str());
    std::printf("time:           %.1f ms\n", report.seconds * 1e3);
    if (!out_path.empty()) {
        Result<bool> saved = save_tet_file(out_path, mesh.value());
        if (!saved) {
            std::fprintf(stderr, "softbody-tetrahedralize: %s\n", saved.error().c_str());
            return 1;
        }
        std::printf("written:        %s\n", out_path.c_str());
    }
    return manifold ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    // The loaders report bad input as values; this is for what they did not
    // foresee (out of memory on a huge but well-formed surface), so that the
    // user learns which file did it instead of seeing an abort.
    std::string in_path;
    try {
        return run(argc, argv, in_path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "softbody-tetrahedralize: '%s': %s\n",
                     in_path.empty() ? "(no input yet)" : in_path.c_str(), e.what());
    } catch (...) {
        std::fprintf(stderr, "softbody-tetrahedralize: '%s': unknown error\n",
                     in_path.empty() ? "(no input yet)" : in_path.c_str());
    }
    return 1;
}
