# cmake/smartq-package.cmake - write and install the CMake package
# (smartqConfig.cmake, smartqConfigVersion.cmake) at install time.
#
# Run by cmake --install (CMakeLists.txt's install(CODE)), when the final
# CMAKE_INSTALL_PREFIX is known.  The result is what make install writes
# for the same prefix (mk/install.mk, from the same templates): the
# package finds the prefix from its own directory, CMAKEDIR's way up to
# the prefix (share/cmake/smartq: ../../..), and the include directory
# below it; a directory given as an absolute path outside the prefix is
# written as it is.  file(INSTALL) honours DESTDIR and records the files.

# _sq_below_prefix(VAR DIR) - DIR relative to the prefix, or "" when it is
# an absolute path outside it
function(_sq_below_prefix var dir)
  set(head "${CMAKE_INSTALL_PREFIX}/")
  string(LENGTH "${head}" n)
  string(SUBSTRING "${dir}" 0 ${n} start)
  if(NOT IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  elseif(start STREQUAL head)
    string(SUBSTRING "${dir}" ${n} -1 rest)
    set(${var} "${rest}" PARENT_SCOPE)
  else()
    set(${var} "" PARENT_SCOPE)
  endif()
endfunction()

_sq_below_prefix(_sq_cmakedir "${SQ_CMAKEDIR}")
if(_sq_cmakedir)
  set(cmake_prefix "\${CMAKE_CURRENT_LIST_DIR}")
  string(REPLACE "/" ";" _sq_parts "${_sq_cmakedir}")
  foreach(_sq_part IN LISTS _sq_parts)
    if(_sq_part)
      string(APPEND cmake_prefix "/..")
    endif()
  endforeach()
else()
  set(cmake_prefix "${CMAKE_INSTALL_PREFIX}")
endif()
_sq_below_prefix(_sq_incdir "${SQ_INCLUDEDIR}")
if(_sq_incdir)
  set(cmake_includedir "\${_smartq_prefix}/${_sq_incdir}")
else()
  set(cmake_includedir "${SQ_INCLUDEDIR}")
endif()
set(version "${SQ_VERSION}")

if(IS_ABSOLUTE "${SQ_CMAKEDIR}")
  set(_sq_dest "${SQ_CMAKEDIR}")
else()
  set(_sq_dest "${CMAKE_INSTALL_PREFIX}/${SQ_CMAKEDIR}")
endif()
foreach(_sq_file smartqConfig smartqConfigVersion)
  configure_file("${SQ_SRC}/cmake/${_sq_file}.cmake.in"
                 "${SQ_BIN}/${_sq_file}.cmake" @ONLY)
  file(INSTALL DESTINATION "${_sq_dest}" TYPE FILE
       FILES "${SQ_BIN}/${_sq_file}.cmake")
endforeach()
