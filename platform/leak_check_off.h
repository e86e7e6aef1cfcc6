// Include in the one file of a program that holds its main(), for programs that run the SystemC
// platform. In the sanitizer build (docs/reliability.md) LeakSanitizer does not scan the
// coroutine stacks of SystemC threads, so what a thread still waiting when the simulation ends
// holds (a hang test's, a run stopped by the watchdog) looks leaked: leak checking is off there,
// AddressSanitizer stays on. ASAN_OPTIONS still overrides this.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif
