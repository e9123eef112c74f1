// The window's render settings: which renderers count as software ones and
// the size of a scaled-down picture.
#include "app/render_settings.h"
#include "gpu/renderer_kind.h"

#include <gtest/gtest.h>

TEST(RendererKind, RecognisesSoftwareRenderers)
{
    EXPECT_TRUE(is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(is_software_renderer("softpipe"));
    EXPECT_TRUE(is_software_renderer("Mesa X11 Software Rasterizer"));
    EXPECT_TRUE(is_software_renderer("Google SwiftShader"));
    EXPECT_FALSE(is_software_renderer("NVIDIA GeForce RTX 4090/PCIe/SSE2"));
    EXPECT_FALSE(is_software_renderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6)"));
    EXPECT_FALSE(is_software_renderer("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
    EXPECT_FALSE(is_software_renderer(""));
}

TEST(RenderSettings, ScaledPictureKeepsAtLeastAPixelAndIgnoresNonsense)
{
    EXPECT_EQ(scaled_picture_size({1280, 720}, 1.0f), glm::ivec2(1280, 720));
    EXPECT_EQ(scaled_picture_size({1280, 720}, 0.75f), glm::ivec2(960, 540));
    EXPECT_EQ(scaled_picture_size({1, 1}, 0.5f), glm::ivec2(1, 1));
    EXPECT_EQ(scaled_picture_size({1280, 720}, 0.0f), glm::ivec2(320, 180));  // 0.25 at least
    EXPECT_EQ(scaled_picture_size({1280, 720}, 7.0f), glm::ivec2(1280, 720));
    EXPECT_EQ(scaled_picture_size({1280, 720}, std::nanf("")), glm::ivec2(1280, 720));
}

TEST(RenderSettings, CheapSettingsAreCheaperInEveryRespect)
{
    const RenderSettings full;
    const RenderSettings cheap = cheap_render_settings();
    EXPECT_LT(cheap.msaa_samples, full.msaa_samples);
    EXPECT_LT(cheap.shadow_map_texels, full.shadow_map_texels);
    EXPECT_FALSE(cheap.soft_shadows);
    EXPECT_LT(cheap.resolution_scale, full.resolution_scale);
}
