# Fails the build if libhqc.so exports anything but the functions declared with HQC_API in
# include/hqc/hqc.h, or exports them outside the version nodes of cmake/hqc.map
# (cmake/check_exports.sh). The stamp is written only on success, so a failing check fails every
# build until it is fixed.
find_program(HQC_BASH bash REQUIRED)
set(_stamp ${CMAKE_CURRENT_BINARY_DIR}/hqc_export_check.stamp)
add_custom_command(OUTPUT ${_stamp}
  COMMAND ${HQC_BASH} ${PROJECT_SOURCE_DIR}/cmake/check_exports.sh $<TARGET_FILE:hqc>
    ${PROJECT_SOURCE_DIR}/include/hqc/hqc.h ${CMAKE_C_COMPILER} ${CMAKE_NM}
  COMMAND ${CMAKE_COMMAND} -E touch ${_stamp}
  DEPENDS hqc ${PROJECT_SOURCE_DIR}/cmake/check_exports.sh ${PROJECT_SOURCE_DIR}/cmake/hqc.map
    ${PROJECT_SOURCE_DIR}/include/hqc/hqc.h
  COMMENT "Checking the symbols exported by libhqc.so"
  VERBATIM)
add_custom_target(hqc_export_check ALL DEPENDS ${_stamp})
