// The project's .tet format (described in mesh_files.h): reading and writing.
#include "core/mesh_files.h"

#include "core/mesh_limits.h"
#include "core/text_lines.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

constexpr const char* kMagic = "softbody-tet";
constexpr int kVersion = 1;

// "KEYWORD COUNT" on a line of its own; the count is checked against the
// rest of the file (lines of at least `shortest_line` characters) and
// `limit` before the caller reserves anything for it.
bool read_section(TextLines& lines, const char* keyword, size_t shortest_line, size_t limit,
                  size_t& count, std::string& error)
{
    std::vector<std::string> w;
    long long n = -1;
    if (!lines.next(w)) {
        error = lines.file() + "ends before the '" + keyword + "' section";
        return false;
    }
    if (w.size() != 2 || w[0] != keyword || !parse_integer(w[1], n) || n < 0) {
        error = lines.where() + "expected '" + keyword + " COUNT'";
        return false;
    }
    error = lines.check_count(n, keyword, shortest_line, limit);
    if (!error.empty()) return false;
    count = static_cast<size_t>(n);
    return true;
}

}  // namespace

Result<TetMeshDesc> parse_tet_text(const std::string& text, const std::string& name)
{
    using R = Result<TetMeshDesc>;
    TextLines lines(text, name);
    std::vector<std::string> w;
    if (!lines.next(w)) {
        return R::failure(lines.file() + "the file is empty");
    }
    if (w[0] != kMagic) {
        return R::failure(lines.where() + "not a softbody .tet file (it should start with '" +
                          kMagic + " " + std::to_string(kVersion) + "')");
    }
    long long version = 0;
    if (w.size() != 2 || !parse_integer(w[1], version) || version != kVersion) {
        return R::failure(lines.where() + "unsupported version (this program reads version " +
                          std::to_string(kVersion) + ")");
    }
    TetMeshDesc mesh;
    mesh.name = name;
    std::string error;
    size_t nv = 0;
    if (!read_section(lines, "vertices", kShortestTetVertexLine, kMaxMeshVertices, nv, error)) {
        return R::failure(error);
    }
    mesh.positions.reserve(nv);
    for (size_t v = 0; v < nv; ++v) {
        if (!lines.next(w)) return R::failure(lines.file() + "ends inside the vertices");
        double x[3];
        if (w.size() != 3 || !parse_double(w[0], x[0]) || !parse_double(w[1], x[1]) ||
            !parse_double(w[2], x[2])) {
            return R::failure(lines.where() + "expected a vertex 'x y z'");
        }
        for (double c : x) {
            const std::string problem = float_coordinate_problem(c);
            if (!problem.empty()) {
                return R::failure(lines.where() + "vertex " + std::to_string(v) + " has " +
                                  problem);
            }
        }
        mesh.positions.emplace_back(x[0], x[1], x[2]);
    }
    size_t nt = 0;
    if (!read_section(lines, "tets", kShortestTetTetLine, kMaxMeshTets, nt, error)) {
        return R::failure(error);
    }
    mesh.tets.reserve(nt);
    for (size_t t = 0; t < nt; ++t) {
        if (!lines.next(w)) return R::failure(lines.file() + "ends inside the tets");
        long long idx[4];
        if (w.size() != 4 || !parse_integer(w[0], idx[0]) || !parse_integer(w[1], idx[1]) ||
            !parse_integer(w[2], idx[2]) || !parse_integer(w[3], idx[3])) {
            return R::failure(lines.where() + "expected a tet 'a b c d'");
        }
        for (long long i : idx) {
            if (i < 0 || static_cast<size_t>(i) >= nv) {
                return R::failure(lines.where() + "tet " + std::to_string(t) + " uses vertex " +
                                  std::to_string(i) + ", out of range (" + std::to_string(nv) +
                                  " vertices)");
            }
        }
        mesh.tets.emplace_back(idx[0], idx[1], idx[2], idx[3]);
    }
    if (lines.next(w)) {
        long long n = -1;
        if (w.size() != 2 || w[0] != "pinned" || !parse_integer(w[1], n) || n < 0) {
            return R::failure(lines.where() + "expected 'pinned COUNT' or the end of the file");
        }
        const std::string too_many =
            lines.check_count(n, "pinned", kShortestTetPinnedLine, kMaxMeshVertices);
        if (!too_many.empty()) return R::failure(too_many);
        for (long long k = 0; k < n; ++k) {
            if (!lines.next(w)) return R::failure(lines.file() + "ends inside the pinned list");
            long long i = -1;
            if (w.size() != 1 || !parse_integer(w[0], i) || i < 0 || static_cast<size_t>(i) >= nv) {
                return R::failure(lines.where() + "expected a vertex index below " +
                                  std::to_string(nv));
            }
            mesh.pinned_vertices.push_back(static_cast<uint32_t>(i));
        }
        if (lines.next(w)) {
            return R::failure(lines.where() + "unexpected text after the pinned list");
        }
    }
    if (mesh.tets.empty()) {
        return R::failure(lines.file() + "has no tets");
    }
    return mesh;
}

Result<TetMeshDesc> load_tet_file(const std::string& path)
{
    std::string text, error;
    if (!read_text_file(path, text, error)) {
        return Result<TetMeshDesc>::failure(error);
    }
    return parse_tet_text(text, path);
}

Result<bool> save_tet_file(const std::string& path, const TetMeshDesc& mesh)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        return Result<bool>::failure("'" + path + "': cannot open the file for writing");
    }
    out << kMagic << ' ' << kVersion << '\n';
    out << "# " << (mesh.name.empty() ? std::string("unnamed") : mesh.name) << '\n';
    out << "vertices " << mesh.positions.size() << '\n';
    char buffer[96];
    for (const glm::vec3& p : mesh.positions) {
        // %.9g: enough digits that every float reads back exactly.
        std::snprintf(buffer, sizeof buffer, "%.9g %.9g %.9g\n", p.x, p.y, p.z);
        out << buffer;
    }
    out << "tets " << mesh.tets.size() << '\n';
    for (const glm::uvec4& t : mesh.tets) {
        out << t.x << ' ' << t.y << ' ' << t.z << ' ' << t.w << '\n';
    }
    if (!mesh.pinned_vertices.empty()) {
        out << "pinned " << mesh.pinned_vertices.size() << '\n';
        for (uint32_t v : mesh.pinned_vertices) out << v << '\n';
    }
    out.flush();
    if (!out) {
        return Result<bool>::failure("'" + path + "': write error (disk full?)");
    }
    return true;
}
