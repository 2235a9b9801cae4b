//! Renaming a card's id: one workspace edit that changes it wherever it
//! is written as an id (its set file's `id:`, the locale files' keys, the
//! formats' `card:` lists, the player inputs' lines that name it by id).
//! Names stay as they are: a line that names the card by its English or
//! Japanese name still names it.
//!
//! The new id must be one the build accepts: kebab-case
//! ([`Id::is_valid`], the rule `blades build` checks) and no other card's
//! id (ids are unique across the pool).

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use lsp_types::{TextEdit, Uri, WorkspaceEdit};

use super::check::uri_of;
use super::index::{CardKey, PoolIndex};
use super::locate::{Naming, Thing};
use super::references::{self, Reference};
use super::session::{AtCursor, Session};
use crate::cards::fold;
use crate::rules::input::{self, Syntax};
use crate::words::Id;
use crate::yaml;

/// The card under the cursor when its id is written there, and the bytes
/// to rename; else why it cannot be renamed there.
pub fn target(cursor: &AtCursor) -> Result<(CardKey, Range<usize>), String> {
    let Thing::Card(reference) = &cursor.found.thing else {
        return Err("only a card's id can be renamed: put the cursor on an id".to_string());
    };
    let Some((card, span)) = cursor.index.resolve(reference) else {
        return Err(format!("no card of the pool is `{}`", reference.written));
    };
    let Some(id) = cursor.index.card(card).map(|c| &c.id) else {
        return Err(format!("no card of the pool is `{}`", reference.written));
    };
    let written = Reference {
        path: cursor.path.to_string_lossy().into(),
        text: cursor.text.clone(),
        span: span.clone(),
        naming: reference.naming,
        written: reference.written.clone(),
    };
    match names_by_id(&written, id) {
        true => Ok((card, span)),
        false => Err(format!(
            "`{}` is a name of the card `{id}`, not its id: rename the id where it is written (its `id:`, a locale key, a format's `card:`, a line naming it by id)",
            reference.written
        )),
    }
}

/// The edit that renames card `card` of `index` to `new`, or why not.
pub fn rename(
    session: &Session,
    index: &PoolIndex,
    workspace: &Path,
    card: CardKey,
    new: &str,
) -> Result<WorkspaceEdit, String> {
    let Some(old) = index.card(card).map(|c| &c.id) else {
        return Err("the card is no longer in the pool".to_string());
    };
    if !Id::is_valid(new) {
        return Err(format!(
            "`{new}` is not a card id: an id is kebab-case, lower-case letters and digits in words joined by single hyphens (`{}`)",
            Id::suggested(new)
        ));
    }
    let taken = index.by_id(new).filter(|&other| other != card);
    if let Some(taken) = taken.and_then(|other| index.card(other)) {
        return Err(format!(
            "`{new}` is taken: the card `{}` in {} has that id, and ids are unique across the pool",
            taken.name.as_deref().unwrap_or(new),
            taken.path
        ));
    }
    // By path (a `Uri` is no key clippy trusts), then as the protocol
    // wants them.
    let mut changes: BTreeMap<String, (Uri, Vec<TextEdit>)> = BTreeMap::new();
    for reference in references::of_card(session, index, workspace, card) {
        if !names_by_id(&reference, old) {
            continue;
        }
        let Some(uri) = uri_of(Path::new(&*reference.path)) else {
            continue;
        };
        let edit = TextEdit {
            range: session.range(&reference.text, &reference.span),
            new_text: written_as(&reference, new),
        };
        let file = changes
            .entry(uri.as_str().to_string())
            .or_insert_with(|| (uri, Vec::new()));
        file.1.push(edit);
    }
    Ok(WorkspaceEdit {
        changes: Some(changes.into_values().collect()),
        ..WorkspaceEdit::default()
    })
}

/// Does this place write the card's id (not a name of it)?
fn names_by_id(reference: &Reference, id: &str) -> bool {
    match reference.naming {
        Naming::Definition | Naming::Key | Naming::FormatId => true,
        Naming::Name => false,
        Naming::Input => {
            let written = &reference.text[reference.span.clone()];
            fold(written.trim_matches(['"', '\''])) == fold(id)
        }
    }
}

/// The new id as it must be written at a reference: a YAML scalar plain
/// when it reads back as text, else quoted; a text line as it is.
fn written_as(reference: &Reference, new: &str) -> String {
    let yaml_text = reference.naming != Naming::Input
        || input::detect(&reference.path, &reference.text) == Syntax::Yaml;
    match yaml_text && yaml::word_fix(reference.span.clone(), new).is_none() {
        true => format!("\"{new}\""),
        false => new.to_string(),
    }
}
