# The provider's translation units, in one list: the module (provider/CMakeLists.txt) and the
# provider fuzz target (fuzz/CMakeLists.txt, which links them into the fuzzer) both use it.
set(HQC_PROVIDER_SOURCES prov.cpp keymgmt.cpp kem.cpp key.cpp keycheck.cpp codec.cpp config.cpp)
