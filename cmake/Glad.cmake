# Generates the glad 2 OpenGL 4.6 core loader into the build tree with
# Debian's python3-glad. --reproducible makes glad use the specification it
# ships instead of fetching one, so the build needs no network. Nothing
# generated is committed.

find_program(GLAD_EXECUTABLE glad REQUIRED
  DOC "glad 2 generator (Debian package python3-glad)")

set(GLAD_OUT_DIR "${CMAKE_BINARY_DIR}/glad")
set(GLAD_SOURCES "${GLAD_OUT_DIR}/src/gl.c")
set(GLAD_HEADERS "${GLAD_OUT_DIR}/include/glad/gl.h" "${GLAD_OUT_DIR}/include/KHR/khrplatform.h")

add_custom_command(
  OUTPUT ${GLAD_SOURCES} ${GLAD_HEADERS}
  COMMAND "${GLAD_EXECUTABLE}" --quiet --reproducible --api gl:core=4.6
          --out-path "${GLAD_OUT_DIR}" c --loader
  COMMENT "Generating the OpenGL 4.6 core loader with glad"
  VERBATIM)

add_library(glad_gl STATIC ${GLAD_SOURCES} ${GLAD_HEADERS})
target_include_directories(glad_gl PUBLIC "${GLAD_OUT_DIR}/include")
target_link_libraries(glad_gl PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glad_gl PROPERTIES POSITION_INDEPENDENT_CODE ON)
