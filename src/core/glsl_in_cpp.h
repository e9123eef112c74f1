// What lets a shaders/*.glsl file compile as C++ against GLM: functions
// become inline, GLSL's inout/out parameters become references. Include it,
// then the .glsl file inside a namespace that uses glm (see tet_math.h).
#pragma once

#define TM_FN inline
#define TM_INOUT(T) T&
#define TM_OUT(T) T&
