# PinetRtl.cmake - the RTL file list and the Verilator lint settings, shared by cosim/,
# testbenches/ and tests/lint. rtl/pinet.f is the one file list (paths relative to the root).
file(STRINGS ${PROJECT_SOURCE_DIR}/rtl/pinet.f _pinet_f_lines)
set(PINET_RTL_SOURCES)
foreach(line ${_pinet_f_lines})
  string(STRIP "${line}" line)
  if(line AND NOT line MATCHES "^//")
    list(APPEND PINET_RTL_SOURCES ${PROJECT_SOURCE_DIR}/${line})
  endif()
endforeach()
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/pinet.f)
set(PINET_VERILATOR_WAIVER ${PROJECT_SOURCE_DIR}/lint/verilator_waiver.vlt)
set(PINET_VERILATOR_LINT_ARGS -Wall)
