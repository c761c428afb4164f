# clearway_bake(TARGET <name> LEVELS <mesh>... [OPTIONS <cw-bake option>...] [OUTPUT_DIR <dir>]
#               [OUTPUTS <variable>])
#
# Bakes each level mesh into <OUTPUT_DIR>/<mesh name without extension>.cwrm at build time, one
# custom command per level: a level is baked again only when its mesh, OPTIONS or cw-bake itself
# changed. OUTPUT_DIR defaults to the current binary directory; relative LEVELS are relative to the
# current source directory. If <name> is an existing target it depends on the bakes, otherwise a
# target <name> is created (built by default). OUTPUTS receives the list of .cwrm paths.
# Needs cw-bake: find_package(clearway COMPONENTS bake), or inside clearway's own build tree.
function(clearway_bake)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;OUTPUT_DIR;OUTPUTS" "LEVELS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "clearway_bake: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT arg_LEVELS)
    message(FATAL_ERROR "clearway_bake: TARGET and LEVELS are required")
  endif()
  if(TARGET clearway::cw-bake)
    set(baker clearway::cw-bake)
  elseif(TARGET cw-bake)
    set(baker cw-bake)
  else()
    message(FATAL_ERROR "clearway_bake: cw-bake not found: install clearway with CLEARWAY_BUILD_BAKE=ON "
                        "and use find_package(clearway COMPONENTS bake)")
  endif()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}")
  if(arg_OUTPUT_DIR)
    get_filename_component(out_dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  file(MAKE_DIRECTORY "${out_dir}")

  # The options also go into a file rewritten only when they change: Ninja re-runs a command whose
  # line changed, Make does not, but both re-run one whose dependency is newer.
  set(options_file "${CMAKE_CURRENT_BINARY_DIR}/clearway_bake/${arg_TARGET}.options")
  string(REPLACE ";" "\n" options_text "${arg_OPTIONS}")
  set(old_text "")
  if(EXISTS "${options_file}")
    file(READ "${options_file}" old_text)
  endif()
  if(NOT old_text STREQUAL "${options_text}\n")
    file(WRITE "${options_file}" "${options_text}\n")
  endif()

  # An installed cw-bake is a file dependency; the in-tree target is also a target dependency.
  get_target_property(imported ${baker} IMPORTED)
  if(imported)
    set(baker_dependency "$<TARGET_FILE:${baker}>")
  else()
    set(baker_dependency ${baker})
  endif()

  set(outputs)
  foreach(level IN LISTS arg_LEVELS)
    get_filename_component(mesh "${level}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${level}" NAME_WE)
    set(output "${out_dir}/${name}.cwrm")
    if(output IN_LIST outputs)
      message(FATAL_ERROR "clearway_bake: two levels bake to ${output}: rename one mesh")
    endif()
    list(APPEND outputs "${output}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND ${baker} "${mesh}" -o "${output}" ${arg_OPTIONS} --quiet
      DEPENDS "${mesh}" "${options_file}" ${baker_dependency}
      COMMENT "clearway: baking ${name}.cwrm"
      VERBATIM)
  endforeach()

  if(TARGET ${arg_TARGET})
    add_custom_target(${arg_TARGET}_clearway_levels DEPENDS ${outputs})
    add_dependencies(${arg_TARGET} ${arg_TARGET}_clearway_levels)
  else()
    add_custom_target(${arg_TARGET} ALL DEPENDS ${outputs})
  endif()
  if(arg_OUTPUTS)
    set(${arg_OUTPUTS} ${outputs} PARENT_SCOPE)
  endif()
endfunction()
