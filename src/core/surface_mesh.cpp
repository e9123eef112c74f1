#include "core/surface_mesh.h"

#include "core/obj_scan.h"
#include "core/text_lines.h"

// The implementation comes from Debian's shared libtinyobjloader: no
// TINYOBJLOADER_IMPLEMENTATION here.
#include <tiny_obj_loader.h>

#include <cmath>

namespace {

std::string prefix(const std::string& name)
{
    return "'" + name + "': ";
}

// tinyobjloader keeps its messages terse and multi-line; one line reads
// better in the panel's log.
std::string first_line(const std::string& text)
{
    const size_t end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

// The faces as tinyobjloader read them, on the coordinates that the strict
// scan read (obj_scan.h): the two must agree on the number of vertices.
Result<SurfaceMesh> from_reader(const tinyobj::ObjReader& reader, ObjScan scan,
                                const std::string& name)
{
    if (!reader.Valid()) {
        const std::string why = first_line(reader.Error());
        return Result<SurfaceMesh>::failure(prefix(name) + "not a readable OBJ file" +
                                            (why.empty() ? "" : " (" + why + ")"));
    }
    const size_t read_vertices = reader.GetAttrib().vertices.size() / 3;
    if (read_vertices != scan.positions.size()) {
        return Result<SurfaceMesh>::failure(
            prefix(name) + "the OBJ reader found " + std::to_string(read_vertices) +
            " vertices where the file has " + std::to_string(scan.positions.size()) +
            " 'v' lines; refused rather than guessed");
    }
    SurfaceMesh surface;
    surface.positions = std::move(scan.positions);
    const size_t nv = surface.positions.size();
    for (const tinyobj::shape_t& shape : reader.GetShapes()) {
        const tinyobj::mesh_t& mesh = shape.mesh;
        size_t offset = 0;
        for (size_t f = 0; f < mesh.num_face_vertices.size(); ++f) {
            const size_t corners = mesh.num_face_vertices[f];
            // Fan the polygon from its first corner; tinyobjloader already
            // triangulates, this only guards against a reader that did not.
            for (size_t c = 1; c + 1 < corners; ++c) {
                const int idx[3] = {mesh.indices[offset].vertex_index,
                                    mesh.indices[offset + c].vertex_index,
                                    mesh.indices[offset + c + 1].vertex_index};
                for (int i : idx) {
                    // tinyobjloader turns relative (negative) indices into
                    // absolute ones but does not check the range.
                    if (i < 0 || static_cast<size_t>(i) >= nv) {
                        return Result<SurfaceMesh>::failure(
                            prefix(name) + "face " + std::to_string(f + 1) +
                            (shape.name.empty() ? "" : " of '" + shape.name + "'") +
                            " uses a vertex index out of range (" + std::to_string(nv) +
                            " vertices)");
                    }
                }
                surface.triangles.emplace_back(idx[0], idx[1], idx[2]);
            }
            offset += corners;
        }
    }
    if (surface.triangles.empty()) {
        return Result<SurfaceMesh>::failure(
            prefix(name) + (nv == 0 ? "no vertices and no faces: empty or not an OBJ file"
                                    : "no faces (" + std::to_string(nv) +
                                          " vertices): not a surface"));
    }
    return surface;
}

}  // namespace

Result<SurfaceMesh> parse_obj_surface(const std::string& obj_text, const std::string& name)
{
    // A byte-order mark would hide the first line's tag from both readers.
    const std::string_view text = without_byte_order_mark(obj_text);
    Result<ObjScan> scan = scan_obj_text(text, name);
    if (!scan) {
        return Result<SurfaceMesh>::failure(scan.error());
    }
    tinyobj::ObjReaderConfig config;
    config.triangulate = true;
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    reader.ParseFromString(std::string(text), "", config);
    return from_reader(reader, std::move(scan).value(), name);
}

Result<SurfaceMesh> load_obj_surface(const std::string& path)
{
    // Read the file ourselves: tinyobjloader's own message for a missing
    // file does not say which, and it would look for .mtl files we ignore.
    std::string content, error;
    if (!read_text_file(path, content, error)) {
        return Result<SurfaceMesh>::failure(error);
    }
    if (content.empty()) {
        return Result<SurfaceMesh>::failure(prefix(path) + "the file is empty");
    }
    // OBJ is text: a NUL byte means some binary file with the wrong name.
    if (content.find('\0') != std::string::npos) {
        return Result<SurfaceMesh>::failure(prefix(path) + "binary data, not an OBJ text file");
    }
    return parse_obj_surface(content, path);
}

double signed_enclosed_volume(const SurfaceMesh& surface)
{
    double volume = 0.0;
    for (const glm::uvec3& t : surface.triangles) {
        const glm::dvec3 a(surface.positions[t.x]);
        const glm::dvec3 b(surface.positions[t.y]);
        const glm::dvec3 c(surface.positions[t.z]);
        volume += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return volume;
}

Bounds surface_bounds(const SurfaceMesh& surface)
{
    Bounds b;
    bool first = true;
    for (const glm::uvec3& t : surface.triangles) {
        for (int a = 0; a < 3; ++a) {
            const glm::vec3& p = surface.positions[t[a]];
            b.lo = first ? p : glm::min(b.lo, p);
            b.hi = first ? p : glm::max(b.hi, p);
            first = false;
        }
    }
    return b;
}
