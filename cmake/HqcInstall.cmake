# cmake --install: headers, libraries, CMake package config (hqc::hqc) and pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hqc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS hqc hqc_static EXPORT hqcTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT hqcTargets NAMESPACE hqc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hqc)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hqcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hqcConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hqc)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hqcConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hqcConfig.cmake ${PROJECT_BINARY_DIR}/hqcConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hqc)
# hqc.pc: relocatable (prefix found from the .pc file's own directory, so `cmake --install
# --prefix DIR` works), except for a /usr install (distribution packages), where it is absolute.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(HQC_PC_PREFIX "/usr")
else()
  file(RELATIVE_PATH _rel ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
  string(REGEX REPLACE "/$" "" _rel "${_rel}")
  set(HQC_PC_PREFIX "\${pcfiledir}/${_rel}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/hqc.pc.in ${PROJECT_BINARY_DIR}/hqc.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hqc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
