//! The web board (`pbrain-mnk gui`): a local HTTP server with a page to play and study on.
//!
//! The page (`assets/`, built into the binary) holds the game: the board, the rule, the
//! moves and who sits at each side. The server keeps no game of its own; each request names
//! the position as a move list, and the server checks it, searches it or asks a seated
//! engine about it ([`routes`] lists the routes). So a reload, two tabs or a bad request
//! never leave a game half-changed.
//!
//! **Who may ask.** It serves the one person at this machine: it listens on 127.0.0.1 only,
//! and refuses (403) a request whose `Host` is not this address and port, or whose `Origin`
//! (sent by browsers with every cross-site request) is not this page's. Any web page the
//! person visits can send requests to their machine; with these checks it cannot read or
//! change anything here, and a DNS name pointed at 127.0.0.1 (rebinding) is refused by its
//! `Host`. The engines a person may seat are fixed when the server starts (`--engine
//! NAME=COMMAND`); a request names one of them, never a command.
//!
//! No other site may show the page in a frame (`X-Frame-Options: DENY` and `frame-ancestors
//! 'none'` on every answer), so none can trick a click onto its board.
//!
//! **Searches** run on tokio's blocking threads, so the server answers other requests
//! (the page, positions, a second search queued behind the first) while the engine thinks;
//! the page polls `/api/progress` meanwhile to show each completed iteration. mnk searches
//! one position at a time: a search's time counts from when it gets the engine, so one
//! queued behind another still gets all of its time. Each search has a stop flag, raised by
//! `/api/stop` (the page's Stop and Move now) or when its client goes away.

mod routes;

use std::collections::BTreeMap;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use mnk_engine::engine::Engine;
use mnk_engine::limits::StopFlag;

use mnk_protocol::manager::process::EngineCommand;
use mnk_protocol::manager::referee::{EngineSpec, Seat};

/// How the server is started.
#[derive(Clone, Debug)]
pub(crate) struct ServerConfig {
    /// The port on 127.0.0.1 (0: one the system picks).
    pub port: u16,
    /// The engines a person may seat, by the name the page shows.
    pub engines: Vec<(String, EngineCommand)>,
    /// The transposition table of mnk's searches, in bytes.
    pub hash_bytes: usize,
}

/// What the handlers share.
pub(crate) struct AppState {
    /// The address the server listens on (the `Host` and `Origin` requests must name).
    pub(crate) address: SocketAddr,
    /// mnk's own engine (one search at a time; its table is kept between moves).
    pub(crate) engine: Mutex<Engine>,
    /// The engines that may be seated, by name, each started when first asked.
    pub(crate) seats: BTreeMap<String, Mutex<Seat>>,
    /// Seeds for the engine's draws below full strength, one a search.
    pub(crate) searches: Mutex<u64>,
    /// The last completed iteration of mnk's search under way (or just ended).
    pub(crate) progress: Mutex<Option<routes::Progress>>,
    /// The stop flags of mnk's searches under way or queued.
    pub(crate) thinking: Mutex<Thinking>,
}

/// The stop flags of the search requests alive, by request number.
#[derive(Default)]
pub(crate) struct Thinking {
    /// The number the next request gets.
    next: u64,
    flags: BTreeMap<u64, StopFlag>,
}

impl Thinking {
    /// Lists a new request's flag; its number.
    pub(crate) fn add(&mut self, flag: StopFlag) -> u64 {
        self.next += 1;
        self.flags.insert(self.next, flag);
        self.next
    }

    /// Takes request `number`'s flag off the list.
    pub(crate) fn remove(&mut self, number: u64) {
        self.flags.remove(&number);
    }

    /// Raises every listed flag (`/api/stop`, Ctrl-C); how many.
    pub(crate) fn stop_all(&self) -> usize {
        for flag in self.flags.values() {
            flag.raise();
        }
        self.flags.len()
    }
}

/// `mutex`'s value, also after a handler panicked while holding it (every value the server
/// keeps stays whole between statements).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Serves the board until Ctrl-C (or a termination signal), then returns. `listening` is
/// called with the address once the port is bound (the binary prints it).
pub(crate) fn serve(config: ServerConfig, listening: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, config.port)).await?;
        let address = listener.local_addr()?;
        let state = Arc::new(AppState {
            address,
            engine: Mutex::new(Engine::with_hash_bytes(config.hash_bytes)),
            seats: config
                .engines
                .into_iter()
                .map(|(name, command)| (name, Mutex::new(Seat::new(EngineSpec::new(command)))))
                .collect(),
            searches: Mutex::new(0),
            progress: Mutex::new(None),
            thinking: Mutex::new(Thinking::default()),
        });
        listening(address);
        let stopping = state.clone();
        axum::serve(listener, router(state)).with_graceful_shutdown(shutdown(stopping)).await
    })
}

/// The routes, behind the host and origin check.
fn router(state: Arc<AppState>) -> Router {
    routes::routes()
        .layer(middleware::from_fn_with_state(state.clone(), only_this_machine))
        .with_state(state)
}

/// Resolves on Ctrl-C or SIGTERM, having stopped mnk's searches (each answers at once, so
/// the server does not wait for them).
async fn shutdown(state: Arc<AppState>) {
    crate::signals::stop_requested().await;
    let stopped = lock(&state.thinking).stop_all();
    if stopped > 0 {
        eprintln!("stopped {stopped} search(es); the server ends once they have answered");
    }
}

/// Refuses requests that do not come from a page of this server, and forbids framing every
/// answer (see the module docs).
async fn only_this_machine(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = match check_origin(request.headers(), state.address) {
        Ok(()) => next.run(request).await,
        Err(why) => routes::error(StatusCode::FORBIDDEN, why),
    };
    let headers = response.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    response
}

/// Whether the `Host` names this server (`127.0.0.1:PORT` or `localhost:PORT`) and the
/// `Origin`, if any, is `http://` and one of those.
fn check_origin(headers: &HeaderMap, address: SocketAddr) -> Result<(), String> {
    let allowed =
        [format!("127.0.0.1:{}", address.port()), format!("localhost:{}", address.port())];
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    if !allowed.iter().any(|a| a.eq_ignore_ascii_case(host)) {
        return Err(format!("refused: Host {host:?} is not this server ({})", allowed[0]));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let ok = origin
            .strip_prefix("http://")
            .is_some_and(|rest| allowed.iter().any(|a| a.eq_ignore_ascii_case(rest)));
        if !ok {
            return Err(format!("refused: requests from {origin:?} are not served"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn only_requests_naming_this_server_pass() {
        let address: SocketAddr = "127.0.0.1:8123".parse().unwrap();
        for (host, origin) in [
            ("127.0.0.1:8123", None),
            ("localhost:8123", Some("http://localhost:8123")),
            ("127.0.0.1:8123", Some("http://127.0.0.1:8123")),
        ] {
            assert!(check_origin(&headers(host, origin), address).is_ok(), "{host} {origin:?}");
        }
        for (host, origin) in [
            ("evil.example:8123", None),
            ("127.0.0.1:9999", None),
            ("127.0.0.1", None),
            ("127.0.0.1:8123", Some("http://evil.example")),
            ("127.0.0.1:8123", Some("null")),
            ("127.0.0.1:8123", Some("https://127.0.0.1:8123")),
        ] {
            assert!(check_origin(&headers(host, origin), address).is_err(), "{host} {origin:?}");
        }
    }
}
