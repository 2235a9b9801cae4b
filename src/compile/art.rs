//! Card art: the image each card names, found beside its set file on every
//! build. The image is not part of the set file, so the cache never answers
//! for it: each build reads it again, and a set whose images changed is
//! rendered again (its context key takes their fingerprints).

use std::fs;
use std::path::Path;

use xxhash_rust::xxh3::Xxh3;

use crate::diagnostics::{Code, Diagnostic};
use crate::faces::art::{self, BadPath, MAX_ART_BYTES};
use crate::load::{LoadedCard, LoadedSet};
use crate::model::Art;
use crate::pool::Pool;

use super::read::FilesRead;

/// Looks for every card's art (setting [`LoadedCard::art`]) and gives each
/// set file a key of what it found; what cannot be used is a finding at the
/// `art` value: a path that leaves the pool's folder is an error, an image
/// that is missing, unreadable, not an image or too large a warning.
pub(super) fn find_art(pool: &Pool, read: &mut FilesRead<'_>, diagnostics: &mut Vec<Diagnostic>) {
    restore_sets_naming_art(pool, read);
    for (file, work) in pool.sets.iter().zip(read.works.iter_mut()) {
        let Some(set) = work.loaded.and_then(|i| read.loaded.get_mut(i)) else {
            continue;
        };
        let folder = file.relative.rsplit_once('/').map_or("", |(dir, _)| dir);
        let mut key = Xxh3::new();
        let mut any = false;
        for card in &mut set.cards {
            let Some(written) = card.card.art.clone() else {
                continue;
            };
            any = true;
            let found = look(pool.root.as_deref(), folder, &written);
            key.update(written.as_bytes());
            match found {
                Ok(art) => {
                    key.update(art.fingerprint.as_bytes());
                    card.art = Some(art);
                }
                Err(problem) => {
                    key.update(problem.code().as_str().as_bytes());
                    diagnostics.push(problem.diagnostic(&set.path, card, &written));
                }
            }
        }
        work.art = if any { key.digest() } else { 0 };
    }
}

/// Puts back the cards of the sets from the cache that name art: a set
/// that names none is left as it is.
fn restore_sets_naming_art(pool: &Pool, read: &mut FilesRead<'_>) {
    let naming = |i: &usize| read.works[read.owner[*i]].names_art;
    let restored: Vec<(usize, LoadedSet)> = (0..read.loaded.len())
        .filter(naming)
        .filter_map(|i| Some((i, read.restored(pool, i)?)))
        .collect();
    for (i, set) in restored {
        read.loaded[i] = set;
        // In hand from now on, and stored again from them.
        read.works[read.owner[i]].cards = None;
    }
}

/// Why a card's art cannot be used.
#[derive(Debug)]
enum Problem {
    Outside(BadPath),
    Missing,
    Unreadable(String),
    NotImage,
    TooLarge(u64),
}

impl Problem {
    fn code(&self) -> Code {
        match self {
            Problem::Outside(_) => Code::ArtOutsidePool,
            Problem::Missing => Code::ArtMissing,
            Problem::Unreadable(_) => Code::ArtUnreadable,
            Problem::NotImage => Code::ArtNotImage,
            Problem::TooLarge(_) => Code::ArtTooLarge,
        }
    }

    fn diagnostic(
        &self,
        path: &std::sync::Arc<str>,
        card: &LoadedCard,
        written: &str,
    ) -> Diagnostic {
        let at = card.spans.art.clone();
        let name = &card.card.name;
        let found = |message: String, label: &str, help: &str| {
            Diagnostic::warning(self.code(), path, at.clone(), message)
                .with_label(label.to_string())
                .with_help(help.to_string())
        };
        match self {
            Problem::Outside(why) => Diagnostic::error(
                self.code(),
                path,
                at.clone(),
                format!(
                    "the art of `{name}` must be a file inside the pool's folder, not `{written}`"
                ),
            )
            .with_label(match why {
                BadPath::Empty => "no file named",
                BadPath::Absolute => "an absolute path",
                BadPath::Parent => "leaves the folder",
            })
            .with_help(
                "put the image beside the set file (or in a folder under it) and name it relative to the set file, like `art/card.png`",
            ),
            Problem::Missing => found(
                format!("the art of `{name}` is not there: no file `{written}` beside the set file"),
                "no such file",
                "add the image, or correct the path (it is relative to the set file's folder)",
            ),
            Problem::Unreadable(why) => found(
                format!("the art of `{name}` cannot be read: {why}"),
                "cannot be read",
                "make the file readable, or name another image",
            ),
            Problem::NotImage => found(
                format!("the art of `{name}`, `{written}`, is not an image the faces can draw"),
                "not a PNG, JPEG, WebP or SVG image",
                "save the art as PNG, JPEG, WebP or SVG",
            ),
            Problem::TooLarge(bytes) => found(
                format!(
                    "the art of `{name}` is {:.1} MiB, more than the {} MiB a face embeds",
                    *bytes as f64 / (1024.0 * 1024.0),
                    MAX_ART_BYTES / (1024 * 1024)
                ),
                "too large",
                "save it smaller: a card at 300 dpi needs about 744 × 1039 pixels",
            ),
        }
    }
}

/// A card's art file, read and probed: `written` is relative to the set
/// file's `folder` (relative to the pool's `root`).
fn look(root: Option<&Path>, folder: &str, written: &str) -> Result<Art, Problem> {
    art::check_path(written).map_err(Problem::Outside)?;
    let file = pool_relative(folder, written);
    let root = root.ok_or(Problem::Missing)?;
    let path = root.join(&file);
    let meta = fs::metadata(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Problem::Missing,
        _ => Problem::Unreadable(e.to_string()),
    })?;
    if meta.is_dir() {
        return Err(Problem::Unreadable("it is a folder".to_string()));
    }
    // A link may still lead out of the pool.
    if let (Ok(real), Ok(real_root)) = (fs::canonicalize(&path), fs::canonicalize(root))
        && !real.starts_with(&real_root)
    {
        return Err(Problem::Outside(BadPath::Parent));
    }
    if meta.len() > MAX_ART_BYTES {
        return Err(Problem::TooLarge(meta.len()));
    }
    let bytes = fs::read(&path).map_err(|e| Problem::Unreadable(e.to_string()))?;
    if bytes.len() as u64 > MAX_ART_BYTES {
        return Err(Problem::TooLarge(bytes.len() as u64));
    }
    let probed = art::probe(&bytes).ok_or(Problem::NotImage)?;
    Ok(Art {
        file,
        format: probed.format,
        width: probed.width,
        height: probed.height,
        fingerprint: art::fingerprint(&bytes),
    })
}

/// The art's path relative to the pool's folder, with `/` separators and
/// without `.` steps.
fn pool_relative(folder: &str, written: &str) -> String {
    folder
        .split('/')
        .chain(written.split(['/', '\\']))
        .filter(|part| !part.is_empty() && *part != ".")
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_paths_are_made_relative_to_the_pool() {
        assert_eq!(pool_relative("", "owl.png"), "owl.png");
        assert_eq!(
            pool_relative("promos", "./art/owl.png"),
            "promos/art/owl.png"
        );
        assert_eq!(pool_relative("a/b", "art\\owl.png"), "a/b/art/owl.png");
    }
}
