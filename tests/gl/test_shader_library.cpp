// Every shader of the program compiles and links; a broken one is reported
// with the file and the line, included files too.
#include "gl_test_support.h"

#include "gpu/shader_library.h"

#include <filesystem>
#include <fstream>

namespace {

void write(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream(path) << text;
}

}  // namespace

using ShaderLibraryTest = GlTest;

TEST_F(ShaderLibraryTest, EveryComputeShaderCompilesAndLinks)
{
    const ShaderLibrary library;
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(library.directory())) {
        if (entry.path().extension() == ".comp") {
            Result<GlProgram> program = library.compute_program(entry.path().filename());
            EXPECT_TRUE(program.ok()) << program.error();
            ++count;
        }
    }
    EXPECT_GE(count, 7);
}

TEST_F(ShaderLibraryTest, EveryRenderShaderCompilesAndLinks)
{
    // Each fragment shader with the vertex shader of the same name, or the
    // surface's vertex shader (the wireframe pass reuses it).
    const ShaderLibrary library;
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(library.directory())) {
        if (entry.path().extension() != ".frag") {
            continue;
        }
        std::filesystem::path vertex = entry.path();
        vertex.replace_extension(".vert");
        const std::string vertex_file = std::filesystem::exists(vertex)
                                            ? vertex.filename().string()
                                            : std::string("render_surface.vert");
        Result<GlProgram> program =
            library.render_program(vertex_file, entry.path().filename().string());
        EXPECT_TRUE(program.ok()) << program.error();
        ++count;
    }
    EXPECT_GE(count, 5);
}

TEST_F(ShaderLibraryTest, CompileErrorNamesFileAndLine)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "softbody_shader_test";
    std::filesystem::create_directories(dir);
    write(dir / "helper.glsl", "// helper\nfloat twice(float x)\n{\n    return 2.0f * x;\n}\n");
    write(dir / "broken.comp",
          "#version 430 core\n#include \"helper.glsl\"\nlayout(local_size_x = 1) in;\n"
          "void main()\n{\n    float y = twice(1.0f)\n}\n");
    write(dir / "broken_helper.glsl", "float oops(float x)\n{\n    return x +;\n}\n");
    write(dir / "uses_broken.comp",
          "#version 430 core\nlayout(local_size_x = 1) in;\n#include \"broken_helper.glsl\"\n"
          "void main() {}\n");
    const ShaderLibrary library(dir.string());

    Result<GlProgram> broken = library.compute_program("broken.comp");
    ASSERT_FALSE(broken.ok());
    std::printf("%s\n", broken.error().c_str());
    // The missing semicolon is noticed at line 7 ("}"), in broken.comp.
    EXPECT_NE(broken.error().find("broken.comp:7"), std::string::npos) << broken.error();

    Result<GlProgram> included = library.compute_program("uses_broken.comp");
    ASSERT_FALSE(included.ok());
    EXPECT_NE(included.error().find("broken_helper.glsl:3"), std::string::npos)
        << included.error();

    Result<GlProgram> missing = library.compute_program("no_such_file.comp");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("no_such_file.comp"), std::string::npos) << missing.error();
    std::filesystem::remove_all(dir);
}

TEST(ShaderLog, TranslatesSourceNumbersToFileNames)
{
    const std::string log = "0:12(7): error: syntax error\n1:3(1): warning: unused\nplain line\n";
    const std::string out = translate_shader_log(log, {"main.comp", "tet_math.glsl"});
    EXPECT_NE(out.find("main.comp:12: error: syntax error"), std::string::npos) << out;
    EXPECT_NE(out.find("tet_math.glsl:3: warning: unused"), std::string::npos) << out;
    EXPECT_NE(out.find("plain line"), std::string::npos) << out;
}
