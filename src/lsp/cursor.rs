//! The requests about the thing under the cursor: hover, go to
//! definition, find references, rename. Each finds the document's pool
//! ([`index::place_of`]), what is written at the position
//! ([`locate`](super::locate::locate)) and answers from the pool's
//! [`PoolIndex`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_server::{ErrorCode, Request, Response};
use lsp_types::request::{
    GotoDefinition, HoverRequest, PrepareRenameRequest, References, Rename, Request as _,
};
use lsp_types::{
    Hover, HoverContents, Location, MarkupContent, MarkupKind, Position, PrepareRenameResponse,
    Uri, WorkspaceEdit,
};

use super::check::{Checked, check_kept, path_of};
use super::index::{Indexes, PoolIndex, place_of};
use super::invalid_params;
use super::locate::{Thing, locate};
use super::position::offset;
use super::session::{AtCursor, Session};
use super::{hover, references, rename};
use crate::diagnostics::LineIndex;
use crate::workspace::LivePool;

/// The methods answered here.
const METHODS: [&str; 5] = [
    HoverRequest::METHOD,
    GotoDefinition::METHOD,
    References::METHOD,
    PrepareRenameRequest::METHOD,
    Rename::METHOD,
];

/// Is `method` one of the cursor's requests?
pub fn answers(method: &str) -> bool {
    METHODS.contains(&method)
}

/// The requests' memory: the checked pools' indexes.
#[derive(Default)]
pub struct Cursor {
    indexes: Indexes,
}

impl Cursor {
    /// Answers one of the cursor's requests ([`answers`]) (one that fails
    /// inside is answered with an error by the server's loop).
    /// `pools` are the server's checked pools, through which a pool not
    /// checked yet is checked.
    pub fn answer(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        request: Request,
    ) -> Response {
        let id = request.id.clone();
        let position = |params: &lsp_types::TextDocumentPositionParams| {
            (params.text_document.uri.clone(), params.position)
        };
        match request.method.as_str() {
            HoverRequest::METHOD => match parse::<lsp_types::HoverParams>(request) {
                Ok(params) => {
                    let (uri, at) = position(&params.text_document_position_params);
                    Response::new_ok(id, self.hover(session, pools, &uri, at))
                }
                Err(e) => invalid_params(id, e),
            },
            GotoDefinition::METHOD => match parse::<lsp_types::GotoDefinitionParams>(request) {
                Ok(params) => {
                    let (uri, at) = position(&params.text_document_position_params);
                    Response::new_ok(id, self.definition(session, pools, &uri, at))
                }
                Err(e) => invalid_params(id, e),
            },
            References::METHOD => match parse::<lsp_types::ReferenceParams>(request) {
                Ok(params) => {
                    let (uri, at) = position(&params.text_document_position);
                    let declaration = params.context.include_declaration;
                    let found = self.references(session, pools, &uri, at, declaration);
                    Response::new_ok(id, found)
                }
                Err(e) => invalid_params(id, e),
            },
            PrepareRenameRequest::METHOD => {
                match parse::<lsp_types::TextDocumentPositionParams>(request) {
                    Ok(params) => {
                        let (uri, at) = position(&params);
                        refused_or(id, self.prepare_rename(session, pools, &uri, at))
                    }
                    Err(e) => invalid_params(id, e),
                }
            }
            _ => match parse::<lsp_types::RenameParams>(request) {
                Ok(params) => {
                    let (uri, at) = position(&params.text_document_position);
                    let edit = self.rename(session, pools, &uri, at, &params.new_name);
                    refused_or(id, edit)
                }
                Err(e) => invalid_params(id, e),
            },
        }
    }

    /// What is written at `at` in the document `uri`, and the index of
    /// its pool.
    pub fn at<'a>(
        &'a mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        uri: &Uri,
        at: Position,
    ) -> Option<AtCursor<'a>> {
        let path = path_of(uri)?;
        let text = session.text(&path)?;
        let (dir, place) = place_of(session.root, &path);
        let byte = offset(&LineIndex::new(&text), &text, at, session.encoding);
        let found = locate(&place, &path.to_string_lossy(), &text, byte)?;
        let index = self.index(session, pools, &dir)?;
        Some(AtCursor {
            found,
            index,
            path,
            text,
            place,
        })
    }

    /// Takes in a check of the pool in `dir`: the pool it read, with the
    /// open texts laid over, and what it built.
    pub fn checked(&mut self, dir: &Path, checked: Checked) {
        self.indexes.checked(dir, checked);
    }

    /// Forgets the index of the pool in `dir` (its check failed).
    pub fn forget(&mut self, dir: &Path) {
        self.indexes.forget(dir);
    }

    /// The index of the pool in `dir` as its last check read it. A pool
    /// no open document is in has not been checked: it is checked now, as
    /// it would be if one were opened, through `pools`.
    pub fn index(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        dir: &Path,
    ) -> Option<&PoolIndex> {
        if self.indexes.get(dir).is_none() {
            let checked = check_kept(
                pools,
                dir,
                session.open.values(),
                session.encoding,
                session.watched,
            )?;
            self.indexes.checked(dir, checked);
        }
        self.indexes.get(dir)
    }

    /// The built-in pool's index (the pool of a player's input without a
    /// workspace `cards/` folder).
    pub fn builtin(&self) -> &PoolIndex {
        self.indexes.builtin()
    }

    /// `textDocument/hover`.
    pub fn hover(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        uri: &Uri,
        at: Position,
    ) -> Option<Hover> {
        let cursor = self.at(session, pools, uri, at)?;
        let workspace = session.workspace(&cursor.index.dir);
        let markdown = hover::hover(&cursor.found, cursor.index, &workspace)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(session.range(&cursor.text, &cursor.found.span)),
        })
    }

    /// `textDocument/definition`: a card's entry in its set file, a pool
    /// keyword's in `keywords.yaml`; nothing for a built-in keyword.
    pub fn definition(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        uri: &Uri,
        at: Position,
    ) -> Option<Location> {
        let cursor = self.at(session, pools, uri, at)?;
        let index = cursor.index;
        let (path, span) = match &cursor.found.thing {
            Thing::Card(reference) => {
                let (key, _) = index.resolve(reference)?;
                let card = index.card(key)?;
                (card.path.clone(), card.id_span.clone())
            }
            Thing::Keyword(line) => {
                let (keyword, _) = index.vocabulary().vocab.keywords.find(&line.name)?;
                index.keyword_definition(&keyword.id)?
            }
            Thing::Effect { .. } | Thing::Term(_) => return None,
        };
        let text = index.text_of(&path)?;
        session.location(&path, text, &span)
    }

    /// `textDocument/references` of the card under the cursor.
    pub fn references(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        uri: &Uri,
        at: Position,
        declaration: bool,
    ) -> Option<Vec<Location>> {
        let cursor = self.at(session, pools, uri, at)?;
        let Thing::Card(reference) = &cursor.found.thing else {
            return None;
        };
        let (card, _) = cursor.index.resolve(reference)?;
        let workspace = session.workspace(&cursor.index.dir);
        let found = references::of_card(session, cursor.index, &workspace, card);
        Some(
            found
                .iter()
                .filter(|r| declaration || !r.is_declaration())
                .filter_map(|r| session.location(&r.path, &r.text, &r.span))
                .collect(),
        )
    }

    /// `textDocument/prepareRename`: the id under the cursor, or why it
    /// cannot be renamed there.
    pub fn prepare_rename(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        uri: &Uri,
        at: Position,
    ) -> Result<Option<PrepareRenameResponse>, String> {
        let Some(cursor) = self.at(session, pools, uri, at) else {
            return Ok(None);
        };
        let (card, span) = rename::target(&cursor)?;
        Ok(cursor
            .index
            .card(card)
            .map(|card| PrepareRenameResponse::RangeWithPlaceholder {
                range: session.range(&cursor.text, &span),
                placeholder: card.id.clone(),
            }))
    }

    /// `textDocument/rename`: the edit that renames the card's id
    /// everywhere, or why not.
    pub fn rename(
        &mut self,
        session: &Session,
        pools: &mut HashMap<PathBuf, LivePool>,
        uri: &Uri,
        at: Position,
        new: &str,
    ) -> Result<Option<WorkspaceEdit>, String> {
        let Some(cursor) = self.at(session, pools, uri, at) else {
            return Ok(None);
        };
        let (card, _) = rename::target(&cursor)?;
        let workspace = session.workspace(&cursor.index.dir);
        rename::rename(session, cursor.index, &workspace, card, new).map(Some)
    }
}

fn parse<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, String> {
    serde_json::from_value(request.params).map_err(|e| e.to_string())
}

/// The answer to a request that may be refused for what it asks (an
/// invalid or taken id): the refusal as `RequestFailed`, its reason the
/// message an editor shows.
fn refused_or<T: serde::Serialize>(
    id: lsp_server::RequestId,
    answer: Result<T, String>,
) -> Response {
    match answer {
        Ok(value) => Response::new_ok(id, value),
        Err(why) => Response::new_err(id, ErrorCode::RequestFailed as i32, why),
    }
}
