# integrations/ross/smartq.cmake - ROSS's QUEUE=smartq
#
# ROSS's CMakeLists.txt (after ross-smartq.patch) includes this when it
# is configured with -DQUEUE=smartq -DSMARTQ_DIR=<smartq checkout>. It
# chooses the backend, writes ross-smartq-config.h and hands ROSS the
# queue's source (QUEUE_SOURCE) and include directories (QUEUE_INCLUDE).
#
#   SMARTQ_KIND         ladder (default), rb, binom or gavl
#   ROSS_SMARTQ_TIES    group (default): equal timestamps in ROSS's order
#                       by tie heaps beside the queue, any backend; hook:
#                       the backend's tie kind (SQ_TIE), for the backends
#                       that smartq.h's SQ_TIE_KINDS lists
#   ROSS_SMARTQ_CHECK   ON: walk the queue's invariants after every
#                       operation (O(n) each; SQ_DEBUG too), for tests

set(SMARTQ_KIND ladder CACHE STRING "smartq backend for ROSS's event queue")
set_property(CACHE SMARTQ_KIND PROPERTY STRINGS ladder rb binom gavl)
set(ROSS_SMARTQ_TIES group CACHE STRING "ROSS's tie order: group or hook")
set_property(CACHE ROSS_SMARTQ_TIES PROPERTY STRINGS group hook)
option(ROSS_SMARTQ_CHECK "Check smartq's ROSS queue after every operation" OFF)

get_filename_component(_sq_dir "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT EXISTS "${_sq_dir}/include/smartq.h")
  message(FATAL_ERROR "smartq.cmake: no include/smartq.h under ${_sq_dir}")
endif()
if(SMARTQ_KIND STREQUAL "tring")
  message(FATAL_ERROR "SMARTQ_KIND=tring: not a Time Warp queue; rollbacks "
    "re-enqueue events below the ring's time, which it takes late (FIFO), "
    "not in time order. Use ladder, rb, binom or gavl.")
elseif(NOT SMARTQ_KIND MATCHES "^(ladder|rb|binom|gavl)$")
  message(FATAL_ERROR "SMARTQ_KIND=${SMARTQ_KIND}: ladder, rb, binom or gavl")
endif()

set(_sq_cfg "/* written by smartq.cmake */\n#define ROSS_SMARTQ_KIND ${SMARTQ_KIND}\n")
if(ROSS_SMARTQ_TIES STREQUAL "hook")
  file(STRINGS "${_sq_dir}/include/smartq.h" _sq_tie REGEX "^#define SQ_TIE_KINDS")
  if(NOT _sq_tie MATCHES "X\\(${SMARTQ_KIND}\\)")
    message(FATAL_ERROR "ROSS_SMARTQ_TIES=hook: ${SMARTQ_KIND} has no tie "
      "kind in this smartq (${_sq_tie}); ROSS_SMARTQ_TIES=group takes any")
  endif()
  string(APPEND _sq_cfg "#define ROSS_SMARTQ_HOOK 1\n")
elseif(NOT ROSS_SMARTQ_TIES STREQUAL "group")
  message(FATAL_ERROR "ROSS_SMARTQ_TIES=${ROSS_SMARTQ_TIES}: group or hook")
endif()
if(ROSS_SMARTQ_CHECK)
  string(APPEND _sq_cfg "#define ROSS_SMARTQ_CHECK 1\n#define SQ_DEBUG 1\n")
endif()
set(_sq_gen "${CMAKE_BINARY_DIR}/smartq")
file(WRITE "${_sq_gen}/ross-smartq-config.h.tmp" "${_sq_cfg}")
configure_file("${_sq_gen}/ross-smartq-config.h.tmp"
               "${_sq_gen}/ross-smartq-config.h" COPYONLY)

set(QUEUE_SOURCE "${CMAKE_CURRENT_LIST_DIR}/smartq.c")
set(QUEUE_INCLUDE "${_sq_gen}" "${CMAKE_CURRENT_LIST_DIR}" "${_sq_dir}/include")
install(FILES "${_sq_gen}/ross-smartq-config.h"
              "${CMAKE_CURRENT_LIST_DIR}/ross-smartq.h"
              "${_sq_dir}/single_include/smartq.h"
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ross)
message(STATUS "Using QUEUE: smartq ${SMARTQ_KIND}, ties by ${ROSS_SMARTQ_TIES} (${_sq_dir})")
