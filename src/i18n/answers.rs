//! The answers of the translation reports (`i18n status`, `i18n check`),
//! kept beside the build's output with the identity of the files they were
//! made from: asked again of a pool unchanged since, a report is read back
//! instead of made again, as a build with nothing to do writes nothing.
//!
//! The identity of a pool's translations is one hash over every set and data
//! file's name (as shown, and within the pool) and content hash, in pool
//! order ([`inputs_of`]): the built-in glossary and phrase book belong to the
//! tool, whose build the file names. Each file's stamp is kept with its
//! hash, so an unchanged pool is recognised without reading a file. A report
//! made from other files replaces every answer. Written whole through a
//! temp file and a rename; a damaged, foreign or older file is ignored (the
//! report is made again).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use foldhash::HashMap;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::memo::{framed, read_stamp, read_u64, unframed, write_stamp};
use crate::codec::{Reader, Writer};
use crate::diagnostics::Diagnostic;
use crate::pool::{FileStamp, Pool};

/// First line of an answers file (its format).
const MAGIC: &[u8] = b"blades-i18n-answers 1\n";

/// Where the answers beside a build to `out` are kept.
pub fn beside(out: &Path) -> PathBuf {
    out.with_file_name(".blades-i18n-answers")
}

/// A report that can be kept: what it found is shown with its files' text.
pub trait Answer: Serialize + DeserializeOwned {
    /// The findings the report shows, each with its file's text.
    fn findings(&self) -> &[Diagnostic];
}

/// The answers of one answers file, and those given since it was read.
#[derive(Debug, Default)]
pub struct Answers {
    path: PathBuf,
    /// Each file's stamp and content hash, by its path within the pool.
    known: HashMap<String, (FileStamp, u64)>,
    /// The identity of the files the answers were made from.
    inputs: u64,
    /// Each question's answer (JSON).
    answers: BTreeMap<String, Vec<u8>>,
    changed: bool,
}

impl Answers {
    /// The answers kept at `path`; none when there is no file this build of
    /// the tool wrote, whole.
    pub fn open(path: &Path) -> Answers {
        let mut answers = std::fs::read(path)
            .ok()
            .and_then(|bytes| decode(&bytes))
            .unwrap_or_default();
        answers.path = path.to_path_buf();
        answers
    }

    /// The content hash of a file last seen with this very stamp (so it need
    /// not be read to be known).
    pub fn known(&self, relative: &str, stamp: &FileStamp) -> Option<u64> {
        let (kept, hash) = self.known.get(relative)?;
        (kept == stamp).then_some(*hash)
    }

    /// The answer to `question` about the files whose identity is `inputs`.
    pub fn get<A: Answer>(&self, inputs: u64, question: &str) -> Option<A> {
        if inputs != self.inputs {
            return None;
        }
        serde_json::from_slice(self.answers.get(question)?).ok()
    }

    /// Keeps the answer to `question` about the files `inputs`; answers
    /// about other files are dropped.
    pub fn put<A: Answer>(&mut self, inputs: u64, question: &str, answer: &A) {
        let Ok(json) = serde_json::to_vec(answer) else {
            return;
        };
        if inputs != self.inputs {
            self.answers.clear();
            self.inputs = inputs;
        }
        self.answers.insert(question.to_string(), json);
        self.changed = true;
    }

    /// Writes the answers with the stamps of `pool`'s files, when an answer
    /// was given and the folder they live in exists (a build made it). An
    /// answer that cannot be kept costs only the next run's time.
    pub fn save(&self, pool: &Pool) -> std::io::Result<()> {
        if !self.changed || !self.path.parent().is_some_and(Path::is_dir) {
            return Ok(());
        }
        crate::files::write_atomic(&self.path, &self.bytes(pool))
    }

    /// The answers file's bytes, with the stamps of `pool`'s files.
    pub fn bytes(&self, pool: &Pool) -> Vec<u8> {
        let known = (pool.sets.iter().chain(&pool.data))
            .filter_map(|file| Some((file.relative.as_str(), file.stamp?, file.hash())));
        encode(known, self.inputs, &self.answers)
    }
}

/// The identity of a pool's translations: every set and data file's name
/// and content, in pool order; `None` for a pool with problems of its own
/// (an unreadable folder or file), whose answers are not kept.
pub fn inputs_of(pool: &Pool) -> Option<u64> {
    if !pool.problems.is_empty() {
        return None;
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for (group, files) in [(0u8, &pool.sets), (1, &pool.data)] {
        hasher.update(&[group]);
        for file in files {
            for name in [&*file.path, file.relative.as_str()] {
                hasher.update(&name.len().to_le_bytes());
                hasher.update(name.as_bytes());
            }
            hasher.update(&file.hash().to_le_bytes());
        }
    }
    Some(hasher.digest())
}

fn encode<'f>(
    known: impl Iterator<Item = (&'f str, FileStamp, u64)>,
    inputs: u64,
    answers: &BTreeMap<String, Vec<u8>>,
) -> Vec<u8> {
    // By path: the same answers are the same bytes.
    let mut known: Vec<_> = known.collect();
    known.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut body = Vec::new();
    let mut w = Writer(&mut body);
    w.number(known.len());
    for (relative, stamp, hash) in known {
        w.text(relative);
        w.0.extend_from_slice(&hash.to_le_bytes());
        write_stamp(&mut w, Some(&stamp));
    }
    w.0.extend_from_slice(&inputs.to_le_bytes());
    w.number(answers.len());
    for (question, json) in answers {
        w.text(question);
        w.number(json.len());
        w.0.extend_from_slice(json);
    }
    framed(MAGIC, &body)
}

/// An answers file's content; `None` unless this build of the tool wrote
/// it whole.
fn decode(bytes: &[u8]) -> Option<Answers> {
    let mut r = Reader(unframed(bytes, MAGIC)?);
    let mut known = HashMap::default();
    for _ in 0..r.count()? {
        let relative = r.text()?;
        let hash = read_u64(&mut r)?;
        let stamp = read_stamp(&mut r)??;
        known.insert(relative, (stamp, hash));
    }
    let inputs = read_u64(&mut r)?;
    let mut answers = BTreeMap::new();
    for _ in 0..r.count()? {
        let question = r.text()?;
        answers.insert(question, r.bytes()?.to_vec());
    }
    r.0.is_empty().then_some(Answers {
        path: PathBuf::new(),
        known,
        inputs,
        answers,
        changed: false,
    })
}

/// An answers file's bytes read and, when they decode, written again: for
/// the fuzz target, which holds that any bytes decode to answers or to
/// nothing, never a panic, and that what is written reads back the same.
pub fn read_and_write_again(bytes: &[u8]) -> Option<Vec<u8>> {
    let answers = decode(bytes)?;
    let known =
        (answers.known.iter()).map(|(relative, (stamp, hash))| (relative.as_str(), *stamp, *hash));
    Some(encode(known, answers.inputs, &answers.answers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::assert_refuses_damage;

    /// A report's answer, as the reports' answers are: findings and more.
    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    struct Found {
        findings: Vec<Diagnostic>,
        texts: usize,
    }

    impl Answer for Found {
        fn findings(&self) -> &[Diagnostic] {
            &self.findings
        }
    }

    /// Answers kept for a translation fixture read back as they were
    /// written, with every file's stamp, and only for the same files; a
    /// damaged file is refused.
    #[test]
    fn answers_come_back_as_they_went_in_and_damage_is_refused() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/i18n/check-bad");
        let pool = Pool::from_dir(&fixture).unwrap();
        let inputs = inputs_of(&pool).expect("the fixture has no pool problems");
        let found = Found {
            findings: vec![Diagnostic::error(
                crate::diagnostics::Code::LocaleStale,
                &pool.data[0].path,
                3..9,
                "a finding",
            )],
            texts: 12,
        };
        let mut answers = Answers::default();
        answers.put(inputs, "check None", &found);
        let stamp = |n: u64| FileStamp {
            len: n,
            modified: (n as i64, 7),
            changed: (n as i64 + 1, 9),
            inode: n * 3,
            device: 2,
        };
        let known: Vec<(&str, FileStamp, u64)> = (pool.sets.iter().chain(&pool.data))
            .zip(1..)
            .map(|(file, n)| (file.relative.as_str(), stamp(n), file.hash()))
            .collect();
        let bytes = encode(known.iter().copied(), answers.inputs, &answers.answers);
        let read = decode(&bytes).expect("the answers decode");
        for (relative, stamp, hash) in &known {
            assert_eq!(read.known(relative, stamp), Some(*hash), "{relative}");
            assert_eq!(read.known(relative, &FileStamp { len: 0, ..*stamp }), None);
        }
        assert_eq!(read.get::<Found>(inputs, "check None"), Some(found));
        assert_eq!(read.get::<Found>(inputs ^ 1, "check None"), None);
        assert_eq!(read.get::<Found>(inputs, "status None"), None);
        assert!(
            read_and_write_again(&bytes) == Some(bytes.clone()),
            "written again"
        );
        assert_refuses_damage(&bytes, decode);
    }
}
