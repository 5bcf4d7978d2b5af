# The C++ runtime that a consumer linking the static library from C must add: the libraries the
# C++ compiler links implicitly beyond those the C compiler links (g++ 12 / clang++ 14 with
# libstdc++: stdc++ and m; libm because a fully static link pulls libstdc++.a, which needs it).
# libhqc.a itself needs operator new/delete (aligned too), the exception ABI and iostreams from
# libstdc++. Used by hqc::hqc_static's interface (src/CMakeLists.txt) and by hqc.pc's
# Libs.private (cmake/HqcInstall.cmake).
set(HQC_CXX_RUNTIME_LIBS ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
if(CMAKE_C_IMPLICIT_LINK_LIBRARIES)
  list(REMOVE_ITEM HQC_CXX_RUNTIME_LIBS ${CMAKE_C_IMPLICIT_LINK_LIBRARIES})
endif()
# Plain library names only (no sanitizer runtimes given as paths or flags).
list(FILTER HQC_CXX_RUNTIME_LIBS INCLUDE REGEX "^[A-Za-z0-9_+.-]+$")
list(REMOVE_DUPLICATES HQC_CXX_RUNTIME_LIBS)
if(NOT HQC_CXX_RUNTIME_LIBS)
  message(WARNING "hqckit: could not tell the C++ runtime libraries of ${CMAKE_CXX_COMPILER}; "
    "C programs linking libhqc.a must add them by hand")
endif()
set(HQC_PC_LIBS_PRIVATE "")
foreach(l ${HQC_CXX_RUNTIME_LIBS})
  string(APPEND HQC_PC_LIBS_PRIVATE " -l${l}")
endforeach()
string(STRIP "${HQC_PC_LIBS_PRIVATE}" HQC_PC_LIBS_PRIVATE)
message(STATUS "hqckit: C++ runtime for static consumers: ${HQC_PC_LIBS_PRIVATE}")
