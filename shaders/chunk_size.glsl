// Items a workgroup of the chunked sums takes (chunk_sums.glsl). GpuSolver
// includes this file as C++ to size its dispatches, so both read one number.
const uint CHUNK_ITEMS = 4096u;
