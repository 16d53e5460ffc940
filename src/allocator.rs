//! The allocator alfred runs on: mimalloc. Loading a long session builds
//! hundreds of thousands of small values, about twice as fast as with the
//! system allocator (BENCHMARKS.md, session). Each binary declares it
//! (`#[global_allocator] static GLOBAL: Allocator = Allocator;`) and calls
//! [`return_freed_memory_at_once`] first thing.

pub use mimalloc::MiMalloc as Allocator;

/// `mi_option_purge_delay` in mimalloc's option enum (libmimalloc-sys
/// 0.1.49, pinned in Cargo.toml: the number is the C enum's).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Makes memory freed go back to the system at once rather than after a
/// delay, so a long session's load leaves no bulge behind (resident memory
/// with 1,000 turns open: BENCHMARKS.md).
///
/// # Safety
///
/// Call it before any other thread exists (`mi_option_set` is not
/// thread-safe). It only sets an option.
pub unsafe fn return_freed_memory_at_once() {
    // SAFETY: the caller guarantees no other thread runs.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}
