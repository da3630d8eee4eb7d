# cmake/smartq-pc.cmake - write and install smartq.pc at install time.
#
# Run by cmake --install (CMakeLists.txt's install(CODE)), when the final
# CMAKE_INSTALL_PREFIX is known.  The result is the file make install
# writes for the same prefix: includedir is ${prefix}/include when the
# include directory is relative, so pkg-config --define-variable=prefix=
# relocates it.  file(INSTALL) honours DESTDIR and records the file.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(IS_ABSOLUTE "${SQ_INCLUDEDIR}")
  set(includedir "${SQ_INCLUDEDIR}")
else()
  set(includedir "\${prefix}/${SQ_INCLUDEDIR}")
endif()
set(version "${SQ_VERSION}")
configure_file("${SQ_PC_IN}" "${SQ_PC_OUT}" @ONLY)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${SQ_PKGCONFIGDIR}"
     TYPE FILE FILES "${SQ_PC_OUT}")
