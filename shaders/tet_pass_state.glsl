// What the tet passes share across a substep, one buffer: the fraction of
// its multipliers every tet starts the substep from (warm_fraction.comp
// writes it, the Gauss-Seidel warm start reads it), and the volume
// barrier's latch (tm_volume_constraint): a tet step that finds its tet
// within the barrier's reach (J < J_b) sets volume_squeezed_seen, and
// predict.comp engages the barrier once a whole substep went by without
// one, for good (until the world is loaded or its state set anew, which
// upload 0, 0, 1). The last sweeps of a substep (tm_recover_tet,
// TM_LAST_SWEEPS_MAX): last_sweep, which of them runs, is written before
// each; last_sweep_turned[k] is 1 once sweep k turned some tet, and a
// sweep after one that turned none takes no step; last_sweeps_deepest,
// the most sweeps that turned a tet in any substep of the frame, is read
// back to choose how many the next frames dispatch.
layout(std430, binding = 28) buffer TetPassState {
    float warm_fraction;
    uint volume_barrier_engaged;
    uint volume_squeezed_seen;
    uint last_sweep;
    uint last_sweeps_deepest;
    uint last_sweep_turned[];
};
