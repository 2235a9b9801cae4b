//! The last stage: what the build cache keeps of this build, for each set
//! file and translation file, so the next build reads and renders only what
//! changed.

use std::sync::Arc;

use crate::cache::{Cache, CardTexts, LocaleEntry, SetEntry};
use crate::load::{FileResult, LoadedSet};
use crate::pool::Pool;

use super::read::FilesRead;

/// Records every file's result in `cache`.
pub(super) fn store(cache: &mut Cache, pool: &Pool, read: FilesRead<'_>) {
    let FilesRead {
        works,
        loaded,
        locales,
        ..
    } = read;
    let mut loaded: Vec<Option<LoadedSet>> = loaded.into_iter().map(Some).collect();
    for (work, file) in works.into_iter().zip(&pool.sets) {
        // A file that could not be read is read again next time.
        if file.unreadable() {
            continue;
        }
        let mut set = work.loaded.and_then(|i| loaded[i].take());
        // A set whose cards were never decoded goes back as the cache had
        // them; one in hand is encoded from them.
        let in_hand = set.as_ref().is_some_and(|set| !set.cards.is_empty());
        let names_art = work.names_art
            || set
                .iter()
                .flat_map(|set| &set.cards)
                .any(|card| card.card.art.is_some());
        // Cached without trees, and with the texts apart.
        let texts = set.as_mut().map(|set| {
            for card in &mut set.cards {
                card.effect = None;
            }
            let texts = CardTexts::take_from(set);
            match work.texts {
                Some(cached) if work.reused => cached,
                _ => texts,
            }
        });
        cache.put_set(
            Arc::from(&*file.relative),
            SetEntry {
                hash: work.hash,
                stamp: file.stamp,
                result: FileResult {
                    set,
                    diagnostics: work.diagnostics,
                },
                effects: work.effects,
                output: work.output,
                texts,
                stored: !work.changed,
                cards: work.cards.filter(|_| !in_hand),
                checked: work.checked,
                names_art,
            },
        );
    }
    for work in locales.into_iter().filter(|work| !work.file.unreadable()) {
        cache.put_locale(
            Arc::from(&*work.file.relative),
            LocaleEntry {
                hash: work.hash,
                stamp: work.file.stamp,
                summary: work.summary,
                stored: work.stored,
            },
        );
    }
}
