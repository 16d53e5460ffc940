//! The `alfred` binary: everything lives in the library; see [`alfred::cli`].

/// mimalloc: loading a long session builds hundreds of thousands of small
/// values, about twice as fast as with the system allocator (see
/// BENCHMARKS.md, session).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    alfred::cli::main()
}
