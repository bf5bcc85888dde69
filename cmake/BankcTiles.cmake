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
#     <bankc> build FILE.tile -o <dir>/<stem> -MD -MF <dir>/<stem>/.bankc-deps.d
#             -MQ <dir>/<stem>/.bankc-stamp --path-prefix-map <top source dir>/=
#
# and then touches <dir>/<stem>/.bankc-stamp.  <stem> is the file's name
# without its last extension (tiles/gemm.tile -> gemm).  The stamp and the
# depfile live inside the file's own folder, under names no tile's output
# can have (a tile name is an identifier), so no two files' stems clash
# with each other's files: a.tile and a.d.tile get the folders a and a.d,
# where a.tile's depfile was once a.d.  For every tile NAME in the file,
# bankc writes
#
#     <dir>/<stem>/NAME.cuh         the layout as macros (NAME in upper case:
#                                   NAME_ROWS, NAME_IDX(r, c), ...), C11 and CUDA
#     <dir>/<stem>/NAME_check.cu    a CUDA program that checks the layout on a GPU
#     <dir>/<stem>/NAME.json        the solver's report
#     <dir>/<stem>/NAME.svg         a picture of the layout's banks
#
# and code includes a tile's header by the tile's name: #include "NAME.cuh".
# Tile names should therefore be unique among all the files a target sees;
# within one bankc_add_tiles call they must be: a name defined in two of
# its files fails configuring with bankc's error at both definitions
# (file:line:col).
#
# The outputs record the spec's path relative to the top source folder
# (CMAKE_SOURCE_DIR), so two checkouts in different places build the same
# bytes.
#
# While configuring, `bankc build --list-outputs` names each file's outputs,
# and the command declares them as BYPRODUCTS (its OUTPUT is the stamp
# <dir>/<stem>/.bankc-stamp).  Every generator then knows where the headers come
# from: Ninja checks, after bankc ran, the objects whose compiler depfiles
# name a header, and recompiles those and only those in the same build,
# whichever target the sources belong to (an INTERFACE library's users,
# sources added by target_sources after bankc_add_tiles).  The .tile files
# are configure dependencies, since an edit may rename a tile; a file with
# an error lists nothing and the build then fails with bankc's diagnostic.
# The command reruns when the .tile file, the bankc executable or this
# module changes.  bankc rewrites an output only when its contents change,
# so an edit that leaves every output as it was (a comment, say) reruns
# bankc and recompiles nothing.
#
# bankc_add_tiles also
#   - adds a custom target <target>_bankc_tiles (_2, _3, ... when called
#     again for the same target) that builds the stamps, and makes <target>
#     depend on it, so the headers exist before <target> compiles;
#   - adds every <dir>/<stem> to <target>'s include directories with SCOPE,
#     by default PRIVATE for an executable, INTERFACE for an interface
#     library and PUBLIC for any other library, as build-tree paths only
#     ($<BUILD_INTERFACE:...>);
#   - only where BANKC is an executable target of this project (which
#     cannot run while configuring, so the outputs are not listed): makes
#     the sources <target> has when bankc_add_tiles is called depend
#     (OBJECT_DEPENDS) on <dir>/<stem>/.bankc-changed, a file touched only when
#     bankc actually changed one of <dir>/<stem>'s files, since Ninja would
#     otherwise see a changed header only on the next build; then call
#     bankc_add_tiles after the target's sources are listed.  Sources of
#     other targets can do the same with the markers in <target>'s
#     BANKC_TILES_CHANGED property:
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
#               without one a program exits 77, the tests' SKIP_RETURN_CODE,
#               and CTest shows it skipped).  The project must enable CUDA
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
# Dependency files: bankc's depfile <dir>/<stem>/.bankc-deps.d has the stamp as its one
# target (-MQ, quoted as GCC quotes it), the command's declared output, as
# Ninja wants, and is the command's DEPFILE, used by the Makefile and
# Ninja generators (and from CMake 3.21 on by Visual Studio and Xcode; with
# other generators it is left out).  The .tile file is a declared
# dependency in every case.  bankc escapes the depfile's paths as GCC does
# (a space as "\ ", "$" as "$$").
#
# Example:
#     add_executable(app main.c)
#     bankc_add_tiles(TARGET app TILES tiles/transpose.tile)
#     # main.c: #include "transpose_f32.cuh", for tile transpose_f32

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR
    "BankcTiles.cmake needs CMake 3.20 or later; this is CMake ${CMAKE_VERSION}")
endif()

# Script mode, run by the build after bankc (cmake -P this file) when the
# outputs' names could not be listed while configuring (BANKC a target of
# this project):
#   BANKC_TILES_STEP=after-build  OUT  CHANGED
# touches CHANGED when one of bankc's outputs in OUT is newer than it (not
# the module's own .bankc-* files there: the depfile is written every run).
if(CMAKE_SCRIPT_MODE_FILE AND BANKC_TILES_STEP STREQUAL "after-build")
  set(changed FALSE)
  if(NOT EXISTS "${CHANGED}")
    set(changed TRUE)
  else()
    file(GLOB outputs LIST_DIRECTORIES false "${OUT}/*")
    foreach(f IN LISTS outputs)
      get_filename_component(name "${f}" NAME)
      if(name MATCHES "^\\.bankc")
        continue()
      endif()
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

# The files `bankc build` will write for one spec file into out, as
# `bankc build --list-outputs` lists them; the file becomes a configure
# dependency, since an edit may rename a tile.  A file with an error lists
# nothing (out_ok false): configuring goes on, and the build fails at the
# error with bankc's diagnostic, as a compiler's would.
function(_bankc_tiles_list_outputs bankc src out out_var out_ok)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
  execute_process(COMMAND "${bankc}" build --list-outputs "${src}" -o "${out}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_QUIET)
  set(${out_ok} FALSE PARENT_SCOPE)
  set(${out_var} "" PARENT_SCOPE)
  if(NOT rc EQUAL 0)
    return()
  endif()
  set(${out_ok} TRUE PARENT_SCOPE)
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# The files of one call go to folders of their own, but their headers meet
# on one include path, where a tile name defined twice would be shadowed:
# bankc checks the names of all of them together (each clash an error at
# both definitions, file:line:col).
function(_bankc_tiles_check_names bankc dir srcs)
  list(LENGTH srcs n)
  if(n LESS 2)
    return()
  endif()
  execute_process(COMMAND "${bankc}" build --list-outputs ${srcs} -o "${dir}"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR
      "bankc_add_tiles: the TILES of one call put their headers on one "
      "include path, so their tile names must differ:\n${err}")
  endif()
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

  # The outputs are listed while configuring, and declared, where bankc can
  # run then (not a target this project builds).
  set(listed TRUE)
  if(bankc MATCHES "^\\$<")
    set(listed FALSE)
  endif()
  set(names_known TRUE)
  set(srcs "")
  foreach(tile IN LISTS arg_TILES)
    get_filename_component(src "${tile}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND srcs "${src}")
  endforeach()

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
    # the stamp, depfile and marker inside the file's folder: names of
    # their own there, where beside it a.tile's a.d was a.d.tile's folder
    set(out "${dir}/${stem}")
    set(stamp "${out}/.bankc-stamp")
    set(depfile "${out}/.bankc-deps.d")
    set(changed "${out}/.bankc-changed")
    if(stamp IN_LIST stamps)
      message(FATAL_ERROR
        "bankc_add_tiles: two files named '${stem}.*' would share "
        "'${out}'; give them different names or call bankc_add_tiles "
        "once per OUTPUT_DIR")
    endif()
    if(stem STREQUAL "" OR stem STREQUAL "." OR stem STREQUAL "..")
      message(FATAL_ERROR
        "bankc_add_tiles: '${tile}' has no name before its extension for "
        "its output folder; rename it")
    endif()
    if(stamp IN_LIST taken)
      message(FATAL_ERROR
        "bankc_add_tiles: '${stamp}' is already built by another "
        "bankc_add_tiles call; give this one its own OUTPUT_DIR")
    endif()

    # the outputs, listed while configuring and declared, so that every
    # generator knows the headers come from this command: Ninja then
    # checks the sources that include one (by their depfiles) after bankc
    # ran, and recompiles those, in the same build
    set(byproducts "")
    set(after "")
    if(listed)
      _bankc_tiles_list_outputs("${bankc}" "${src}" "${out}" byproducts file_ok)
      if(NOT file_ok)
        set(names_known FALSE)
      endif()
    else()
      list(APPEND byproducts "${changed}")
      set(after COMMAND "${CMAKE_COMMAND}" -D BANKC_TILES_STEP=after-build
                -D "OUT=${out}" -D "CHANGED=${changed}"
                -P "${_bankc_tiles_module_file}")
    endif()
    # with CHECK_PROGRAMS: the tiles of the file and their arch
    set(file_tiles "")
    if(arg_CHECK_PROGRAMS)
      _bankc_tiles_read_names("${bankc}" "${src}" file_tiles)
      list(APPEND check_tiles ${file_tiles})
      foreach(entry IN LISTS file_tiles)
        list(APPEND check_dirs "${out}")
      endforeach()
    endif()

    set(depfile_args "")
    if(use_depfile)
      set(depfile_args DEPFILE "${depfile}")
    endif()
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${out}")
    # the depfile's one target is the stamp (-MQ), the command's declared
    # output, as Ninja wants; the outputs record the spec's path relative
    # to the top source folder, whatever the checkout's path
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS ${byproducts}
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${out}"
      COMMAND "${bankc}" build "${src}" -o "${out}" -MD -MF "${depfile}"
              -MQ "${stamp}" --path-prefix-map "${CMAKE_SOURCE_DIR}/="
      ${after}
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${src}" "${bankc_dep}" "${_bankc_tiles_module_file}"
      ${depfile_args}
      COMMENT "bankc build ${tile} -> ${shown}"
      VERBATIM)
    list(APPEND stamps "${stamp}")
    if(NOT listed)
      list(APPEND changes "${changed}")
    endif()
    list(APPEND incdirs "$<BUILD_INTERFACE:${out}>")
    list(APPEND clean "${out}" "${depfile}" "${changed}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY _BANKC_TILES_STAMPS ${stamps})
  if(listed AND names_known)
    _bankc_tiles_check_names("${bankc}" "${dir}" "${srcs}")
  endif()

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

  # Where the outputs could not be declared: the target's sources recompile
  # when bankc changed an output (see the header comment).
  if(changes AND NOT type STREQUAL "INTERFACE_LIBRARY")
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
    # a check program exits 77 where there is no CUDA device: CTest shows
    # the test as skipped, not failed
    set_tests_properties("${exe}" PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY ADDITIONAL_CLEAN_FILES ${clean})
endfunction()

cmake_policy(POP)
