# BankcTiles.cmake: build bankc .tile files as part of a CMake project.
# Needs CMake 3.20 or later.
#
#     find_package(bankc CONFIG REQUIRED)            # an installed bankc
#   or, from a bankc source tree (or a copy of this file):
#     include(<bankc>/cmake/BankcTiles.cmake)
#
#     bankc_add_tiles(TARGET <target>
#                     TILES <file.tile>...
#                     [OUTPUT_DIR <dir>]
#                     [BANKC <path>|<program name>|<executable target>]
#                     [SCOPE PUBLIC|PRIVATE|INTERFACE]
#                     [CHECK_PROGRAMS [CHECK_ARCHITECTURES <arch>...]])
#
# For every FILE.tile the build runs
#
#     <bankc> build FILE.tile -o <dir>/<stem> -MD -MF <dir>/<stem>.d
#
# and then touches <dir>/<stem>.stamp.  <stem> is the file's name without
# its last extension (tiles/gemm.tile -> gemm).  For every tile NAME in the
# file, bankc writes
#
#     <dir>/<stem>/NAME.cuh         the layout as macros (NAME in upper case:
#                                   NAME_ROWS, NAME_IDX(r, c), ...), C11 and CUDA
#     <dir>/<stem>/NAME_check.cu    a CUDA program that checks the layout on a GPU
#     <dir>/<stem>/NAME.json        the solver's report
#     <dir>/<stem>/NAME.svg         a picture of the layout's banks
#
# and code includes a tile's header by the tile's name: #include "NAME.cuh".
# Tile names should therefore be unique among all the files a target sees.
#
# These names are known only once bankc has parsed the file, so they are
# not declared as the command's OUTPUT or BYPRODUCTS (but with
# CHECK_PROGRAMS, below); <dir>/<stem>.stamp is its declared output instead.  The command reruns when the .tile file, the
# bankc executable or this module changes.  bankc rewrites an output only
# when its contents change, so an edit that leaves every output as it was
# (a comment, say) reruns bankc and recompiles nothing.
#
# bankc_add_tiles also
#   - adds a custom target <target>_bankc_tiles (_2, _3, ... when called
#     again for the same target) that builds the stamps, and makes <target>
#     depend on it, so the headers exist before <target> compiles;
#   - adds every <dir>/<stem> to <target>'s include directories with SCOPE,
#     by default PRIVATE for an executable, INTERFACE for an interface
#     library and PUBLIC for any other library, as build-tree paths only
#     ($<BUILD_INTERFACE:...>);
#   - makes the sources <target> has when bankc_add_tiles is called depend
#     (OBJECT_DEPENDS) on <dir>/<stem>.changed, a file touched only when
#     bankc actually changed one of <dir>/<stem>'s files.  Ninja decides
#     what is out of date before it runs anything and does not know that
#     the headers come from bankc, so without this a build that changes a
#     header would recompile the sources including it only on the next
#     build.  So call bankc_add_tiles after the target's sources are listed.
#     (Make builds one target after another and needs none of this.)
#     Sources of other targets that include these headers (through a PUBLIC
#     or INTERFACE library) can do the same with the markers listed in
#     <target>'s BANKC_TILES_CHANGED property:
#         get_target_property(changed tiles_lib BANKC_TILES_CHANGED)
#         set_property(SOURCE main.c APPEND PROPERTY OBJECT_DEPENDS ${changed})
#   - lists the outputs, stamps and dependency files for `clean`.
#
# Arguments:
#   TARGET      an existing executable or library that uses the headers.
#   TILES       the .tile files, relative to the current source directory
#               or absolute.
#   OUTPUT_DIR  where everything goes, relative to the current binary
#               directory or absolute.  Default:
#               ${CMAKE_CURRENT_BINARY_DIR}/bankc/<target>.
#   BANKC       the compiler: a path (relative to the current source
#               directory), a program name looked up on PATH, or an
#               executable target (of this project, or imported).  Default:
#               the imported target bankc::bankc where find_package(bankc)
#               made it; otherwise the cache variable BANKC_EXECUTABLE, set
#               by find_program(BANKC_EXECUTABLE bankc) which looks next to
#               this module first (PREFIX/bin for a module installed in
#               PREFIX/lib/cmake/bankc; a bankc source tree's ./bankc) and
#               then on PATH.  Configuring fails if none is found.
#   SCOPE       PUBLIC, PRIVATE or INTERFACE, for the include directories.
#   CHECK_PROGRAMS
#               also build every tile's NAME_check.cu as an executable
#               NAME_check and register it as the test NAME_check, so that
#               `ctest` runs the check programs (on a machine with a GPU;
#               without one they fail).  The project must enable CUDA
#               (project(... LANGUAGES ... CUDA) or enable_language(CUDA))
#               and call enable_testing() (or include(CTest)) for the tests
#               to be registered.  The tile names are needed while
#               configuring, so bankc reads each file then (`bankc dump`),
#               and an edit of a .tile file configures again; bankc must
#               therefore exist when configuring (not a target this project
#               builds).  The programs include bankc_check.cuh: from
#               bankc::runtime where find_package(bankc) made it, from the
#               source tree's runtime/ for the module used in place, or from
#               BANKC_INCLUDE_DIR when set.
#   CHECK_ARCHITECTURES
#               the programs' CUDA_ARCHITECTURES (e.g. 90); default: each
#               tile's own arch (sm_80 -> 80, which CMake compiles to sm_80
#               code and compute_80 PTX, so it also runs on later GPUs).
#
# Dependency files: bankc's depfile <dir>/<stem>.d names the outputs as its
# targets, which is right for make but not for a custom command whose
# declared output is the stamp (Ninja rejects a depfile that names outputs
# it was not told of).  After bankc runs, the build writes
# <dir>/<stem>.stamp.d, the same prerequisites with the stamp as the
# target, and that file is the command's DEPFILE, used by the Makefile and
# Ninja generators (and from CMake 3.21 on by Visual Studio and Xcode; with
# other generators it is left out).  The .tile file is a declared
# dependency in every case.  bankc escapes the depfile's paths as GCC does
# (a space as "\ ", "$" as "$$"), so they are copied through unchanged.
#
# Example:
#     add_executable(app main.c)
#     bankc_add_tiles(TARGET app TILES tiles/transpose.tile)
#     # main.c: #include "transpose_f32.cuh", for tile transpose_f32

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR
    "BankcTiles.cmake needs CMake 3.20 or later; this is CMake ${CMAKE_VERSION}")
endif()

# Script mode, run by the build after bankc (cmake -P this file):
#   BANKC_TILES_STEP=after-build  STEM_D  STAMP  STAMP_D  OUT  CHANGED
# writes STAMP_D, a depfile with one rule, STAMP: the prerequisites of bankc's
# depfile STEM_D (Ninja wants a depfile to name the command's output and no
# file it does not know), and touches CHANGED when a file in OUT is newer
# than it.
if(CMAKE_SCRIPT_MODE_FILE AND BANKC_TILES_STEP STREQUAL "after-build")
  set(prereqs "")
  if(EXISTS "${STEM_D}")
    file(READ "${STEM_D}" text)
    string(REGEX REPLACE "\\\\\r?\n" " " text "${text}")
    # Each line is TARGETS: PREREQUISITES; the first ':' followed by white
    # space or the end of the line ends the targets (C:\ does not).
    while(NOT text STREQUAL "")
      string(FIND "${text}" "\n" nl)
      if(nl EQUAL -1)
        set(line "${text}")
        set(text "")
      else()
        string(SUBSTRING "${text}" 0 ${nl} line)
        math(EXPR nl "${nl} + 1")
        string(SUBSTRING "${text}" ${nl} -1 text)
      endif()
      if(line MATCHES "^([^:]|:[^ \t\r])*:([ \t\r].*)?$")
        string(APPEND prereqs "${CMAKE_MATCH_2}")
      endif()
    endwhile()
    string(STRIP "${prereqs}" prereqs)
  endif()
  string(REPLACE "$" "$$" target "${STAMP}")
  string(REPLACE " " "\\ " target "${target}")
  string(REPLACE "#" "\\#" target "${target}")
  set(deps "${target}: ${prereqs}\n")
  file(WRITE "${STAMP_D}.tmp" "${deps}")
  file(RENAME "${STAMP_D}.tmp" "${STAMP_D}")
  set(changed FALSE)
  if(NOT EXISTS "${CHANGED}")
    set(changed TRUE)
  else()
    file(GLOB outputs LIST_DIRECTORIES false "${OUT}/*")
    foreach(f IN LISTS outputs)
      if("${f}" IS_NEWER_THAN "${CHANGED}")
        set(changed TRUE)
        break()
      endif()
    endforeach()
  endif()
  if(changed)
    file(TOUCH "${CHANGED}")
  endif()
  return()
endif()

include_guard(GLOBAL)

# Where this file lives, for finding bankc next to it.
set(_bankc_tiles_module_dir "${CMAKE_CURRENT_LIST_DIR}")
set(_bankc_tiles_module_file "${CMAKE_CURRENT_LIST_FILE}")

# The functions run under CMake 3.20's policies whatever the including
# project asks for; among them CMP0116, under which Ninja reads DEPFILE
# paths the way the Makefile generators do.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# Resolve the BANKC argument (or its absence) into a command and the
# dependency that makes the command rerun when the compiler changes.
function(_bankc_tiles_find_compiler given out_cmd out_dep)
  if(given STREQUAL "" AND TARGET bankc::bankc)
    set(given bankc::bankc)
  endif()
  if(given STREQUAL "")
    if(NOT BANKC_EXECUTABLE)
      find_program(BANKC_EXECUTABLE
        NAMES bankc
        HINTS "${_bankc_tiles_module_dir}/../../../bin"
              "${_bankc_tiles_module_dir}/.."
        DOC "bankc, the shared-memory tile layout compiler")
    endif()
    if(NOT BANKC_EXECUTABLE)
      message(FATAL_ERROR
        "bankc_add_tiles: bankc was not found.  Put it on PATH, pass "
        "BANKC <path> to bankc_add_tiles, or configure with "
        "-DBANKC_EXECUTABLE=<path>.")
    endif()
    set(path "${BANKC_EXECUTABLE}")
  elseif(TARGET "${given}")
    get_target_property(type "${given}" TYPE)
    if(NOT type STREQUAL "EXECUTABLE")
      message(FATAL_ERROR
        "bankc_add_tiles: BANKC target '${given}' is a ${type}, not an "
        "executable")
    endif()
    get_target_property(imported "${given}" IMPORTED)
    if(NOT imported)
      set(${out_cmd} "$<TARGET_FILE:${given}>" PARENT_SCOPE)
      set(${out_dep} "${given}" PARENT_SCOPE)
      return()
    endif()
    # an imported executable (bankc::bankc): its file, which also makes
    # the command rerun when it changes
    get_target_property(path "${given}" IMPORTED_LOCATION)
    if(NOT path)
      message(FATAL_ERROR
        "bankc_add_tiles: imported target '${given}' has no IMPORTED_LOCATION")
    endif()
  elseif(given MATCHES "/")
    get_filename_component(path "${given}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  else()
    find_program(_bankc_tiles_named NAMES "${given}" NO_CACHE)
    if(NOT _bankc_tiles_named)
      message(FATAL_ERROR
        "bankc_add_tiles: BANKC '${given}' is not a target and no program "
        "of that name is on PATH")
    endif()
    set(path "${_bankc_tiles_named}")
  endif()
  if(NOT EXISTS "${path}" OR IS_DIRECTORY "${path}")
    message(FATAL_ERROR "bankc_add_tiles: bankc '${path}' does not exist")
  endif()
  set(${out_cmd} "${path}" PARENT_SCOPE)
  set(${out_dep} "${path}" PARENT_SCOPE)
endfunction()

# CHECK_PROGRAMS needs, while configuring: CUDA, bankc itself (to read the
# tile names) and the runtime headers; sets _bankc_runtime_dir in the
# caller.
function(_bankc_tiles_check_setup bankc)
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST langs)
    message(FATAL_ERROR
      "bankc_add_tiles: CHECK_PROGRAMS builds CUDA programs; enable CUDA "
      "first (project(... LANGUAGES ... CUDA) or enable_language(CUDA))")
  endif()
  if(bankc MATCHES "^\\$<")
    message(FATAL_ERROR
      "bankc_add_tiles: CHECK_PROGRAMS reads the tile names while "
      "configuring, so BANKC must be an existing program, not a target this "
      "project builds")
  endif()
  if(BANKC_INCLUDE_DIR)
    set(dir "${BANKC_INCLUDE_DIR}")
  elseif(TARGET bankc::runtime)
    set(dir "")
  else()
    get_filename_component(dir "${_bankc_tiles_module_dir}/../runtime" ABSOLUTE)
  endif()
  if(dir AND NOT EXISTS "${dir}/bankc_check.cuh")
    message(FATAL_ERROR
      "bankc_add_tiles: CHECK_PROGRAMS needs bankc's runtime headers; "
      "'${dir}' has no bankc_check.cuh.  Set BANKC_INCLUDE_DIR to their "
      "folder, or use find_package(bankc)")
  endif()
  set(_bankc_runtime_dir "${dir}" PARENT_SCOPE)
endfunction()

# The tiles of one spec file, as NAME:ARCH entries, from `bankc dump
# --json`; the file becomes a configure dependency.
function(_bankc_tiles_read_names bankc src out_var)
  execute_process(COMMAND "${bankc}" dump --json "${src}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR
      "bankc_add_tiles: '${bankc} dump --json ${src}' failed:\n${err}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
  string(JSON n LENGTH "${json}" tiles)
  set(entries "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(k RANGE ${last})
      string(JSON tile_name GET "${json}" tiles ${k} name)
      string(JSON tile_arch GET "${json}" tiles ${k} arch)
      list(APPEND entries "${tile_name}:${tile_arch}")
    endforeach()
  endif()
  set(${out_var} "${entries}" PARENT_SCOPE)
endfunction()

function(bankc_add_tiles)
  cmake_parse_arguments(PARSE_ARGV 0 arg
    "CHECK_PROGRAMS" "TARGET;OUTPUT_DIR;BANKC;SCOPE" "TILES;CHECK_ARCHITECTURES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "bankc_add_tiles: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "bankc_add_tiles: TARGET <target> is required")
  endif()
  if(NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR
      "bankc_add_tiles: '${arg_TARGET}' is not a target; create it "
      "(add_executable, add_library) before calling bankc_add_tiles")
  endif()
  if(NOT arg_TILES)
    message(FATAL_ERROR "bankc_add_tiles: TILES is required: the .tile files to build")
  endif()

  get_target_property(type "${arg_TARGET}" TYPE)
  if(arg_SCOPE)
    if(NOT arg_SCOPE MATCHES "^(PUBLIC|PRIVATE|INTERFACE)$")
      message(FATAL_ERROR
        "bankc_add_tiles: SCOPE must be PUBLIC, PRIVATE or INTERFACE, not "
        "'${arg_SCOPE}'")
    endif()
    set(scope "${arg_SCOPE}")
  elseif(type STREQUAL "EXECUTABLE")
    set(scope PRIVATE)
  elseif(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  else()
    set(scope PUBLIC)
  endif()

  if(arg_OUTPUT_DIR)
    get_filename_component(dir "${arg_OUTPUT_DIR}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/bankc/${arg_TARGET}")
  endif()

  _bankc_tiles_find_compiler("${arg_BANKC}" bankc bankc_dep)
  if(arg_CHECK_ARCHITECTURES AND NOT arg_CHECK_PROGRAMS)
    message(FATAL_ERROR
      "bankc_add_tiles: CHECK_ARCHITECTURES goes with CHECK_PROGRAMS")
  endif()
  if(arg_CHECK_PROGRAMS)
    _bankc_tiles_check_setup("${bankc}")
  endif()

  # DEPFILE where the generator reads it.
  set(use_depfile FALSE)
  if(CMAKE_GENERATOR MATCHES "Make|Ninja" OR
     NOT CMAKE_VERSION VERSION_LESS 3.21)
    set(use_depfile TRUE)
  endif()

  set(stamps "")
  set(check_tiles "")
  set(check_dirs "")
  set(changes "")
  set(incdirs "")
  set(clean "")
  get_property(taken GLOBAL PROPERTY _BANKC_TILES_STAMPS)
  foreach(tile IN LISTS arg_TILES)
    get_filename_component(src "${tile}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src}" NAME_WLE)
    set(out "${dir}/${stem}")
    set(stamp "${dir}/${stem}.stamp")
    set(depfile "${dir}/${stem}.d")
    set(stamp_d "${dir}/${stem}.stamp.d")
    set(changed "${dir}/${stem}.changed")
    if(stamp IN_LIST stamps)
      message(FATAL_ERROR
        "bankc_add_tiles: two files named '${stem}.*' would share "
        "'${out}'; give them different names or call bankc_add_tiles "
        "once per OUTPUT_DIR")
    endif()
    if(stamp IN_LIST taken)
      message(FATAL_ERROR
        "bankc_add_tiles: '${stamp}' is already built by another "
        "bankc_add_tiles call; give this one its own OUTPUT_DIR")
    endif()

    # with CHECK_PROGRAMS: the tiles of the file, read while configuring,
    # and their outputs declared, since the check programs compile them
    set(byproducts "")
    set(file_tiles "")
    if(arg_CHECK_PROGRAMS)
      _bankc_tiles_read_names("${bankc}" "${src}" file_tiles)
      foreach(entry IN LISTS file_tiles)
        string(REPLACE ":" ";" entry "${entry}")
        list(GET entry 0 tile_name)
        foreach(suffix IN ITEMS .cuh _check.cu .json .svg)
          list(APPEND byproducts "${out}/${tile_name}${suffix}")
        endforeach()
      endforeach()
      list(APPEND check_tiles ${file_tiles})
      foreach(entry IN LISTS file_tiles)
        list(APPEND check_dirs "${out}")
      endforeach()
    endif()

    set(depfile_args "")
    if(use_depfile)
      set(depfile_args DEPFILE "${stamp_d}")
    endif()
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${out}")
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${changed}" ${byproducts}
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${out}"
      COMMAND "${bankc}" build "${src}" -o "${out}" -MD -MF "${depfile}"
      COMMAND "${CMAKE_COMMAND}" -D BANKC_TILES_STEP=after-build
              -D "STEM_D=${depfile}" -D "STAMP=${stamp}" -D "STAMP_D=${stamp_d}"
              -D "OUT=${out}" -D "CHANGED=${changed}"
              -P "${_bankc_tiles_module_file}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${src}" "${bankc_dep}" "${_bankc_tiles_module_file}"
      ${depfile_args}
      COMMENT "bankc build ${tile} -> ${shown}"
      VERBATIM)
    list(APPEND stamps "${stamp}")
    list(APPEND changes "${changed}")
    list(APPEND incdirs "$<BUILD_INTERFACE:${out}>")
    list(APPEND clean "${out}" "${depfile}" "${stamp_d}" "${changed}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY _BANKC_TILES_STAMPS ${stamps})

  # One custom target per call, named after the target.
  set(name "${arg_TARGET}_bankc_tiles")
  set(n 2)
  while(TARGET "${name}")
    set(name "${arg_TARGET}_bankc_tiles_${n}")
    math(EXPR n "${n} + 1")
  endwhile()
  add_custom_target("${name}" DEPENDS ${stamps})
  add_dependencies("${arg_TARGET}" "${name}")

  target_include_directories("${arg_TARGET}" ${scope} ${incdirs})

  # The target's sources recompile when bankc changed an output (see the
  # header comment for why Ninja needs this).
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(sources "${arg_TARGET}" SOURCES)
    list(FILTER sources EXCLUDE REGEX "\\$<")     # generator expressions
    if(sources)
      set_property(SOURCE ${sources} TARGET_DIRECTORY "${arg_TARGET}"
        APPEND PROPERTY OBJECT_DEPENDS ${changes})
    endif()
  endif()

  set_property(TARGET "${arg_TARGET}" APPEND PROPERTY BANKC_TILES_CHANGED
    ${changes})

  # The check programs, one executable and one test per tile.
  set(i 0)
  foreach(entry IN LISTS check_tiles)
    list(GET check_dirs ${i} out)
    math(EXPR i "${i} + 1")
    string(REPLACE ":" ";" entry "${entry}")
    list(GET entry 0 tile_name)
    list(GET entry 1 tile_arch)
    set(exe "${tile_name}_check")
    if(TARGET "${exe}")
      message(FATAL_ERROR
        "bankc_add_tiles: the check program of tile '${tile_name}' would be "
        "target '${exe}', which exists already; tile names must be unique "
        "among the files built with CHECK_PROGRAMS")
    endif()
    add_executable("${exe}" "${out}/${exe}.cu")
    add_dependencies("${exe}" "${name}")
    target_include_directories("${exe}" PRIVATE "${out}")
    if(TARGET bankc::runtime AND NOT BANKC_INCLUDE_DIR)
      target_link_libraries("${exe}" PRIVATE bankc::runtime)
    else()
      target_include_directories("${exe}" PRIVATE "${_bankc_runtime_dir}")
    endif()
    if(arg_CHECK_ARCHITECTURES)
      set(archs ${arg_CHECK_ARCHITECTURES})
    else()
      string(REGEX REPLACE "^sm_" "" archs "${tile_arch}")
    endif()
    set_target_properties("${exe}" PROPERTIES
      CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF
      CUDA_ARCHITECTURES "${archs}")
    add_test(NAME "${exe}" COMMAND "${exe}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY ADDITIONAL_CLEAN_FILES ${clean})
endfunction()

cmake_policy(POP)
