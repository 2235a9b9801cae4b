//! `blades lsp`: a Language Server Protocol server over a byte stream
//! (standard input and output), on the library every command uses.
//!
//! One thread, one message at a time: the diagnostics of a document are
//! published before the next message is read. The output stream carries
//! only protocol messages; the server prints nothing else.
//!
//! What it answers: `initialize` (full-text sync, the position encoding
//! agreed), `textDocument/codeAction` (the quick fixes the diagnostics
//! it published carry in their `data`), `textDocument/documentSymbol` (a
//! set file's set and cards), `shutdown`, and any other
//! request with `MethodNotFound`. What
//! it hears: `didOpen`, `didChange`, `didSave`, `didClose` (each checks
//! the document's pool again and publishes every open file's findings),
//! `exit`. A frame that is not a message gets a parse error and the
//! server reads on.

pub mod check;
pub mod cursor;
pub mod hover;
pub mod index;
pub mod locate;
pub mod position;
pub mod references;
pub mod rename;
pub mod symbols;
pub mod transport;

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, DocumentSymbolRequest, Initialize, Request as _, Shutdown,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, InitializeParams,
    InitializeResult, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};

use check::{Document, check_pool, path_of, pool_dir};
use position::Encoding;
use transport::Frame;

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
pub fn serve(input: &mut impl BufRead, output: &mut impl Write) -> io::Result<Ending> {
    let mut server = Server::default();
    loop {
        let message = match transport::read(input)? {
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
                let response = server.answer(request);
                transport::write(output, &Message::Response(response))?;
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
            // No request of ours awaits an answer.
            Message::Response(_) => {}
        }
    }
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
    /// The pools the cursor's requests asked about.
    cursor: cursor::Cursor,
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
                let session = session(&self.root, &self.open, self.encoding);
                self.cursor.answer(&session, request)
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
        self.initialized = true;
        self.root = workspace_root(&params);
        let result = InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Kind(
                    TextDocumentSyncKind::FULL,
                )),
                document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
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
        let text = match self.open.get(uri.as_str()) {
            Some(document) => Some(document.text.to_string()),
            None => path_of(uri).and_then(|path| std::fs::read_to_string(path).ok()),
        };
        let symbols = text.map_or_else(Vec::new, |text| symbols::document_symbols(&text, encoding));
        lsp_types::DocumentSymbolResponse::Nested(symbols)
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
            _ => None,
        };
        changed.unwrap_or_default()
    }

    /// Keeps a document's text and checks its pool again.
    fn set_text(&mut self, uri: Uri, text: String) -> Option<Vec<Notification>> {
        let path = path_of(&uri)?;
        let dir = pool_dir(self.root.as_deref(), &path);
        self.open.insert(
            uri.as_str().to_string(),
            Document {
                uri,
                path,
                text: Arc::from(text),
            },
        );
        Some(self.publish(&dir))
    }

    /// Drops a document's text, clears its findings and checks its pool
    /// again with the file as it is on disk.
    fn close(&mut self, uri: Uri) -> Option<Vec<Notification>> {
        let document = self.open.remove(uri.as_str())?;
        let dir = pool_dir(self.root.as_deref(), &document.path);
        let mut published = vec![publish(uri, Vec::new())];
        published.extend(self.publish(&dir));
        Some(published)
    }

    /// The findings of every open document in the pool in `dir`.
    fn publish(&self, dir: &std::path::Path) -> Vec<Notification> {
        let encoding = self.encoding.unwrap_or(Encoding::Utf16);
        // A check that fails on some input must not take the editor's
        // session down with it: that pool's files go unchecked this time.
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_pool(dir, self.open.values(), encoding)
        }));
        checked
            .unwrap_or_default()
            .into_iter()
            .map(|(uri, diagnostics)| publish(uri, diagnostics))
            .collect()
    }
}

/// What the cursor's requests need of the server (its fields, borrowed
/// apart from the cursor's memory).
fn session<'a>(
    root: &'a Option<PathBuf>,
    open: &'a HashMap<String, Document>,
    encoding: Option<Encoding>,
) -> cursor::Session<'a> {
    cursor::Session {
        root: root.as_deref(),
        open,
        encoding: encoding.unwrap_or(Encoding::Utf16),
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
