// Measures how stiff the simulated material really is: the static tip
// deflection of a cantilever under its own weight at each solver schedule,
// against the exact static answer of the same discrete problem (Newton's
// method on the tets' energy, core/static_equilibrium.h).
//
//   softbody-stiffness-sweep [--cells NX,NY,NZ] [--length M] [--youngs E1,E2,...]
//                            [--schedule SUBSTEPS,ITERATIONS] [--frames N]
//
// The beam is L x L/3 x L/3, left face pinned, nu = 0.3, rho = 1000, no
// ground, damped near critically so that it settles within the frames given.
// The tip deflection is the mean over the free end face.
#include "cantilever.h"
#include "core/cpu_solver.h"

#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

float tip_deflection(const Cantilever& beam, float youngs_pa, int substeps, int iterations,
                     SolverMethod method, int frames)
{
    SimParams p;
    p.youngs_modulus_pa = youngs_pa;
    p.poisson_ratio = 0.3f;
    p.substeps = substeps;
    p.iterations = iterations;
    p.method = method;
    p.ground_enabled = false;
    p.air_damping_per_s = settling_damping_per_s(beam, youngs_pa);
    CpuSolver solver;
    solver.load(beam.mesh);
    for (int f = 0; f < frames; ++f) solver.step_frame(p);
    return static_cast<float>(tip_deflection_m(beam, solver.positions()));
}

struct ExactTip {
    double deflection_m;
    int newton_iterations;
    double seconds;
};

ExactTip exact_tip_deflection(const Cantilever& beam, float youngs_pa)
{
    // Processor time, not wall time: the figure stays meaningful on a
    // machine shared with other work (the solve is single-threaded).
    const std::clock_t start = std::clock();
    const StaticEquilibrium exact = exact_equilibrium(beam, youngs_pa);
    const double seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
    return {tip_deflection_m(beam, exact.positions_m), exact.newton_iterations, seconds};
}

// A comma-separated list of numbers; false on anything else.
bool parse_list(const std::string& text, std::vector<float>& values)
{
    values.clear();
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        char* end = nullptr;
        const float v = std::strtof(item.c_str(), &end);
        if (item.empty() || *end != '\0' || !std::isfinite(v) || v <= 0.0f) return false;
        values.push_back(v);
    }
    return !values.empty();
}

}  // namespace

int main(int argc, char** argv)
{
    glm::ivec3 cells(12, 4, 4);
    float length = 1.2f;
    std::vector<float> youngs = {1e5f, 1e6f, 2e6f, 1e7f, 2e7f, 1e8f};
    int substeps = 10;
    int iterations = 8;
    int frames = 240;
    bool usage = (argc % 2) == 0;
    for (int i = 1; i + 1 < argc && !usage; i += 2) {
        const std::string flag = argv[i];
        std::vector<float> v;
        if (!parse_list(argv[i + 1], v)) usage = true;
        else if (flag == "--cells" && v.size() == 3) cells = glm::ivec3(v[0], v[1], v[2]);
        else if (flag == "--length" && v.size() == 1) length = v[0];
        else if (flag == "--youngs") youngs = v;
        else if (flag == "--schedule" && v.size() == 2) substeps = int(v[0]), iterations = int(v[1]);
        else if (flag == "--frames" && v.size() == 1) frames = int(v[0]);
        else usage = true;
    }
    if (usage || substeps < 1 || iterations < 1 || frames < 1 || glm::any(glm::lessThan(cells, glm::ivec3(1)))) {
        std::fprintf(stderr, "usage: %s [--cells X,Y,Z] [--length M] [--youngs E1,E2] "
                             "[--schedule S,K] [--frames N]\n", argv[0]);
        return 2;
    }
    const Cantilever beam = make_cantilever(cells, length);
    std::printf("cantilever %.2f x %.3f x %.3f m, %d x %d x %d cells, %zu tets, %d frames to "
                "settle; exact static tip deflection (mm) and each schedule's damped-to-rest "
                "deflection as a ratio to it\n",
                length, length / 3.0f, length / 3.0f, cells.x, cells.y, cells.z,
                beam.mesh->tet_count(), frames);
    char jacobi_name[32], jacobi_more[32], gs_name[32], gs_more[32];
    std::snprintf(jacobi_name, sizeof jacobi_name, "J %dx%d", substeps, iterations);
    std::snprintf(jacobi_more, sizeof jacobi_more, "J %dx%d", 2 * substeps, iterations);
    std::snprintf(gs_name, sizeof gs_name, "GS %dx%d", substeps, iterations);
    std::snprintf(gs_more, sizeof gs_more, "GS %dx%d", 2 * substeps, iterations);
    std::printf("%9s %11s %7s %8s | %9s %9s %9s %9s %9s\n", "E (Pa)", "exact (mm)", "Newton",
                "cpu (s)", "J 10x128", jacobi_name, jacobi_more, gs_name, gs_more);
    const SolverMethod jacobi = SolverMethod::jacobi;
    const SolverMethod gs = SolverMethod::gauss_seidel;
    for (float e : youngs) {
        const ExactTip exact = exact_tip_deflection(beam, e);
        const float values[5] = {
            tip_deflection(beam, e, 10, 128, jacobi, frames),
            tip_deflection(beam, e, substeps, iterations, jacobi, frames),
            tip_deflection(beam, e, 2 * substeps, iterations, jacobi, frames),
            tip_deflection(beam, e, substeps, iterations, gs, frames),
            tip_deflection(beam, e, 2 * substeps, iterations, gs, frames)};
        std::printf("%9.3g %11.4f %7d %8.3f |", e, 1e3 * exact.deflection_m,
                    exact.newton_iterations, exact.seconds);
        for (float v : values) std::printf(" %9.4f", v / exact.deflection_m);
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
