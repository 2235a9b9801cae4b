//! The one place blades calls into its allocator's C interface, kept out
//! of the `blades` crate, which forbids `unsafe` code (docs/decisions.md,
//! "What the server holds", part 11, and "Effect texts met again").

/// `mi_option_purge_delay` in mimalloc's `mimalloc.h` (version 3, the one
/// `libmimalloc-sys` builds): the option after `mi_option_eager_commit_delay`
/// (14). `libmimalloc-sys` declares the options interface but not this
/// constant.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory goes back to the system when the free empties a page, not
/// when its thread next allocates, ten milliseconds later or more.
///
/// For a process that stays up: mimalloc's delay is not a timer, so a
/// thread that frees a burst of buffers and then waits (a server's start,
/// a worker between requests) keeps those pages resident for as long as
/// it waits, and they count towards the process's peak while the next
/// stage allocates beside them. The cost is a system call per emptied page.
pub fn give_back_freed_memory_at_once() {
    // SAFETY: `mi_option_set` stores one option's value; it takes any
    // option number and any value, allocates nothing and may be called
    // from any thread at any time (mimalloc reads options atomically).
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
}

/// Freed memory stays with the process until it exits: for a command that
/// runs once and ends (a build), where giving a page back only to fault it
/// in again, zeroed by the kernel, is work done twice. Reuse within the
/// process is unchanged; only the return to the system is dropped.
pub fn keep_freed_memory_until_exit() {
    // SAFETY: as in `give_back_freed_memory_at_once`; -1 is mimalloc's
    // documented "never purge".
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) }
}
