// Standalone `hqc-tls-bench`; the `hqc tls-bench` subcommand calls the same entry point.
#include "tls_bench.hpp"

int main(int argc, char** argv) { return tls_bench_main(argc, argv); }
