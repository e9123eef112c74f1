// A headless OpenGL context for the GL tests. Where none can be made at all
// (no EGL, no GL 4.3), the tests skip with the reason instead of failing.
#pragma once

#include "gpu/gl_loader.h"
#include "gpu/headless_context.h"

#include <gtest/gtest.h>

#include <memory>

class GlTest : public testing::Test {
protected:
    void SetUp() override
    {
        Result<std::unique_ptr<HeadlessGlContext>> context = HeadlessGlContext::create();
        if (!context) {
            GTEST_SKIP() << "no headless OpenGL context: " << context.error();
        }
        context_ = std::move(context).value();
        if (gl_context_version() < kMinimumComputeGlVersion) {
            GTEST_SKIP() << "OpenGL " << context_->description() << " has no compute shaders";
        }
    }

    std::unique_ptr<HeadlessGlContext> context_;
};
