# clearway_bake(TARGET <name> LEVELS <mesh>... [OPTIONS <cw-bake option>...] [OUTPUT_DIR <dir>]
#               [OUTPUTS <variable>])
#
# Bakes each level mesh into <OUTPUT_DIR>/<mesh name without extension>.cwrm at build time, one
# custom command per level: a level is baked again only when its mesh, its designer edits
# (<mesh without extension>.cwedit beside it, if it exists at configure time), OPTIONS or cw-bake
# itself changed. OUTPUT_DIR defaults to the current binary directory; relative LEVELS are relative to the
# current source directory. If <name> is an existing target it depends on the bakes, otherwise a
# target <name> is created (built by default). OUTPUTS receives the list of .cwrm paths.
# Needs cw-bake: find_package(clearway COMPONENTS bake), or inside clearway's own build tree.
#
# A target may call clearway_bake several times (levels with different OPTIONS); two calls may not
# bake to the same output. Besides the mesh and its edits, a bake depends on the files the mesh
# reads: a .gltf's external buffers (relative URIs, read at configure time; editing the .gltf
# reconfigures).
#
# Tiled worlds (docs/tiles.md): with TILE_SIZE <T> TILES_X <n> TILES_Y <m> [TILE_MARGIN <M>]
# each level is baked as n x m tiles (I = 0..n-1, J = 0..m-1; cw-bake --tile-size T --tile I,J, one
# custom command each, into <OUTPUT_DIR>/<name>.tiles/) and joined by one cw-stitch command into
# <OUTPUT_DIR>/<name>.cwrm: `ninja -jN` bakes N tiles at once and re-bakes only what changed.
# The tool target <name> (installed: clearway::<name>; in clearway's own tree: <name>) into
# <command_var>, and what a custom command depends on for it into <dependency_var>: an installed
# tool is a file dependency, the in-tree target also a target dependency.
function(_clearway_tool name hint command_var dependency_var)
  if(TARGET clearway::${name})
    set(tool clearway::${name})
  elseif(TARGET ${name})
    set(tool ${name})
  else()
    message(FATAL_ERROR "clearway_bake: ${name} not found${hint}")
  endif()
  get_target_property(imported ${tool} IMPORTED)
  if(imported)
    set(${dependency_var} "$<TARGET_FILE:${tool}>" PARENT_SCOPE)
  else()
    set(${dependency_var} ${tool} PARENT_SCOPE)
  endif()
  set(${command_var} ${tool} PARENT_SCOPE)
endfunction()

# One command per tile and a stitch command (a macro: it reads and extends clearway_bake's variables).
macro(_clearway_bake_tiles)
  if(NOT arg_TILES_X OR NOT arg_TILES_Y)
    message(FATAL_ERROR "clearway_bake: TILE_SIZE needs TILES_X and TILES_Y")
  endif()
  _clearway_tool(cw-stitch " (needed for TILE_SIZE)" stitcher stitch_dependency)
  set(tile_options --tile-size ${arg_TILE_SIZE})
  if(arg_TILE_MARGIN)
    list(APPEND tile_options --tile-margin ${arg_TILE_MARGIN})
  endif()
  set(tile_dir "${out_dir}/${name}.tiles")
  file(MAKE_DIRECTORY "${tile_dir}")
  set(tiles)
  math(EXPR last_i "${arg_TILES_X} - 1")
  math(EXPR last_j "${arg_TILES_Y} - 1")
  foreach(i RANGE ${last_i})
    foreach(j RANGE ${last_j})
      set(tile "${tile_dir}/${name}_${i}_${j}.cwrm")
      list(APPEND tiles "${tile}")
      add_custom_command(
        OUTPUT "${tile}"
        COMMAND ${baker} "${mesh}" -o "${tile}" ${arg_OPTIONS} ${tile_options} --tile ${i},${j} --quiet
        DEPENDS "${mesh}" ${mesh_inputs} ${edits} "${options_file}" ${baker_dependency}
        COMMENT "clearway: baking ${name} tile ${i},${j}"
        VERBATIM)
    endforeach()
  endforeach()
  add_custom_command(
    OUTPUT "${output}"
    COMMAND ${stitcher} ${tiles} -o "${output}" --quiet
    DEPENDS ${tiles} ${stitch_dependency}
    COMMENT "clearway: stitching ${name}.cwrm"
    VERBATIM)
endmacro()

# Files a mesh's bake reads besides the mesh: a .gltf's external buffers (not data: URIs).
function(_clearway_mesh_inputs mesh out_var)
  set(inputs)
  get_filename_component(extension "${mesh}" LAST_EXT)
  string(TOLOWER "${extension}" extension)
  if(extension STREQUAL ".gltf" AND EXISTS "${mesh}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${mesh}")
    file(READ "${mesh}" json)
    string(JSON count ERROR_VARIABLE no_buffers LENGTH "${json}" buffers)
    if(NOT no_buffers AND count GREATER 0)
      get_filename_component(mesh_dir "${mesh}" DIRECTORY)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON uri ERROR_VARIABLE no_uri GET "${json}" buffers ${i} uri)
        if(NOT no_uri AND NOT uri MATCHES "^data:")
          list(APPEND inputs "${mesh_dir}/${uri}")
        endif()
      endforeach()
    endif()
  endif()
  set(${out_var} ${inputs} PARENT_SCOPE)
endfunction()

function(clearway_bake)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;OUTPUT_DIR;OUTPUTS;TILE_SIZE;TILES_X;TILES_Y;TILE_MARGIN"
                        "LEVELS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "clearway_bake: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT arg_LEVELS)
    message(FATAL_ERROR "clearway_bake: TARGET and LEVELS are required")
  endif()
  _clearway_tool(cw-bake ": install clearway with CLEARWAY_BUILD_BAKE=ON and use find_package(clearway COMPONENTS bake)"
                 baker baker_dependency)
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}")
  if(arg_OUTPUT_DIR)
    get_filename_component(out_dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  file(MAKE_DIRECTORY "${out_dir}")

  # Each call for a target gets its own options file and levels target.
  get_property(calls GLOBAL PROPERTY CLEARWAY_BAKE_CALLS_${arg_TARGET})
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(GLOBAL PROPERTY CLEARWAY_BAKE_CALLS_${arg_TARGET} ${calls})
  set(call_name "${arg_TARGET}")
  if(calls GREATER 1)
    set(call_name "${arg_TARGET}_${calls}")
  endif()

  # The options also go into a file rewritten only when they change: Ninja re-runs a command whose
  # line changed, Make does not, but both re-run one whose dependency is newer.
  set(options_file "${CMAKE_CURRENT_BINARY_DIR}/clearway_bake/${call_name}.options")
  string(REPLACE ";" "\n" options_text "${arg_OPTIONS}")
  set(old_text "")
  if(EXISTS "${options_file}")
    file(READ "${options_file}" old_text)
  endif()
  if(NOT old_text STREQUAL "${options_text}\n")
    file(WRITE "${options_file}" "${options_text}\n")
  endif()

  set(outputs)
  foreach(level IN LISTS arg_LEVELS)
    get_filename_component(mesh "${level}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${level}" NAME_WE)
    set(output "${out_dir}/${name}.cwrm")
    get_property(baked GLOBAL PROPERTY CLEARWAY_BAKE_OUTPUTS)
    if(output IN_LIST outputs OR output IN_LIST baked)
      message(FATAL_ERROR "clearway_bake: two levels bake to ${output}: rename one mesh or use another OUTPUT_DIR")
    endif()
    set_property(GLOBAL APPEND PROPERTY CLEARWAY_BAKE_OUTPUTS "${output}")
    list(APPEND outputs "${output}")
    _clearway_mesh_inputs("${mesh}" mesh_inputs)
    # The designer edits next to the mesh (README "Designer edits"), when present at configure time.
    get_filename_component(mesh_dir "${mesh}" DIRECTORY)
    get_filename_component(mesh_stem "${mesh}" NAME_WLE)
    set(edits)
    if(EXISTS "${mesh_dir}/${mesh_stem}.cwedit")
      set(edits "${mesh_dir}/${mesh_stem}.cwedit")
    endif()
    if(arg_TILE_SIZE)
      _clearway_bake_tiles()
      continue()
    endif()
    add_custom_command(
      OUTPUT "${output}"
      COMMAND ${baker} "${mesh}" -o "${output}" ${arg_OPTIONS} --quiet
      DEPENDS "${mesh}" ${mesh_inputs} ${edits} "${options_file}" ${baker_dependency}
      COMMENT "clearway: baking ${name}.cwrm"
      VERBATIM)
  endforeach()

  if(TARGET ${arg_TARGET})
    add_custom_target(${call_name}_clearway_levels DEPENDS ${outputs})
    add_dependencies(${arg_TARGET} ${call_name}_clearway_levels)
  else()
    add_custom_target(${arg_TARGET} ALL DEPENDS ${outputs})
  endif()
  if(arg_OUTPUTS)
    set(${arg_OUTPUTS} ${outputs} PARENT_SCOPE)
  endif()
endfunction()
