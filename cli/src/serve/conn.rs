//! The accept loop and each connection's life: hyper's HTTP/1 with
//! upgrades (for `/ws`), a header-read timeout, an idle timeout, and
//! graceful shutdown.
//!
//! - `--header-timeout` (hyper's `header_read_timeout`): a connection that
//!   has not sent a whole request head this long after hyper began waiting
//!   for one is closed. hyper starts that wait when a connection opens and
//!   again after each answer, so it also bounds how long a kept-alive
//!   connection may sit between requests.
//! - `--idle-timeout`: a connection with no request in flight (and none
//!   begun) for this long is closed, whatever hyper is waiting for.
//!
//! - `--max-conns-per-ip`: one client address holds at most this many open
//!   connections (WebSocket sessions included); one more is answered 503
//!   naming the limit and closed, so one client cannot take every file
//!   descriptor.
//!
//! Upgraded WebSocket sessions leave hyper's connection; their own idle
//! limit is `--episode-ttl`.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};

use super::{SharedState, handle};

/// Requests in flight on one connection and when the last one ended.
struct Activity {
    opened: Instant,
    in_flight: AtomicUsize,
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Activity {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last_ms: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }

    /// How long the connection has had no request in flight (zero while one
    /// is).
    fn idle_for(&self) -> Duration {
        if self.in_flight.load(Ordering::SeqCst) > 0 {
            return Duration::ZERO;
        }
        Duration::from_millis(
            self.now_ms()
                .saturating_sub(self.last_ms.load(Ordering::SeqCst)),
        )
    }
}

/// Counts one request in flight until dropped (even when its client hangs
/// up mid-answer).
struct InFlight(Arc<Activity>);

impl InFlight {
    fn new(activity: &Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.last_ms.store(self.0.now_ms(), Ordering::SeqCst);
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Open connections per client address, under `--max-conns-per-ip`.
pub struct Peers {
    open: Mutex<HashMap<IpAddr, usize>>,
    cap: usize,
}

/// One open connection of a client address, counted until the last clone
/// is dropped (the connection's task, and its WebSocket session if it
/// upgrades).
pub struct PeerConnection {
    peers: Arc<Peers>,
    ip: IpAddr,
}

impl Peers {
    pub fn new(cap: usize) -> Arc<Self> {
        Arc::new(Peers {
            open: Mutex::new(HashMap::new()),
            cap,
        })
    }

    /// Counts one more connection of `ip`; `None` when it already holds
    /// the limit.
    fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<Arc<PeerConnection>> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(Arc::new(PeerConnection {
            peers: self.clone(),
            ip,
        }))
    }
}

impl Drop for PeerConnection {
    fn drop(&mut self) {
        let mut open = self.peers.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Answers a connection over the per-address limit with 503 and closes it.
/// What the client sends is read (for a second at most) after the answer,
/// so that closing with unread data does not reset the connection before
/// the client has read the answer. (Plain `try_read`/`try_write`: tokio's
/// io-util feature would change tokio's features for the whole workspace.)
async fn refuse(stream: tokio::net::TcpStream, cap: usize) {
    let body = serde_json::json!({
        "error": format!(
            "too many connections from your address: the limit is {cap} open connections \
             per client (--max-conns-per-ip); close idle ones or reuse them (keep-alive)"
        ),
        "kind": "too_many_connections",
    })
    .to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let written = tokio::time::timeout(Duration::from_secs(1), async move {
        let mut rest = answer.as_bytes();
        while !rest.is_empty() {
            stream.writable().await?;
            match stream.try_write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(e) => return Err(e),
            }
        }
        let std = stream.into_std()?;
        std.shutdown(std::net::Shutdown::Write)?;
        tokio::net::TcpStream::from_std(std)
    })
    .await;
    let Ok(Ok(stream)) = written else {
        return;
    };
    let mut sink = [0u8; 4096];
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        loop {
            if stream.readable().await.is_err() {
                return;
            }
            match stream.try_read(&mut sink) {
                Ok(0) => return,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(_) => return,
            }
        }
    })
    .await;
}

/// Serves until `shutdown` resolves, then stops accepting connections and
/// finishes the requests in flight (idle keep-alive connections are
/// closed) before returning.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: SharedState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = tokio::spawn(super::episodes::sweep_forever(state.clone()));
    // Each connection task holds a sender; all are gone once every
    // connection has finished.
    let (alive, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
    let mut shutdown = pin!(shutdown);
    let peers = Peers::new(state.options.max_conns_per_ip);
    loop {
        let next = std::future::poll_fn(|cx| {
            if shutdown.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            listener.poll_accept(cx).map(Some)
        })
        .await;
        let (stream, peer) = match next {
            None => break,
            Some(Ok(accepted)) => accepted,
            // Out of file descriptors and the like: back off, keep serving.
            Some(Err(_)) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(connection) = peers.enter(peer.ip()) else {
            tokio::spawn(refuse(stream, peers.cap));
            continue;
        };
        let activity = Arc::new(Activity::new());
        let service_state = state.clone();
        let service_activity = activity.clone();
        let service = service_fn(move |mut request: hyper::Request<Incoming>| {
            // A WebSocket upgrade takes this along, so the session counts
            // against its client's limit for as long as it lives.
            request.extensions_mut().insert(connection.clone());
            let state = service_state.clone();
            let in_flight = InFlight::new(&service_activity);
            async move {
                let answer = handle(state, request).await;
                drop(in_flight);
                Ok::<_, std::convert::Infallible>(answer)
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(state.options.header_timeout);
        // With upgrades, for OpenEnv's WebSocket sessions.
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let stopping = state.stopping.subscribe();
        let alive = alive.clone();
        let idle_timeout = state.options.idle_timeout;
        tokio::spawn(async move {
            let _alive = alive;
            serve_until_stopped(connection, stopping, activity, idle_timeout).await;
        });
    }
    drop(listener);
    let _ = state.stopping.send(true);
    drop(alive);
    let _ = all_done.recv().await;
    // WebSocket sessions close themselves with 1001; give them a moment.
    for _ in 0..100 {
        if state.openenv.live_websockets() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    sweeper.abort();
    Ok(())
}

/// Drives one connection; closes it once idle past `idle_timeout`, and at
/// shutdown lets its request in flight finish and closes it when idle
/// (hyper-util's graceful watcher cannot take a connection with upgrades).
async fn serve_until_stopped<C>(
    connection: C,
    mut stopping: tokio::sync::watch::Receiver<bool>,
    activity: Arc<Activity>,
    idle_timeout: Duration,
) where
    C: Future<Output = hyper::Result<()>> + GracefulConnection,
{
    let mut connection = pin!(connection);
    let stopped = stopping.wait_for(|stop| *stop);
    let mut stopped = pin!(stopped);
    let mut idle_check = pin!(tokio::time::sleep(
        idle_timeout.min(Duration::from_secs(86_400))
    ));
    let mut asked = false;
    let _ = std::future::poll_fn(|cx| {
        if !asked && stopped.as_mut().poll(cx).is_ready() {
            asked = true;
            connection.as_mut().graceful();
        }
        while !asked && idle_check.as_mut().poll(cx).is_ready() {
            let idle = activity.idle_for();
            if idle >= idle_timeout {
                asked = true;
                connection.as_mut().graceful();
            } else {
                let wait = (idle_timeout - idle)
                    .clamp(Duration::from_millis(10), Duration::from_secs(86_400));
                idle_check
                    .as_mut()
                    .reset(tokio::time::Instant::now() + wait);
            }
        }
        connection.as_mut().poll(cx)
    })
    .await;
}

/// A connection that can be asked to finish (hyper's http1 connection with
/// upgrades).
trait GracefulConnection {
    fn graceful(self: std::pin::Pin<&mut Self>);
}

impl<I, S> GracefulConnection for hyper::server::conn::http1::UpgradeableConnection<I, S>
where
    S: hyper::service::HttpService<Incoming>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
    S::ResBody: hyper::body::Body + 'static,
    <S::ResBody as hyper::body::Body>::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    fn graceful(self: std::pin::Pin<&mut Self>) {
        self.graceful_shutdown();
    }
}
