//! `blades serve`: the local web app for players (the server itself is
//! [`blades::serve`]). Parses the options, opens the pool once and serves.

use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use blades::diagnostics::{Code, Diagnostic};
use blades::faces::render::art_images;
use blades::files;
use blades::report::Format;
use blades::serve::{Listen, Server, Site};
use blades::workspace::{self, Workspace};

use super::out::{stderrln, stdoutln};
use super::{Context, deck, exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The port to listen on (0: any free port, printed on start).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The address to listen on; default the loopback address, seen from this machine only.
    #[arg(long, value_name = "ADDRESS")]
    host: Option<IpAddr>,
    /// Open the app in the desktop's browser (`xdg-open`); the server starts either way.
    #[arg(long)]
    open: bool,
}

/// `--format json`: the one line printed on start, in place of
/// `listening on URL` (and of the warning on stderr).
#[derive(serde::Serialize)]
struct Started<'a> {
    url: &'a str,
    /// Said when the address is not loopback: others can reach the app.
    #[serde(skip_serializing_if = "Option::is_none")]
    warning: Option<&'a str>,
}

pub fn run(context: &Context, args: Args) -> ExitCode {
    // A process that stays up gives freed memory back when it is freed:
    // the start's short-lived buffers no longer stay resident beside what
    // it keeps (docs/decisions.md, "What the server holds", part 11).
    blades_alloc::give_back_freed_memory_at_once();
    let workspace = match workspace_to_serve(context) {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let ground = match deck::ground_of(context, &workspace, None) {
        Ok(ground) => ground,
        Err(code) => return code,
    };
    let site = Site {
        art: art_images(workspace.pool(), &ground.database),
        ground,
        pool: context.pool.dir().map(|dir| dir.display().to_string()),
    };
    // The server answers from the site alone: the pool's sources and the
    // build's cache are let go before it listens (at 100,000 cards they
    // held more than the database itself; bench/SERVE.md).
    drop(workspace);
    let host = args.host.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let server = match Server::bind(
        site,
        Listen {
            host,
            port: args.port,
        },
    ) {
        Ok(server) => server,
        Err(e) => {
            return context.refuse(
                Diagnostic::general(Code::Usage, e.to_string())
                    .with_help("choose another port with --port N (0: any free port)"),
            );
        }
    };
    let url = server.url();
    let warning = (!host.is_loopback()).then(|| {
        format!(
            "listening on {host}, not only on this machine: anyone who can reach it can use the app"
        )
    });
    // Tests and scripts read this line for the port: said once the
    // server is ready to answer.
    server.run(|| said_listening(context, &url, warning.as_deref(), args.open));
    ExitCode::from(exit::OK)
}

/// The workspace the server answers from. A pool its card index does not
/// describe (never built, or changed since) is built first by a child
/// process: this very binary's `blades build`, into a scratch folder
/// outside the pool (with a copy of the pool's build cache, when it has
/// one, so that unchanged files are not parsed again), whose card index
/// the server then opens. The build's short-lived memory is then the
/// child's, given back when it exits, and the server's own peak is a start
/// from the index (docs/decisions.md, "What the server holds", part 9).
/// When the child makes no index (the pool has errors, or it could not
/// run), the pool is built here as before, which reports what stands in
/// the way.
fn workspace_to_serve(context: &Context) -> Result<Workspace, ExitCode> {
    let workspace = context.workspace()?;
    let Some(dir) = context.pool.dir() else {
        return Ok(workspace.asked_once());
    };
    if workspace.has_index() {
        return Ok(workspace.asked_once());
    }
    match built_aside(dir) {
        Some(built) => {
            if context.tells() {
                stderrln!(
                    "built the pool first: its last build, if any, is out of date (after `blades build`, the server starts from that)"
                );
            }
            Ok(built)
        }
        None => Ok(workspace.asked_once()),
    }
}

/// The pool in `dir` built by a child `blades build` into a scratch
/// folder, and opened through that build's card index; `None` when it made
/// none. The folder is deleted before the cards are read: the index stays
/// open, and is read from its open file.
fn built_aside(dir: &Path) -> Option<Workspace> {
    let scratch = files::scratch_folder().ok()?;
    let out = scratch.path().join("cards.json");
    // A cache that cannot be copied only costs the child its time.
    let cache = workspace::cache_beside(Path::new(workspace::DEFAULT_DATABASE));
    let _ = std::fs::copy(cache, workspace::cache_beside(&out));
    let built = Command::new(std::env::current_exe().ok()?)
        .arg("--quiet")
        .arg("--cards")
        .arg(dir)
        .arg("build")
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    if !built.success() {
        return None;
    }
    let workspace = Workspace::open_beside(Some(dir), &out).ok()?.asked_once();
    workspace.has_index().then_some(workspace)
}

/// The line that says where the app is (and a warning when others can
/// reach it); opens the browser when asked.
fn said_listening(context: &Context, url: &str, warning: Option<&str>, open: bool) {
    match context.format {
        Format::Json => {
            let started = Started { url, warning };
            stdoutln!("{}", serde_json::to_string(&started).unwrap_or_default());
        }
        Format::Human => {
            if let Some(warning) = &warning {
                stderrln!("warning: {warning}");
            }
            stdoutln!("listening on {url}");
        }
    }
    if open {
        open_browser(url);
    }
}

/// Asks the desktop to open `url`; the app runs whether or not it can.
fn open_browser(url: &str) {
    let opened = Command::new("xdg-open")
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    if let Err(e) = opened {
        stderrln!("note: could not open a browser ({e}); open {url}");
    }
}
