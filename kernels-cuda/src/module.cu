/*
 * The fatbin's single translation unit: all forty-two entry points in one module, so that one
 * cuModuleLoadData serves every operation and parameter set, and the PTX embedded for forward
 * compatibility is complete (PTX cannot be device-linked). build-fatbin.sh compiles this file once per target architecture, in parallel.
 */
#include "keygen.cu"
#include "sign.cu"
#include "verify.cu"
#include "key_cache.cu"
