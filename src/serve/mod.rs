//! `verigym serve`: the envs over HTTP (axum).
//!
//! Stateless endpoints (list, generate, score) so that any number of
//! replicas can sit behind a load balancer, plus stateful episodes for
//! multi-turn envs and games, which live in one replica's memory until
//! deleted or idle past the TTL.
//!
//! CPU work (generation, scoring, env steps) never runs on the async
//! runtime: it goes to the rayon pool through a bounded work queue
//! ([`work`]). When the queue is full the server answers 503 "busy" at once
//! instead of piling up requests until it falls over.

mod episodes;
mod error;
mod handlers;
pub mod load;
pub mod openapi;
mod work;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use verigym_envs::Registry;

pub use error::ApiError;
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
    /// CPU jobs admitted at once (running or waiting); more answer 503.
    pub queue: usize,
    /// Most cards one generate request may ask for.
    pub max_generate: usize,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_episodes: 1024,
            episode_ttl: Duration::from_secs(600),
            max_body: 16 * 1024 * 1024,
            queue: 64,
            max_generate: 100_000,
        }
    }
}

/// What every handler shares.
pub struct AppState {
    pub registry: Registry,
    pub options: ServeOptions,
    pub work: work::WorkQueue,
    pub episodes: episodes::EpisodeStore,
}

pub type SharedState = Arc<AppState>;

/// The application: all routes over the shared state.
pub fn router(state: SharedState) -> Router {
    let max_body = state.options.max_body;
    Router::new()
        .route("/healthz", get(handlers::healthz))
        .route("/openapi.json", get(handlers::openapi))
        .route("/v1/envs", get(handlers::list_envs))
        .route("/v1/generate", post(handlers::generate))
        .route("/v1/score", post(handlers::score))
        .route("/v1/episodes", post(episodes::create))
        .route(
            "/v1/episodes/{id}",
            get(episodes::show).delete(episodes::delete),
        )
        .route("/v1/episodes/{id}/step", post(episodes::step))
        .fallback(handlers::no_route)
        .method_not_allowed_fallback(handlers::wrong_method)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

fn new_state(options: ServeOptions, registry: Registry) -> SharedState {
    Arc::new(AppState {
        registry,
        work: work::WorkQueue::new(options.queue),
        episodes: episodes::EpisodeStore::new(options.max_episodes, options.episode_ttl),
        options,
    })
}

/// Serves until `shutdown` resolves, then stops accepting connections and
/// finishes the requests in flight before returning.
async fn serve_on(
    listener: tokio::net::TcpListener,
    state: SharedState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = tokio::spawn(episodes::sweep_forever(state.clone()));
    let result = axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await;
    sweeper.abort();
    result
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
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.addr).await?;
        ready(listener.local_addr()?);
        let state = new_state(options, registry);
        serve_on(listener, state.clone(), shutdown_signal()).await?;
        Ok(state.work.stats())
    })
}

/// Resolves on the first SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
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
        let state = new_state(options, registry);
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
                    serve_on(listener, thread_state, async {
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
