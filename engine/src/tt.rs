//! The transposition table: a hash table of search results, sized from a byte budget.
//!
//! ## Layout (a contract: tests and the bench signature depend on it)
//!
//! The table is an array of 64-byte **buckets**, each one cache line of four 16-byte
//! **entries**. An entry is two `u64` words:
//!
//! ```text
//! word 0: the full 64-bit position key XOR word 1 (both 0 = empty slot)
//! word 1: bits  0..16  score      (i16, mate scores stored relative to the node, see below)
//!         bits 16..24  best move  (cell index, low 8 bits; with bit 40, 511 = none)
//!         bits 24..32  depth      (u8; 255 = proven: exact at any depth)
//!         bits 32..34  bound      (1 = upper, 2 = lower, 3 = exact)
//!         bits 34..40  generation (6 bits, wraps)
//!         bit  40      best move  (cell index, bit 8)
//!         bits 41..64  zero
//! ```
//!
//! A position's bucket is `(key × buckets) >> 64` (a multiply-high, so any bucket count
//! works); the whole key is compared on probe, so a false hit needs a full 64-bit collision.
//! [`TranspositionTable::probe`] returns a copy.
//!
//! **Shared by threads** (a parallel search's helpers, see `Searcher::with_threads`): the
//! words are atomics read and written with relaxed ordering — plain loads and stores on
//! x86-64 — and probe and store take `&self`. Two threads can write one slot at once, so a
//! slot may end up holding one writer's word 0 and the other's word 1; storing the key XOR
//! the data (Hyatt's lockless hashing) makes such a torn slot fail the key comparison (but
//! for a 64-bit coincidence) instead of passing one position's key with another's score.
//!
//! **Replacement:** a store goes to the entry with the same key if there is one, else an
//! empty entry, else the entry with the lowest `depth − 4 × age`, where age is how many
//! searches ago the entry was written. A same-key store keeps a deeper entry of the current
//! search unless the new one is exact.
//!
//! **Mate scores** ("win in N plies from the root") are stored as "win in N plies from this
//! node" ([`score_to_tt`]) and rebased by the probing node's ply ([`score_from_tt`]), so an
//! entry is valid wherever the position recurs in the tree.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::geometry::Cell;
use crate::score::{MATE_BOUND, Score};

/// Bytes per bucket (one cache line).
pub const BUCKET_BYTES: usize = 64;
/// Entries per bucket.
pub const BUCKET_ENTRIES: usize = 4;
/// Largest table: 64 GiB (far beyond any tournament limit; guards against absurd requests).
pub const MAX_BYTES: usize = 1 << 36;
/// Depth recorded for results that are exact at any depth (solved subtrees).
pub const PROVEN_DEPTH: u8 = 255;
/// The move field's value for "no move" (cell indices are below 506).
const NO_MOVE: u16 = 511;
const GENERATION_MASK: u8 = 0x3f;

/// What a stored score says about the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most the stored score (no move reached alpha).
    Upper = 1,
    /// The true score is at least the stored score (a move reached beta).
    Lower = 2,
    /// The stored score is the true score (at the stored depth).
    Exact = 3,
}

/// A probed entry, unpacked.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TtEntry {
    /// Score relative to the stored node (rebase with [`score_from_tt`]).
    pub score: Score,
    /// Best move found, if any.
    pub best_move: Option<Cell>,
    /// Remaining depth the score was searched to ([`PROVEN_DEPTH`] = exact at any depth).
    pub depth: u8,
    /// What the score bounds.
    pub bound: Bound,
}

/// One 16-byte slot, unpacked from its words `[key ^ data, data]`: a zeroed allocation is
/// an empty table.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
struct Slot {
    key: u64,
    data: u64,
}

/// The stored words of one slot (see the module docs).
type Words = [AtomicU64; 2];

impl Slot {
    #[inline(always)]
    fn load(words: &Words) -> Slot {
        let data = words[1].load(Ordering::Relaxed);
        Slot { key: words[0].load(Ordering::Relaxed) ^ data, data }
    }

    #[inline(always)]
    fn save(self, words: &Words) {
        words[0].store(self.key ^ self.data, Ordering::Relaxed);
        words[1].store(self.data, Ordering::Relaxed);
    }
}

const _: () = assert!(std::mem::size_of::<Words>() * BUCKET_ENTRIES == BUCKET_BYTES);
// The table is allocated as zeroed `[u64; 2]`s and used as `Words` (see `atomic_words`).
const _: () = assert!(std::mem::size_of::<Words>() == std::mem::size_of::<[u64; 2]>());
const _: () = assert!(std::mem::align_of::<Words>() == std::mem::align_of::<[u64; 2]>());

/// Bytes of a page (x86-64 and most targets): the unit the system maps memory in.
const PAGE_BYTES: usize = 4096;
/// Bytes of a huge page (x86-64 and most Linux targets), below which no advice is given.
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Asks Linux to back the table with transparent huge pages (`madvise(MADV_HUGEPAGE)`, which
/// systems set to "madvise" mode honour only when asked): a first touch then maps 2 MiB at
/// once instead of 4 KiB. A fresh 350 MB table otherwise takes about 90,000 page faults,
/// paid during a game's first searches — costly in a virtual machine — and the probes miss
/// the TLB more. Only advice: where it is refused or unknown (an old kernel, huge pages off,
/// another system) nothing changes but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(words: &[Words]) {
    /// `MADV_HUGEPAGE` from `<sys/mman.h>` (the same on every Linux architecture).
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = words.as_ptr() as usize;
    let end = start + std::mem::size_of_val(words);
    let first_page = start.next_multiple_of(PAGE_BYTES);
    let len = end.saturating_sub(first_page) / PAGE_BYTES * PAGE_BYTES;
    if len >= HUGE_PAGE_BYTES {
        // SAFETY: `madvise` with `MADV_HUGEPAGE` changes only how the kernel backs the pages
        // of the range, whole pages inside the table's own allocation: it reads and writes no
        // memory and leaves the contents as they are. Its result is advice taken or not.
        unsafe {
            madvise(first_page as *mut std::ffi::c_void, len, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &[Words]) {}

/// Zeroed `[u64; 2]`s, handed over as atomic words: the zeroed allocation is memory the
/// operating system hands out lazily, where building atomics one by one would touch every
/// page at once.
fn atomic_words(words: Vec<[u64; 2]>) -> Vec<Words> {
    let mut words = std::mem::ManuallyDrop::new(words);
    let (ptr, len, capacity) = (words.as_mut_ptr(), words.len(), words.capacity());
    // SAFETY: `AtomicU64` has the size and bit validity of `u64`, and `[AtomicU64; 2]` has the
    // size and alignment of `[u64; 2]` (asserted above), so the allocation is a valid
    // `Vec<Words>` of the same length and capacity; it is handed over whole, and the original
    // vector is never used or dropped again (`ManuallyDrop`).
    unsafe { Vec::from_raw_parts(ptr.cast::<Words>(), len, capacity) }
}

/// A 9-bit move field in the data word: bits 16..24 and bit 40.
const fn move_bits(mv: u16) -> u64 {
    (mv as u64 & 0xFF) << 16 | (mv as u64 >> 8) << 40
}

impl Slot {
    fn pack(key: u64, entry: &TtEntry, generation: u8) -> Slot {
        let data = u64::from(entry.score as i16 as u16)
            | move_bits(entry.best_move.map_or(NO_MOVE, |c| c.index() as u16))
            | u64::from(entry.depth) << 24
            | (entry.bound as u64) << 32
            | u64::from(generation & GENERATION_MASK) << 34;
        Slot { key, data }
    }

    fn unpack(self) -> TtEntry {
        let d = self.data;
        let mv = ((d >> 16) & 0xFF | (d >> 40 & 1) << 8) as u16;
        TtEntry {
            score: Score::from(d as u16 as i16),
            best_move: (mv != NO_MOVE).then(|| Cell::from_index(mv)),
            depth: (d >> 24) as u8,
            bound: match (d >> 32) & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            },
        }
    }

    fn depth(self) -> u8 {
        (self.data >> 24) as u8
    }

    fn generation(self) -> u8 {
        ((self.data >> 34) as u8) & GENERATION_MASK
    }
}

/// The transposition table. Owned by the caller and passed to searches; not global.
#[derive(Debug)]
pub struct TranspositionTable {
    /// Raw storage in 16-byte slots; buckets start at `offset` so each is 64-byte aligned.
    slots: Vec<Words>,
    offset: usize,
    buckets: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table using at most `bytes` bytes (at least one bucket, at most [`MAX_BYTES`]).
    /// Allocation is zeroed memory, which the operating system hands out lazily. If the
    /// system refuses that much, the table halves until it gets its memory: a table that is
    /// too small costs strength, a failed allocation would cost the game.
    pub fn with_bytes(bytes: usize) -> Self {
        let mut buckets = (bytes.min(MAX_BYTES) / BUCKET_BYTES).max(1);
        // Probe with an uninitialised reservation (no page is touched), then allocate zeroed.
        while buckets > 1
            && Vec::<[u64; 2]>::new().try_reserve_exact((buckets + 1) * BUCKET_ENTRIES).is_err()
        {
            buckets /= 2;
        }
        // One spare bucket's worth of slots lets the first bucket start on a cache line.
        let slots = atomic_words(vec![[0u64; 2]; (buckets + 1) * BUCKET_ENTRIES]);
        advise_huge_pages(&slots);
        let misalignment = (slots.as_ptr() as usize) % BUCKET_BYTES;
        let offset = if misalignment == 0 {
            0
        } else {
            (BUCKET_BYTES - misalignment) / std::mem::size_of::<Words>()
        };
        TranspositionTable { slots, offset, buckets, generation: 0 }
    }

    /// The bytes a table made with `with_bytes(bytes)` uses (when the system grants them).
    pub const fn bytes_for(bytes: usize) -> usize {
        let bytes = if bytes < MAX_BYTES { bytes } else { MAX_BYTES };
        let buckets = bytes / BUCKET_BYTES;
        (if buckets == 0 { 1 } else { buckets }) * BUCKET_BYTES
    }

    /// Bytes of entries in use (the bucket count × 64).
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets * BUCKET_ENTRIES
    }

    /// Bytes of the table's storage (its entries and the spare slots that align them).
    pub fn storage_bytes(&self) -> usize {
        std::mem::size_of_val(self.slots.as_slice())
    }

    /// Has the system back the storage's pages from byte `from` on, up to `bytes` of them,
    /// with memory now, and returns where to go on (at most [`TranspositionTable::storage_bytes`]).
    /// The zeroed allocation is only promised: every page is zeroed and mapped at its first
    /// write, which a search of a fresh table would otherwise pay for as it goes (see
    /// `docs/protocol.md`). Each page gets one write of the value it holds, so the contents
    /// stay as they were.
    pub fn touch(&mut self, from: usize, bytes: usize) -> usize {
        let slot_bytes = std::mem::size_of::<Words>();
        let end = from.saturating_add(bytes).min(self.storage_bytes());
        for byte in (from.next_multiple_of(PAGE_BYTES)..end).step_by(PAGE_BYTES) {
            let word = self.slots[byte / slot_bytes][0].get_mut();
            // (An opaque value: a write the compiler could prove idle it would leave out.)
            *word = std::hint::black_box(*word);
        }
        end
    }

    /// Re-creates the table with a new byte budget (contents are dropped).
    pub fn resize(&mut self, bytes: usize) {
        *self = TranspositionTable::with_bytes(bytes);
    }

    /// Empties every entry and resets the generation.
    pub fn clear(&mut self) {
        for words in &mut self.slots {
            *words = [AtomicU64::new(0), AtomicU64::new(0)];
        }
        self.generation = 0;
    }

    /// Starts a new search: entries written before it age by one.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
    }

    #[inline]
    fn bucket_range(&self, key: u64) -> std::ops::Range<usize> {
        let bucket = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.offset + bucket * BUCKET_ENTRIES;
        start..start + BUCKET_ENTRIES
    }

    /// Asks the processor to start loading `key`'s bucket, so that a probe a little later
    /// finds it in cache: a hint with no effect on any result. The search calls it with the
    /// child's key before making a move, and the make's work hides the memory latency.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.slots[self.bucket_range(key).start]);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        if key == 0 {
            return None;
        }
        self.slots[self.bucket_range(key)]
            .iter()
            .map(Slot::load)
            .find(|s| s.key == key)
            .map(Slot::unpack)
    }

    /// Stores a result for `key` (see the replacement policy in the module docs).
    pub fn store(&self, key: u64, entry: TtEntry) {
        if key == 0 {
            return;
        }
        let generation = self.generation;
        let range = self.bucket_range(key);
        let mut bucket = [Slot::default(); BUCKET_ENTRIES];
        for (slot, words) in bucket.iter_mut().zip(&self.slots[range.clone()]) {
            *slot = Slot::load(words);
        }
        let age = |s: &Slot| i32::from(generation.wrapping_sub(s.generation()) & GENERATION_MASK);
        let victim = if let Some(i) = bucket.iter().position(|s| s.key == key) {
            let old = bucket[i];
            let keep_old = entry.bound != Bound::Exact
                && old.generation() == generation
                && old.depth() > entry.depth;
            if keep_old {
                // Keep the deeper result but learn a best move if the old entry had none.
                let mut old_entry = old.unpack();
                if old_entry.best_move.is_none() && entry.best_move.is_some() {
                    old_entry.best_move = entry.best_move;
                    Slot::pack(key, &old_entry, generation).save(&self.slots[range.start + i]);
                }
                return;
            }
            i
        } else if let Some(i) = bucket.iter().position(|s| s.key == 0) {
            i
        } else {
            (0..BUCKET_ENTRIES)
                .min_by_key(|&i| i32::from(bucket[i].depth()) - 4 * age(&bucket[i]))
                .expect("a bucket has entries")
        };
        Slot::pack(key, &entry, generation).save(&self.slots[range.start + victim]);
    }

    /// Permille of the first 1000 entries written in the current search (the protocol's
    /// "hash full" figure).
    pub fn hashfull(&self) -> u32 {
        let sample = self.capacity().min(1000);
        let used = self.slots[self.offset..self.offset + sample]
            .iter()
            .map(Slot::load)
            .filter(|s| s.key != 0 && s.generation() == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// A score as stored: mate scores counted from the node at `ply` instead of the root.
#[inline]
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    let ply = ply as Score;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score rebased to the probing node at `ply` (the inverse of [`score_to_tt`]).
#[inline]
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    let ply = ply as Score;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{WIN, loss_in, win_in};

    fn entry(score: Score, mv: Option<u16>, depth: u8, bound: Bound) -> TtEntry {
        TtEntry { score, best_move: mv.map(Cell::from_index), depth, bound }
    }

    #[test]
    fn entries_round_trip_through_the_packed_layout() {
        for &(score, mv, depth, bound) in &[
            (0, None, 0, Bound::Exact),
            (-1234, Some(0), 7, Bound::Upper),
            (WIN - 3, Some(238), PROVEN_DEPTH, Bound::Lower),
            (-WIN + 9, Some(17), 200, Bound::Exact),
            (12, Some(255), 3, Bound::Lower),
            (-12, Some(256), 4, Bound::Upper),
            (99, Some(505), 5, Bound::Exact),
        ] {
            let e = entry(score, mv, depth, bound);
            for generation in [0, 5, 63] {
                let slot = Slot::pack(42, &e, generation);
                assert_eq!(slot.unpack(), e);
                assert_eq!(slot.generation(), generation);
                assert_eq!(slot.data >> 41, 0, "reserved bits stay zero");
            }
        }
    }

    #[test]
    fn mate_scores_are_rebased_by_ply_and_round_trip() {
        // Win in 7 plies from the root, seen at ply 3: win in 4 from the node.
        assert_eq!(score_to_tt(win_in(7), 3), win_in(4));
        assert_eq!(score_to_tt(loss_in(8), 3), loss_in(5));
        // Found again at ply 5 of another line: win in 9 from that root.
        assert_eq!(score_from_tt(win_in(4), 5), win_in(9));
        assert_eq!(score_from_tt(loss_in(5), 5), loss_in(10));
        for s in [-20_000, -1, 0, 1, 250, 20_000, win_in(1), win_in(60), loss_in(2), loss_in(99)] {
            for ply in [0, 1, 17, 200] {
                assert_eq!(score_from_tt(score_to_tt(s, ply), ply), s, "{s} at ply {ply}");
            }
        }
    }

    #[test]
    fn touching_the_pages_keeps_every_entry() {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let keys: Vec<u64> = (1..2_000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for (i, &key) in keys.iter().enumerate() {
            tt.store(key, entry(i as Score, Some((i % 200) as u16), 3, Bound::Exact));
        }
        let before: Vec<_> = keys.iter().map(|&key| tt.probe(key)).collect();
        let total = tt.storage_bytes();
        assert!(total > tt.bytes(), "the spare bucket is storage too");
        // In uneven steps, past the end.
        let mut at = 0;
        for step in [1, 4095, 70_000, 1 << 20, 1 << 30] {
            at = tt.touch(at, step);
        }
        assert_eq!(at, total);
        assert_eq!(tt.touch(total, 4096), total);
        let after: Vec<_> = keys.iter().map(|&key| tt.probe(key)).collect();
        assert_eq!(after, before);
    }

    #[test]
    fn store_then_probe_finds_the_entry_and_misses_other_keys() {
        let mut tt = TranspositionTable::with_bytes(1 << 16);
        assert_eq!(tt.bytes(), 1 << 16);
        let e = entry(55, Some(12), 6, Bound::Lower);
        tt.store(0xdead_beef, e);
        assert_eq!(tt.probe(0xdead_beef), Some(e));
        assert_eq!(tt.probe(0xdead_bef0), None);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef), None);
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_oldest_entry() {
        let mut tt = TranspositionTable::with_bytes(BUCKET_BYTES); // one bucket
        for (key, depth) in [(1u64, 9u8), (2, 3), (3, 12), (4, 5)] {
            tt.store(key, entry(0, None, depth, Bound::Exact));
        }
        tt.store(5, entry(0, None, 1, Bound::Exact));
        assert_eq!(tt.probe(2), None, "depth 3 was the shallowest");
        assert!(tt.probe(5).is_some());
        // Three searches later, an old deep entry gives way to fresh shallower ones.
        for _ in 0..3 {
            tt.new_search();
        }
        for (key, depth) in [(3u64, 12u8), (4, 5), (5, 3)] {
            tt.store(key, entry(0, None, depth, Bound::Exact));
        }
        tt.store(6, entry(0, None, 2, Bound::Exact));
        assert_eq!(tt.probe(1), None, "depth 9 at age 3 scores 9 − 12, below 12, 5 and 3");
        assert!(tt.probe(6).is_some() && tt.probe(5).is_some());
    }

    #[test]
    fn same_key_keeps_a_deeper_current_result_unless_exact() {
        let tt = TranspositionTable::with_bytes(1 << 12);
        tt.store(7, entry(10, None, 8, Bound::Lower));
        tt.store(7, entry(20, Some(3), 2, Bound::Upper));
        let kept = tt.probe(7).unwrap();
        assert_eq!((kept.score, kept.depth), (10, 8));
        assert_eq!(kept.best_move, Some(Cell::from_index(3)), "the move is learned");
        tt.store(7, entry(30, None, 2, Bound::Exact));
        assert_eq!(tt.probe(7).unwrap().score, 30);
    }

    #[test]
    fn a_slot_torn_by_two_writers_is_a_miss() {
        let tt = TranspositionTable::with_bytes(BUCKET_BYTES); // one bucket
        let (first, second) =
            (entry(55, Some(12), 6, Bound::Lower), entry(-9, None, 2, Bound::Exact));
        tt.store(0xdead_beef, first);
        let words = &tt.slots[tt.bucket_range(0xdead_beef).start];
        // Another writer's data word lands after this key's first word.
        words[1].store(Slot::pack(0xfeed, &second, 0).data, Ordering::Relaxed);
        assert_eq!(tt.probe(0xdead_beef), None);
        assert_eq!(tt.probe(0xfeed), None);
    }

    /// Threads storing and probing one small table at once only ever read an entry that was
    /// stored for the key probed (every entry here is a function of its key).
    #[test]
    fn threads_sharing_the_table_read_only_whole_entries() {
        let tt = TranspositionTable::with_bytes(4 * BUCKET_BYTES);
        let entry_of = |key: u64| {
            let depth = (key % 200) as u8;
            entry((key % 5000) as Score - 2500, Some((key % 505) as u16), depth, Bound::Lower)
        };
        std::thread::scope(|scope| {
            for seed in 0..4 {
                let tt = &tt;
                scope.spawn(move || {
                    let mut rng = crate::rng::SplitMix64::new(seed);
                    for _ in 0..50_000 {
                        let key = rng.next_u64() % 64 + 1;
                        tt.store(key, entry_of(key));
                        let probed = rng.next_u64() % 64 + 1;
                        if let Some(found) = tt.probe(probed) {
                            assert_eq!(found, entry_of(probed), "key {probed}");
                        }
                    }
                });
            }
        });
        for key in 1..=64 {
            assert!(tt.probe(key).is_none_or(|found| found == entry_of(key)), "key {key}");
        }
    }

    #[test]
    fn prefetch_takes_any_key_and_changes_nothing() {
        let tt = TranspositionTable::with_bytes(1 << 12);
        let entry = TtEntry { score: 7, best_move: None, depth: 3, bound: Bound::Exact };
        tt.store(12345, entry);
        let mut rng = crate::rng::SplitMix64::new(3);
        for key in [0, 1, 12345, u64::MAX].into_iter().chain((0..1000).map(|_| rng.next_u64())) {
            tt.prefetch(key);
        }
        assert_eq!(tt.probe(12345), Some(entry));
    }

    #[test]
    fn buckets_are_cache_line_aligned_and_sizes_follow_the_budget() {
        for bytes in [0, 64, 1000, 1 << 20] {
            let tt = TranspositionTable::with_bytes(bytes);
            let first = &tt.slots[tt.offset] as *const Words as usize;
            assert_eq!(first % BUCKET_BYTES, 0);
            assert!(tt.bytes() <= bytes.max(BUCKET_BYTES));
        }
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        tt.resize(1 << 10);
        assert_eq!(tt.capacity(), 64);
        assert_eq!(TranspositionTable::bytes_for(1000), 960);
        assert_eq!(TranspositionTable::bytes_for(usize::MAX), MAX_BYTES);
    }
}
