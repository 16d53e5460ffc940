//! The `alfred` binary: everything lives in the library; see [`alfred::cli`].

use alfred::allocator::Allocator;

#[global_allocator]
static GLOBAL: Allocator = Allocator;

fn main() -> std::process::ExitCode {
    // SAFETY: the first thing the process does, before any other thread.
    unsafe { alfred::allocator::return_freed_memory_at_once() };
    alfred::cli::main()
}
