// A vertex pressed into a valley of another body's surface, where two faces
// meet concave: it lies behind both and projects beside both, onto their
// shared edge, and a plain pair of either face left it alone; now it is
// pushed out towards the edge (cm_vertex_in_valley_contact). At a convex
// edge the face beyond owns the vertex, as before. And the faces beyond
// each edge that the valley test reads (ContactLayout::triangle_far_corners).
#include "contact_worlds.h"
#include "test_support.h"

#include "core/body_contacts.h"
#include "core/contact_math.h"

namespace cm = contact_math;
using namespace contact_worlds;

namespace {

constexpr float kMaxRecoveryM = kContactRecoverySpeedMS / 600.0f;  // one substep of the defaults

// Two faces along the z axis from the origin to (0, 0, 1), each 1 m wide:
// `triangle` on the -x side, its corners (0, 0, 1), (0, 0, 0) and (-1, rise,
// 0.5), and the face beyond its edge 2 (corners 0 and 1) on the +x side,
// whose third corner is (1, rise, 0.5). Both face up (+y). rise > 0: a
// valley, rise < 0: a ridge.
struct TwoFaces {
    glm::vec3 a, b, c;  // the triangle, counter-clockwise seen from in front
    glm::vec3 far;      // the third corner of the face beyond edge 2 (ab)
};

TwoFaces two_faces(float rise)
{
    return {{0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}, {-1.0f, rise, 0.5f}, {1.0f, rise, 0.5f}};
}

struct PairResult {
    bool plain = false;   // cm_vertex_triangle_contact, a plain pair
    uint32_t edge = 3;    // cm_edge_behind_beside
    bool valley = false;  // cm_vertex_in_valley_contact
    cm::CmContact contact{};
};

// The pair of vertex p (which moved by dx_p this substep; the faces did
// not) with the triangle of `faces`, its corners' inverse masses 1.
PairResult pair_of(const TwoFaces& faces, glm::vec3 p, glm::vec3 dx_p)
{
    const glm::vec4 w(1.0f);
    const glm::vec3 still(0.0f);
    PairResult r;
    cm::CmContact ignored;
    r.plain = cm::cm_vertex_triangle_contact(p, faces.a, faces.b, faces.c, w, false,
                                             kContactThicknessM, kMaxRecoveryM, dx_p, still,
                                             still, still, ignored);
    r.edge = cm::cm_edge_behind_beside(p, faces.a, faces.b, faces.c);
    r.valley = cm::cm_vertex_in_valley_contact(p, faces.a, faces.b, faces.c, faces.far, 2u, w,
                                               kContactThicknessM, kMaxRecoveryM, dx_p, still,
                                               still, still, r.contact);
    return r;
}

}  // namespace

TEST(ContactValley, AVertexPressedIntoAValleyIsPushedOutTowardsItsEdge)
{
    // 5 cm under the valley's edge, having come down 6 cm this substep: 1 cm
    // above the edge when the substep began.
    const TwoFaces valley = two_faces(1.0f);
    const PairResult r = pair_of(valley, {0.0f, -0.05f, 0.5f}, {0.0f, -0.06f, 0.0f});
    EXPECT_FALSE(r.plain) << "beside the face: a plain pair alone does not push it";
    EXPECT_EQ(r.edge, 2u);
    ASSERT_TRUE(r.valley);
    // Straight up, towards the edge, to the thickness beyond it: where it
    // began was farther than that.
    EXPECT_NEAR(r.contact.n.x, 0.0f, 1e-6f);
    EXPECT_NEAR(r.contact.n.y, 1.0f, 1e-6f);
    EXPECT_NEAR(r.contact.n.z, 0.0f, 1e-6f);
    EXPECT_NEAR(r.contact.C, -(0.05f + kContactThicknessM), 1e-6f);
    EXPECT_NEAR(r.contact.bary.x, 0.5f, 1e-6f);
    EXPECT_NEAR(r.contact.bary.y, 0.5f, 1e-6f);
    EXPECT_EQ(r.contact.bary.z, 0.0f);
}

TEST(ContactValley, AVertexThatBeganInsideIsHeldWhereItBeganAndRecoversAtTheLimit)
{
    // 5 cm under the edge, having come down 1 cm this substep: a plain
    // pair's limit (cm_pair_constraint), 4 cm under plus one substep's
    // recovery.
    const TwoFaces valley = two_faces(1.0f);
    const PairResult r = pair_of(valley, {0.0f, -0.05f, 0.5f}, {0.0f, -0.01f, 0.0f});
    ASSERT_TRUE(r.valley);
    EXPECT_NEAR(r.contact.C, -(0.01f + kMaxRecoveryM), 1e-6f);
}

TEST(ContactValley, AVertexOverTheFaceBeyondARidgeIsThatFacesOwn)
{
    // A ridge: 3 mm over the face beyond the edge, 0.3 m from it. It lies
    // behind the triangle's plane and beside it, but outside the body: the
    // face beyond holds it in front of itself.
    const TwoFaces ridge = two_faces(-1.0f);
    const glm::vec3 on_beyond(0.3f, -0.3f, 0.5f);
    const glm::vec3 beyond_normal = glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f));
    const PairResult r = pair_of(ridge, on_beyond + 0.003f * beyond_normal, glm::vec3(0.0f));
    EXPECT_FALSE(r.plain);
    EXPECT_EQ(r.edge, 2u) << "behind the triangle's plane and beside it";
    EXPECT_FALSE(r.valley) << "a convex edge: the face beyond owns it";
}

TEST(ContactValley, AVertexInFrontOfTheValleyOrProjectingInsideIsLeftToThePlainPair)
{
    const TwoFaces valley = two_faces(1.0f);
    // In the valley, 1 cm above the edge: in front of both faces.
    EXPECT_EQ(pair_of(valley, {0.0f, 0.01f, 0.5f}, glm::vec3(0.0f)).edge, 3u);
    // Under the triangle and projecting inside it: the plain pair pushes.
    const PairResult under = pair_of(valley, {-0.3f, 0.2f, 0.5f}, {0.0f, -0.2f, 0.0f});
    EXPECT_TRUE(under.plain);
    EXPECT_EQ(under.edge, 3u);
}

TEST(ContactValley, EveryEdgeOfAClosedSurfaceKnowsTheFaceBeyondIt)
{
    // A single tet: the face beyond each edge of each face has the tet's
    // fourth corner as its third.
    WorldDesc one_tet = weightless_world("one tet");
    BodyDesc body;
    body.mesh.name = "tet";
    body.mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    body.mesh.tets = {{0, 1, 2, 3}};
    one_tet.bodies.push_back(body);
    const std::shared_ptr<const World> tet_world = assembled(one_tet);
    ASSERT_TRUE(tet_world);
    const TetMesh& tet = *tet_world->mesh;
    const ContactLayout tet_layout = ContactLayout::make(*tet_world);
    ASSERT_EQ(tet_layout.triangle_far_corners.size(), 4u);
    for (size_t f = 0; f < 4; ++f) {
        const glm::uvec3& corners = tet.surface_triangles[f];
        const uint32_t fourth = 0 + 1 + 2 + 3 - corners.x - corners.y - corners.z;
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(tet_layout.triangle_far_corners[f][k], fourth) << "face " << f;
        }
    }
    // Two lattice cubes: every edge of their closed surfaces has a face
    // beyond it, of the same body, running the edge the other way.
    WorldDesc cubes = weightless_world("two cubes");
    cubes.bodies.push_back(lattice_cube(0.3f, 3, {0.0f, 0.0f, 0.0f}));
    cubes.bodies.push_back(lattice_cube(0.3f, 2, {1.0f, 0.0f, 0.0f}));
    const std::shared_ptr<const World> world = assembled(cubes);
    ASSERT_TRUE(world);
    const TetMesh& mesh = *world->mesh;
    const ContactLayout layout = ContactLayout::make(*world);
    ASSERT_EQ(layout.triangle_far_corners.size(), mesh.surface_triangles.size());
    for (size_t f = 0; f < mesh.surface_triangles.size(); ++f) {
        const glm::uvec3& t = mesh.surface_triangles[f];
        for (int k = 0; k < 3; ++k) {
            const uint32_t far = layout.triangle_far_corners[f][k];
            ASSERT_NE(far, kNoContact) << "face " << f << " edge " << k;
            EXPECT_EQ(world->vertex_body[far], world->vertex_body[t.x]);
            // The face beyond: the edge reversed, then the far corner.
            const glm::uvec3 beyond(t[(k + 2) % 3], t[(k + 1) % 3], far);
            const auto runs = [&](const glm::uvec3& g) {
                for (int r = 0; r < 3; ++r) {
                    if (g == glm::uvec3(beyond[r], beyond[(r + 1) % 3], beyond[(r + 2) % 3])) {
                        return true;
                    }
                }
                return false;
            };
            EXPECT_TRUE(std::any_of(mesh.surface_triangles.begin(), mesh.surface_triangles.end(),
                                    runs))
                << "face " << f << " edge " << k;
        }
    }
}
