//! Open documents laid over their pool on disk, checked by the build's
//! own pipeline ([`compile`]), and the findings as the protocol's
//! diagnostics, one list per open file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::str::FromStr as _;
use std::sync::Arc;

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Uri,
};

use super::position::{Encoding, position};
use crate::compile::compile;
use crate::diagnostics::{Diagnostic, Severity, Sources};
use crate::pool::{FOUND_FOLDER, Pool};

/// A file the editor has open, with its unsaved text.
#[derive(Debug, Clone)]
pub struct Document {
    pub path: PathBuf,
    pub text: Arc<str>,
}

/// The pool a file belongs to, by [`crate::pool::PoolChoice`]'s rule seen
/// from the workspace folder: its `cards/` folder when the file is in
/// it, else the folder holding the file.
pub fn pool_dir(workspace: Option<&Path>, file: &Path) -> PathBuf {
    if let Some(cards) = workspace.map(|root| root.join(FOUND_FOLDER))
        && file.starts_with(&cards)
        && cards.is_dir()
    {
        return cards;
    }
    file.parent().map_or_else(PathBuf::new, Path::to_path_buf)
}

/// Checks the pool in `dir` with every open document under it laid over
/// its file, and gives each of those documents its findings (an empty
/// list for one with none, which clears what an editor shows).
pub fn check_pool(
    dir: &Path,
    open: &HashMap<Uri, Document>,
    encoding: Encoding,
) -> Vec<(Uri, Vec<lsp_types::Diagnostic>)> {
    // A folder that cannot be read, or holds no set yet, is checked as
    // what the editor has open.
    let mut pool = Pool::from_dir(dir).unwrap_or_else(|_| Pool {
        root: Some(dir.to_path_buf()),
        ..Pool::default()
    });
    let mut shown: BTreeMap<Arc<str>, Uri> = BTreeMap::new();
    for (uri, document) in open {
        if let Ok(relative) = document.path.strip_prefix(dir) {
            let relative = relative.to_string_lossy().replace('\\', "/");
            pool.overlay(&relative, document.text.clone());
            shown.insert(
                Arc::from(dir.join(&relative).display().to_string()),
                uri.clone(),
            );
        }
    }
    let compiled = compile(&pool);
    let mut found: BTreeMap<Arc<str>, Vec<lsp_types::Diagnostic>> = shown
        .keys()
        .map(|path| (path.clone(), Vec::new()))
        .collect();
    for finding in &compiled.diagnostics {
        if let Some(list) = found.get_mut(&finding.path) {
            list.push(to_lsp(finding, &compiled.sources, encoding));
        }
    }
    found
        .into_iter()
        .filter_map(|(path, list)| Some((shown.get(&path)?.clone(), list)))
        .collect()
}

/// A finding as the protocol's diagnostic: its code in `code`, its help
/// after the message and in `data`, its related places as related
/// information.
pub fn to_lsp(
    finding: &Diagnostic,
    sources: &Sources,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let mut message = finding.message.to_string();
    if let Some(help) = &finding.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related = finding
        .related
        .iter()
        .filter_map(|r| {
            Some(DiagnosticRelatedInformation {
                location: Location::new(
                    uri_of(Path::new(&*r.path))?,
                    range(sources, &r.path, &r.span, encoding),
                ),
                message: r.label.clone(),
            })
        })
        .collect::<Vec<_>>();
    lsp_types::Diagnostic {
        range: range(sources, &finding.path, &finding.span, encoding),
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(finding.code.as_str().to_string())),
        source: Some("blades".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        data: Some(serde_json::json!({
            "label": &*finding.label,
            "help": finding.help.as_deref(),
        })),
        ..lsp_types::Diagnostic::default()
    }
}

/// A span of a file as a range (the file's start when its text is unknown).
fn range(
    sources: &Sources,
    path: &str,
    span: &std::ops::Range<usize>,
    encoding: Encoding,
) -> Range {
    match sources.file(path) {
        Some(file) => Range::new(
            position(file.lines(), file.text(), span.start, encoding),
            position(file.lines(), file.text(), span.end, encoding),
        ),
        None => Range::default(),
    }
}

/// The local path a `file:` URI names.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let path = percent_decode(rest)?;
    path.starts_with('/').then(|| PathBuf::from(path))
}

/// The `file:` URI of an absolute local path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let mut uri = String::from("file://");
    for byte in path.to_str()?.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char);
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    Uri::from_str(&uri).ok()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_goes_to_a_uri_and_back() {
        let path = Path::new("/tmp/pool 1/カード/set#2.yaml");
        let uri = uri_of(path).expect("an absolute UTF-8 path");
        assert_eq!(
            uri.as_str(),
            "file:///tmp/pool%201/%E3%82%AB%E3%83%BC%E3%83%89/set%232.yaml"
        );
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }

    #[test]
    fn only_local_files_have_a_path() {
        let uri = Uri::from_str("untitled:Untitled-1").expect("a URI");
        assert_eq!(path_of(&uri), None);
    }
}
