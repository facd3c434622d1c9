//! `verigym serve`: the envs over HTTP (hyper 1 and hyper-util, the stack
//! axum is built on; axum itself would change features of crates the whole
//! workspace shares and rebuild wasmtime, for nine routes matched here).
//!
//! Stateless endpoints (list, generate, score) so that any number of
//! replicas can sit behind a load balancer, plus stateful episodes for
//! multi-turn envs and games, which live in one replica's memory until
//! deleted or idle past the TTL.
//!
//! CPU work (generation, scoring, env steps) never runs on the async
//! runtime: it goes to a rayon pool through a bounded work queue ([`work`]),
//! under a time budget and an answer-size cap. When the queue is full the
//! server answers 503 "busy" at once instead of piling up requests until it
//! falls over.

pub mod cardsets;
mod conn;
mod credentials;
mod episode_store;
mod episodes;
mod error;
mod handlers;
pub mod load;
pub mod load_ws;
pub mod openapi;
pub mod openenv;
mod openrlhf;
mod work;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::{Method, Request};
use verigym_envs::Registry;

pub use error::ApiError;
use error::{HttpResponse, ok_json, read_json};
pub use work::StatsSnapshot;

/// Every route, as (method, path in OpenAPI form): the router, the OpenAPI
/// description and the tests all check against this list.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/healthz"),
    ("GET", "/openapi.json"),
    ("GET", "/v1/envs"),
    ("POST", "/v1/generate"),
    ("POST", "/v1/score"),
    ("POST", "/v1/episodes"),
    ("GET", "/v1/episodes/{id}"),
    ("DELETE", "/v1/episodes/{id}"),
    ("POST", "/v1/episodes/{id}/step"),
    ("POST", "/openrlhf/reward"),
    ("GET", "/ws"),
    ("POST", "/reset"),
    ("POST", "/step"),
    ("GET", "/state"),
    ("POST", "/close"),
    ("GET", "/schema"),
    ("GET", "/health"),
    ("GET", "/metadata"),
    ("POST", "/mcp"),
];

/// How the server runs (the `verigym serve` flags).
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub addr: SocketAddr,
    /// Live episodes at most; creating one more answers 429.
    pub max_episodes: usize,
    /// An episode unused for this long is dropped.
    pub episode_ttl: Duration,
    /// Largest request body in bytes; larger ones answer 413.
    pub max_body: usize,
    /// Requests with a body admitted at once (reading their body, running
    /// or waiting); more answer 503.
    pub queue: usize,
    /// Wall-clock budget of one generate, score, reset or step job; past it
    /// the request answers 503 and the job stops at its next check.
    pub job_timeout: Duration,
    /// Largest answer in bytes; a request whose answer would be larger
    /// answers 413.
    pub max_response: usize,
    /// Open connections one client address may hold (WebSocket sessions
    /// included); more are answered 503 and closed.
    pub max_conns_per_ip: usize,
    /// Most cards one generate request may ask for.
    pub max_generate: usize,
    /// A connection that has not sent a whole request head this long after
    /// it began one is closed.
    pub header_timeout: Duration,
    /// A connection with no request in flight for this long is closed.
    pub idle_timeout: Duration,
    /// The card sets dataset envs may read, by name (`--cards NAME=PATH`).
    pub card_sets: Vec<(String, std::path::PathBuf)>,
    /// The env a bare OpenEnv `reset()` starts (`--env`); default
    /// [`DEFAULT_OPENENV_ENV`].
    pub default_env: Option<String>,
}

/// The env a bare OpenEnv `reset()` plays when `--env` is not given.
pub const DEFAULT_OPENENV_ENV: &str = "logic/guess-number-v2";

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_episodes: 1024,
            episode_ttl: Duration::from_secs(600),
            max_body: 16 * 1024 * 1024,
            queue: 64,
            job_timeout: Duration::from_secs(30),
            max_response: 64 * 1024 * 1024,
            max_conns_per_ip: 256,
            max_generate: 100_000,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            card_sets: Vec::new(),
            default_env: None,
        }
    }
}

/// What every handler shares.
pub struct AppState {
    pub registry: Registry,
    pub options: ServeOptions,
    pub work: work::WorkQueue,
    pub episodes: episode_store::EpisodeStore,
    pub openenv: openenv::Sessions,
    pub card_sets: cardsets::CardSets,
    /// Turns true at shutdown: WebSocket sessions close with 1001.
    pub stopping: tokio::sync::watch::Sender<bool>,
}

pub type SharedState = Arc<AppState>;

/// Answers one request: routes it by method and path segments.
pub async fn handle(state: SharedState, request: Request<Incoming>) -> HttpResponse {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let query = request.uri().query().map(str::to_string);
    let answer = if method == Method::POST {
        route_post(&state, request, &path).await
    } else {
        route(&state, request, &method, &path, query.as_deref())
    };
    let answer = answer.unwrap_or_else(ApiError::into_response);
    // The routes that build large answers stop early on their own; this
    // holds the limit for every other one.
    let max_response = state.options.max_response as u64;
    if hyper::body::Body::size_hint(answer.body())
        .exact()
        .is_some_and(|n| n > max_response)
    {
        return ApiError::response_too_large(state.options.max_response).into_response();
    }
    answer
}

/// The routes without a request body.
fn route(
    state: &SharedState,
    request: Request<Incoming>,
    method: &Method,
    path: &str,
    query: Option<&str>,
) -> Result<HttpResponse, ApiError> {
    let token = credentials::bearer(request.headers());
    let token = token.as_deref();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (method.as_str(), segments.as_slice()) {
        ("GET", ["healthz"]) => Ok(handlers::healthz(state)),
        ("GET", ["openapi.json"]) => Ok(ok_json(&openapi::document())),
        ("GET", ["v1", "envs"]) => Ok(handlers::list_envs(state)),
        ("GET", ["v1", "episodes", id]) if !id.is_empty() => {
            episodes::show(state, id, token, query)
        }
        ("DELETE", ["v1", "episodes", id]) if !id.is_empty() => episodes::delete(state, id, token),
        ("GET", ["ws"]) => openenv::ws::upgrade(state, request),
        ("GET", ["state"]) => openenv::http_state(state, query),
        ("GET", ["schema"]) => Ok(openenv::schema()),
        ("GET", ["health"]) => Ok(openenv::health()),
        ("GET", ["metadata"]) => Ok(openenv::metadata(state)),
        _ => Err(handlers::unrouted(method.as_str(), path)),
    }
}

/// The routes with a JSON body. Each takes its work slot before the body
/// is read, so reading and parsing bodies counts against `--queue`.
async fn route_post(
    state: &SharedState,
    request: Request<Incoming>,
    path: &str,
) -> Result<HttpResponse, ApiError> {
    let max_body = state.options.max_body;
    let token = credentials::bearer(request.headers());
    let token = token.as_deref();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let known = matches!(
        segments.as_slice(),
        ["v1", "generate" | "score" | "episodes"]
            | ["v1", "episodes", _, "step"]
            | ["openrlhf", "reward"]
            | ["reset" | "step" | "close" | "mcp"]
    );
    if !known {
        return Err(handlers::unrouted("POST", path));
    }
    let slot = match state.work.admit() {
        Ok(slot) => slot,
        Err(busy) => {
            error::discard_body(request, max_body).await;
            return Err(busy);
        }
    };
    match segments.as_slice() {
        ["v1", "generate"] => {
            handlers::generate(state, slot, read_json(request, max_body).await?).await
        }
        ["v1", "score"] => handlers::score(state, slot, read_json(request, max_body).await?).await,
        ["v1", "episodes"] => {
            episodes::create(state, slot, read_json(request, max_body).await?).await
        }
        ["v1", "episodes", id, "step"] if !id.is_empty() => {
            episodes::step(state, id, token, slot, read_json(request, max_body).await?).await
        }
        ["openrlhf", "reward"] => {
            openrlhf::reward(state, slot, read_json(request, max_body).await?).await
        }
        ["reset"] => {
            // OpenEnv's reset body is optional.
            let data = read_json::<Option<openenv::session::ResetData>>(request, max_body).await?;
            openenv::http_reset(state, slot, data.unwrap_or_default()).await
        }
        ["step"] => openenv::http_step(state, slot, read_json(request, max_body).await?).await,
        ["close"] => openenv::http_close(state, read_json(request, max_body).await?),
        ["mcp"] => {
            let body = read_json::<serde_json::Value>(request, max_body).await;
            Ok(openenv::mcp(
                body.map(|b| b.to_string()).unwrap_or_default().as_bytes(),
            ))
        }
        _ => Err(handlers::unrouted("POST", path)),
    }
}

fn new_state(options: ServeOptions, registry: Registry) -> std::io::Result<SharedState> {
    let card_sets = cardsets::CardSets::new(&options.card_sets)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    if let Some(id) = &options.default_env {
        registry.make(id, None).map_err(|e| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("--env: {e}"))
        })?;
    }
    Ok(Arc::new(AppState {
        card_sets,
        registry,
        work: work::WorkQueue::new(options.queue, options.job_timeout, options.max_response)
            .map_err(std::io::Error::other)?,
        episodes: episode_store::EpisodeStore::new(options.max_episodes, options.episode_ttl),
        openenv: openenv::Sessions::new(options.max_episodes, options.episode_ttl),
        stopping: tokio::sync::watch::channel(false).0,
        options,
    }))
}

/// Runs the server in this thread until SIGINT or SIGTERM; `ready` gets the
/// bound address (the real port when asked for port 0) once it accepts
/// connections.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run_until_signal(
    options: ServeOptions,
    registry: Registry,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<StatsSnapshot> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let shutdown = shutdown_signal()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.addr).await?;
        let state = new_state(options, registry)?;
        ready(listener.local_addr()?);
        conn::serve_on(listener, state.clone(), shutdown).await?;
        Ok(state.work.stats())
    })
}

/// A future that resolves on the first SIGINT (Ctrl-C) or SIGTERM, which a
/// plain thread waits for (tokio's own signal feature would change tokio's
/// features for the whole workspace).
fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    let (signalled, received) = tokio::sync::oneshot::channel::<()>();
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
        std::thread::Builder::new()
            .name("verigym-signals".into())
            .spawn(move || {
                if signals.forever().next().is_some() {
                    let _ = signalled.send(());
                }
            })?;
    }
    #[cfg(not(unix))]
    std::mem::forget(signalled);
    Ok(async move {
        let _ = received.await;
    })
}

/// A server running on its own thread (for tests and embedding).
pub struct RunningServer {
    addr: SocketAddr,
    state: SharedState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl RunningServer {
    /// Binds `options.addr` and starts serving on a new thread.
    ///
    /// # Errors
    /// The address cannot be bound, or the runtime cannot start.
    pub fn start(options: ServeOptions, registry: Registry) -> std::io::Result<Self> {
        let listener = std::net::TcpListener::bind(options.addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let state = new_state(options, registry)?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let thread_state = state.clone();
        let thread = std::thread::Builder::new()
            .name("verigym-serve".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    conn::serve_on(listener, thread_state, async move {
                        let _ = stopped.await;
                    })
                    .await
                })
            })?;
        Ok(RunningServer {
            addr,
            state,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Request counters so far.
    pub fn stats(&self) -> StatsSnapshot {
        self.state.work.stats()
    }

    /// Stops accepting, finishes the requests in flight, and waits.
    ///
    /// # Errors
    /// What the server loop returned.
    pub fn shutdown(mut self) -> std::io::Result<()> {
        self.stop_and_join()
    }

    fn stop_and_join(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the server thread panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.stop_and_join();
    }
}
