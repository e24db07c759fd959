#pragma once
// OpenMP pragmas for the host-side planners that compile to nothing without OpenMP.
#ifdef _OPENMP
#define MDREMAP_OMP(x) _Pragma(#x)
#else
#define MDREMAP_OMP(x)
#endif
