//! A cache prefetch hint for the hash tables: the search computes a child's key before making
//! the move, asks for the child's table slot, and the make's own work hides the memory
//! latency of the probe that follows. This is one of the engine's three `unsafe` blocks (the
//! others, in `tt`, hand the table's zeroed memory over as atomic words and ask Linux for
//! huge pages).

/// Asks the processor to start loading the cache line holding `value`. Only a hint: it
/// changes no memory and no result; a no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and writes nothing; the address comes from a reference,
    // so it is valid anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
