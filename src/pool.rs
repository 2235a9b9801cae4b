//! Finding and reading the files of a card pool: the built-in one compiled
//! into the binary, or a folder on disk (`--cards DIR`).
//!
//! A pool is every `*.yaml`/`*.yml` file under the folder, at any depth.
//! Data files that are not sets (keywords, phrase templates, locales) are
//! recognised by name so they are never mistaken for sets; see
//! [`is_data_file`].

use std::borrow::Cow;
use std::fmt;
use std::fs;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::diagnostics::{Code, Diagnostic};

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_pool.rs"));
}

/// A file larger than this is refused (the largest real set file is a few
/// kilobytes; a 100,000-card pool in 2,000 files averages 40 KB a file).
pub(crate) const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Folders nested deeper than this are not searched.
const MAX_DIR_DEPTH: usize = 32;

/// One text file of a pool.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as shown to the user.
    pub path: Arc<str>,
    /// Path relative to the pool root, with `/` separators.
    pub relative: String,
    text: Text,
    /// The file's stamp when it was read, when the stamp alone can tell a
    /// later build that the file is unchanged (see [`FileStamp::vouching`]).
    pub stamp: Option<FileStamp>,
}

/// A file's text: read, or left on disk until a build asks for it (an
/// earlier build read the same file, as its stamp says, and kept what it
/// needed from it; or the pool was read [`Listing::deferring`]).
#[derive(Debug, Clone)]
enum Text {
    Read {
        text: Arc<str>,
        hash: OnceLock<u64>,
    },
    Unread {
        from: PathBuf,
        /// The content's hash: the cache's, for a file it vouches for, or
        /// the one read first; a text read later must have it.
        hash: OnceLock<u64>,
        /// The text once kept, or why it could not be read.
        loaded: OnceLock<Result<Arc<str>, Unreadable>>,
        /// Set once the file is read, kept or not.
        read: OnceLock<()>,
    },
}

/// Why a file left unread could not be read when a build asked for it.
#[derive(Debug)]
struct Unreadable {
    problem: Box<Diagnostic>,
    /// What can be shown of a file that is not UTF-8.
    lossy: Option<Arc<str>>,
    /// Given to the build's reader ([`SourceFile::in_hand`]), which reports
    /// it with the file's own findings.
    reported: AtomicBool,
}

impl Clone for Unreadable {
    fn clone(&self) -> Unreadable {
        Unreadable {
            problem: self.problem.clone(),
            lossy: self.lossy.clone(),
            reported: AtomicBool::new(self.reported.load(Ordering::Relaxed)),
        }
    }
}

impl SourceFile {
    pub fn new(path: Arc<str>, relative: String, text: Arc<str>) -> SourceFile {
        SourceFile {
            path,
            relative,
            text: Text::Read {
                text,
                hash: OnceLock::new(),
            },
            stamp: None,
        }
    }

    /// A file held in memory, shown by its name within the pool (a pool
    /// made by a program: tests, benchmarks, synthetic pools).
    pub fn named(name: &str, text: &str) -> SourceFile {
        SourceFile::new(Arc::from(name), name.to_string(), Arc::from(text))
    }

    /// The file's text. A file left unread is read now and kept; should
    /// that fail, or the file no longer be what its hash said, the text is
    /// empty (or what can be shown of it) and
    /// [`SourceFile::late_read_problem`] says why.
    pub fn text(&self) -> &Arc<str> {
        static EMPTY: OnceLock<Arc<str>> = OnceLock::new();
        match &self.text {
            Text::Read { text, .. } => text,
            Text::Unread { loaded, .. } => match loaded.get_or_init(|| self.read_unread()) {
                Ok(text) => text,
                Err(unreadable) => (unreadable.lossy.as_ref())
                    .unwrap_or_else(|| EMPTY.get_or_init(|| Arc::from(""))),
            },
        }
    }

    /// The file with its text in hand for one use, the pool not keeping
    /// it: a file left unread is read now (its hash is kept, so a later
    /// [`SourceFile::text`] finds a change), else the file itself. A build
    /// reads each file so, holding the texts of the files in hand only.
    /// Why the file could not be read is an error for the caller to report.
    pub fn in_hand(&self) -> Result<Cow<'_, SourceFile>, Box<Diagnostic>> {
        self.hold().map_err(|unreadable| {
            unreadable.reported.store(true, Ordering::Relaxed);
            unreadable.problem.clone()
        })
    }

    /// [`SourceFile::in_hand`] for a reader that does not report why the
    /// file cannot be read: [`SourceFile::late_read_problem`] then does.
    pub fn in_hand_or_late(&self) -> Option<Cow<'_, SourceFile>> {
        self.hold().ok()
    }

    fn hold(&self) -> Result<Cow<'_, SourceFile>, &Unreadable> {
        let Text::Unread { loaded, .. } = &self.text else {
            return Ok(Cow::Borrowed(self));
        };
        if let Some(Ok(_)) = loaded.get() {
            return Ok(Cow::Borrowed(self));
        }
        let text = self.read_once()?;
        Ok(Cow::Owned(SourceFile {
            path: self.path.clone(),
            relative: self.relative.clone(),
            text: Text::Read {
                text,
                hash: OnceLock::from(self.hash()),
            },
            stamp: self.stamp,
        }))
    }

    /// A file left unread, read for one use: its text, not kept; or why it
    /// cannot be read, kept.
    fn read_once(&self) -> Result<Arc<str>, &Unreadable> {
        let Text::Unread { loaded, .. } = &self.text else {
            unreachable!("read_once is asked of unread files only");
        };
        if let Some(Err(unreadable)) = loaded.get() {
            return Err(unreadable);
        }
        self.read_unread().or_else(|unreadable| {
            // Should another reader have kept an outcome first, it stands:
            // the file changed between the two reads.
            let _ = loaded.set(Err(unreadable));
            match loaded.get() {
                Some(Ok(text)) => Ok(text.clone()),
                Some(Err(unreadable)) => Err(unreadable),
                None => unreachable!("set just now"),
            }
        })
    }

    /// Reads a file left unread: its text, when it is the content its hash
    /// names (the first read names it).
    fn read_unread(&self) -> Result<Arc<str>, Unreadable> {
        let Text::Unread {
            from, hash, read, ..
        } = &self.text
        else {
            unreachable!("read_unread is asked of unread files only");
        };
        let _ = read.set(());
        let unreadable = |problem: Box<Diagnostic>, lossy: Option<Arc<str>>| Unreadable {
            problem,
            lossy,
            reported: AtomicBool::new(false),
        };
        match read_pool_file(from, &self.path) {
            Ok((text, _)) => {
                let content = content_hash(&text);
                match *hash.get_or_init(|| content) == content {
                    true => Ok(text),
                    false => Err(unreadable(
                        Box::new(changed_while_building(&self.path)),
                        None,
                    )),
                }
            }
            Err(problem) => {
                let lossy = (problem.code == Code::NotUtf8)
                    .then(|| fs::read(from).ok())
                    .flatten()
                    .map(|bytes| Arc::from(String::from_utf8_lossy(&bytes).into_owned()));
                Err(unreadable(problem, lossy))
            }
        }
    }

    /// Hash of the file's content ([`content_hash`]). A file left unread
    /// with no hash yet is read for it (not kept).
    pub fn hash(&self) -> u64 {
        match &self.text {
            Text::Read { text, hash } => *hash.get_or_init(|| content_hash(text)),
            Text::Unread { hash, .. } => match hash.get() {
                Some(hash) => *hash,
                None => {
                    let _ = self.read_once();
                    *hash.get_or_init(|| content_hash(""))
                }
            },
        }
    }

    /// The content's hash when it is known without reading the file.
    pub fn known_hash(&self) -> Option<u64> {
        match &self.text {
            Text::Read { .. } => Some(self.hash()),
            Text::Unread { hash, .. } => hash.get().copied(),
        }
    }

    /// Whether the text is in memory (read with the pool, or since).
    pub fn is_read(&self) -> bool {
        match &self.text {
            Text::Read { .. } => true,
            Text::Unread { loaded, .. } => loaded.get().is_some_and(Result::is_ok),
        }
    }

    /// Whether the file was read from disk (with the pool or since), its
    /// text kept or not.
    pub fn was_read(&self) -> bool {
        match &self.text {
            Text::Read { .. } => true,
            Text::Unread { read, .. } => read.get().is_some(),
        }
    }

    /// Whether a file left unread could not be read when a build asked for
    /// it: nothing made of it may be kept for a later build.
    pub fn unreadable(&self) -> bool {
        match &self.text {
            Text::Unread { loaded, .. } => loaded.get().is_some_and(Result::is_err),
            Text::Read { .. } => false,
        }
    }

    /// Why a file left unread could not be read when its text was asked
    /// for (an error: the build's results for it cannot be trusted), unless
    /// the build's reader was told and reported it.
    pub fn late_read_problem(&self) -> Option<&Diagnostic> {
        match &self.text {
            Text::Unread { loaded, .. } => match loaded.get()? {
                Err(unreadable) if !unreadable.reported.load(Ordering::Relaxed) => {
                    Some(&unreadable.problem)
                }
                _ => None,
            },
            Text::Read { .. } => None,
        }
    }
}

fn changed_while_building(path: &Arc<str>) -> Diagnostic {
    Diagnostic::error(
        Code::ChangedDuringBuild,
        path,
        0..0,
        "this file changed while the build was running",
    )
    .with_label("changed")
    .with_help("run the build again")
}

/// Hash of a file's content.
pub(crate) fn content_hash(text: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// What `stat` tells of a file: enough to see that it is not the file that
/// was read before, without reading it. Any write or rename changes the
/// change time (ctime), which programs cannot set; an editor that saves
/// by renaming a new file into place also changes the inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    pub len: u64,
    pub modified: (i64, u32),
    pub changed: (i64, u32),
    pub inode: u64,
    pub device: u64,
}

/// How long after its last change a file's stamp is trusted: two writes
/// within one tick of the file system's clock leave the same stamp, so a
/// stamp is recorded only for a file last changed well before it was read.
const STAMP_SETTLE: Duration = Duration::from_secs(2);

impl FileStamp {
    /// The stamp of a file, where the system has one.
    pub fn of(meta: &fs::Metadata) -> Option<FileStamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let nanos = |n: i64| u32::try_from(n).unwrap_or(0);
            Some(FileStamp {
                len: meta.len(),
                modified: (meta.mtime(), nanos(meta.mtime_nsec())),
                changed: (meta.ctime(), nanos(meta.ctime_nsec())),
                inode: meta.ino(),
                device: meta.dev(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }

    /// The stamp of a file read after `reading_began`, when it can vouch
    /// for the content: the file was last changed (and modified) at least
    /// [`STAMP_SETTLE`] before, so a later change cannot share its stamp.
    pub fn vouching(meta: &fs::Metadata, reading_began: SystemTime) -> Option<FileStamp> {
        FileStamp::of(meta)?.settled_by(reading_began)
    }

    /// This stamp, when it can vouch for a file read after `reading_began`
    /// ([`FileStamp::vouching`]).
    pub fn settled_by(self, reading_began: SystemTime) -> Option<FileStamp> {
        let settled = reading_began
            .checked_sub(STAMP_SETTLE)?
            .duration_since(UNIX_EPOCH)
            .ok()?;
        let settled = (settled.as_secs() as i64, settled.subsec_nanos());
        // The modification time too: on some file systems (FAT) the
        // change time is the creation time.
        (self.changed < settled && self.modified < settled).then_some(self)
    }
}

/// The files of a pool, split into set files and data files.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    pub sets: Vec<SourceFile>,
    pub data: Vec<SourceFile>,
    /// Files that could not be read as text (located diagnostics).
    pub problems: Vec<Diagnostic>,
    /// Best-effort text of files that are not valid UTF-8, so their
    /// diagnostics can still show the lines before the bad byte.
    pub lossy: Vec<SourceFile>,
    /// The pool's folder on disk (none for the built-in pool): where the
    /// files a card names beside its set (its art) are read from.
    pub root: Option<PathBuf>,
}

/// Why a pool could not be read at all (exit code 2).
#[derive(Debug)]
pub enum PoolError {
    NotADirectory(PathBuf),
    Unreadable(PathBuf, io::Error),
    NoSets(PathBuf),
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::NotADirectory(p) => {
                write!(f, "`{}` is not a folder of card sets", p.display())
            }
            PoolError::Unreadable(p, e) => write!(f, "cannot read `{}`: {e}", p.display()),
            PoolError::NoSets(p) => write!(
                f,
                "`{}` holds no set files (`*.yaml` files outside `locales/` and `phrases/`)",
                p.display()
            ),
        }
    }
}

impl std::error::Error for PoolError {}

/// Which pool a command reads, by one rule for every command: the folder
/// named by `--cards`; else `./cards` when the current folder has one (a
/// set repository, or this project's checkout); else the built-in pool,
/// which is read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolChoice {
    Named(PathBuf),
    Found(PathBuf),
    BuiltIn,
}

/// The folder [`PoolChoice`] looks for in the current folder.
pub const FOUND_FOLDER: &str = "cards";

impl PoolChoice {
    pub fn of(named: Option<&Path>) -> PoolChoice {
        match named {
            Some(dir) => PoolChoice::Named(dir.to_path_buf()),
            None if Path::new(FOUND_FOLDER).is_dir() => {
                PoolChoice::Found(PathBuf::from(FOUND_FOLDER))
            }
            None => PoolChoice::BuiltIn,
        }
    }

    /// The pool's folder (none for the built-in pool).
    pub fn dir(&self) -> Option<&Path> {
        match self {
            PoolChoice::Named(dir) | PoolChoice::Found(dir) => Some(dir),
            PoolChoice::BuiltIn => None,
        }
    }

    /// Which pool, as a report says it.
    pub fn describe(&self) -> String {
        match self {
            PoolChoice::Named(dir) => format!("`{}`", dir.display()),
            PoolChoice::Found(dir) => {
                format!("`{}` (found in the current folder)", dir.display())
            }
            PoolChoice::BuiltIn => "the built-in pool".to_string(),
        }
    }
}

impl PoolError {
    /// The finding a front end reports: the folder named, what is wrong
    /// with it and what to do.
    pub fn into_diagnostic(self) -> Diagnostic {
        let (code, help) = match &self {
            PoolError::NotADirectory(_) => (
                Code::Unreadable,
                "`--cards` names the folder that holds the set files",
            ),
            PoolError::Unreadable(..) => (
                Code::Unreadable,
                "check that the folder exists and can be read",
            ),
            PoolError::NoSets(_) => (
                Code::NoSets,
                "put the set files (`*.yaml`) in the folder, or name the folder that holds them",
            ),
        };
        Diagnostic::general(code, self.to_string()).with_help(help)
    }
}

/// Is this pool file data rather than a set? Reserved: `keywords.yaml`,
/// `characters.yaml`, `glossary.yaml`, anything under a `locales/` or
/// `phrases/` folder, deck formats in the top `formats/` folder, and names
/// starting with `_`.
pub(crate) fn is_data_file(relative: &str) -> bool {
    let mut parts = relative.split('/');
    let name = parts.next_back().unwrap_or_default();
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    relative.starts_with("formats/")
        || parts.any(|dir| dir == "locales" || dir == "phrases")
        || matches!(stem, "keywords" | "characters" | "glossary")
        || name.starts_with('_')
}

impl Pool {
    /// The built-in pool shipped inside the binary.
    pub fn builtin() -> Pool {
        let mut pool = Pool::default();
        for (relative, text) in builtin::BUILTIN_FILES {
            pool.add(SourceFile::new(
                Arc::from(format!("cards/{relative}")),
                (*relative).to_string(),
                Arc::from(*text),
            ));
        }
        pool
    }

    /// Every YAML file under `dir`, at any depth, in a stable order.
    pub fn from_dir(dir: &Path) -> Result<Pool, PoolError> {
        Pool::list(dir)?.read(|_, _| None)
    }

    /// The YAML files under `dir`, found but not read yet.
    pub fn list(dir: &Path) -> Result<Listing, PoolError> {
        let began = SystemTime::now();
        let meta = fs::metadata(dir).map_err(|e| PoolError::Unreadable(dir.to_path_buf(), e))?;
        if !meta.is_dir() {
            return Err(PoolError::NotADirectory(dir.to_path_buf()));
        }
        // The root itself must be readable: nothing else could be said.
        let entries = fs::read_dir(dir).map_err(|e| PoolError::Unreadable(dir.to_path_buf(), e))?;
        let mut found = Found::default();
        walk(dir, entries, 0, &mut found);
        found.paths.sort_by_cached_key(|path| in_path_order(path));
        Ok(Listing {
            dir: dir.to_path_buf(),
            files: found.paths.into_iter().map(|path| (path, None)).collect(),
            problems: found.problems,
            began,
            defer: false,
        })
    }

    fn add(&mut self, file: SourceFile) {
        if is_data_file(&file.relative) {
            self.data.push(file);
        } else {
            self.sets.push(file);
        }
    }

    /// A data file by its path relative to the pool root.
    pub fn data_file(&self, relative: &str) -> Option<&SourceFile> {
        self.data.iter().find(|f| f.relative == relative)
    }

    /// Lays `text` over the file at `relative` (a path within the pool,
    /// `/` separators), or adds it as a new file: an editor's unsaved
    /// buffer checked with the rest of the pool as it is on disk. What
    /// reading that file on disk found is dropped with it. A file the pool
    /// would not read (not named `*.yaml`/`*.yml`) is left out, as on disk.
    pub fn overlay(&mut self, relative: &str, text: Arc<str>) {
        if !yaml_name(Path::new(relative)) {
            return;
        }
        let path: Arc<str> = match &self.root {
            Some(root) => Arc::from(root.join(relative).display().to_string()),
            None => Arc::from(format!("cards/{relative}")),
        };
        self.problems.retain(|d| d.path != path);
        self.lossy.retain(|f| f.relative != relative);
        let file = SourceFile::new(path, relative.to_string(), text);
        let files = if is_data_file(relative) {
            &mut self.data
        } else {
            &mut self.sets
        };
        match files.iter_mut().find(|f| f.relative == relative) {
            Some(there) => *there = file,
            None => files.push(file),
        }
    }
}

/// The files of a pool folder, found but not read yet, so that a build can
/// leave unread the files its cache vouches for.
pub struct Listing {
    dir: PathBuf,
    /// Each file, with its stamp once [`Listing::stamp`] took them.
    files: Vec<(PathBuf, Option<FileStamp>)>,
    /// Folders that could not be searched, or that are named like files.
    problems: Vec<Diagnostic>,
    /// When the listing began (see [`FileStamp::vouching`]).
    began: SystemTime,
    /// Leave every file unread until a build asks for it.
    defer: bool,
}

impl Listing {
    /// Leaves every file on disk until it is asked for: a build then reads
    /// each file when it comes to it ([`SourceFile::in_hand`]) and keeps
    /// no text but of the files its findings point into, so a large pool's
    /// text is never held whole. A file's stamp is then the one listed.
    pub fn deferring(mut self) -> Listing {
        self.defer = true;
        self
    }

    /// Takes every file's stamp (in parallel: a large pool has thousands).
    pub fn stamp(mut self) -> Listing {
        self.files.par_iter_mut().for_each(|(path, stamp)| {
            *stamp = fs::metadata(&*path).ok().and_then(|m| FileStamp::of(&m));
        });
        self
    }

    /// Each file and its stamp (none before [`Listing::stamp`]), in order.
    pub fn stamps(&self) -> &[(PathBuf, Option<FileStamp>)] {
        &self.files
    }

    /// Reads the files in parallel, except those `known` vouches for: given
    /// the path within the pool and the file's stamp, it returns the hash of
    /// the content when an earlier build read the file with that very stamp.
    pub fn read<F>(self, known: F) -> Result<Pool, PoolError>
    where
        F: Fn(&str, &FileStamp) -> Option<u64> + Sync,
    {
        let began = self.began;
        let read: Vec<_> = self
            .files
            .par_iter()
            .map(|(path, listed)| {
                let shown: Arc<str> = Arc::from(path.display().to_string());
                let relative = relative_path(&self.dir, path);
                let unread = |hash: Option<u64>| Text::Unread {
                    from: path.clone(),
                    hash: hash.map_or_else(OnceLock::new, OnceLock::from),
                    loaded: OnceLock::new(),
                    read: OnceLock::new(),
                };
                if let Some(stamp) = listed
                    && let Some(hash) = known(&relative, stamp)
                {
                    return (shown, relative, Ok((unread(Some(hash)), Some(*stamp))));
                }
                if self.defer {
                    let stamp = listed.and_then(|stamp| stamp.settled_by(began));
                    return (shown, relative, Ok((unread(None), stamp)));
                }
                let read = read_pool_file(path, &shown).map(|(text, meta)| {
                    let text = Text::Read {
                        text,
                        hash: OnceLock::new(),
                    };
                    (text, FileStamp::vouching(&meta, began))
                });
                (shown, relative, read)
            })
            .collect();
        let mut pool = Pool {
            problems: self.problems,
            root: Some(self.dir.clone()),
            ..Pool::default()
        };
        for ((path, _), (shown, relative, read)) in self.files.iter().zip(read) {
            match read {
                Ok((text, stamp)) => pool.add(SourceFile {
                    path: shown,
                    relative,
                    text,
                    stamp,
                }),
                Err(diagnostic) => {
                    if diagnostic.code == Code::NotUtf8
                        && let Ok(bytes) =
                            fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned())
                    {
                        pool.lossy
                            .push(SourceFile::new(shown.clone(), relative, Arc::from(bytes)));
                    }
                    pool.problems.push(*diagnostic);
                }
            }
        }
        if pool.sets.is_empty() && pool.problems.is_empty() {
            return Err(PoolError::NoSets(self.dir));
        }
        Ok(pool)
    }
}

/// A file's path within the pool folder, with `/` separators.
fn relative_path(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// What a walk of the pool folder found.
#[derive(Default)]
struct Found {
    paths: Vec<PathBuf>,
    problems: Vec<Diagnostic>,
}

/// A key whose bytes sort as paths do, part by part: each part ends in a
/// byte no name holds and every other byte sorts after. Comparing `Path`s
/// walks their parts at every comparison, a tenth of a command's time on
/// a pool of thousands of files.
fn in_path_order(path: &Path) -> Vec<u8> {
    let mut key = Vec::with_capacity(path.as_os_str().len() + 1);
    for part in path.components() {
        key.extend_from_slice(part.as_os_str().as_encoded_bytes());
        key.push(0);
    }
    key
}

/// Whether a path is named like a pool file (`*.yaml`, `*.yml`).
fn yaml_name(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// Whether a path ends like a pool file but in another case (`X.YAML`):
/// not read, and so not passed over without a word.
fn yaml_name_in_another_case(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"))
}

/// A file named like a pool file in another case: a warning naming it.
fn ignored_file(path: &Path) -> Diagnostic {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    let lower = path.with_extension(
        path.extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default(),
    );
    let name = lower
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Diagnostic::warning(
        Code::IgnoredFile,
        &shown,
        0..0,
        "not read: pool files end in `.yaml` or `.yml`, in lower case",
    )
    .with_label("not read")
    .with_help(format!("rename it to `{name}` to make it part of the pool"))
}

/// Collects the YAML files of `dir` (whose `entries` are open) and of its
/// folders. A folder that cannot be read is a finding naming it, and the
/// rest of the pool is still searched.
fn walk(dir: &Path, entries: fs::ReadDir, depth: usize, found: &mut Found) {
    if depth > MAX_DIR_DEPTH {
        found.problems.push(too_deep(dir));
        return;
    }
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                found.problems.push(unreadable(dir, "folder", &e));
                return;
            }
        };
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        // `file_type` does not follow links, so a linked folder cannot loop.
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(e) => {
                found.problems.push(unreadable(&path, "entry", &e));
                continue;
            }
        };
        if kind.is_dir() {
            if yaml_name(&path) {
                found.problems.push(folder_named_like_a_file(&path));
            }
            match fs::read_dir(&path) {
                Ok(entries) => walk(&path, entries, depth + 1, found),
                Err(e) => found.problems.push(unreadable(&path, "folder", &e)),
            }
        } else if yaml_name(&path) {
            found.paths.push(path);
        } else if yaml_name_in_another_case(&path) {
            found.problems.push(ignored_file(&path));
        }
    }
}

/// A folder of the pool that could not be searched (or an entry that could
/// not be told a file or a folder): an error naming it, since its files may
/// be sets the database would silently lack.
fn unreadable(path: &Path, what: &str, error: &io::Error) -> Diagnostic {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    Diagnostic::error(
        Code::Unreadable,
        &shown,
        0..0,
        format!("cannot read this {what}: {error}"),
    )
    .with_label(format!("unreadable {what}"))
    .with_help(format!(
        "check that you may read the {what}, or move it out of the pool"
    ))
}

/// A folder below [`MAX_DIR_DEPTH`] levels of folders, which the walk does
/// not enter (a bound on a hostile tree): an error, as its files may be
/// sets the database would silently lack.
fn too_deep(path: &Path) -> Diagnostic {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    Diagnostic::error(
        Code::Unreadable,
        &shown,
        0..0,
        format!(
            "this folder is nested more than {MAX_DIR_DEPTH} folders deep and was not searched"
        ),
    )
    .with_label("too deep")
    .with_help(format!(
        "move its files up: a pool is searched {MAX_DIR_DEPTH} folders deep"
    ))
}

/// A folder named `*.yaml`: an error, as for any pool entry of that name
/// that is not a regular file (the name promises a set or data file, and
/// one may be missing). Its files are searched all the same.
fn folder_named_like_a_file(path: &Path) -> Diagnostic {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    Diagnostic::error(
        Code::Unreadable,
        &shown,
        0..0,
        "this is a folder, not a set file",
    )
    .with_label("a folder")
    .with_help(
        "rename the folder: names ending in .yaml or .yml are for set and data files (the files inside it are still read)",
    )
}

/// Reads a file as UTF-8 text within the size limit.
/// A file named on the command line, or standard input for `-` (shown as
/// `<stdin>`), bounded as a pool file is: its name as shown, and its text.
pub fn read_input(path: &Path) -> Result<(Arc<str>, Arc<str>), Box<Diagnostic>> {
    if path != Path::new("-") {
        let shown: Arc<str> = Arc::from(path.display().to_string());
        return read_text(path, &shown).map(|text| (shown, text));
    }
    let shown: Arc<str> = Arc::from("<stdin>");
    let mut bytes = Vec::new();
    io::stdin()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            Box::new(Diagnostic::error(
                Code::Unreadable,
                &shown,
                0..0,
                format!("cannot read standard input: {e}"),
            ))
        })?;
    let text = text_from_bytes(bytes, &shown)?;
    Ok((shown, text))
}

pub fn read_text(path: &Path, shown: &Arc<str>) -> Result<Arc<str>, Box<Diagnostic>> {
    read_text_and_meta(path, shown).map(|(text, _)| text)
}

/// [`read_text`], with the file's metadata as it was when opened.
fn read_text_and_meta(
    path: &Path,
    shown: &Arc<str>,
) -> Result<(Arc<str>, fs::Metadata), Box<Diagnostic>> {
    read_opened(shown, fs::File::open(path))
}

/// [`read_text_and_meta`] for a file found in a pool folder, which must be
/// a regular file: a pipe named `x.yaml` among the sets would otherwise
/// hold the build forever, waiting for a writer. (A file named on the
/// command line may be a pipe, as in `<(…)`.)
fn read_pool_file(
    path: &Path,
    shown: &Arc<str>,
) -> Result<(Arc<str>, fs::Metadata), Box<Diagnostic>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // Opening a pipe without a writer waits, unless non-blocking (which
    // changes nothing for a regular file).
    #[cfg(target_os = "linux")]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        rustix::fs::OFlags::NONBLOCK.bits() as i32,
    );
    let opened = options.open(path);
    if let Ok(file) = &opened
        && let Ok(meta) = file.metadata()
        && !meta.is_file()
    {
        return Err(Box::new(
            Diagnostic::error(Code::Unreadable, shown, 0..0, "this is not a regular file")
                .with_label("not a file")
                .with_help("a pool holds set and data files only; move pipes, sockets and devices elsewhere"),
        ));
    }
    read_opened(shown, opened)
}

fn read_opened(
    shown: &Arc<str>,
    opened: io::Result<fs::File>,
) -> Result<(Arc<str>, fs::Metadata), Box<Diagnostic>> {
    let unreadable = |e: io::Error| {
        Box::new(
            Diagnostic::error(
                Code::Unreadable,
                shown,
                0..0,
                format!("cannot read this file: {e}"),
            )
            .with_label("unreadable")
            .with_help("check that the file exists and that you may read it"),
        )
    };
    // One open, then the size from the open file: a path lookup less per
    // file (thousands in a large pool), and a file that grows after the
    // check is still read only up to the limit.
    let file = opened.map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(Box::new(
            Diagnostic::error(
                Code::FileTooLarge,
                shown,
                0..0,
                format!(
                    "this file is {} MiB; the limit is {} MiB",
                    meta.len() / (1024 * 1024),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            )
            .with_label("too large")
            .with_help("split the cards into several set files"),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    io::Read::read_to_end(&mut io::Read::take(file, MAX_FILE_BYTES + 1), &mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(unreadable(io::Error::other(
            "it grew past the size limit while being read",
        )));
    }
    Ok((text_from_bytes(bytes, shown)?, meta))
}

/// UTF-8 text from bytes, or a diagnostic at the first invalid byte.
pub fn text_from_bytes(bytes: Vec<u8>, shown: &Arc<str>) -> Result<Arc<str>, Box<Diagnostic>> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map(Arc::from).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Box::new(
            Diagnostic::error(
                Code::NotUtf8,
                shown,
                at..at,
                format!("byte {at} is not valid UTF-8"),
            )
            .with_label("invalid UTF-8 starts here")
            .with_help("save the file as UTF-8 text"),
        )
    })
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        /// The files of a walk (one root, then names, none starting with a
        /// dot: the walk skips those) sort by key as they sort as paths.
        #[test]
        fn the_listing_key_sorts_as_paths_do(
            names in proptest::collection::vec(proptest::collection::vec("[ab\\-_ é][ab.\\-_ é]{0,2}", 1..4), 0..12)
        ) {
            let root = Path::new("../pool");
            let mut paths: Vec<PathBuf> = names
                .iter()
                .map(|parts| parts.iter().fold(root.to_path_buf(), |path, part| path.join(part)))
                .collect();
            let mut by_key = paths.clone();
            paths.sort();
            by_key.sort_by_cached_key(|path| in_path_order(path));
            proptest::prop_assert_eq!(paths, by_key);
        }
    }

    use super::*;

    #[test]
    fn data_files_are_recognised() {
        assert!(is_data_file("keywords.yaml"));
        assert!(is_data_file("formats/poker.yaml"));
        assert!(!is_data_file("sets/formats.yaml"));
        assert!(is_data_file("locales/ja/sunset-gulch.yaml"));
        assert!(is_data_file("phrases/en.yaml"));
        assert!(is_data_file("_draft.yaml"));
        assert!(!is_data_file("sunset-gulch.yaml"));
        assert!(!is_data_file("promos/gold.yaml"));
    }

    /// A pool folder with one set file, listed and stamped.
    fn listed(text: &str) -> (tempfile::TempDir, Listing) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("set.yaml"), text).unwrap();
        let listing = Pool::list(dir.path()).unwrap().stamp();
        (dir, listing)
    }

    #[test]
    fn an_overlay_replaces_a_files_text_or_adds_the_file_where_it_belongs() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("set.yaml"), "id: s\n").unwrap();
        fs::write(dir.path().join("bad.yaml"), b"id: \xff\n").unwrap();
        let mut pool = Pool::from_dir(dir.path()).unwrap();
        assert_eq!(pool.problems.len(), 1);
        pool.overlay("set.yaml", Arc::from("id: t\n"));
        pool.overlay("bad.yaml", Arc::from("id: b\n"));
        pool.overlay("keywords.yaml", Arc::from("{}\n"));
        pool.overlay("deck.txt", Arc::from("1 Rivet Hound\n"));
        let texts: Vec<_> = pool
            .sets
            .iter()
            .map(|f| (&*f.relative, &**f.text()))
            .collect();
        assert_eq!(texts, [("set.yaml", "id: t\n"), ("bad.yaml", "id: b\n")]);
        assert!(pool.problems.is_empty() && pool.lossy.is_empty());
        let keywords = pool.data_file("keywords.yaml").expect("a data file");
        assert_eq!(
            &*keywords.path,
            dir.path().join("keywords.yaml").display().to_string()
        );
    }

    #[test]
    fn a_file_the_cache_vouches_for_is_read_only_when_its_text_is_asked_for() {
        let text = "id: s\n";
        let (_dir, listing) = listed(text);
        let pool = listing.read(|_, _| Some(content_hash(text))).unwrap();
        let file = &pool.sets[0];
        assert!(!file.is_read());
        assert_eq!(file.hash(), content_hash(text));
        assert_eq!(&**file.text(), text);
        assert!(file.is_read());
        assert!(file.late_read_problem().is_none());
    }

    #[test]
    fn a_file_read_deferring_is_lent_not_kept_and_a_later_change_is_caught() {
        let (dir, listing) = listed("id: s\n");
        let pool = listing.deferring().read(|_, _| None).unwrap();
        let file = &pool.sets[0];
        assert!(!file.was_read() && file.known_hash().is_none());
        let in_hand = file.in_hand().unwrap();
        assert_eq!(&**in_hand.text(), "id: s\n");
        drop(in_hand);
        assert!(file.was_read() && !file.is_read());
        assert_eq!(file.known_hash(), Some(content_hash("id: s\n")));
        fs::write(dir.path().join("set.yaml"), "id: t\n").unwrap();
        assert_eq!(&**file.text(), "");
        let problem = file.late_read_problem().map(|p| p.code);
        assert_eq!(problem, Some(Code::ChangedDuringBuild));
    }

    #[test]
    fn a_file_that_cannot_be_read_when_lent_is_told_to_the_reader_once() {
        let (dir, listing) = listed("id: s\n");
        let pool = listing.deferring().read(|_, _| None).unwrap();
        fs::write(dir.path().join("set.yaml"), b"id: \xff\n").unwrap();
        let file = &pool.sets[0];
        let problem = file.in_hand().expect_err("not UTF-8");
        assert_eq!(problem.code, Code::NotUtf8);
        assert!(file.unreadable() && file.late_read_problem().is_none());
        assert_eq!(&**file.text(), "id: \u{fffd}\n");
    }

    #[test]
    fn a_file_that_is_not_what_the_cache_said_is_a_located_error_not_its_old_text() {
        let (_dir, listing) = listed("id: s\n");
        let pool = listing.read(|_, _| Some(content_hash("id: t\n"))).unwrap();
        let file = &pool.sets[0];
        assert_eq!(&**file.text(), "");
        let problem = file.late_read_problem().expect("a problem");
        assert_eq!(problem.code, Code::ChangedDuringBuild);
    }

    #[test]
    fn a_stamp_vouches_only_for_a_file_left_alone_before_it_was_read() {
        let (dir, listing) = listed("id: s\n");
        // Just written: its stamp could be shared by a second write.
        let pool = listing.read(|_, _| None).unwrap();
        assert!(pool.sets[0].is_read());
        assert_eq!(pool.sets[0].stamp, None);
        let meta = fs::metadata(dir.path().join("set.yaml")).unwrap();
        let later = SystemTime::now() + STAMP_SETTLE + Duration::from_secs(1);
        assert_eq!(FileStamp::vouching(&meta, later), FileStamp::of(&meta));
        assert!(FileStamp::of(&meta).is_some());
    }

    #[test]
    fn a_folder_named_like_a_set_file_is_an_error_and_its_files_are_still_read() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("set.yaml"), "id: s\n").unwrap();
        fs::create_dir(dir.path().join("gulch.yaml")).unwrap();
        fs::write(dir.path().join("gulch.yaml/inner.yml"), "id: t\n").unwrap();
        let pool = Pool::from_dir(dir.path()).unwrap();
        let relative: Vec<&str> = pool.sets.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(relative, ["gulch.yaml/inner.yml", "set.yaml"]);
        assert_eq!(pool.problems.len(), 1, "{:?}", pool.problems);
        let problem = &pool.problems[0];
        assert!(problem.is_error());
        assert_eq!(problem.code, Code::Unreadable);
        assert_eq!(
            &*problem.path,
            dir.path().join("gulch.yaml").display().to_string()
        );
        assert_eq!(&*problem.message, "this is a folder, not a set file");
    }

    #[test]
    fn a_folder_too_deep_to_search_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().to_path_buf();
        fs::write(deep.join("top.yaml"), "id: top\n").unwrap();
        for level in 0..=MAX_DIR_DEPTH + 1 {
            deep.push(format!("d{level}"));
        }
        fs::create_dir_all(&deep).unwrap();
        fs::write(deep.join("lost.yaml"), "id: lost\n").unwrap();
        let pool = Pool::from_dir(dir.path()).unwrap();
        assert_eq!(pool.problems.len(), 1, "{:?}", pool.problems);
        assert!(pool.problems[0].message.contains("nested more than 32"));
        assert!(
            pool.problems[0]
                .path
                .ends_with(&format!("d{}", MAX_DIR_DEPTH))
        );
    }

    #[test]
    fn a_folder_that_cannot_be_read_is_an_error_naming_that_folder() {
        let folder = Path::new("cards/promos");
        let error = io::Error::from(io::ErrorKind::PermissionDenied);
        let problem = unreadable(folder, "folder", &error);
        assert!(problem.is_error());
        assert_eq!(problem.code, Code::Unreadable);
        assert_eq!(&*problem.path, "cards/promos");
        assert_eq!(
            &*problem.message,
            "cannot read this folder: permission denied"
        );
    }

    /// A folder whose path is longer than the system takes cannot be
    /// read, even by root (whom permission bits do not stop).
    #[cfg(target_os = "linux")]
    #[test]
    fn an_unreadable_subfolder_is_named_and_the_rest_of_the_pool_still_read() {
        use rustix::fs::{Mode, OFlags, mkdirat, openat};
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("set.yaml"), "id: s\n").unwrap();
        let name = "d".repeat(250);
        let open = OFlags::DIRECTORY | OFlags::RDONLY;
        let mut fd = openat(rustix::fs::CWD, dir.path(), open, Mode::empty()).unwrap();
        let mut path = dir.path().to_path_buf();
        let mut too_long = None;
        // 20 levels of 250 bytes: past the 4096-byte limit of a path.
        for _ in 0..20 {
            mkdirat(&fd, name.as_str(), Mode::RWXU).unwrap();
            fd = openat(&fd, name.as_str(), open, Mode::empty()).unwrap();
            path.push(&name);
            if too_long.is_none() && path.as_os_str().len() >= 4096 {
                too_long = Some(path.clone());
            }
        }
        let too_long = too_long.unwrap();
        let pool = Pool::from_dir(dir.path()).unwrap();
        assert_eq!(pool.sets.len(), 1);
        assert_eq!(pool.problems.len(), 1, "{:?}", pool.problems);
        let problem = &pool.problems[0];
        assert_eq!(problem.code, Code::Unreadable);
        assert_eq!(&*problem.path, too_long.display().to_string());
        assert!(
            problem.message.starts_with("cannot read this folder: "),
            "{}",
            problem.message
        );
    }

    /// Permission bits, where they apply (not as root).
    #[cfg(unix)]
    #[test]
    fn a_folder_without_read_permission_is_named() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("set.yaml"), "id: s\n").unwrap();
        let locked = dir.path().join("locked");
        fs::create_dir(&locked).unwrap();
        fs::write(locked.join("hidden.yaml"), "id: t\n").unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
        let bites = fs::read_dir(&locked).is_err();
        let pool = Pool::from_dir(dir.path());
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        if !bites {
            eprintln!("skipped: permission bits do not stop this user (root)");
            return;
        }
        let pool = pool.unwrap();
        assert_eq!(pool.problems.len(), 1, "{:?}", pool.problems);
        assert_eq!(&*pool.problems[0].path, locked.display().to_string());
    }

    #[test]
    fn invalid_utf8_is_located() {
        let err =
            text_from_bytes(b"id: ok\nname: \xff\n".to_vec(), &Arc::from("x.yaml")).unwrap_err();
        assert_eq!(err.code, Code::NotUtf8);
        assert_eq!(err.span, 13..13);
    }
}
