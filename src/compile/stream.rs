//! Rendering and writing at once: the sets go out to the database file in
//! chunks, each chunk written while the next one renders.

use rayon::prelude::*;

use crate::artifacts::DatabaseWriter;
use crate::load::LoadedSet;

use super::{Built, SetWork};

/// Renders the sets in chunks, each chunk while the one before it is
/// written (in pool order, reused sets too): the write overlaps the
/// rendering, and a chunk's JSON is freed once written.
pub(super) fn stream_sets<F, R>(
    loaded: &mut [LoadedSet],
    locale_files: Vec<F>, // each set's translation files
    render: &R,
    works: &[SetWork],
    writer: &mut DatabaseWriter,
) -> Vec<(usize, Option<Built>)>
where
    F: Send,
    R: Fn(usize, &mut LoadedSet, F) -> (usize, Option<Built>) + Sync,
{
    // Enough sets to share out between threads, few enough that the
    // chunks waiting to be written stay small.
    const CHUNK: usize = 64;
    let mut files = locale_files.into_iter();
    let mut done = Vec::with_capacity(loaded.len());
    let mut pending = Vec::new();
    for (c, chunk) in loaded.chunks_mut(CHUNK).enumerate() {
        let files: Vec<_> = files.by_ref().take(chunk.len()).collect();
        let to_write = std::mem::take(&mut pending);
        let (rendered, written) = rayon::join(
            || {
                chunk
                    .par_iter_mut()
                    .zip(files)
                    .enumerate()
                    .map(|(i, (set, files))| render(c * CHUNK + i, set, files))
                    .collect::<Vec<_>>()
            },
            || write_chunk(to_write, works, writer),
        );
        done.extend(written);
        pending = rendered;
    }
    done.extend(write_chunk(pending, works, writer));
    done
}

/// Writes rendered sets, and the reused ones among them, to the database
/// being written; their cards are then found there. After a failed write
/// (which the writer reports when finished) sets stay as they were.
fn write_chunk(
    sets: Vec<(usize, Option<Built>)>,
    works: &[SetWork],
    writer: &mut DatabaseWriter,
) -> Vec<(usize, Option<Built>)> {
    sets.into_iter()
        .map(|(w, built)| {
            let (json, fresh) = match built {
                Some(Built::Json(json)) => (json, true),
                None => match &works[w].output {
                    Some((_, json)) => (json.clone(), false),
                    None => return (w, None),
                },
                other => return (w, other),
            };
            // After a failed write the set stays as it was (the writer
            // reports the failure when finished).
            let json = match writer.push_aside(json.clone()) {
                Ok(written) => written,
                Err(_) => json,
            };
            let built = match fresh {
                true => Built::Json(json),
                false => Built::Written(json),
            };
            (w, Some(built))
        })
        .collect()
}
