// Live material changes: a crushed body made stiff unfolds where it lies
// instead of being launched (MaterialRamp).
#include "material_scenarios.h"

#include <algorithm>
#include <cmath>

TEST(MaterialRamp, StiffeningIsGradualSofteningAndDensityAreAtOnce)
{
    MaterialRamp ramp;
    SimParams wanted;
    wanted.youngs_modulus_pa = 2.0e3f;
    EXPECT_EQ(ramp.next(wanted, kFrameSeconds).youngs_modulus_pa, 2.0e3f);  // first: as asked
    wanted.youngs_modulus_pa = 1.0e7f;
    wanted.density_kg_m3 = 3000.0f;
    const SimParams first = ramp.next(wanted, kFrameSeconds);
    EXPECT_NEAR(first.youngs_modulus_pa,
                2.0e3f * std::pow(MaterialRamp::kStiffeningPerSecond, kFrameSeconds), 1.0f);
    EXPECT_EQ(first.density_kg_m3, 3000.0f);
    EXPECT_TRUE(ramp.ramping());
    // log10(1e7 / 2e3) = 3.7 decades at 2.5 decades a second: 1.48 s.
    int frames = 1;
    while (ramp.next(wanted, kFrameSeconds).youngs_modulus_pa < 1.0e7f && frames < 1000) {
        ++frames;
    }
    EXPECT_NEAR(frames * kFrameSeconds, 1.48f, 0.05f);
    EXPECT_FALSE(ramp.ramping());
    wanted.youngs_modulus_pa = 1.0e3f;  // softer: at once
    EXPECT_EQ(ramp.next(wanted, kFrameSeconds).youngs_modulus_pa, 1.0e3f);
    wanted.youngs_modulus_pa = 1.0e7f;
    ramp.reset();  // a reset or a new world: at once
    EXPECT_EQ(ramp.next(wanted, kFrameSeconds).youngs_modulus_pa, 1.0e7f);
}

TEST(MaterialRamp, PoissonRatioTowardIncompressibleIsGradualAndEachBodyRampsAlone)
{
    MaterialRamp ramp;
    SimParams wanted;
    wanted.poisson_ratio = 0.1f;
    ramp.next(wanted, kFrameSeconds);
    // "All bodies" split into three materials: each starts from the one.
    wanted.body_materials = {{1.0e5f, 0.1f, 1000.0f}, {1.0e9f, 0.49f, 1000.0f},
                             {1.0e4f, 0.1f, 500.0f}};
    const SimParams next = ramp.next(wanted, kFrameSeconds);
    ASSERT_EQ(next.body_materials.size(), 3u);
    EXPECT_EQ(next.body_materials[0].youngs_modulus_pa, 1.0e5f);
    EXPECT_NEAR(next.body_materials[1].youngs_modulus_pa,
                1.0e5f * std::pow(MaterialRamp::kStiffeningPerSecond, kFrameSeconds), 1.0f);
    EXPECT_NEAR(next.body_materials[1].poisson_ratio,
                0.1f + MaterialRamp::kPoissonPerSecond * kFrameSeconds, 1e-6f);
    EXPECT_EQ(next.body_materials[2].youngs_modulus_pa, 1.0e4f);
    EXPECT_EQ(next.body_materials[2].density_kg_m3, 500.0f);
}


TEST(MaterialRamp, AddingOrRemovingABodyKeepsTheOthersRamping)
{
    MaterialRamp ramp;
    SimParams wanted;
    wanted.body_materials = {{2.0e3f, 0.3f, 1000.0f}, {2.0e3f, 0.3f, 1000.0f}};
    ramp.next(wanted, kFrameSeconds);
    wanted.body_materials = {{1.0e7f, 0.3f, 1000.0f}, {1.0e7f, 0.3f, 1000.0f}};
    ramp.next(wanted, kFrameSeconds);
    // A third body thrown in: the first two go on ramping, the new one is as asked.
    wanted.body_materials.push_back({3.0e5f, 0.3f, 1000.0f});
    SimParams next = ramp.next(wanted, kFrameSeconds);
    EXPECT_LT(next.body_materials[0].youngs_modulus_pa, 3.0e3f);
    EXPECT_EQ(next.body_materials[2].youngs_modulus_pa, 3.0e5f);
    // The first body deleted: the second keeps its ramp, now in first place.
    ramp.remove_body(0);
    wanted.body_materials.erase(wanted.body_materials.begin());
    next = ramp.next(wanted, kFrameSeconds);
    ASSERT_EQ(next.body_materials.size(), 2u);
    EXPECT_LT(next.body_materials[0].youngs_modulus_pa, 3.0e3f);
    EXPECT_EQ(next.body_materials[1].youngs_modulus_pa, 3.0e5f);
}

TEST(MaterialRamp, CrushedBunnyStiffenedUnfoldsWhereItLies)
{
    // Measured: without the ramp the centroid shot up 37 m (29 m/s); with it
    // 0.31 m, from lying flat to standing (0.18 m) plus a small hop.
    float height_m = 0.0f;
    CpuSolver ramped;
    const float rise = material_scenarios::rise_after_stiffening(ramped, true, height_m);
    std::printf("crushed bunny stiffened with the ramp: centroid rose %.3f m (height %.3f m)\n",
                rise, height_m);
    EXPECT_LT(rise, height_m);
    CpuSolver at_once;
    const float launched = material_scenarios::rise_after_stiffening(at_once, false, height_m);
    std::printf("and at once: %.3f m\n", launched);
    EXPECT_GT(launched, 3.0f * height_m) << "the scenario still launches an unramped body";
}
