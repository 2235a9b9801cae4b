//! `blades serve`: a local web app for players, on the library itself.
//!
//! Every answer comes from the functions the commands call: the search
//! language ([`crate::search`]), the deck checks and share codes
//! ([`crate::rules`]), a card's summary ([`crate::summary`]) and its face
//! ([`crate::faces`]). The pages ([`assets`]) only ask and show; no rule is
//! written again in them or here.
//!
//! The pool is read and its database built once, before the server
//! listens; a request never builds. Nothing is written. The server binds to
//! the address it is given (the command line gives loopback unless told
//! otherwise), every request is bounded ([`http`]), in size and in the
//! time its connection may take ([`conn`]), and a request that cannot be
//! answered is a 4xx with a JSON message, never a crash: a handler that
//! panicked all the same answers 500 and the server goes on.

mod api;
mod assets;
mod conn;
mod http;

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use crate::effect::Keywords;
use crate::faces::art::ArtImages;
use crate::rules::check::Ground;
use crate::search::{Catalog, Index};

pub use conn::{BODY_WAIT, CONNECTIONS, HEAD_WAIT, HeadRead, read_head_bytes};
pub use http::{MAX_BODY, MAX_QUERY, MAX_URL};

use http::{Reply, Request};

/// Requests answered at once: a slow search does not hold up the page's
/// fonts. Each search is itself parallel, so more would only queue.
const WORKERS: usize = 4;

/// What the server answers about, made once at start.
pub struct Site {
    /// The pool's database and deck formats.
    pub ground: Ground,
    /// The cards' art, read from the pool's folder once.
    pub art: ArtImages,
    /// The pool's folder, for people (none for the built-in pool).
    pub pool: Option<String>,
}

/// Where to listen: an address and a port (0: any free port).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listen {
    pub host: IpAddr,
    pub port: u16,
}

/// A server bound to its address, not yet answering.
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
    site: Site,
}

/// Why the server could not listen.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {address}: {reason}")]
pub struct BindError {
    pub address: SocketAddr,
    pub reason: String,
}

impl Server {
    /// Binds to `listen`; the pages are answered once [`Server::run`] runs.
    pub fn bind(site: Site, listen: Listen) -> Result<Server, BindError> {
        let wanted = SocketAddr::new(listen.host, listen.port);
        let refused = |reason: String| BindError {
            address: wanted,
            reason,
        };
        let listener = TcpListener::bind(wanted).map_err(|e| refused(e.to_string()))?;
        // The port the system chose, for `--port 0`.
        let address = listener.local_addr().map_err(|e| refused(e.to_string()))?;
        Ok(Server {
            listener,
            address,
            site,
        })
    }

    /// The address listened on, with the port the system chose.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The app's address for a browser (`http://127.0.0.1:8000/`).
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Makes what every answer reads, calls `ready` (the command says it
    /// listens), then answers requests until the process ends.
    pub fn run(self, ready: impl FnOnce()) {
        // The search index and its words are made once and shared, every
        // column now (the folded names and texts, the keywords, the types
        // the cards add), and the card index's map of ids: no answer, not
        // the first, pays for one (bench/SERVE.md).
        let index = Index::new(&self.site.ground.database);
        index.make_columns();
        let catalog = Catalog::for_index(&index, &Keywords::builtin());
        catalog.read_cards();
        let cards = self.site.ground.index();
        let _ = cards.by_id("");
        let types = api::pool_types(&self.site.ground.database);
        let state = api::State {
            site: &self.site,
            index: &index,
            catalog: &catalog,
            cards: &cards,
            types: &types,
            hosts: http::own_hosts(self.address),
        };
        let queue = conn::Queue::new();
        ready();
        std::thread::scope(|scope| {
            for _ in 0..WORKERS {
                scope.spawn(|| queue.work(|request| answer(&state, request)));
            }
            conn::accept(&self.listener, &queue);
        });
    }
}

/// Answers one request; a handler that panics answers 500, and the
/// worker goes on with the next request. The request comes read whole,
/// and the answer is written, on its connection's thread ([`conn`]): a
/// client that stalls holds no worker.
fn answer(state: &api::State, request: Request) -> Reply {
    // Server time: from routing to the answer made, not its writing
    // (`Server-Timing: app;dur=…`, after the stages a handler timed).
    let routed = Instant::now();
    let reply = catch_unwind(AssertUnwindSafe(|| route(state, request)))
        .unwrap_or_else(|_| Reply::error(500, "the server failed on this request"));
    reply.timed("app", routed.elapsed())
}

/// Finds what answers a request: the app's page, its assets, or the API.
fn route(state: &api::State, request: Request) -> Reply {
    if let Some(hosts) = &state.hosts
        && !http::host_is(&request, hosts)
    {
        // Another name for this address (a page whose domain was pointed
        // at 127.0.0.1) must not read the app's answers.
        return Reply::error(
            403,
            format!("this server answers at http://{}/ only", hosts[0]),
        );
    }
    let target = match http::Target::of(&request.url) {
        Ok(target) => target,
        Err(reply) => return reply,
    };
    let method = &request.method;
    let path = target.path.as_str();
    if let Some(rest) = path.strip_prefix("/api/") {
        return api::route(state, method, rest, &target, request.body);
    }
    if !http::reads(method) {
        return Reply::not_allowed("GET, HEAD");
    }
    match path {
        "/" | "/index.html" => assets::page(),
        _ => match path.strip_prefix("/assets/") {
            Some(name) => assets::asset(name),
            None => Reply::error(404, format!("nothing is served at `{path}`")),
        },
    }
}
