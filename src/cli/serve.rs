//! `blades serve`: the local web app for players (the server itself is
//! [`blades::serve`]). Parses the options, opens the pool once and serves.

use std::net::{IpAddr, Ipv4Addr};
use std::process::{Command, ExitCode, Stdio};

use blades::diagnostics::{Code, Diagnostic};
use blades::faces::render::art_images;
use blades::serve::{Listen, Server, Site};

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

pub fn run(context: &Context, args: Args) -> ExitCode {
    let workspace = match context.workspace() {
        Ok(workspace) => workspace,
        Err(code) => return code,
    };
    let ground = match deck::ground_of(context, &workspace) {
        Ok(ground) => ground,
        Err(code) => return code,
    };
    let site = Site {
        art: art_images(workspace.pool(), &ground.database),
        ground,
        pool: context.pool.describe(),
    };
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
    if !host.is_loopback() {
        stderrln!(
            "warning: listening on {host}, not only on this machine: anyone who can reach it can use the app"
        );
    }
    let url = server.url();
    // Tests and scripts read this line for the port.
    stdoutln!("listening on {url}");
    if args.open {
        open_browser(&url);
    }
    server.run();
    ExitCode::from(exit::OK)
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
