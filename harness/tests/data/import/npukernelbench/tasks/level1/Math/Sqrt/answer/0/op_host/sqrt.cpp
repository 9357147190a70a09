// A stand-in for NPUKernelBench's host file (OpDef and tiling), copied as it is.
