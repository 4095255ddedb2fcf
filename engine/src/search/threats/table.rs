//! The threat solver's own table: what a completed solve learned about a position, so the
//! same stones reached in another order are not searched again.

/// log2 of the number of [`ThreatTable`] entries (16 bytes each: 1 MiB).
pub(super) const THREAT_TABLE_BITS: u32 = 16;

/// Salt xored into the hash of VCF entries, so that VCF and VCT results never mix.
pub(super) const VCF_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// What the solver learned about the attacker to move in one position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ThreatEntry {
    /// The position's hash (salted by mode); 0 = unused.
    pub(super) key: u64,
    /// A win in `plies` plies starting with `first` if `win`, else: no win within `depth`
    /// attacking moves.
    pub(super) win: bool,
    pub(super) depth: u8,
    pub(super) plies: u8,
    pub(super) first: u16,
}

/// The solver's table: one entry per slot, always replaced. Only results of completed
/// searches are stored (a budget stop proves nothing); a win holds at any depth, a failure
/// at its depth or less. Allocated on the first solve, so boards without patterns pay
/// nothing.
pub(super) struct ThreatTable {
    pub(super) entries: Vec<ThreatEntry>,
}

impl ThreatTable {
    fn slot(key: u64) -> usize {
        (key >> (64 - THREAT_TABLE_BITS)) as usize
    }

    /// See [`crate::prefetch`]: the slot of `key` starts loading now.
    pub(super) fn prefetch(&self, key: u64) {
        if let Some(slot) = self.entries.get(ThreatTable::slot(key)) {
            crate::prefetch::prefetch(slot);
        }
    }

    pub(super) fn probe(&self, key: u64) -> Option<ThreatEntry> {
        self.entries.get(ThreatTable::slot(key)).copied().filter(|e| e.key == key)
    }

    pub(super) fn store(&mut self, entry: ThreatEntry) {
        if let Some(slot) = self.entries.get_mut(ThreatTable::slot(entry.key)) {
            *slot = entry;
        }
    }
}
