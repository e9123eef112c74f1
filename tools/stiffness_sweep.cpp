// Measures how stiff the simulated material really is: the static tip
// deflection of a cantilever under its own weight, at a real-time schedule,
// against the same solver converged (cold-started Jacobi, 10 x 128).
//
//   softbody-stiffness-sweep [--cells NX,NY,NZ] [--length M] [--youngs E1,E2,...]
//                            [--schedule SUBSTEPS,ITERATIONS] [--frames N]
//
// The beam is L x L/3 x L/3, left face pinned, nu = 0.3, rho = 1000, no
// ground, damped near critically so that it settles within the frames given.
#include "core/cpu_solver.h"
#include "core/lattice.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Beam {
    std::shared_ptr<const TetMesh> mesh;
    std::vector<uint32_t> tip;
    float length_m;
};

Beam make_beam(glm::ivec3 cells, float length_m)
{
    const glm::vec3 size(length_m, length_m / 3.0f, length_m / 3.0f);
    TetMeshDesc desc = box_lattice(cells, {0.0f, 2.0f, 0.0f}, size);
    desc.name = "cantilever";
    for (uint32_t v = 0; v < desc.positions.size(); ++v) {
        if (desc.positions[v].x < 1e-5f) desc.pinned_vertices.push_back(v);
    }
    Result<TetMesh> prepared = prepare_tet_mesh(desc);
    if (!prepared) {
        std::fprintf(stderr, "%s\n", prepared.error().c_str());
        std::exit(1);
    }
    Beam beam{std::make_shared<const TetMesh>(std::move(prepared).value()), {}, length_m};
    for (uint32_t v = 0; v < beam.mesh->vertex_count(); ++v) {
        if (beam.mesh->rest_positions[v].x > length_m - 1e-4f) beam.tip.push_back(v);
    }
    return beam;
}

// First bending frequency of a cantilever (rad/s), for the damping.
float first_mode_rad_s(const Beam& beam, float youngs_pa)
{
    const float side = beam.length_m / 3.0f;
    const float inertia = side * side * side * side / 12.0f;
    const float area = side * side;
    return 3.516f / (beam.length_m * beam.length_m) *
           std::sqrt(youngs_pa * inertia / (1000.0f * area));
}

float tip_deflection(const Beam& beam, float youngs_pa, int substeps, int iterations,
                     SolverMethod method, int frames)
{
    SimParams p;
    p.youngs_modulus_pa = youngs_pa;
    p.poisson_ratio = 0.3f;
    p.substeps = substeps;
    p.iterations = iterations;
    p.method = method;
    p.ground_enabled = false;
    p.air_damping_per_s = std::min(2.0f * first_mode_rad_s(beam, youngs_pa), 60.0f);
    CpuSolver solver;
    solver.load(beam.mesh);
    for (int f = 0; f < frames; ++f) solver.step_frame(p);
    double sum = 0.0;
    for (uint32_t v : beam.tip) sum += beam.mesh->rest_positions[v].y - solver.positions()[v].y;
    return static_cast<float>(sum / beam.tip.size());
}

std::vector<float> parse_list(const std::string& text)
{
    std::vector<float> values;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) values.push_back(std::stof(item));
    return values;
}

}  // namespace

int main(int argc, char** argv)
{
    glm::ivec3 cells(12, 4, 4);
    float length = 1.2f;
    std::vector<float> youngs = {1e5f, 1e6f, 2e6f, 1e7f, 2e7f};
    int substeps = 10;
    int iterations = 8;
    int frames = 240;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::vector<float> v = parse_list(argv[i + 1]);
        if (flag == "--cells" && v.size() == 3) cells = glm::ivec3(v[0], v[1], v[2]);
        else if (flag == "--length") length = v.at(0);
        else if (flag == "--youngs") youngs = v;
        else if (flag == "--schedule" && v.size() == 2) substeps = int(v[0]), iterations = int(v[1]);
        else if (flag == "--frames") frames = int(v.at(0));
        else {
            std::fprintf(stderr, "usage: %s [--cells X,Y,Z] [--length M] [--youngs E1,E2] "
                                 "[--schedule S,K] [--frames N]\n", argv[0]);
            return 2;
        }
    }
    const Beam beam = make_beam(cells, length);
    std::printf("cantilever %.2f m, %zu tets, %d frames to settle; tip deflection (m) and its "
                "ratio to the converged 10x128 answer\n",
                length, beam.mesh->tet_count(), frames);
    std::printf("%10s %12s %18s %18s %18s %18s\n", "E (Pa)", "10x128 J", "Jacobi",
                "Jacobi 2x subst.", "Gauss-Seidel", "G-S 2x subst.");
    const SolverMethod jacobi = SolverMethod::jacobi;
    const SolverMethod gs = SolverMethod::gauss_seidel;
    for (float e : youngs) {
        const float converged = tip_deflection(beam, e, 10, 128, jacobi, frames);
        const float values[4] = {
            tip_deflection(beam, e, substeps, iterations, jacobi, frames),
            tip_deflection(beam, e, 2 * substeps, iterations, jacobi, frames),
            tip_deflection(beam, e, substeps, iterations, gs, frames),
            tip_deflection(beam, e, 2 * substeps, iterations, gs, frames)};
        std::printf("%10.3g %12.5f", e, converged);
        for (float v : values) std::printf(" %11.5f %5.3fx", v, v / converged);
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
