//! The pool checks as a build runs them: through a memo of what earlier
//! checks found of each set on its own (the caller's, or the one the cache
//! kept), so that only the sets that changed are checked again, and a
//! cached set's cards are decoded only for a check that needs them.

use std::sync::Arc;

use crate::cache::CheckedSet;
use crate::diagnostics::Diagnostic;
use crate::pool::Pool;

use super::checks::{ChecksMemo, Derived, check_pool_restoring};
use super::read::FilesRead;

/// A build's pool checks and what they remember.
pub(super) struct PoolChecks<'m> {
    /// Each loaded set's file hash.
    hashes: Vec<u64>,
    memo: Memo<'m>,
}

enum Memo<'m> {
    /// Nothing kept (a build without a cache).
    None,
    /// The caller's, kept between its builds (the editor server).
    Caller(&'m mut ChecksMemo),
    /// Made of what the cache kept, for this build.
    Cached(ChecksMemo),
}

impl<'m> PoolChecks<'m> {
    /// The checks of the sets `read` has: with the caller's memo, or else
    /// with what the cache kept of each set (`cached`: a build with one).
    pub fn new(read: &FilesRead<'_>, caller: Option<&'m mut ChecksMemo>, cached: bool) -> Self {
        let hashes = read.owner.iter().map(|&w| read.works[w].hash).collect();
        let memo = match caller {
            Some(memo) => Memo::Caller(memo),
            None if cached => Memo::Cached(ChecksMemo::of(cached_checks(read))),
            None => Memo::None,
        };
        PoolChecks { hashes, memo }
    }

    /// Runs the checks; their findings go to `out`.
    pub fn run(&mut self, pool: &Pool, read: &FilesRead<'_>, out: &mut Vec<Diagnostic>) -> Derived {
        let memo = match &mut self.memo {
            Memo::None => None,
            Memo::Caller(memo) => Some(&mut **memo),
            Memo::Cached(memo) => Some(memo),
        };
        let memo = memo.map(|memo| (&self.hashes[..], memo));
        check_pool_restoring(&read.loaded, memo, &|i| read.restored(pool, i), out)
    }

    /// Gives each set file's work what the checks found of its set, for
    /// the cache to keep; a set whose findings were made anew is stored
    /// again.
    pub fn record(&self, read: &mut FilesRead<'_>) {
        let memo = match &self.memo {
            Memo::None => return,
            Memo::Caller(memo) => &**memo,
            Memo::Cached(memo) => memo,
        };
        for (set, &w) in read.loaded.iter().zip(&read.owner) {
            let work = &mut read.works[w];
            let Some(now) = memo.checked(&set.path).filter(|now| now.hash == work.hash) else {
                continue;
            };
            let same = |was: &Arc<CheckedSet>| was.hash == now.hash && was.types == now.types;
            if !work.checked.as_ref().is_some_and(same) {
                work.checked = Some(Arc::clone(now));
                work.changed = true;
            }
        }
    }
}

/// What the cache kept of the checks of each set it answered for, by the
/// set's path.
fn cached_checks(read: &FilesRead<'_>) -> foldhash::HashMap<Arc<str>, Arc<CheckedSet>> {
    read.loaded
        .iter()
        .zip(&read.owner)
        .filter_map(|(set, &w)| {
            let work = &read.works[w];
            let checked = work.checked.as_ref().filter(|c| c.hash == work.hash)?;
            Some((Arc::clone(&set.path), Arc::clone(checked)))
        })
        .collect()
}
