#include "core/isosurface_stuffing.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace {

// Warp thresholds (Labelle and Shewchuk 2007, section 5): a lattice vertex
// closer to a cut point on one of its edges than alpha times that edge's
// length is moved onto it. These are the paper's values for which tets with
// all four vertices on the surface may be kept as well; it proves dihedral
// angles between 9.3171 and 161.6432 degrees for them.
constexpr float kAlphaLong = 0.21509f;   // axis-parallel edges, length h
constexpr float kAlphaShort = 0.35900f;  // corner-to-centre edges, length h sqrt(3) / 2

// A tet below this volume, against a lattice tet (h^3 / 12), is flat enough
// to drop: it can only come from cut points that rounding put on a vertex.
constexpr double kFlatVolumeFraction = 1e-6;

constexpr uint32_t kNone = UINT32_MAX;

// A watched load reports about this many times per step (a cancel waits
// for the chunk under way), and no oftener than every thousand inside tests
// (fewer and the threads of the winding numbers idle between chunks).
constexpr uint32_t kProgressChunks = 128;
constexpr uint32_t kMinInsideChunk = 1024;
// The share of the stuffing stage that finding the cut points takes (each
// searches the surface's triangles); warping and filling are the rest.
constexpr double kCutPointsShare = 0.8;

enum Label : int8_t { kOut = -1, kOn = 0, kIn = 1 };

// The BCC lattice in doubled integer coordinates: cube corners have even
// coordinates, cube centres odd ones, so a centre's corners are at +-1 and a
// vertex's neighbours of its own kind at +-2 along an axis.
class BccLattice {
public:
    explicit BccLattice(const BccLatticeSpec& spec) : spec_(spec)
    {
        // Counted in 64 bits: the caller bounds the cells (the
        // tetrahedralizer to its resolution + 3 a side), and the ids below
        // are 32-bit ints, which these asserts guard.
        assert(spec.cells.x >= 1 && spec.cells.y >= 1 && spec.cells.z >= 1);
        const uint64_t corners = uint64_t(spec.cells.x + 1) * uint64_t(spec.cells.y + 1) *
                                 uint64_t(spec.cells.z + 1);
        const uint64_t centres =
            uint64_t(spec.cells.x) * uint64_t(spec.cells.y) * uint64_t(spec.cells.z);
        assert(corners + centres < uint64_t(INT32_MAX) && "lattice too large for 32-bit ids");
        corner_count_ = static_cast<uint32_t>(corners);
        centre_count_ = static_cast<uint32_t>(centres);
    }

    uint32_t vertex_count() const { return corner_count_ + centre_count_; }
    bool is_corner(uint32_t id) const { return id < corner_count_; }

    bool valid(glm::ivec3 d) const
    {
        for (int a = 0; a < 3; ++a) {
            if (d[a] < 0 || d[a] > 2 * spec_.cells[a]) {
                return false;
            }
        }
        const int parity = d.x & 1;
        return (d.y & 1) == parity && (d.z & 1) == parity;
    }

    uint32_t id(glm::ivec3 d) const
    {
        if ((d.x & 1) == 0) {
            const glm::ivec3 i = d / 2;
            return static_cast<uint32_t>(i.x + (spec_.cells.x + 1) * (i.y + (spec_.cells.y + 1) * i.z));
        }
        const glm::ivec3 i = (d - 1) / 2;
        return corner_count_ +
               static_cast<uint32_t>(i.x + spec_.cells.x * (i.y + spec_.cells.y * i.z));
    }

    glm::ivec3 coords(uint32_t id) const
    {
        if (id < corner_count_) {
            const int nx = spec_.cells.x + 1, ny = spec_.cells.y + 1;
            const int i = static_cast<int>(id);
            return 2 * glm::ivec3(i % nx, (i / nx) % ny, i / (nx * ny));
        }
        const int nx = spec_.cells.x, ny = spec_.cells.y;
        const int i = static_cast<int>(id - corner_count_);
        return 2 * glm::ivec3(i % nx, (i / nx) % ny, i / (nx * ny)) + 1;
    }

    glm::vec3 position(glm::ivec3 d) const
    {
        return spec_.origin + (0.5f * spec_.cell_m) * glm::vec3(d);
    }

    // The 14 lattice neighbours of a vertex (6 along the axes, 8 along the
    // diagonals), those inside the lattice; returns how many.
    int neighbours(glm::ivec3 d, glm::ivec3 out[14]) const
    {
        int n = 0;
        for (int a = 0; a < 3; ++a) {
            for (int s = -2; s <= 2; s += 4) {
                glm::ivec3 e = d;
                e[a] += s;
                if (valid(e)) out[n++] = e;
            }
        }
        for (int s = 0; s < 8; ++s) {
            const glm::ivec3 e = d + glm::ivec3(s & 1 ? 1 : -1, s & 2 ? 1 : -1, s & 4 ? 1 : -1);
            if (valid(e)) out[n++] = e;
        }
        return n;
    }

private:
    BccLatticeSpec spec_;
    uint32_t corner_count_ = 0;
    uint32_t centre_count_ = 0;
};

uint64_t edge_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t(a) << 32) | b : (uint64_t(b) << 32) | a;
}

struct CutPoint {
    glm::vec3 position;
    uint32_t output_vertex = kNone;
};

// The state of one stuffing run: lattice, labels, cut points and the mesh
// being written.
class Stuffer {
public:
    Stuffer(const BccLatticeSpec& spec, const ImplicitSolid& solid, LoadProgress* progress)
        : spec_(spec), lattice_(spec), solid_(solid), progress_(progress)
    {
    }

    TetMeshDesc run(const std::string& name, StuffingStats& stats);

private:
    // Each returns false when the load was cancelled part-way.
    bool classify();
    bool find_cut_points();
    void warp();
    void fill_tet(const uint32_t v[4]);

    uint32_t lattice_vertex(uint32_t id);
    uint32_t cut_vertex(uint32_t a, uint32_t b);
    bool diagonal_from_first(uint32_t in1, uint32_t in2, uint32_t out) const;
    void split_prism(const uint32_t bottom[3], const uint32_t top[3], int rising[3]);
    void emit(uint32_t a, uint32_t b, uint32_t c, uint32_t d);

    BccLatticeSpec spec_;
    BccLattice lattice_;
    const ImplicitSolid& solid_;
    LoadProgress* progress_;
    std::vector<glm::vec3> position_;        // per lattice vertex, warped
    std::vector<int8_t> label_;              // per lattice vertex
    std::vector<uint32_t> output_vertex_;    // per lattice vertex, or kNone
    std::unordered_map<uint64_t, CutPoint> cuts_;
    size_t warped_ = 0;
    size_t dropped_flat_ = 0;
    TetMeshDesc mesh_;
};

// The inside tests, in chunks so that a watched load can report and stop
// between them: the winding numbers behind them are most of a load's time.
bool Stuffer::classify()
{
    const uint32_t n = lattice_.vertex_count();
    position_.resize(n);
    for (uint32_t id = 0; id < n; ++id) {
        position_[id] = lattice_.position(lattice_.coords(id));
    }
    label_.resize(n);
    const uint32_t chunk = std::max(n / kProgressChunks + 1, kMinInsideChunk);
    std::vector<glm::vec3> points;
    for (uint32_t first = 0; first < n; first += chunk) {
        const uint32_t last = std::min(n, first + chunk);
        points.assign(position_.begin() + first, position_.begin() + last);
        const std::vector<bool> inside = solid_.inside(points);
        for (uint32_t id = first; id < last; ++id) {
            label_[id] = inside[id - first] ? kIn : kOut;
        }
        report_progress(progress_, static_cast<double>(last) / n);
        if (load_cancelled(progress_)) return false;
    }
    output_vertex_.assign(n, kNone);
    return true;
}

// One cut point on every lattice edge whose ends are on opposite sides.
bool Stuffer::find_cut_points()
{
    glm::ivec3 nb[14];
    const uint32_t n = lattice_.vertex_count();
    const uint32_t chunk = n / kProgressChunks + 1;
    for (uint32_t a = 0; a < n; ++a) {
        if (a % chunk == 0) {
            report_progress(progress_, kCutPointsShare * a / n);
            if (load_cancelled(progress_)) return false;
        }
        const glm::ivec3 d = lattice_.coords(a);
        const int count = lattice_.neighbours(d, nb);
        for (int k = 0; k < count; ++k) {
            const uint32_t b = lattice_.id(nb[k]);
            if (b < a || label_[a] == label_[b]) {
                continue;  // each edge once; no crossing
            }
            const uint32_t in = label_[a] == kIn ? a : b;
            const uint32_t out = in == a ? b : a;
            cuts_[edge_key(a, b)] = {solid_.crossing(position_[in], position_[out])};
        }
    }
    return true;
}

// Snap every vertex that a cut point violates onto the nearest such cut
// point (section 3 of the paper); the cut points on its edges go away, since
// the vertex is now on the surface.
void Stuffer::warp()
{
    glm::ivec3 nb[14];
    for (uint32_t v = 0; v < lattice_.vertex_count(); ++v) {
        const glm::ivec3 d = lattice_.coords(v);
        const int count = lattice_.neighbours(d, nb);
        float best = 2.0f;
        glm::vec3 target(0.0f);
        for (int k = 0; k < count; ++k) {
            auto it = cuts_.find(edge_key(v, lattice_.id(nb[k])));
            if (it == cuts_.end()) {
                continue;
            }
            const bool long_edge = (d.x & 1) == (nb[k].x & 1);
            const float alpha = long_edge ? kAlphaLong : kAlphaShort;
            const float edge_length = glm::length(glm::vec3(nb[k] - d)) * 0.5f * spec_.cell_m;
            const float fraction = glm::length(it->second.position - position_[v]) / edge_length;
            if (fraction < alpha && fraction < best) {
                best = fraction;
                target = it->second.position;
            }
        }
        if (best > 1.0f) {
            continue;
        }
        position_[v] = target;
        label_[v] = kOn;
        ++warped_;
        for (int k = 0; k < count; ++k) {
            cuts_.erase(edge_key(v, lattice_.id(nb[k])));
        }
    }
}

uint32_t Stuffer::lattice_vertex(uint32_t id)
{
    assert(label_[id] != kOut && "only inside or surface vertices become mesh vertices");
    if (output_vertex_[id] == kNone) {
        output_vertex_[id] = static_cast<uint32_t>(mesh_.positions.size());
        mesh_.positions.push_back(position_[id]);
    }
    return output_vertex_[id];
}

uint32_t Stuffer::cut_vertex(uint32_t a, uint32_t b)
{
    auto it = cuts_.find(edge_key(a, b));
    assert(it != cuts_.end() && "an edge from inside to outside keeps its cut point");
    if (it->second.output_vertex == kNone) {
        it->second.output_vertex = static_cast<uint32_t>(mesh_.positions.size());
        mesh_.positions.push_back(it->second.position);
    }
    return it->second.output_vertex;
}

// A lattice face with two inside vertices and one outside vertex is cut into
// a quadrilateral, which both tets sharing the face must split along the
// same diagonal. The diagonals are in1 - cut(in2, out) ("from the first")
// and in2 - cut(in1, out). A BCC face has one axis-parallel (long) edge:
//  - when it is in1-out or in2-out, the diagonal ends at the cut point on
//    that long edge;
//  - when it is in1-in2, the paper's parity rule (its section 3.3) picks
//    the diagonal: with corner-to-corner long edges, the diagonal whose
//    direction has an odd number of negative components; with
//    centre-to-centre ones, an even number. The two diagonals always have
//    opposite parities, so both tets agree. The parity only depends on
//    which lattice edge the cut point is on, so it is computed exactly on
//    lattice coordinates (against the edge's midpoint, doubled).
bool Stuffer::diagonal_from_first(uint32_t in1, uint32_t in2, uint32_t out) const
{
    const glm::ivec3 d1 = lattice_.coords(in1);
    const glm::ivec3 d2 = lattice_.coords(in2);
    const glm::ivec3 dout = lattice_.coords(out);
    const bool in1_in2_long = (d1.x & 1) == (d2.x & 1);
    if (!in1_in2_long) {
        return (d2.x & 1) == (dout.x & 1);  // in2-out is the long edge
    }
    const glm::ivec3 a = 2 * d1;
    const glm::ivec3 c = d2 + dout;
    const int positive = int(a.x > c.x) + int(a.y > c.y) + int(a.z > c.z);
    const bool odd = (positive & 1) != 0;
    return lattice_.is_corner(in1) == odd;
}

void Stuffer::emit(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    const glm::dvec3 x0(mesh_.positions[a]);
    const double volume = glm::determinant(glm::dmat3(glm::dvec3(mesh_.positions[b]) - x0,
                                                      glm::dvec3(mesh_.positions[c]) - x0,
                                                      glm::dvec3(mesh_.positions[d]) - x0)) /
                          6.0;
    const double h = spec_.cell_m;
    if (std::abs(volume) < kFlatVolumeFraction * h * h * h / 12.0) {
        ++dropped_flat_;
        return;
    }
    mesh_.tets.push_back(volume > 0.0 ? glm::uvec4(a, b, c, d) : glm::uvec4(a, b, d, c));
}

// A triangular prism with bottom[k] - top[k] as its three side edges. Side
// quad k (between side edges k and k + 1) is split either "rising",
// bottom[k] - top[k + 1], or not, bottom[k + 1] - top[k]; -1 leaves the
// choice here. A prism splits into three tets without a new vertex unless
// all three quads rise or all fall; the free quad avoids that and otherwise
// takes the shorter diagonal.
void Stuffer::split_prism(const uint32_t bottom[3], const uint32_t top[3], int rising[3])
{
    for (int k = 0; k < 3; ++k) {
        if (rising[k] >= 0) {
            continue;
        }
        const int p = rising[(k + 1) % 3], q = rising[(k + 2) % 3];
        assert(p >= 0 && q >= 0 && "at most one quad is free");
        if (p == q) {
            rising[k] = 1 - p;
        } else {
            const float up = glm::length(mesh_.positions[bottom[k]] - mesh_.positions[top[(k + 1) % 3]]);
            const float down = glm::length(mesh_.positions[bottom[(k + 1) % 3]] - mesh_.positions[top[k]]);
            rising[k] = up <= down ? 1 : 0;
        }
    }
    assert(!(rising[0] == rising[1] && rising[1] == rising[2]) && "cyclic prism split");
    // Find the vertex where two diagonals meet: it sees the whole opposite
    // triangle, so (vertex, opposite triangle) is one tet and the rest is a
    // pyramid over the quad that vertex is not on.
    for (int k = 0; k < 3; ++k) {
        const int before = rising[(k + 2) % 3];
        const int after = rising[k];
        if (before == after) {
            continue;
        }
        const uint32_t apex = after ? bottom[k] : top[k];
        if (after) {
            emit(apex, top[0], top[1], top[2]);
        } else {
            emit(apex, bottom[0], bottom[1], bottom[2]);
        }
        const int m = (k + 1) % 3, n = (k + 2) % 3;  // the quad between sides m and n
        if (rising[m]) {
            emit(apex, bottom[m], bottom[n], top[n]);
            emit(apex, bottom[m], top[n], top[m]);
        } else {
            emit(apex, bottom[m], bottom[n], top[m]);
            emit(apex, bottom[n], top[n], top[m]);
        }
        return;
    }
}

// The stencils of the paper's figure 3, written as the shapes they fill.
// v[0]-v[1] and v[2]-v[3] are the tet's two long edges.
void Stuffer::fill_tet(const uint32_t v[4])
{
    uint32_t in[4], on[4], out[4];
    int n_in = 0, n_on = 0, n_out = 0;
    for (int a = 0; a < 4; ++a) {
        switch (label_[v[a]]) {
        case kIn: in[n_in++] = v[a]; break;
        case kOn: on[n_on++] = v[a]; break;
        default: out[n_out++] = v[a]; break;
        }
    }
    if (n_in == 0) {
        if (n_on == 4) {
            // All four on the surface: keep the tet when its centroid is
            // inside, as the paper's parameters allow.
            const glm::vec3 centroid = 0.25f * (position_[v[0]] + position_[v[1]] +
                                                position_[v[2]] + position_[v[3]]);
            if (solid_.inside({centroid})[0]) {
                emit(lattice_vertex(v[0]), lattice_vertex(v[1]), lattice_vertex(v[2]),
                     lattice_vertex(v[3]));
            }
        }
        return;
    }
    if (n_out == 0) {
        emit(lattice_vertex(v[0]), lattice_vertex(v[1]), lattice_vertex(v[2]), lattice_vertex(v[3]));
        return;
    }
    if (n_in == 1) {
        // The corner of the tet at its one inside vertex.
        uint32_t t[4];
        for (int a = 0; a < 4; ++a) {
            t[a] = label_[v[a]] == kOut ? cut_vertex(in[0], v[a]) : lattice_vertex(v[a]);
        }
        emit(t[0], t[1], t[2], t[3]);
        return;
    }
    if (n_in == 2 && n_on == 1) {
        // A pyramid: apex on the surface, base the quad of face (in, in, out).
        const uint32_t z = lattice_vertex(on[0]);
        const uint32_t i1 = lattice_vertex(in[0]), i2 = lattice_vertex(in[1]);
        const uint32_t c1 = cut_vertex(in[0], out[0]), c2 = cut_vertex(in[1], out[0]);
        if (diagonal_from_first(in[0], in[1], out[0])) {
            emit(z, i1, i2, c2);
            emit(z, i1, c2, c1);
        } else {
            emit(z, i1, i2, c1);
            emit(z, i2, c2, c1);
        }
        return;
    }
    if (n_in == 3) {
        // The tet less its outside corner: a prism from the inside triangle
        // to the three cut points; every side quad lies in a lattice face.
        const uint32_t bottom[3] = {lattice_vertex(in[0]), lattice_vertex(in[1]), lattice_vertex(in[2])};
        const uint32_t top[3] = {cut_vertex(in[0], out[0]), cut_vertex(in[1], out[0]),
                                 cut_vertex(in[2], out[0])};
        int rising[3];
        for (int k = 0; k < 3; ++k) {
            rising[k] = diagonal_from_first(in[k], in[(k + 1) % 3], out[0]) ? 1 : 0;
        }
        split_prism(bottom, top, rising);
        return;
    }
    // Two inside, two outside: a prism from triangle (in1, cut(in1, out1),
    // cut(in1, out2)) to the same at in2. Its quads on faces (in1, in2,
    // out_k) follow the face rule; the third is on the surface and free.
    assert(n_in == 2 && n_out == 2);
    const uint32_t bottom[3] = {lattice_vertex(in[0]), cut_vertex(in[0], out[0]),
                                cut_vertex(in[0], out[1])};
    const uint32_t top[3] = {lattice_vertex(in[1]), cut_vertex(in[1], out[0]),
                             cut_vertex(in[1], out[1])};
    // Quad 0 (sides 0, 1) is on face (in1, in2, out1): rising is
    // in1 - cut(in2, out1). Quad 2 (sides 2, 0) is on face (in1, in2, out2):
    // rising is bottom[2] - top[0] = cut(in1, out2) - in2.
    int rising[3] = {diagonal_from_first(in[0], in[1], out[0]) ? 1 : 0, -1,
                     diagonal_from_first(in[1], in[0], out[1]) ? 1 : 0};
    split_prism(bottom, top, rising);
}

TetMeshDesc Stuffer::run(const std::string& name, StuffingStats& stats)
{
    mesh_.name = name;
    enter_stage(progress_, kWindingNumbersStage);
    if (!classify()) return {};
    enter_stage(progress_, kStuffingStage);
    if (!find_cut_points()) return {};
    stats.cut_points = cuts_.size();
    warp();

    // Four tets around each segment joining neighbouring centres: the centres
    // and two consecutive corners of the square face the segment crosses.
    const glm::ivec3 cells = spec_.cells;
    for (int k = 0; k < cells.z; ++k) {
        report_progress(progress_, kCutPointsShare + (1.0 - kCutPointsShare) * k / cells.z);
        if (load_cancelled(progress_)) return {};
        for (int j = 0; j < cells.y; ++j) {
            for (int i = 0; i < cells.x; ++i) {
                const glm::ivec3 c = 2 * glm::ivec3(i, j, k) + 1;
                for (int a = 0; a < 3; ++a) {
                    glm::ivec3 c2 = c;
                    c2[a] += 2;
                    if (!lattice_.valid(c2)) {
                        continue;
                    }
                    const int b = (a + 1) % 3, e = (a + 2) % 3;
                    const int sb[4] = {1, -1, -1, 1}, se[4] = {1, 1, -1, -1};
                    glm::ivec3 q[4];
                    for (int s = 0; s < 4; ++s) {
                        q[s] = c;
                        q[s][a] += 1;
                        q[s][b] += sb[s];
                        q[s][e] += se[s];
                    }
                    for (int s = 0; s < 4; ++s) {
                        const uint32_t v[4] = {lattice_.id(c), lattice_.id(c2),
                                               lattice_.id(q[s]), lattice_.id(q[(s + 1) % 4])};
                        fill_tet(v);
                    }
                }
            }
        }
    }
    stats.lattice_vertices = lattice_.vertex_count();
    stats.warped_vertices = warped_;
    stats.dropped_flat_tets = dropped_flat_;
    return std::move(mesh_);
}

}  // namespace

TetMeshDesc stuff_isosurface(const BccLatticeSpec& lattice, const ImplicitSolid& solid,
                             const std::string& name, StuffingStats* stats,
                             LoadProgress* progress)
{
    StuffingStats local;
    TetMeshDesc mesh = Stuffer(lattice, solid, progress).run(name, stats ? *stats : local);
    return mesh;
}
