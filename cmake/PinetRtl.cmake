# PinetRtl.cmake - the RTL file list and the Verilator lint settings, shared by cosim/,
# testbenches/ and tests/lint. rtl/pinet.f is the one file list (paths relative to the root).
# PINET_RTL_DIR: another directory of RTL (scripts/verify.sh --rtl, scripts/mutate.sh); each file
# of the list that exists there by the same name is taken from there, the others from rtl/.
set(PINET_RTL_DIR "" CACHE PATH "Take the RTL files that exist in this directory from there instead of rtl/")
if(PINET_RTL_DIR AND NOT IS_DIRECTORY ${PINET_RTL_DIR})
  message(FATAL_ERROR "PINET_RTL_DIR '${PINET_RTL_DIR}' is not a directory")
endif()
file(STRINGS ${PROJECT_SOURCE_DIR}/rtl/pinet.f _pinet_f_lines)
set(PINET_RTL_SOURCES)
set(PINET_RTL_REPLACED)
foreach(line ${_pinet_f_lines})
  string(STRIP "${line}" line)
  if(line AND NOT line MATCHES "^//")
    get_filename_component(_name ${line} NAME)
    if(PINET_RTL_DIR AND EXISTS ${PINET_RTL_DIR}/${_name})
      list(APPEND PINET_RTL_SOURCES ${PINET_RTL_DIR}/${_name})
      list(APPEND PINET_RTL_REPLACED ${_name})
    else()
      list(APPEND PINET_RTL_SOURCES ${PROJECT_SOURCE_DIR}/${line})
    endif()
  endif()
endforeach()
get_property(_announced GLOBAL PROPERTY PINET_RTL_ANNOUNCED)
if(PINET_RTL_DIR AND NOT _announced)
  set_property(GLOBAL PROPERTY PINET_RTL_ANNOUNCED TRUE)
  message(STATUS "pinet: RTL from ${PINET_RTL_DIR}: ${PINET_RTL_REPLACED}; the rest from rtl/")
endif()
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/pinet.f)
# The RTL's own header (rtl/pinet_param.svh: the parameter-range guard macro), included by the
# modules and found through the include path: -I${PINET_RTL_INCLUDE_DIR} for Icarus, +incdir+ for
# Verilator (pinet_assert_verilator_args); yosys looks beside the including file. Always from
# rtl/, also when PINET_RTL_DIR replaces the modules.
set(PINET_RTL_INCLUDE_DIR ${PROJECT_SOURCE_DIR}/rtl)
set(PINET_RTL_HEADERS ${PROJECT_SOURCE_DIR}/rtl/pinet_param.svh)
set(PINET_VERILATOR_WAIVER ${PROJECT_SOURCE_DIR}/lint/verilator_waiver.vlt)

# The assertion checkers (rtl/assert/pinet_assert.f: a checker module and a bind file per RTL
# module, docs/verification.md "Assertions"), read by every Verilator build after the RTL, with
# --assert and the include directory of their macro header (pinet_assert_verilator_args). Always
# from rtl/assert/, also when PINET_RTL_DIR replaces the RTL.
# PINET_ASSERT_CHECKERS=OFF leaves them out (the builds keep --assert): for RTL of one's own
# (PINET_RTL_DIR) whose internals differ from ours, since the ps_router and ps_network checkers
# observe internal signals by name.
option(PINET_ASSERT_CHECKERS "Bind the assertion checkers of rtl/assert into the Verilator builds" ON)
file(STRINGS ${PROJECT_SOURCE_DIR}/rtl/assert/pinet_assert.f _pinet_assert_f_lines)
set(PINET_ASSERT_SOURCES)
if(NOT PINET_ASSERT_CHECKERS)
  set(_pinet_assert_f_lines)
endif()
foreach(line ${_pinet_assert_f_lines})
  string(STRIP "${line}" line)
  if(line AND NOT line MATCHES "^//")
    list(APPEND PINET_ASSERT_SOURCES ${PROJECT_SOURCE_DIR}/${line})
  endif()
endforeach()
set(PINET_ASSERT_HEADERS ${PROJECT_SOURCE_DIR}/rtl/assert/pinet_assert.svh)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/rtl/assert/pinet_assert.f)

# The checkers a cosim of a fabric leaves unbound: those of the parts whose properties the top's
# own checker already states on the same nets. The torus's row_route/col_route are the ring's
# direct, on_link and segment properties on every row and column; the ring's are every switch's
# pairs as seen from the PEs; the 2D system's torus checker is bound. Bound per instance, the
# parts' checkers were most of the fabrics' build and cycle cost (the 64 x 64 torus: 3968 switch
# and 128 ring checkers; with them its model built in 686 s and 6.1 GB, without any checker in
# 172 s and 1.9 GB, docs/verification.md "Assertions").
# The parts keep their checkers in their own cosims (rta_switch, rta_ring), in cosim_assert_faults,
# the Verilator testbenches and the proofs. rta_system1d keeps its ring's: its own checker leaves
# the ring's direct links to it.
set(PINET_COSIM_UNBIND_rta_ring rta_switch)
set(PINET_COSIM_UNBIND_rta_torus2d rta_switch rta_ring)
set(PINET_COSIM_UNBIND_rta_system1d rta_switch)
set(PINET_COSIM_UNBIND_rta_system2d rta_switch rta_ring)
# The network's cosims leave the router's parts' checkers out: bound per router they cost
# about 25 % of the cycle rate (cosim_ps_network --pes 64, user CPU 1.31-1.57 s against
# 1.05-1.19 s without them); they are checked in cosim_assert_faults, tb_ps_network_verilator,
# the recon cosims and the proofs.
set(PINET_COSIM_UNBIND_ps_network ps_router_mem ps_router_seq ps_router_planner)

# pinet_unbind_verilator_args(<out var> <top>): the -DPINET_UNBIND_<MODULE> defines of the
# checkers a cosim of <top> leaves unbound (rtl/assert/<module>_bind.sv).
function(pinet_unbind_verilator_args out top)
  set(args)
  foreach(m ${PINET_COSIM_UNBIND_${top}})
    string(TOUPPER ${m} m)
    list(APPEND args -DPINET_UNBIND_${m})
  endforeach()
  set(${out} ${args} PARENT_SCOPE)
endfunction()

# pinet_assert_verilator_args(<out var> <dir>): --assert and the +incdir+ of rtl/assert and rtl/
# (the checkers' and the RTL's macro headers), relative to <dir> (the directory Verilator runs
# in: its output stays the same in every clone).
function(pinet_assert_verilator_args out dir)
  set(args --assert)
  foreach(d ${PROJECT_SOURCE_DIR}/rtl/assert ${PINET_RTL_INCLUDE_DIR})
    file(RELATIVE_PATH inc ${dir} ${d})
    if(inc STREQUAL "")
      set(inc .)
    endif()
    list(APPEND args +incdir+${inc})
  endforeach()
  set(${out} ${args} PARENT_SCOPE)
endfunction()

# pinet_rtl_relative(<out var> <dir> <path>...): the paths under the source tree made relative to
# <dir>, the others (an outside --rtl directory) kept as they are. Verilator writes the names of
# its source files into the generated C++ (the file of a $fatal or a convergence error): run from
# <dir> on relative names, its output is the same in every clone, so ccache shares it.
function(pinet_rtl_relative out dir)
  set(paths)
  foreach(p ${ARGN})
    string(FIND "${p}" "${PROJECT_SOURCE_DIR}/" at)
    if(at EQUAL 0)
      file(RELATIVE_PATH p ${dir} ${p})
    endif()
    list(APPEND paths ${p})
  endforeach()
  set(${out} ${paths} PARENT_SCOPE)
endfunction()
set(PINET_VERILATOR_LINT_ARGS -Wall)
# Warnings stay fatal except where RTL that is wrong on purpose must still build (mutants of
# scripts/mutate.sh leave signals unused): PINET_VERILATOR_WARNINGS_FATAL=OFF.
option(PINET_VERILATOR_WARNINGS_FATAL "Verilator lint warnings fail the build" ON)
if(NOT PINET_VERILATOR_WARNINGS_FATAL)
  list(APPEND PINET_VERILATOR_LINT_ARGS -Wno-fatal)
endif()
# Without the checkers, the signals only they read (ps_network's per-router status and host
# bits beyond router 0) are unused.
if(NOT PINET_ASSERT_CHECKERS)
  list(APPEND PINET_VERILATOR_LINT_ARGS -Wno-UNUSEDSIGNAL)
endif()
