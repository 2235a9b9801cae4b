//! `blades lsp`: a Language Server Protocol server over a byte stream
//! (standard input and output), on the library every command uses.
//!
//! A thread reads the input; the server's loop takes one message at a
//! time. A change marks its pool stale, and the pool is checked when no
//! message is waiting or before the next request is answered: edits that
//! arrive during a check are checked together, at their last text, and an
//! answer always follows the findings of the changes before it. Each pool
//! keeps the build's cache in memory between checks
//! ([`crate::workspace::LivePool`]). The output stream carries only
//! protocol messages; the server prints nothing else.
//!
//! What it answers: `initialize` (full-text sync, the position encoding
//! agreed), `textDocument/codeAction` (the quick fixes the diagnostics
//! it published carry in their `data`), `textDocument/documentSymbol` (a
//! set file's set and cards), `textDocument/formatting` (what `blades
//! fmt` writes, as edits), `textDocument/semanticTokens/full` (the words
//! of effects, coloured), `textDocument/completion` (keys, values, effect
//! words, card names, glossary terms), hover, go to definition, find
//! references and rename on the card, keyword, effect or term under the
//! cursor ([`cursor`]), `shutdown`, and any other request with
//! `MethodNotFound`. What it hears: `didOpen`, `didChange`, `didClose`,
//! `workspace/didChangeWatchedFiles` (which it asks for when the client
//! can watch files), `$/setTrace` (a `$/logTrace` of each check's time),
//! `exit`. A frame that is not a message gets a parse error and the server
//! reads on.

pub mod check;
pub mod complete;
pub mod cursor;
pub mod documents;
pub mod format;
pub mod hover;
pub mod index;
pub mod inputs;
pub mod locate;
pub mod position;
pub mod references;
pub mod rename;
pub mod session;
pub mod symbols;
pub mod tokens;
pub mod transport;

use std::collections::{BTreeSet, HashMap};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    LogTrace, Notification as _, PublishDiagnostics, SetTrace,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, Initialize,
    RegisterCapability, Request as _, SemanticTokensFullRequest, Shutdown,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, InitializeParams,
    InitializeResult, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};

use check::{Document, check_kept, path_of, pool_dir};
use documents::relative_in;
use position::Encoding;
use transport::Frame;

use crate::workspace::LivePool;

/// How the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `exit` after `shutdown`, as the protocol asks.
    Clean,
    /// `exit` without `shutdown`, or the input closed.
    Abrupt,
}

/// Serves one client until it says `exit` or closes the input. An error
/// is the output failing (the client went away).
///
/// The input is read on a thread of its own, so that the changes that
/// arrive while a pool is checked are all taken in before the next check:
/// a burst of edits is checked once, at its last text.
pub fn serve(input: impl BufRead + Send + 'static, output: &mut impl Write) -> io::Result<Ending> {
    let frames = read_in_background(input);
    let mut server = Server::default();
    loop {
        let frame = match server.nothing_stale() {
            true => frames.recv().ok(),
            false => match frames.try_recv() {
                Ok(frame) => Some(frame),
                Err(TryRecvError::Empty) => {
                    server.check_stale(output)?;
                    continue;
                }
                Err(TryRecvError::Disconnected) => None,
            },
        };
        let message = match frame.unwrap_or(Ok(Frame::End))? {
            Frame::End => return Ok(Ending::Abrupt),
            Frame::Garbage(why) => {
                let error = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": {"code": ErrorCode::ParseError as i32, "message": why},
                });
                transport::write_json(output, &error)?;
                continue;
            }
            Frame::Message(message) => message,
        };
        match message {
            Message::Request(request) => {
                // An answer comes after the findings of every change
                // before it, as if each were checked at once.
                server.check_stale(output)?;
                let id = request.id.clone();
                // A handler that fails on some input answers an error; the
                // session goes on.
                let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    server.answer(request)
                }));
                let response = answered.unwrap_or_else(|_| {
                    Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        "the server failed on this request".to_string(),
                    )
                });
                transport::write(output, &Message::Response(response))?;
            }
            Message::Notification(notification) if notification.method == "initialized" => {
                if let Some(request) = server.watch_registration() {
                    transport::write(output, &Message::Request(request))?;
                }
            }
            Message::Notification(notification) if notification.method == "exit" => {
                return Ok(match server.shut_down {
                    true => Ending::Clean,
                    false => Ending::Abrupt,
                });
            }
            Message::Notification(notification) => {
                for published in server.hear(notification) {
                    transport::write(output, &Message::Notification(published))?;
                }
            }
            Message::Response(response) => server.heard_back(response),
        }
    }
}

/// The frames of `input`, read by a thread of their own until the input
/// ends or fails (the last frame sent).
fn read_in_background(mut input: impl BufRead + Send + 'static) -> Receiver<io::Result<Frame>> {
    let (sender, frames) = channel();
    std::thread::spawn(move || {
        loop {
            let frame = transport::read(&mut input);
            let last = !matches!(frame, Ok(Frame::Message(_) | Frame::Garbage(_)));
            if sender.send(frame).is_err() || last {
                return;
            }
        }
    });
    frames
}

#[derive(Default)]
struct Server {
    initialized: bool,
    shut_down: bool,
    encoding: Option<Encoding>,
    /// The workspace folder (where `cards/` is looked for).
    root: Option<PathBuf>,
    /// The open documents, by URI.
    open: HashMap<String, Document>,
    /// Each pool an open document is in, kept between checks.
    pools: HashMap<PathBuf, LivePool>,
    /// The pools changed since they were last checked.
    stale: BTreeSet<PathBuf>,
    /// The client can be asked to watch files for the server.
    can_watch: bool,
    /// The client agreed to watch them: it tells of every change on disk.
    watched: bool,
    /// What the client wants traced (`$/logTrace`): each check's time.
    trace: lsp_types::TraceValue,
    /// The index of each checked pool, which the cursor's requests and
    /// completion answer from.
    cursor: cursor::Cursor,
    /// The open documents that are player inputs (decks, collections,
    /// trades, score sheets), checked apart from their folder's pool.
    inputs: inputs::Inputs,
}

impl Server {
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        match request.method.as_str() {
            Initialize::METHOD => match request.extract::<InitializeParams>(Initialize::METHOD) {
                Ok((_, params)) => self.initialize(id, params),
                Err(e) => invalid_params(id, e),
            },
            _ if !self.initialized => Response::new_err(
                id,
                ErrorCode::ServerNotInitialized as i32,
                "the server has not been initialized".to_string(),
            ),
            Shutdown::METHOD => {
                self.shut_down = true;
                Response::new_ok(id, ())
            }
            _ if self.shut_down => Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_string(),
            ),
            DocumentSymbolRequest::METHOD => match request
                .extract::<lsp_types::DocumentSymbolParams>(DocumentSymbolRequest::METHOD)
            {
                Ok((_, params)) => Response::new_ok(id, self.symbols(&params.text_document.uri)),
                Err(e) => invalid_params(id, e),
            },
            Formatting::METHOD => {
                match request.extract::<lsp_types::DocumentFormattingParams>(Formatting::METHOD) {
                    Ok((_, params)) => Response::new_ok(id, self.format(&params.text_document.uri)),
                    Err(e) => invalid_params(id, e),
                }
            }
            SemanticTokensFullRequest::METHOD => match request
                .extract::<lsp_types::SemanticTokensParams>(SemanticTokensFullRequest::METHOD)
            {
                Ok((_, params)) => Response::new_ok(id, self.tokens(&params.text_document.uri)),
                Err(e) => invalid_params(id, e),
            },
            Completion::METHOD => {
                match request.extract::<lsp_types::CompletionParams>(Completion::METHOD) {
                    Ok((_, params)) => {
                        Response::new_ok(id, self.complete(&params.text_document_position))
                    }
                    Err(e) => invalid_params(id, e),
                }
            }
            CodeActionRequest::METHOD => {
                match request.extract::<lsp_types::CodeActionParams>(CodeActionRequest::METHOD) {
                    Ok((_, params)) => Response::new_ok(
                        id,
                        check::code_actions(&params.text_document.uri, &params.context.diagnostics),
                    ),
                    Err(e) => invalid_params(id, e),
                }
            }
            method if cursor::answers(method) => {
                let session = session(&self.root, &self.open, self.encoding, self.watched);
                self.cursor.answer(&session, &mut self.pools, request)
            }
            method => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("`{method}` is not a method this server answers"),
            ),
        }
    }

    fn initialize(&mut self, id: RequestId, params: InitializeParams) -> Response {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_deref());
        let encoding = Encoding::choose(offered);
        self.encoding = Some(encoding);
        self.trace = params.trace.unwrap_or(lsp_types::TraceValue::Off);
        self.can_watch = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|workspace| workspace.did_change_watched_files.as_ref())
            .and_then(|watched| watched.dynamic_registration)
            .unwrap_or(false);
        self.initialized = true;
        self.root = workspace_root(&params);
        let result = InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Kind(
                    TextDocumentSyncKind::FULL,
                )),
                document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
                document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
                completion_provider: Some(lsp_types::CompletionOptions::default()),
                semantic_tokens_provider: Some(
                    lsp_types::SemanticTokensOptions {
                        legend: tokens::legend(),
                        full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                        ..lsp_types::SemanticTokensOptions::default()
                    }
                    .into(),
                ),
                hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
                definition_provider: Some(lsp_types::OneOf::Left(true)),
                references_provider: Some(lsp_types::OneOf::Left(true)),
                rename_provider: Some(lsp_types::OneOf::Right(lsp_types::RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
                })),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                        ..CodeActionOptions::default()
                    },
                )),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "blades".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        };
        Response::new_ok(id, result)
    }

    /// The set and cards of a document: its unsaved text when it is open,
    /// else the file on disk.
    fn symbols(&self, uri: &Uri) -> lsp_types::DocumentSymbolResponse {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        let text = self.text_of(uri);
        let symbols = text.map_or_else(Vec::new, |text| symbols::document_symbols(&text, encoding));
        lsp_types::DocumentSymbolResponse::Nested(symbols)
    }

    /// The edits that format a document as `blades fmt` would.
    fn format(&self, uri: &Uri) -> Vec<lsp_types::TextEdit> {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        let (Some(path), Some(text)) = (path_of(uri), self.text_of(uri)) else {
            return Vec::new();
        };
        let dir = pool_dir(self.root.as_deref(), &path);
        let Some(relative) = relative_in(&dir, &path) else {
            return Vec::new();
        };
        format::format_document(&dir, &relative, &text, encoding)
    }

    /// The effect words of a document, coloured.
    fn tokens(&self, uri: &Uri) -> lsp_types::SemanticTokens {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        let data = self
            .text_of(uri)
            .map_or_else(Vec::new, |text| tokens::semantic_tokens(&text, encoding));
        lsp_types::SemanticTokens {
            result_id: None,
            data,
        }
    }

    /// What may be written at a position of a document.
    fn complete(
        &mut self,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> lsp_types::CompletionList {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        let uri = &at.text_document.uri;
        let (Some(path), Some(text)) = (path_of(uri), self.text_of(uri)) else {
            return lsp_types::CompletionList::default();
        };
        let dir = pool_dir(self.root.as_deref(), &path);
        let relative = relative_in(&dir, &path).unwrap_or_default();
        let cards = documents::input_pool(self.root.as_deref());
        let role = complete::Role::of(&relative, cards.as_ref() == Some(&dir), &text);
        let words_of = match role {
            complete::Role::Input { .. } => cards,
            _ => Some(dir),
        };
        let session = session(&self.root, &self.open, self.encoding, self.watched);
        let words = match words_of {
            _ if !complete::needs_words(role) => None,
            Some(dir) => self.cursor.index(&session, &mut self.pools, &dir),
            None => Some(self.cursor.builtin()),
        };
        let lines = crate::diagnostics::LineIndex::new(&text);
        let request = complete::Request {
            offset: position::offset(&lines, &text, at.position, encoding),
            text: &text,
            role,
            encoding,
        };
        complete::complete(&request, words)
    }

    /// A document's unsaved text when it is open, else the file on disk.
    fn text_of(&self, uri: &Uri) -> Option<String> {
        match self.open.get(uri.as_str()) {
            Some(document) => Some(document.text.to_string()),
            None => path_of(uri).and_then(|path| std::fs::read_to_string(path).ok()),
        }
    }

    /// Takes in a notification; what to publish in return.
    fn hear(&mut self, notification: Notification) -> Vec<Notification> {
        if !self.initialized || self.shut_down {
            return Vec::new();
        }
        let changed = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => notification
                .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                .ok()
                .and_then(|p| self.set_text(p.text_document.uri, p.text_document.text)),
            DidChangeTextDocument::METHOD => notification
                .extract::<lsp_types::DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD)
                .ok()
                .and_then(|p| {
                    // Full sync: the last change is the whole text.
                    let text = p.content_changes.into_iter().last()?.text;
                    self.set_text(p.text_document.uri, text)
                }),
            DidCloseTextDocument::METHOD => notification
                .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                .ok()
                .and_then(|p| self.close(p.text_document.uri)),
            SetTrace::METHOD => notification
                .extract::<lsp_types::SetTraceParams>(SetTrace::METHOD)
                .ok()
                .map(|p| {
                    self.trace = p.value;
                    Vec::new()
                }),
            DidChangeWatchedFiles::METHOD => notification
                .extract::<lsp_types::DidChangeWatchedFilesParams>(DidChangeWatchedFiles::METHOD)
                .ok()
                .map(|p| self.files_changed(p.changes)),
            _ => None,
        };
        changed.unwrap_or_default()
    }

    /// A check's trace for the client (`$/logTrace`), when it asked for one:
    /// the pool and the time, and where the time went when verbose.
    fn trace_of(&self, dir: &Path, checked: &check::Checked) -> Option<Notification> {
        let count = checked.lists.len();
        let noun = if count == 1 {
            "open document"
        } else {
            "open documents"
        };
        let message = format!("{}: {count} {noun}", dir.display());
        let params = match self.trace {
            lsp_types::TraceValue::Off => return None,
            lsp_types::TraceValue::Messages => lsp_types::LogTraceParams {
                message: format!(
                    "{message} checked in {:.1} ms",
                    checked.total.as_secs_f64() * 1e3
                ),
                verbose: None,
            },
            lsp_types::TraceValue::Verbose => lsp_types::LogTraceParams {
                message,
                verbose: Some(checked.summary()),
            },
        };
        Some(Notification::new(LogTrace::METHOD.to_string(), params))
    }

    /// The request that asks the client to tell of changes to the pool
    /// files on disk (`workspace/didChangeWatchedFiles`), when it can.
    fn watch_registration(&self) -> Option<Request> {
        if !self.initialized || !self.can_watch {
            return None;
        }
        let watchers = ["**/*.yaml", "**/*.yml"].map(|glob| lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String(glob.to_string()),
            kind: None,
        });
        let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
            watchers: watchers.to_vec(),
        };
        let registration = lsp_types::Registration {
            id: "blades-pool-files".to_string(),
            method: DidChangeWatchedFiles::METHOD.to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        Some(Request::new(
            RequestId::from(WATCH_REQUEST.to_string()),
            RegisterCapability::METHOD.to_string(),
            lsp_types::RegistrationParams {
                registrations: vec![registration],
            },
        ))
    }

    /// The client's answer to a request of ours: once it agrees to watch
    /// the pool files, each pool trusts its last listing until told of a
    /// change.
    fn heard_back(&mut self, response: Response) {
        let ours = response.id == RequestId::from(WATCH_REQUEST.to_string());
        if ours && response.response_result.is_ok() {
            self.watched = true;
            self.pools.values_mut().for_each(LivePool::watched);
        }
    }

    /// Files changed on disk (saved, made, deleted, by the editor or by
    /// anything else): each checked pool they are in is to be checked
    /// again. A check reads again only the files whose stamp changed.
    fn files_changed(&mut self, changes: Vec<lsp_types::FileEvent>) -> Vec<Notification> {
        for change in changes {
            let Some(path) = path_of(&change.uri) else {
                continue;
            };
            for (dir, live) in &mut self.pools {
                if path.starts_with(dir) {
                    live.disk_changed();
                    self.stale.insert(dir.clone());
                }
            }
            // The player inputs' pool: their checks make its ground again.
            if let Some(dir) = documents::input_pool(self.root.as_deref())
                && path.starts_with(&dir)
            {
                self.inputs.pool_changed(&dir);
            }
        }
        Vec::new()
    }

    /// Keeps a document's text; its pool (a player input: the input) is
    /// to be checked again.
    fn set_text(&mut self, uri: Uri, text: String) -> Option<Vec<Notification>> {
        let path = path_of(&uri)?;
        match inputs::Kind::of(self.root.as_deref(), &path, &text) {
            Some(kind) => self.inputs.changed(&uri, kind),
            None => {
                self.inputs.forget(&uri);
                self.stale.insert(pool_dir(self.root.as_deref(), &path));
            }
        }
        self.open.insert(
            uri.as_str().to_string(),
            Document {
                uri,
                path,
                text: Arc::from(text),
            },
        );
        Some(Vec::new())
    }

    /// Drops a document's text and clears its findings; its pool is to be
    /// checked again with the file as it is on disk.
    fn close(&mut self, uri: Uri) -> Option<Vec<Notification>> {
        let document = self.open.remove(uri.as_str())?;
        if self.inputs.forget(&uri) {
            return Some(vec![publish(uri, Vec::new())]);
        }
        let dir = pool_dir(self.root.as_deref(), &document.path);
        self.stale.insert(dir);
        Some(vec![publish(uri, Vec::new())])
    }

    /// Checks every pool changed since its last check and publishes the
    /// findings of its open documents; then the cursor's index of the pool
    /// takes in what the check read and built.
    fn check_stale(&mut self, output: &mut impl Write) -> io::Result<()> {
        for dir in std::mem::take(&mut self.stale) {
            let Some(mut checked) = self.check(&dir) else {
                self.cursor.forget(&dir);
                continue;
            };
            let trace = self.trace_of(&dir, &checked);
            let lists = std::mem::take(&mut checked.lists).into_iter();
            let published = lists.map(|(uri, diagnostics)| publish(uri, diagnostics));
            for notification in published.chain(trace) {
                transport::write(output, &Message::Notification(notification))?;
            }
            self.inputs.pool_changed(&dir);
            self.cursor.checked(&dir, checked);
        }
        for published in self.publish_inputs() {
            transport::write(output, &Message::Notification(published))?;
        }
        Ok(())
    }

    /// Whether nothing waits to be checked.
    fn nothing_stale(&self) -> bool {
        self.stale.is_empty() && !self.inputs.any_stale()
    }

    /// The findings of every player input changed, or whose pool changed,
    /// since it was last checked.
    fn publish_inputs(&mut self) -> Vec<Notification> {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        let mut pools = inputs::Pools {
            input_pool: documents::input_pool(self.root.as_deref()),
            live: &mut self.pools,
            watched: self.watched,
        };
        let inputs = &mut self.inputs;
        let open = &self.open;
        // As for a pool: a check that fails leaves the inputs unchecked.
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            inputs.check_stale(&mut pools, open, encoding)
        }));
        let lists = checked.unwrap_or_default().into_iter();
        lists
            .map(|(uri, diagnostics)| publish(uri, diagnostics))
            .collect()
    }

    /// The findings of every open document in the pool in `dir`.
    fn check(&mut self, dir: &Path) -> Option<check::Checked> {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        // Player inputs are checked apart (`inputs`), not as the pool's.
        let inputs = &self.inputs;
        let open = self.open.values().filter(|d| !inputs.is_input(&d.uri));
        check_kept(&mut self.pools, dir, open, encoding, self.watched)
    }
}

/// The id of the server's request that the client watch the pool files.
const WATCH_REQUEST: &str = "blades-watch";

/// What the cursor's requests need of the server (its fields, borrowed
/// apart from the cursor's memory).
fn session<'a>(
    root: &'a Option<PathBuf>,
    open: &'a HashMap<String, Document>,
    encoding: Option<Encoding>,
    watched: bool,
) -> session::Session<'a> {
    session::Session {
        root: root.as_deref(),
        open,
        encoding: encoding.unwrap_or(Encoding::Utf16),
        watched,
    }
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

/// The first workspace folder, else the deprecated root URI.
fn workspace_root(params: &InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = params.workspace_folders.as_ref().and_then(|f| f.first()) {
        return path_of(&folder.uri);
    }
    #[allow(deprecated)]
    params.root_uri.as_ref().and_then(path_of)
}

pub(crate) fn invalid_params(id: RequestId, error: impl std::fmt::Debug) -> Response {
    Response::new_err(
        id,
        ErrorCode::InvalidParams as i32,
        format!("the request's parameters cannot be read: {error:?}"),
    )
}
