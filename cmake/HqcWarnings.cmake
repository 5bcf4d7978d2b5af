# Warning flags shared by every target of the project (hqc_warnings interface library).
add_library(hqc_warnings INTERFACE)
target_compile_options(hqc_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
  -Wno-sign-conversion -Wcast-align -Wundef)
if(HQC_WERROR)
  target_compile_options(hqc_warnings INTERFACE -Werror)
endif()
if(HQC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
