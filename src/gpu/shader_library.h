// Loads GLSL files from the shader folder, expands `#include "file"` lines
// (the per-tet maths is shared with C++ that way), compiles and links.
// Compile errors come back as messages in `file:line: text` form, naming the
// file the line really is in, included files too.
#pragma once

#include "core/result.h"
#include "gpu/gl_objects.h"

#include <string>
#include <vector>

class ShaderLibrary {
public:
    // The folder with the .glsl/.comp/.vert/.frag files: the environment
    // variable SOFTBODY_SHADER_DIR if set, else the source tree's shaders/.
    static std::string default_directory();

    explicit ShaderLibrary(std::string directory = default_directory());
    const std::string& directory() const { return directory_; }

    Result<GlProgram> compute_program(const std::string& file) const;
    Result<GlProgram> render_program(const std::string& vertex_file,
                                     const std::string& fragment_file) const;

private:
    std::string directory_;
};

// The source of `file` with its includes expanded and #line directives that
// number each file; `files` receives the name of each source-string number.
Result<std::string> expand_shader_source(const std::string& directory, const std::string& file,
                                         std::vector<std::string>& files);

// Rewrites a driver's log ("0:12(7): error: ...") into "file.comp:12: error: ...".
std::string translate_shader_log(const std::string& log, const std::vector<std::string>& files);
