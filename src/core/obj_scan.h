// A strict first reading of an OBJ text, before tinyobjloader sees it.
// tinyobjloader reads what it cannot parse as 0 and says nothing: "v 1 2"
// becomes (1, 2, 0), "v 0,5 0 0" becomes (0, 0, 0), "v nan 0 0" becomes
// (0, 0, 0), and the index in "f 1 2 99999999999999999999" wraps to -1, so
// that the face silently uses the last vertex. Here every 'v' line must hold
// 3 decimal numbers (then an optional w, or r g b, as tinyobjloader allows)
// that fit a float, and every 'f' line 3 to 1,024 corners 'a', 'a/t',
// 'a//n' or 'a/t/n' whose indices, absolute or relative (negative), name a
// vertex, texture coordinate or normal defined above the face. A bad line
// is refused with its number.
#pragma once

#include "core/result.h"

#include <glm/glm.hpp>

#include <string>
#include <string_view>
#include <vector>

struct ObjScan {
    // The 'v' lines' coordinates, in file order, rounded once from the
    // decimal text to float (tinyobjloader's own conversion is less exact,
    // and turns "0e999" into NaN).
    std::vector<glm::vec3> positions;
    size_t faces = 0;
    size_t triangles = 0;  // a polygon of n corners fans into n - 2
};

// `text` without its byte-order mark (text_lines.h); `name` names the source
// in messages.
Result<ObjScan> scan_obj_text(std::string_view text, const std::string& name);
