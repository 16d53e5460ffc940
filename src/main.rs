//! The `alfred` binary: everything lives in the library; see [`alfred::cli`].

/// mimalloc: loading a long session builds hundreds of thousands of small
/// values, about twice as fast as with the system allocator (BENCHMARKS.md,
/// session).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's option enum (libmimalloc-sys
/// 0.1.49, pinned in Cargo.toml: the number is the C enum's).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // Memory freed goes back to the system at once rather than after a
    // delay, so a long session's load leaves no bulge behind (resident
    // memory with 1,000 turns open: BENCHMARKS.md).
    // SAFETY: the first thing the process does, before any other thread
    // exists (`mi_option_set` is not thread-safe); it only sets an option.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    alfred::cli::main()
}
