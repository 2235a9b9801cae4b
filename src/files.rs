//! Writing files so that a failure, or a killed run, leaves nothing half
//! done: temp files the tool recognises as its own, and [`FileSet`], the
//! all-or-nothing write of several files (`fmt`, `i18n import`,
//! `schema --write`); one file replaced atomically ([`write_atomic`],
//! [`write_artifact`]). The database writer ([`crate::artifacts`]) makes
//! its temp file here too.
//!
//! Every temp file is named `.blades-tmp-<pid>-<random>` and made beside
//! the file it is to replace (a rename only stays atomic within one file
//! system). A run that makes one in a folder first deletes the stale ones
//! there ([`remove_stale_temp_files`]): those of a run that was killed
//! before it could clean up.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// What every temp file's name starts with; the process id, a `-` and
/// random letters follow.
pub(crate) const TEMP_PREFIX: &str = ".blades-tmp-";

/// The temp-file prefix of this process: `.blades-tmp-<pid>-`.
fn own_prefix() -> String {
    format!("{TEMP_PREFIX}{}-", std::process::id())
}

/// The folder `path` is in (`.` for a bare name).
pub(crate) fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A new empty temp file beside `path`, in its folder (made if missing),
/// to be renamed over `path`. It has the usual permissions of a new file
/// (0644 less the umask), not a temp file's 0600. Stale temp files of
/// killed runs in that folder are deleted first (once a run per folder).
///
/// The error of a failure is the system's, without the temp file's name:
/// the caller names the file it was writing.
pub(crate) fn temp_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = parent_of(path);
    fs::create_dir_all(dir)?;
    remove_stale_temp_files_once(dir);
    new_temp_in(dir)
}

/// A scratch file with no name, in the folder of `path` (made if
/// missing): the system deletes it when its last handle closes, even if
/// the process is killed. On the same file system as `path`, so what is
/// put aside in it is copied from it by the kernel; and not in `/tmp`,
/// which may be memory.
pub(crate) fn scratch_beside(path: &Path) -> io::Result<fs::File> {
    let dir = parent_of(path);
    fs::create_dir_all(dir)?;
    tempfile::tempfile_in(dir)
}

/// A new scratch folder in the system's temp folder, named as a temp file
/// is (`.blades-tmp-<pid>-<random>`), deleted with what it holds when
/// dropped. The stale scratch folders of killed runs there are deleted
/// first ([`remove_stale_scratch_folders`]), as temp files are.
pub fn scratch_folder() -> io::Result<tempfile::TempDir> {
    let dir = std::env::temp_dir();
    remove_stale_scratch_folders(&dir);
    tempfile::Builder::new()
        .prefix(&own_prefix())
        .tempdir_in(dir)
}

fn new_temp_in(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    let prefix = own_prefix();
    // `make_in` opens the file itself, so its errors carry no path (the
    // builder's own `tempfile_in` adds the temp file's name to them).
    tempfile::Builder::new()
        .prefix(&prefix)
        .make_in(dir, |path| {
            let mut options = fs::OpenOptions::new();
            options.read(true).write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o644);
            options.open(path)
        })
}

// ----- stale temp files ------------------------------------------------------

/// How much later than a temp file's last change the process now holding
/// its pid must have started for the file to count as another process's
/// (the pid was reused): a margin for the clock's steps.
const REUSED_PID_MARGIN: Duration = Duration::from_secs(60);

/// Where the system cannot say whether a process runs: a temp file
/// untouched for this long is stale (no run waits that long between
/// writing a temp file and renaming it).
const STALE_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The folders this process has cleaned already.
static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// [`remove_stale_temp_files`], the first time a run writes into `dir`.
pub(crate) fn remove_stale_temp_files_once(dir: &Path) {
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    remove_stale_temp_files(dir);
}

/// Deletes the temp files of killed runs in `dir`; returns how many.
///
/// A file is ours when its name is `.blades-tmp-<pid>-<random>` and it is
/// a regular file. It is stale when no process has that pid, or when the
/// process that has it started after the file last changed (the pid was
/// reused: a file is only written by the process that made it). A file
/// whose process may still be writing it is never deleted. Where the
/// system does not tell (no `/proc`), a file untouched for a day is stale.
pub(crate) fn remove_stale_temp_files(dir: &Path) -> usize {
    remove_stale(dir, fs::Metadata::is_file, |path| fs::remove_file(path))
}

/// Deletes the scratch folders ([`scratch_folder`]) of killed runs in
/// `dir`, with what they hold; returns how many. Stale as a temp file is;
/// a link of that name is not followed, nor deleted.
pub(crate) fn remove_stale_scratch_folders(dir: &Path) -> usize {
    remove_stale(dir, fs::Metadata::is_dir, |path| fs::remove_dir_all(path))
}

/// Deletes the entries of `dir` named as this tool's temp files, of the
/// kind `is_kind` tells (read without following links), whose process is
/// gone ([`is_stale`]); returns how many.
fn remove_stale(
    dir: &Path,
    is_kind: fn(&fs::Metadata) -> bool,
    remove: fn(&Path) -> io::Result<()>,
) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(temp_file_pid) else {
            continue;
        };
        // Not followed: a link of that name is not ours.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if is_kind(&meta) && is_stale(pid, &meta) && remove(&entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The pid in a temp file's name, if it is one of ours.
fn temp_file_pid(name: &str) -> Option<u32> {
    let (pid, random) = name.strip_prefix(TEMP_PREFIX)?.split_once('-')?;
    let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    if digits && !random.is_empty() {
        pid.parse().ok()
    } else {
        None
    }
}

fn is_stale(pid: u32, meta: &fs::Metadata) -> bool {
    let Ok(modified) = meta.modified() else {
        return false;
    };
    match process_start(pid) {
        Process::Gone => true,
        Process::Started(start) => start > modified + REUSED_PID_MARGIN,
        Process::Unknown => SystemTime::now()
            .duration_since(modified)
            .is_ok_and(|age| age > STALE_AGE),
    }
}

enum Process {
    /// No process has the pid.
    Gone,
    /// The process with the pid started then.
    Started(SystemTime),
    /// The system does not say.
    Unknown,
}

/// Whether a process has `pid`, and when it started (from `/proc`).
#[cfg(target_os = "linux")]
fn process_start(pid: u32) -> Process {
    let stat = match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat,
        // Without `/proc` (a chroot), no pid can be told apart.
        Err(_) if !Path::new("/proc/self/stat").exists() => return Process::Unknown,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Process::Gone,
        Err(_) => return Process::Unknown,
    };
    // The fields after the command's name, in parentheses: the start time
    // is the 22nd field of the line, in clock ticks since boot.
    let ticks = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(19))
        .and_then(|t| t.parse::<u64>().ok());
    let uptime = fs::read_to_string("/proc/uptime").ok().and_then(|u| {
        u.split_whitespace()
            .next()
            .and_then(|s| s.parse::<f64>().ok())
    });
    let (Some(ticks), Some(uptime)) = (ticks, uptime) else {
        return Process::Unknown;
    };
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    let since_boot = Duration::from_secs_f64(ticks as f64 / per_second as f64);
    let booted = SystemTime::now().checked_sub(Duration::from_secs_f64(uptime));
    match booted.and_then(|b| b.checked_add(since_boot)) {
        Some(start) => Process::Started(start),
        None => Process::Unknown,
    }
}

#[cfg(not(target_os = "linux"))]
fn process_start(_pid: u32) -> Process {
    Process::Unknown
}

// ----- several files at once ------------------------------------------------

/// A write of several files that happens whole or not at all.
///
/// [`FileSet::stage`] writes each file's new bytes to a temp file beside
/// it (synced to disk, with the permissions of the file it replaces, or
/// those of a new file) after checking that the target can be replaced:
/// not a folder, its folder there or made. Nothing the user sees has
/// changed yet. [`FileSet::commit`] then renames the temp files over their
/// targets, one by one, each replaced file first kept aside under a temp
/// name (a hard link, so the target never goes missing). If a rename
/// fails, the files already replaced get their earlier bytes back (new
/// ones are deleted) and the error names the file that failed; when all
/// are in place, the kept files are deleted.
///
/// Limits: readers may see some files new and others old while the
/// renames run (a few system calls each); a run killed during those
/// renames leaves the set half-written (its backups are then stale temp
/// files, deleted by the next run). Folders made for new files are
/// removed again if the set is not committed.
pub struct FileSet {
    staged: Vec<Staged>,
    /// Where each target is in `staged`.
    staged_at: HashMap<PathBuf, usize>,
    /// Folders made for new files, outermost first.
    made_dirs: Vec<PathBuf>,
    /// Keep replaced files aside by hard link (else by rename); the rename
    /// is the fallback where links fail, and tests take it directly.
    link_backups: bool,
    /// Wait for each file and folder to reach the disk (see
    /// [`FileSet::artifacts`]).
    durable: bool,
    /// Files to delete once every staged file is in place.
    removals: Vec<PathBuf>,
    /// Where the commit lists its renames and removals before the first
    /// one, when the set is written into an [`OutputFolder`].
    journal: Option<Journal>,
}

struct Staged {
    target: PathBuf,
    /// Closed once written: a set of 20,000 faces must not hold 20,000
    /// open files.
    temp: tempfile::TempPath,
}

/// A file renamed into place, and where the file it replaced is kept.
struct Placed {
    target: PathBuf,
    backup: Option<tempfile::TempPath>,
}

/// A [`FileSet`] that could not be written: the file at fault, and any
/// file the roll-back could not put back.
#[derive(Debug)]
pub struct WriteError {
    /// The file that could not be written (a target, never a temp file).
    pub path: PathBuf,
    pub error: io::Error,
    /// Files already replaced that could not be put back as they were:
    /// each target, and where its earlier bytes are (none for a new file).
    pub not_restored: Vec<(PathBuf, Option<PathBuf>)>,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot write `{}`: {}",
            self.path.display(),
            plain_error(&self.error)
        )?;
        if self.not_restored.is_empty() {
            return write!(f, "; no file was changed");
        }
        write!(f, "; these files could not be put back as they were:")?;
        for (i, (target, kept)) in self.not_restored.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            match kept {
                Some(kept) => write!(
                    f,
                    "{sep}`{}` (its earlier text is in `{}`)",
                    target.display(),
                    kept.display()
                )?,
                None => write!(f, "{sep}`{}` (new)", target.display())?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The system's message of an error, without the path a library may have
/// appended (`… at path "dir/.tmpXXXX"`): the caller names the file.
pub(crate) fn plain_error(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at path \"") {
        Some(at) if text.ends_with('"') => text[..at].to_string(),
        _ => text,
    }
}

impl Default for FileSet {
    fn default() -> FileSet {
        FileSet::new()
    }
}

impl FileSet {
    pub fn new() -> FileSet {
        FileSet {
            staged: Vec::new(),
            staged_at: HashMap::new(),
            made_dirs: Vec::new(),
            link_backups: true,
            durable: true,
            removals: Vec::new(),
            journal: None,
        }
    }

    /// A set of build artifacts (card faces, a gallery, print sheets):
    /// all or nothing just the same, but without waiting for the disk, as
    /// [`write_artifact`] does. A power cut may lose them, which costs a
    /// re-run; syncing 20,000 faces one by one cost most of a render.
    pub fn artifacts() -> FileSet {
        let mut set = FileSet::new();
        set.durable = false;
        set
    }

    /// How many files are staged.
    pub fn len(&self) -> usize {
        self.staged.len()
    }

    pub fn is_empty(&self) -> bool {
        self.staged.is_empty() && self.removals.is_empty()
    }

    /// Deletes `path` (a file) once every staged file is in place: in the
    /// commit's journal when there is one, else best effort after it.
    pub fn remove(&mut self, path: impl AsRef<Path>) {
        self.removals.push(path.as_ref().to_path_buf());
    }

    /// Writes `bytes` to a temp file beside `path`, to replace it on
    /// [`FileSet::commit`]. Staging a path again replaces what was staged.
    pub fn stage(&mut self, path: impl AsRef<Path>, bytes: &[u8]) -> Result<(), WriteError> {
        // A linked file is replaced where it is; the link stays.
        let target = follow_links(path.as_ref());
        let temp = self
            .stage_unnamed(&target, bytes)
            .map_err(|error| WriteError {
                path: target.clone(),
                error,
                not_restored: Vec::new(),
            })?;
        match self.staged_at.get(&target) {
            Some(&at) => self.staged[at].temp = temp,
            None => {
                self.staged_at.insert(target.clone(), self.staged.len());
                self.staged.push(Staged { target, temp });
            }
        }
        Ok(())
    }

    fn stage_unnamed(&mut self, target: &Path, bytes: &[u8]) -> io::Result<tempfile::TempPath> {
        let existing = match fs::symlink_metadata(target) {
            Ok(meta) if meta.is_dir() => return Err(is_a_folder()),
            Ok(_) => fs::metadata(target).ok(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let dir = parent_of(target);
        self.make_dir(dir)?;
        remove_stale_temp_files_once(dir);
        let mut temp = new_temp_in(dir)?;
        temp.write_all(bytes)?;
        if let Some(meta) = existing {
            temp.as_file().set_permissions(meta.permissions())?;
        }
        if self.durable {
            temp.as_file().sync_all()?;
        }
        Ok(temp.into_temp_path())
    }

    /// Makes `dir` and any missing folder above it, remembering which.
    fn make_dir(&mut self, dir: &Path) -> io::Result<()> {
        self.made_dirs.extend(make_dirs(dir)?);
        Ok(())
    }

    /// Puts every staged file in place, or none (see [`FileSet`]); returns
    /// the files written, in the order staged.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, WriteError> {
        let staged = std::mem::take(&mut self.staged);
        self.staged_at.clear();
        if staged.is_empty() && self.removals.is_empty() {
            self.journal = None;
        }
        if let Some(journal) = &self.journal {
            journal
                .write(&staged, &self.removals)
                .map_err(|error| WriteError {
                    path: journal.path(),
                    error,
                    not_restored: Vec::new(),
                })?;
        }
        let mut placed: Vec<Placed> = Vec::with_capacity(staged.len());
        for Staged { target, temp } in staged {
            match self.place(temp, &target) {
                Ok(backup) => placed.push(Placed { target, backup }),
                Err(error) => {
                    // Put back, not finished by the next run.
                    if let Some(journal) = &self.journal {
                        journal.remove();
                    }
                    let not_restored = roll_back(placed);
                    return Err(WriteError {
                        path: target,
                        error,
                        not_restored,
                    });
                }
            }
            kill_point("commit-rename");
        }
        kill_point("commit-renamed");
        for path in &self.removals {
            remove_if_file(path);
        }
        if let Some(journal) = &self.journal {
            kill_point("commit-journal");
            journal.remove();
        }
        // The renames reach the disk before the earlier files go.
        let mut dirs: Vec<&Path> = placed.iter().map(|p| parent_of(&p.target)).collect();
        dirs.sort();
        dirs.dedup();
        for dir in dirs.into_iter().filter(|_| self.durable) {
            sync_dir(dir);
        }
        self.made_dirs.clear();
        // The backups are deleted as they drop.
        Ok(placed.into_iter().map(|p| p.target).collect())
    }

    /// Renames `temp` over `target`, keeping the file it replaces aside.
    fn place(
        &self,
        temp: tempfile::TempPath,
        target: &Path,
    ) -> io::Result<Option<tempfile::TempPath>> {
        let backup = match fs::symlink_metadata(target) {
            Ok(meta) if meta.is_dir() => return Err(is_a_folder()),
            Ok(_) => Some(self.keep_aside(target)?),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        if let Err(e) = temp.persist(target) {
            if let Some((backup, true)) = backup {
                // Renamed aside: back in its place (a link is just dropped).
                let _ = backup.persist(target);
            }
            return Err(e.error);
        }
        Ok(backup.map(|(backup, _)| backup))
    }

    /// Keeps `target` under a temp name beside it: a hard link, or where
    /// links fail, the file itself renamed (`true`: the target is gone).
    fn keep_aside(&self, target: &Path) -> io::Result<(tempfile::TempPath, bool)> {
        let prefix = own_prefix();
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        let dir = parent_of(target);
        if self.link_backups
            && let Ok(link) = builder.make_in(dir, |path| fs::hard_link(target, path))
        {
            return Ok((link.into_temp_path(), false));
        }
        let moved = builder.make_in(dir, |path| fs::rename(target, path))?;
        Ok((moved.into_temp_path(), true))
    }
}

impl Drop for FileSet {
    /// An uncommitted set deletes its temp files and the folders it made
    /// (when empty).
    fn drop(&mut self) {
        self.staged.clear();
        for dir in self.made_dirs.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}

/// Puts back the files of a failed commit, last first; returns those that
/// could not be.
fn roll_back(placed: Vec<Placed>) -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut not_restored = Vec::new();
    for Placed { target, backup } in placed.into_iter().rev() {
        match backup {
            Some(backup) => {
                if let Err(e) = backup.persist(&target) {
                    // Kept under a name no clean-up deletes.
                    let kept = e.path.keep().ok().map(|at| {
                        let name = target.file_name().unwrap_or_default().to_string_lossy();
                        let safe = target.with_file_name(format!("{name}.blades-backup"));
                        match fs::rename(&at, &safe) {
                            Ok(()) => safe,
                            Err(_) => at,
                        }
                    });
                    not_restored.push((target, kept));
                }
            }
            None => {
                if fs::remove_file(&target).is_err() {
                    not_restored.push((target, None));
                }
            }
        }
    }
    not_restored
}

fn is_a_folder() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "a folder is in its place")
}

/// Syncs a folder, so that renames in it survive a power cut (best effort).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(dir) = fs::File::open(dir) {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// What writing a set of artifacts did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Files written (new or changed).
    pub written: Vec<PathBuf>,
    /// Files left as they were, their bytes already right.
    pub unchanged: usize,
}

/// Writes build artifacts (faces, a gallery, print sheets) all or none,
/// through [`FileSet::artifacts`]; a file whose bytes are already right is
/// not written again, so a one-card edit rewrites that card's files only.
pub fn write_changed<'a>(
    files: impl IntoIterator<Item = (PathBuf, &'a [u8])>,
) -> Result<Written, WriteError> {
    stage_changed(FileSet::artifacts(), files)
}

/// Writes source files (rewritten by `fmt` or `fix`) all or none, modes and
/// line endings as the new bytes have them.
pub fn write_all<'a>(
    files: impl IntoIterator<Item = (&'a Path, &'a [u8])>,
) -> Result<(), WriteError> {
    let mut set = FileSet::new();
    for (path, bytes) in files {
        set.stage(path, bytes)?;
    }
    set.commit().map(drop)
}

/// Stages the files of `files` whose bytes differ into `set`, and commits it.
fn stage_changed<'a>(
    mut set: FileSet,
    files: impl IntoIterator<Item = (PathBuf, &'a [u8])>,
) -> Result<Written, WriteError> {
    let mut unchanged = 0;
    for (path, bytes) in files {
        if fs::read(&path).is_ok_and(|old| old == bytes) {
            unchanged += 1;
            continue;
        }
        set.stage(&path, bytes)?;
    }
    let written = set.commit()?;
    Ok(Written { written, unchanged })
}

/// Writes a file atomically: a temp file beside it, then a rename, so a
/// failure leaves any existing file as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// [`write_atomic`] for output produced piece by piece (a large database is
/// streamed to the temp file rather than built in memory first).
pub(crate) fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<()> {
    replace_file(path, true, write)
}

/// [`write_atomic_with`] for a build artifact (the database, the build
/// cache): replaced just as atomically, but without waiting for the disk.
/// A power cut may lose it, which costs a rebuild; forcing a large
/// database to disk would cost more than the incremental build itself.
/// Source files (`fmt`, translation updates) are always synced.
pub(crate) fn write_artifact(
    path: &Path,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<()> {
    replace_file(path, false, write)
}

fn replace_file(
    path: &Path,
    durable: bool,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<()> {
    replace_file_with(path, durable, |file| {
        let mut buffered = io::BufWriter::with_capacity(1 << 20, file);
        write(&mut buffered)?;
        buffered.flush()
    })
}

/// Replaces `path` with a temp file filled by `fill`, then renamed over it
/// (over the file a link names, the link kept); a device or pipe is filled
/// directly.
fn replace_file_with<R>(
    path: &Path,
    durable: bool,
    fill: impl FnOnce(&mut fs::File) -> io::Result<R>,
) -> io::Result<R> {
    let path = match destination(path) {
        Destination::Stream(path) => {
            return fill(&mut fs::OpenOptions::new().write(true).open(path)?);
        }
        Destination::Replace(path) => path,
    };
    let mut temp = temp_beside(&path)?;
    let filled = fill(temp.as_file_mut())?;
    // The replaced file, if any, is deleted as it drops.
    put_in_place(temp, &path, durable)?;
    Ok(filled)
}

/// Where a write to a path goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// A file, replaced atomically: the path itself, or the file a link
    /// names (the link stays a link).
    Replace(PathBuf),
    /// Something that is not a file (a device, a pipe): written straight
    /// into, with nothing made beside it.
    Stream(PathBuf),
}

/// Where a write to `path` goes (see [`Destination`]).
pub fn destination(path: &Path) -> Destination {
    // The system follows the links (its own, such as /dev/stdout, too).
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => Destination::Stream(path.to_path_buf()),
        _ => Destination::Replace(follow_links(path)),
    }
}

/// The path a chain of symbolic links ends at (the path itself when it is
/// no link); a link to a file not yet made ends at that file. A loop stops
/// after 40 links, as the system's own lookup does.
fn follow_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::read_link(&current) {
            Ok(target) if target.is_absolute() => current = target,
            Ok(target) => current = parent_of(&current).join(target),
            Err(_) => break,
        }
    }
    current
}

/// Puts a filled temp file (made beside `path`) in `path`'s place. Returns
/// the file it replaced when that now has the temp file's name (and is
/// deleted when dropped).
pub(crate) fn put_in_place(
    temp: tempfile::NamedTempFile,
    path: &Path,
    durable: bool,
) -> io::Result<Option<tempfile::NamedTempFile>> {
    if durable {
        temp.as_file().sync_all()?;
    }
    // A temp file has the usual permissions of a new file; give the result
    // those of the file it replaces, if any.
    if let Ok(meta) = fs::metadata(path) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    if !durable && exchange(temp.path(), path) {
        // The temp file's name now holds the old file.
        return Ok(Some(temp));
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(None)
}
/// Swaps two files atomically, where the system can. ext4 writes a file out
/// when it is renamed over another one unsynced (so a crash cannot leave an
/// empty file where a full one was); for a 100 MB database that flush took
/// 35 of the 120 ms of a one-file rebuild. An exchange does not trigger it, and an
/// artifact that a crash loses only costs a rebuild.
///
/// Only over a regular file: a folder (or a link) in the output's place
/// must fail the way a rename fails, not be swapped away.
#[cfg(target_os = "linux")]
fn exchange(temp: &Path, path: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_file())
        && renameat_with(CWD, temp, CWD, path, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn exchange(_temp: &Path, _path: &Path) -> bool {
    false
}

/// Makes `dir` and any missing folder above it; returns those it made,
/// outermost first.
fn make_dirs(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(d) = at.filter(|d| !d.as_os_str().is_empty()) {
        if fs::symlink_metadata(d).is_ok() {
            break;
        }
        missing.push(d.to_path_buf());
        at = d.parent();
    }
    fs::create_dir_all(dir)?;
    missing.reverse();
    Ok(missing)
}

/// Deletes `path` if it is a file (never a folder; a link is just unlinked).
fn remove_if_file(path: &Path) {
    if fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir()) {
        let _ = fs::remove_file(path);
    }
}

// ----- output folders: one writer, a journal, no stale temp files ------------

/// The journal's name in an output folder.
pub const JOURNAL: &str = ".blades-journal";

/// What a journal's first line is.
const JOURNAL_HEADER: &str = "blades-journal 1";

/// How deep under an output folder stale temp files are swept: the folder,
/// its folders and theirs (`gallery/faces/fonts/`).
const SWEEP_DEPTH: usize = 2;

/// A folder of build artifacts (faces, a gallery, print sheets), held by
/// one run from before it reads the folder until it has written it:
///
/// - **One writer.** The folder itself is locked (`flock` on the folder:
///   nothing is made in it for the lock, and the system lets go when the
///   process ends, however it ends); a second run is refused, saying why.
/// - **Old or new.** A write ([`OutputFolder::write_changed`]) is a
///   [`FileSet`] whose commit first lists its renames and removals in
///   [`JOURNAL`], with every new file already beside its target; a run
///   killed during the renames leaves the journal, and the next run that
///   opens the folder finishes them before it reads anything. Between
///   the kill and that run a reader may see a mix.
/// - **No stale temp files.** Opening sweeps those of killed runs in the
///   folder and the folders under it, even when nothing is then written.
pub struct OutputFolder {
    dir: PathBuf,
    /// The folder, open and locked while this value lives.
    _lock: Option<fs::File>,
    /// Folders made to open this one, removed again if it is left empty.
    made: Vec<PathBuf>,
}

impl OutputFolder {
    /// Makes `dir` if missing, locks it, finishes a killed run's journal and
    /// sweeps stale temp files.
    pub fn open(dir: &Path) -> Result<OutputFolder, WriteError> {
        let failed = |error| WriteError {
            path: dir.to_path_buf(),
            error,
            not_restored: Vec::new(),
        };
        let made = make_dirs(dir).map_err(failed)?;
        let folder = OutputFolder {
            dir: dir.to_path_buf(),
            _lock: lock_folder(dir).map_err(failed)?,
            made,
        };
        finish_journal(dir).map_err(|error| WriteError {
            path: dir.join(JOURNAL),
            error,
            not_restored: Vec::new(),
        })?;
        sweep_tree(dir, SWEEP_DEPTH);
        Ok(folder)
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes `files` (paths under the folder, or elsewhere) whose bytes
    /// differ and deletes `removals`, all in one journaled commit (see
    /// [`write_changed`] and [`OutputFolder`]).
    pub fn write_changed<'a>(
        &mut self,
        files: impl IntoIterator<Item = (PathBuf, &'a [u8])>,
        removals: impl IntoIterator<Item = PathBuf>,
    ) -> Result<Written, WriteError> {
        let mut set = FileSet::artifacts();
        set.journal = Some(Journal {
            dir: self.dir.clone(),
        });
        for path in removals {
            set.remove(path);
        }
        let written = stage_changed(set, files)?;
        self.made.clear();
        Ok(written)
    }
}

impl Drop for OutputFolder {
    /// A folder made for a run that wrote nothing goes again.
    fn drop(&mut self) {
        for dir in self.made.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}

/// Locks `dir` for this process, or says who holds it. Where folders
/// cannot be opened as files (not Unix), there is no lock.
fn lock_folder(dir: &Path) -> io::Result<Option<fs::File>> {
    #[cfg(unix)]
    {
        let folder = fs::File::open(dir)?;
        match folder.try_lock() {
            Ok(()) => Ok(Some(folder)),
            Err(fs::TryLockError::WouldBlock) => Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                "another blades run is writing into this folder; try again when it has finished",
            )),
            Err(fs::TryLockError::Error(e)) => Err(e),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(None)
    }
}

/// Deletes stale temp files in `dir` and the folders under it, `depth`
/// levels down (links not followed).
fn sweep_tree(dir: &Path, depth: usize) {
    remove_stale_temp_files(dir);
    if depth == 0 {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            sweep_tree(&entry.path(), depth - 1);
        }
    }
}

/// A commit's journal in an output folder: each staged temp file with its
/// target, then each file to delete, written before the first rename and
/// deleted after the last.
struct Journal {
    dir: PathBuf,
}

impl Journal {
    fn path(&self) -> PathBuf {
        self.dir.join(JOURNAL)
    }

    fn write(&self, staged: &[Staged], removals: &[PathBuf]) -> io::Result<()> {
        let mut text = format!("{JOURNAL_HEADER}\n").into_bytes();
        for Staged { target, temp } in staged {
            text.extend_from_slice(b"rename\t");
            self.push_path(&mut text, temp);
            text.push(b'\t');
            self.push_path(&mut text, target);
            text.push(b'\n');
        }
        for path in removals {
            text.extend_from_slice(b"remove\t");
            self.push_path(&mut text, path);
            text.push(b'\n');
        }
        write_artifact(&self.path(), |out| out.write_all(&text))
    }

    /// A path as the journal keeps it: relative to the folder when it is
    /// in it (the next run may start elsewhere), else absolute.
    fn push_path(&self, text: &mut Vec<u8>, path: &Path) {
        let kept = match path.strip_prefix(&self.dir) {
            Ok(inside) => inside.to_path_buf(),
            Err(_) => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
        };
        escape_path(text, &kept);
    }

    fn remove(&self) {
        let _ = fs::remove_file(self.path());
    }
}

/// A path's bytes with `%`, tab and line ends as `%XX`.
fn escape_path(text: &mut Vec<u8>, path: &Path) {
    for &b in path_bytes(path).iter() {
        match b {
            b'%' | b'\t' | b'\n' | b'\r' => text.extend_from_slice(format!("%{b:02X}").as_bytes()),
            _ => text.push(b),
        }
    }
}

fn unescape_path(field: &[u8]) -> Option<PathBuf> {
    let mut bytes = Vec::with_capacity(field.len());
    let mut rest = field;
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    Some(path_from_bytes(bytes))
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Borrowed(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()))
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// What a killed run's journal in `dir` left to do, done: each temp file
/// still there renamed over its target, each removal made; then the
/// journal goes. A journal this tool did not write is deleted unread.
fn finish_journal(dir: &Path) -> io::Result<()> {
    let path = dir.join(JOURNAL);
    let text = match fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let mut lines = text.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    if lines.next() == Some(JOURNAL_HEADER.as_bytes()) {
        for line in lines {
            finish_line(dir, line)?;
        }
    }
    fs::remove_file(&path)
}

fn finish_line(dir: &Path, line: &[u8]) -> io::Result<()> {
    let mut fields = line.split(|&b| b == b'\t').map(unescape_path);
    let (Some(Some(kind)), Some(Some(first))) = (fields.next(), fields.next()) else {
        return Ok(());
    };
    let first = dir.join(first);
    match (kind.as_os_str().to_str(), fields.next()) {
        // Renamed already when the kill came after it.
        (Some("rename"), Some(Some(target)))
            if fs::symlink_metadata(&first).is_ok_and(|m| m.is_file()) =>
        {
            fs::rename(&first, dir.join(target))
        }
        (Some("remove"), None) => {
            remove_if_file(&first);
            Ok(())
        }
        _ => Ok(()),
    }
}

// ----- kills, in tests -------------------------------------------------------

/// Where a test may have this run killed (`SIGKILL`, as `kill -9`): when
/// `BLADES_KILL_AT` is `POINT` or `POINT:N`, the Nth time (default the
/// first) the run reaches `point`. Only in debug builds, which the tests
/// run; a release build has no such hook.
#[cfg(debug_assertions)]
pub(crate) fn kill_point(point: &str) {
    static REACHED: Mutex<usize> = Mutex::new(0);
    let Some(at) = std::env::var_os("BLADES_KILL_AT") else {
        return;
    };
    let at = at.to_string_lossy();
    let (name, nth) = match at.split_once(':') {
        Some((name, n)) => (name, n.parse().unwrap_or(1)),
        None => (&*at, 1),
    };
    if name != point {
        return;
    }
    let mut reached = REACHED.lock().unwrap_or_else(|e| e.into_inner());
    *reached += 1;
    if *reached == nth {
        let me = rustix::process::getpid();
        let _ = rustix::process::kill_process(me, rustix::process::Signal::KILL);
    }
}

#[cfg(not(debug_assertions))]
pub(crate) fn kill_point(_point: &str) {}

/// Fills `buffer` from `file` at `offset`, without moving the file's
/// cursor (sets are read in parallel from one file: the database's cards,
/// the card index's sections).
#[cfg(unix)]
pub(crate) fn read_at(file: &fs::File, offset: u64, buffer: &mut [u8]) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
}

#[cfg(not(unix))]
pub(crate) fn read_at(file: &fs::File, offset: u64, buffer: &mut [u8]) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut file = file;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buffer)
}

/// What tells one version of a file from another without reading it: its
/// length, modification time and inode. Every database is a new file (a
/// temp file renamed into place), so any rewrite changes the inode.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileIdentity {
    pub len: u64,
    pub modified: (u64, u32),
    pub inode: u64,
}

impl FileIdentity {
    pub fn of(meta: &fs::Metadata) -> FileIdentity {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or((0, 0), |d| (d.as_secs(), d.subsec_nanos()));
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        FileIdentity {
            len: meta.len(),
            modified,
            inode,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn temp_files_are_named_as_ours() {
        let dir = tempfile::tempdir().unwrap();
        let temp = temp_beside(&dir.path().join("out.json")).unwrap();
        let name = temp.path().file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with(&own_prefix()), "{name}");
        assert_eq!(temp_file_pid(name), Some(std::process::id()));
        assert_eq!(temp_file_pid(".blades-tmp-12-x"), Some(12));
        for other in [
            ".tmpAbC123",
            ".blades-tmp-12",
            ".blades-tmp--x",
            ".blades-tmp-+1-x",
        ] {
            assert_eq!(temp_file_pid(other), None, "{other}");
        }
    }

    #[test]
    fn a_set_is_written_whole_with_each_files_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.yaml");
        fs::write(&old, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&old, fs::Permissions::from_mode(0o640)).unwrap();
        }
        let new = dir.path().join("sub/new.yaml");
        let mut set = FileSet::new();
        set.stage(&old, b"OLD").unwrap();
        set.stage(&new, b"NEW").unwrap();
        // Staged, nothing changed yet.
        assert_eq!(fs::read(&old).unwrap(), b"old");
        assert!(!new.exists());
        assert_eq!(set.commit().unwrap(), [old.clone(), new.clone()]);
        assert_eq!(fs::read(&old).unwrap(), b"OLD");
        assert_eq!(fs::read(&new).unwrap(), b"NEW");
        #[cfg(unix)]
        {
            assert_eq!(mode(&old), 0o640, "a rewritten file keeps its mode");
            // A new file: 0644 less the umask, as any file made by `fs::write`.
            let probe = dir.path().join("probe");
            fs::write(&probe, "").unwrap();
            assert_eq!(mode(&new), 0o644 & mode(&probe));
            fs::remove_file(probe).unwrap();
        }
        assert_eq!(names(dir.path()), ["old.yaml", "sub"]);
        assert_eq!(names(&dir.path().join("sub")), ["new.yaml"]);
    }

    #[test]
    fn a_folder_in_a_targets_place_stops_the_set_before_any_change() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.yaml");
        fs::write(&a, "a").unwrap();
        let b = dir.path().join("b.yaml");
        fs::create_dir(&b).unwrap();
        let mut set = FileSet::new();
        set.stage(&a, b"A").unwrap();
        let error = set.stage(&b, b"B").unwrap_err();
        assert_eq!(error.path, b);
        assert_eq!(
            error.to_string(),
            format!(
                "cannot write `{}`: a folder is in its place; no file was changed",
                b.display()
            )
        );
        drop(set);
        assert_eq!(fs::read(&a).unwrap(), b"a");
        assert_eq!(names(dir.path()), ["a.yaml", "b.yaml"]);
    }

    /// Stages three files, then puts a folder where the third goes: the
    /// commit fails there and puts the first two back.
    fn failing_commit(link_backups: bool) {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.yaml");
        let b = dir.path().join("new/b.yaml");
        let c = dir.path().join("c.yaml");
        fs::write(&a, "a").unwrap();
        fs::write(&c, "c").unwrap();
        let mut set = FileSet::new();
        set.link_backups = link_backups;
        for (path, bytes) in [(&a, "A"), (&b, "B"), (&c, "C")] {
            set.stage(path, bytes.as_bytes()).unwrap();
        }
        fs::remove_file(&c).unwrap();
        fs::create_dir(&c).unwrap();
        let error = set.commit().unwrap_err();
        assert_eq!(error.path, c);
        assert!(error.not_restored.is_empty(), "{error}");
        assert_eq!(fs::read(&a).unwrap(), b"a");
        assert!(!b.exists());
        assert_eq!(names(dir.path()), ["a.yaml", "c.yaml"], "no temp file left");
    }

    #[test]
    fn a_commit_that_fails_midway_puts_every_file_back() {
        failing_commit(true);
        failing_commit(false);
    }

    #[test]
    fn a_failed_temp_file_is_not_named_in_the_error() {
        // A folder deep enough that a file's path in it is too long: the
        // folder is made, the temp file in it cannot be.
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().to_path_buf();
        while deep.as_os_str().len() + 201 < 4090 {
            deep.push("d".repeat(200));
        }
        deep.push("d".repeat(4090 - deep.as_os_str().len() - 1));
        fs::create_dir_all(&deep).unwrap();
        let error = temp_beside(&deep.join("cards.json")).unwrap_err();
        let text = error.to_string();
        assert!(
            !text.contains(TEMP_PREFIX) && !text.contains(".tmp"),
            "{text}"
        );
        // A library's appended path is dropped from a message.
        let wrapped = io::Error::other(format!("{text} at path \"/x/.tmpAb12\""));
        assert_eq!(plain_error(&wrapped), text);
    }

    /// The pid of a process that has ended.
    #[cfg(target_os = "linux")]
    fn ended_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn stale_temp_files_are_deleted_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let dead = ended_pid();
        let plant = |name: String, age: Duration| {
            let path = dir.path().join(&name);
            let file = fs::File::create(&path).unwrap();
            file.set_modified(SystemTime::now() - age).unwrap();
            name
        };
        let me = std::process::id();
        let killed = plant(format!("{TEMP_PREFIX}{dead}-aB3dE9"), Duration::ZERO);
        // This process started after the file last changed: its pid was
        // another process's then.
        let reused = plant(
            format!("{TEMP_PREFIX}{me}-zz"),
            Duration::from_secs(7 * 86400),
        );
        let live = plant(format!("{TEMP_PREFIX}{me}-live"), Duration::ZERO);
        let other = plant(".tmpQwErTy".into(), Duration::from_secs(7 * 86400));
        fs::create_dir(dir.path().join(format!("{TEMP_PREFIX}{dead}-dir"))).unwrap();
        let removed = remove_stale_temp_files(dir.path());
        let left = names(dir.path());
        assert!(!left.contains(&killed), "{left:?}");
        assert!(!left.contains(&reused), "{left:?}");
        assert!(left.contains(&live) && left.contains(&other), "{left:?}");
        assert_eq!(removed, 2);
        assert_eq!(left.len(), 3, "the folder stays: {left:?}");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn stale_scratch_folders_are_deleted_whole_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let dead = ended_pid();
        let me = std::process::id();
        let plant = |name: String| {
            let folder = dir.path().join(&name);
            fs::create_dir_all(folder.join("inner")).unwrap();
            fs::write(folder.join("inner/cards.json"), "{}").unwrap();
            name
        };
        let killed = plant(format!("{TEMP_PREFIX}{dead}-aB3dE9"));
        let live = plant(format!("{TEMP_PREFIX}{me}-live"));
        let other = plant(".tmpQwErTy".into());
        // A file of that name is a temp file's business, not this sweep's.
        let file = format!("{TEMP_PREFIX}{dead}-file");
        fs::write(dir.path().join(&file), "").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            dir.path().join(&live),
            dir.path().join(format!("{TEMP_PREFIX}{dead}-link")),
        )
        .unwrap();
        assert_eq!(remove_stale_scratch_folders(dir.path()), 1);
        let left = names(dir.path());
        assert!(!left.contains(&killed), "{left:?}");
        assert!(left.contains(&live) && left.contains(&other) && left.contains(&file));
        assert!(dir.path().join(&live).join("inner/cards.json").exists());
        assert_eq!(left.len(), 4, "{left:?}");
    }
}
