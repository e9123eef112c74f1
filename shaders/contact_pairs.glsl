// The candidate pairs as the iteration's contact passes read them
// (contact_count.comp, contact_solve.comp), after contact_common.glsl: both
// decide the same way which pairs are in contact.

// A candidate slot's pair: surface vertex v against the triangle's corners
// a, b, c, and their inverse masses.
struct CandidatePair {
    uint v;
    uint a;
    uint b;
    uint c;
    vec4 w;
};

// The vertex's displacement since the substep began: h v + correction.
vec3 displacement(uint v)
{
    return u_gravity_h.w * velocities[v].xyz + corrections[v].xyz;
}

// Whether candidate slot `slot` holds a pair in contact on the current
// positions (cm_vertex_triangle_contact, or cm_vertex_in_valley_contact),
// and which.
bool candidate_in_contact(uint slot, out CandidatePair pair, out CmContact contact)
{
    pair = CandidatePair(0u, 0u, 0u, 0u, vec4(0.0f));
    contact = CmContact(vec3(0.0f), vec3(0.0f), 0.0f);
    if (slot >= u_contact_counts.y * CONTACTS_PER_VERTEX) {
        return false;
    }
    uint candidate = contact_candidates[slot];
    if (candidate == NO_CONTACT) {
        return false;
    }
    bool deep = (candidate & CM_DEEP_PAIR) != 0u;
    uint f = candidate & ~CM_DEEP_PAIR;
    pair.v = surface_vertices[slot / CONTACTS_PER_VERTEX];
    pair.a = triangle_corner(f, 0u);
    pair.b = triangle_corner(f, 1u);
    pair.c = triangle_corner(f, 2u);
    pair.w = vec4(inverse_mass(pair.v), inverse_mass(pair.a), inverse_mass(pair.b),
                  inverse_mass(pair.c));
    vec3 p = positions[pair.v].xyz;
    vec3 a = positions[pair.a].xyz;
    vec3 b = positions[pair.b].xyz;
    vec3 c = positions[pair.c].xyz;
    float max_recovery = u_contact.w * u_gravity_h.w;
    if (cm_vertex_triangle_contact(p, a, b, c, pair.w, deep, u_contact_hash.y, max_recovery,
                                   displacement(pair.v), displacement(pair.a),
                                   displacement(pair.b), displacement(pair.c), contact)) {
        return true;
    }
    // A plain pair behind and beside its triangle: pressed into a valley?
    // As BodyContacts::pair_in_contact.
    bool may_touch = cm_pair_behind_may_touch(floatBitsToUint(contact_vertices[pair.v].w),
                                              floatBitsToUint(contact_vertices[pair.a].w));
    uint edge = deep || !may_touch ? 3u : cm_edge_behind_beside(p, a, b, c);
    if (edge > 2u) {
        return false;
    }
    uint far = triangle_far_corner(f, edge);
    return far != NO_CONTACT &&
           cm_vertex_in_valley_contact(p, a, b, c, positions[far].xyz, edge, pair.w,
                                       u_contact_hash.y, max_recovery, displacement(pair.v),
                                       displacement(pair.a), displacement(pair.b),
                                       displacement(pair.c), contact);
}
