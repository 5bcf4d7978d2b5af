# Cross toolchain for a Cortex-M4 with FPU (STM32L4, nRF52, ...): Debian's arm-none-eabi-g++ 12
# (gcc-arm-none-eabi) with picolibc (picolibc-arm-none-eabi, libstdc++-arm-none-eabi-picolibc).
# Used by the presets cortex-m4 (-O3) and cortex-m4-size (-Os); the top-level CMakeLists.txt
# then builds the device library, the firmware images for QEMU's mps2-an386 and the example
# firmware (docs/M4.md). No exceptions, RTTI, thread-safe statics or unwind tables.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortex-m4)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_RANLIB arm-none-eabi-ranlib)
set(CMAKE_NM arm-none-eabi-nm)
set(CMAKE_OBJDUMP arm-none-eabi-objdump)
set(CMAKE_SIZE arm-none-eabi-size)
# Compiler checks link no program (there is no default memory layout to link one against).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(HQC_M4_CPU_FLAGS "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
set(CMAKE_C_FLAGS_INIT "${HQC_M4_CPU_FLAGS} --specs=picolibc.specs -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${HQC_M4_CPU_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${HQC_M4_CPU_FLAGS} --specs=picolibc.specs -ffunction-sections -fdata-sections \
-fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-asynchronous-unwind-tables -fno-unwind-tables")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
