// TLS 1.3 handshake benchmark: public entry point.
//
// `hqc tls-bench ...` and the standalone `hqc-tls-bench` both call this. argv[0] is used
// as the program name in messages; the return value is the process exit code
// (0 success, 1 run-time failure, 2 bad arguments or missing privileges).
#pragma once

int tls_bench_main(int argc, char** argv);
