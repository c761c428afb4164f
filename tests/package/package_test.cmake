# cmake -P script behind the package.install_and_consume test (see CMakeLists.txt for the inputs):
#  1. cmake --install into WORK_DIR/prefix; the installed package names no bake dependency;
#  2. configure tests/package/consumer against that prefix, build it: both levels are baked;
#  3. run the consumer on a baked level (it prints a path length);
#  4. build again: nothing is baked (and Ninja has no work); touch one mesh: only it is re-baked;
#     change the options: both are re-baked;
#  5. compile the consumer once more with pkg-config alone and run it.
cmake_minimum_required(VERSION 3.20)

function(run what)
  cmake_parse_arguments(arg "" "OUTPUT" "COMMAND" ${ARGN})
  execute_process(COMMAND ${arg_COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${arg_COMMAND}\n${out}")
  endif()
  if(arg_OUTPUT)
    set(${arg_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

# Number of levels a build log says were baked, and which.
function(count_bakes log out_count out_names)
  string(REGEX MATCHALL "clearway: baking [a-z_]+\\.cwrm" lines "${log}")
  list(LENGTH lines n)
  list(SORT lines)
  string(REPLACE "clearway: baking " "" lines "${lines}")
  set(${out_count} ${n} PARENT_SCOPE)
  set(${out_names} "${lines}" PARENT_SCOPE)
endfunction()

function(expect_bakes log expected_names what)
  count_bakes("${log}" n names)
  if(NOT names STREQUAL "${expected_names}")
    message(FATAL_ERROR "${what}: expected bakes [${expected_names}], got [${names}]:\n${log}")
  endif()
  message(STATUS "${what}: baked [${names}]")
endfunction()

string(TIMESTAMP started "%s")
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

# 1. Install, then check what a consumer would see.
run("cmake --install" COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(file include/clearway/runtime.h include/clearway/motion.h lib/libclearway_runtime.a
             lib/libclearway_motion.a lib/cmake/clearway/clearwayConfig.cmake
             lib/cmake/clearway/clearwayBake.cmake lib/pkgconfig/clearway-runtime.pc
             lib/pkgconfig/clearway-motion.pc bin/cw-bake)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
# The package files name no bake dependency (nor FlatBuffers); the headers include none of them.
file(GLOB package_files "${prefix}/lib/cmake/clearway/*.cmake" "${prefix}/lib/pkgconfig/*.pc")
file(GLOB headers "${prefix}/include/clearway/*.h")
foreach(file ${package_files} ${headers})
  if(file MATCHES "\\.h$")
    file(STRINGS "${file}" text REGEX "^[ \t]*#[ \t]*include")
  else()
    file(READ "${file}" text)
  endif()
  string(TOLOWER "${text}" text)
  foreach(dependency cgal assimp spdlog cli11 flatbuffers _generated.h)
    if(text MATCHES "${dependency}")
      message(FATAL_ERROR "${file} names ${dependency}: games must not need it")
    endif()
  endforeach()
endforeach()

# 2. Configure and build the consumer against the prefix, with its own copies of two levels.
file(COPY "${LEVELS_DIR}/box_room.obj" "${LEVELS_DIR}/step_box.obj" DESTINATION "${WORK_DIR}/levels")
file(COPY "${GLTF_DIR}/step_box_external.gltf" "${GLTF_DIR}/step_box_external.bin" DESTINATION "${WORK_DIR}/gltf")
set(build "${WORK_DIR}/build")
run("configure the consumer" COMMAND ${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    "-DCONSUMER_LEVELS_DIR=${WORK_DIR}/levels" "-DCONSUMER_GLTF_DIR=${WORK_DIR}/gltf")
file(STRINGS "${build}/CMakeCache.txt" found REGEX "^clearway_DIR:")
if(NOT found MATCHES "${prefix}/lib/cmake/clearway")
  message(FATAL_ERROR "the consumer found clearway elsewhere: ${found}")
endif()
run("build the consumer" COMMAND ${CMAKE_COMMAND} --build "${build}" OUTPUT log)
expect_bakes("${log}" "box_room.cwrm;step_box.cwrm;step_box_external.cwrm" "first build")

# 3. Run it.
run("run the consumer" COMMAND "${build}/consumer" "${build}/levels/box_room.cwrm" OUTPUT printed)
if(NOT printed MATCHES "length [0-9.]+ m")
  message(FATAL_ERROR "the consumer printed no path length:\n${printed}")
endif()
message(STATUS "consumer: ${printed}")

# 4. Incremental: nothing changed, one mesh changed, the options changed.
run("second build" COMMAND ${CMAKE_COMMAND} --build "${build}" OUTPUT log)
expect_bakes("${log}" "" "second build")
if(GENERATOR STREQUAL "Ninja")
  run("ninja -n" COMMAND "${MAKE_PROGRAM}" -C "${build}" -n OUTPUT dry)
  if(NOT dry MATCHES "no work to do")
    message(FATAL_ERROR "ninja -n after a full build still has work:\n${dry}")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1) # coarse file systems: a newer mtime for sure
file(TOUCH "${WORK_DIR}/levels/step_box.obj")
run("build after touching step_box.obj" COMMAND ${CMAKE_COMMAND} --build "${build}" OUTPUT log)
expect_bakes("${log}" "step_box.cwrm" "after touching step_box.obj")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1)
file(TOUCH "${WORK_DIR}/gltf/step_box_external.bin")
run("build after touching the glTF's buffer" COMMAND ${CMAKE_COMMAND} --build "${build}" OUTPUT log)
expect_bakes("${log}" "step_box_external.cwrm" "after touching step_box_external.bin")
run("reconfigure with other options" COMMAND ${CMAKE_COMMAND} -DCONSUMER_MAX_STEP=0.3 "${build}")
run("build with other options" COMMAND ${CMAKE_COMMAND} --build "${build}" OUTPUT log)
expect_bakes("${log}" "box_room.cwrm;step_box.cwrm" "after changing the options")

# 5. pkg-config alone.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
  run("pkg-config" COMMAND "${PKG_CONFIG}" --cflags --libs clearway-motion OUTPUT flags)
  string(STRIP "${flags}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("compile with pkg-config flags" COMMAND "${CXX}" -std=c++17 -O1 "${CONSUMER_DIR}/main.cpp" ${flags}
      -o "${WORK_DIR}/consumer-pc")
  run("run the pkg-config consumer" COMMAND "${WORK_DIR}/consumer-pc" "${build}/levels/box_room.cwrm"
      OUTPUT printed)
  message(STATUS "pkg-config consumer: ${printed}")
else()
  message(STATUS "pkg-config not found: skipped")
endif()

string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
message(STATUS "package test: ${seconds} s")
