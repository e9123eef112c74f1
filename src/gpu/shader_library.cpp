#include "gpu/shader_library.h"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#ifndef SOFTBODY_SHADER_DIR
#error "SOFTBODY_SHADER_DIR must name the shaders/ folder (set by CMake)"
#endif

namespace {

Result<std::string> read_text(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return Result<std::string>::failure("cannot open shader '" + path + "'");
    }
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// Expands includes depth-first. GLSL's #line takes a line and a source-string
// number; the number indexes `files`.
Result<std::string> expand(const std::string& directory, const std::string& file,
                           std::vector<std::string>& files, int depth)
{
    if (depth > 8) {
        return Result<std::string>::failure(file + ": includes nested too deep");
    }
    Result<std::string> text = read_text(directory + "/" + file);
    if (!text) {
        return text;
    }
    const int number = static_cast<int>(files.size());
    files.push_back(file);
    static const std::regex include_line(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
    std::istringstream lines(text.value());
    std::ostringstream out;
    std::string line;
    int line_number = 0;
    bool after_version = false;
    while (std::getline(lines, line)) {
        ++line_number;
        std::smatch match;
        if (std::regex_match(line, match, include_line)) {
            Result<std::string> included = expand(directory, match[1], files, depth + 1);
            if (!included) {
                return Result<std::string>::failure(file + ":" + std::to_string(line_number) +
                                                    ": " + included.error());
            }
            out << included.value();
            out << "#line " << line_number + 1 << " " << number << "\n";
            continue;
        }
        out << line << "\n";
        // #line must not come before #version; number the first file once
        // the version line has passed.
        if (!after_version && line.find("#version") != std::string::npos) {
            after_version = true;
            out << "#line " << line_number + 1 << " " << number << "\n";
        }
    }
    if (depth > 0) {
        // Included files start at their own line 1.
        return "#line 1 " + std::to_string(number) + "\n" + out.str();
    }
    return out.str();
}

// The render shaders are written for GLSL 4.30. Below GL 4.3 (the CPU solver
// fallback) they compile as 3.30 plus the extension that allows the
// `binding =` layouts they use, which 3.3-class drivers commonly offer.
void downgrade_for_old_contexts(std::string& source)
{
    const std::string modern = "#version 430 core";
    const size_t at = source.find(modern);
    if (at != std::string::npos && gl_context_version() < kMinimumComputeGlVersion) {
        source.replace(at, modern.size(),
                       "#version 330 core\n#extension GL_ARB_shading_language_420pack : require");
    }
}

Result<GLuint> compile_stage(GLenum stage, const std::string& directory, const std::string& file)
{
    std::vector<std::string> files;
    Result<std::string> source = expand_shader_source(directory, file, files);
    if (!source) {
        return Result<GLuint>::failure(source.error());
    }
    if (stage != GL_COMPUTE_SHADER) {
        downgrade_for_old_contexts(source.value());
    }
    const GLuint shader = glCreateShader(stage);
    const char* text = source.value().c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
        std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
        glGetShaderInfoLog(shader, length, nullptr, log.data());
        glDeleteShader(shader);
        return Result<GLuint>::failure("shader " + file + " does not compile:\n" +
                                       translate_shader_log(log.c_str(), files));
    }
    return shader;
}

Result<GlProgram> link(const std::vector<GLuint>& shaders, const std::string& what)
{
    GlProgram program(glCreateProgram());
    for (GLuint s : shaders) {
        glAttachShader(program.get(), s);
    }
    glLinkProgram(program.get());
    for (GLuint s : shaders) {
        glDetachShader(program.get(), s);
        glDeleteShader(s);
    }
    GLint ok = GL_FALSE;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetProgramiv(program.get(), GL_INFO_LOG_LENGTH, &length);
        std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
        glGetProgramInfoLog(program.get(), length, nullptr, log.data());
        return Result<GlProgram>::failure("program " + what + " does not link:\n" + log.c_str());
    }
    return program;
}

}  // namespace

std::string ShaderLibrary::default_directory()
{
    const char* from_environment = std::getenv("SOFTBODY_SHADER_DIR");
    if (from_environment != nullptr && *from_environment != '\0') {
        return from_environment;
    }
    return SOFTBODY_SHADER_DIR;
}

ShaderLibrary::ShaderLibrary(std::string directory) : directory_(std::move(directory)) {}

Result<GlProgram> ShaderLibrary::compute_program(const std::string& file) const
{
    Result<GLuint> shader = compile_stage(GL_COMPUTE_SHADER, directory_, file);
    if (!shader) {
        return Result<GlProgram>::failure(shader.error());
    }
    return link({shader.value()}, file);
}

Result<GlProgram> ShaderLibrary::render_program(const std::string& vertex_file,
                                                const std::string& fragment_file) const
{
    Result<GLuint> vertex = compile_stage(GL_VERTEX_SHADER, directory_, vertex_file);
    if (!vertex) {
        return Result<GlProgram>::failure(vertex.error());
    }
    Result<GLuint> fragment = compile_stage(GL_FRAGMENT_SHADER, directory_, fragment_file);
    if (!fragment) {
        glDeleteShader(vertex.value());
        return Result<GlProgram>::failure(fragment.error());
    }
    return link({vertex.value(), fragment.value()}, vertex_file + " + " + fragment_file);
}

Result<std::string> expand_shader_source(const std::string& directory, const std::string& file,
                                         std::vector<std::string>& files)
{
    files.clear();
    return expand(directory, file, files, 0);
}

std::string translate_shader_log(const std::string& log, const std::vector<std::string>& files)
{
    // Mesa: "0:12(7): error: ...";  NVIDIA: "0(12) : error ...".
    static const std::regex mesa(R"((\d+):(\d+)\((\d+)\))");
    static const std::regex nvidia(R"((\d+)\((\d+)\))");
    std::istringstream lines(log);
    std::ostringstream out;
    std::string line;
    while (std::getline(lines, line)) {
        std::smatch m;
        std::string rewritten = line;
        auto name = [&](const std::string& index) {
            const size_t i = static_cast<size_t>(std::stoul(index));
            return i < files.size() ? files[i] : "source " + index;
        };
        if (std::regex_search(line, m, mesa) && m.position(0) == 0) {
            rewritten = name(m[1]) + ":" + m[2].str() + m.suffix().str();
        } else if (std::regex_search(line, m, nvidia) && m.position(0) == 0) {
            rewritten = name(m[1]) + ":" + m[2].str() + m.suffix().str();
        }
        out << rewritten << "\n";
    }
    return out.str();
}
