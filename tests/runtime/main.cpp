// The one translation unit that provides doctest's main() for clearway_runtime_tests.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
