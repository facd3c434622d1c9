//! The server's one error type and its JSON body extractor.
//!
//! Every failure leaves as `{"error": "…", "kind": "…"}` with a status that
//! says whose fault it was: 400 bad input, 404 unknown env or episode, 409 a
//! step the episode cannot take, 413 a body over `--max-body` or an answer
//! over `--max-response`, 422 a config with no task within the generator's
//! budget, 429 too many live episodes, 503 the work queue is full (retry
//! later) or a job ran past `--job-timeout`. `kind` is a stable snake_case
//! word to branch on: an env's refusal carries its `EnvError::kind`
//! (`bad_card`, `unknown_env`, …); the server's own refusals name theirs
//! (`busy`, `timed_out`, `body_too_large`, `response_too_large`), and the
//! rest the status (`bad_request`, `not_found`, `conflict`, …).

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Request, Response, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use verigym_envs::EnvError;

/// Every answer is a whole JSON body.
pub type HttpResponse = Response<Full<Bytes>>;

/// A JSON answer with `status`.
pub fn json_response(status: StatusCode, body: impl Into<Bytes>) -> HttpResponse {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A 200 answer with a JSON value.
pub fn ok_json(value: &Value) -> HttpResponse {
    json_response(StatusCode::OK, value.to_string())
}

/// An HTTP error answer: a status, the message for `{"error": …}` and the
/// kind for `{"kind": …}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// A stable snake_case word for the cause (see the module docs).
    pub kind: &'static str,
}

impl ApiError {
    /// An error whose kind is its status's ([`kind_of_status`]).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            kind: kind_of_status(status),
        }
    }

    /// The same error with a more specific kind.
    pub fn with_kind(self, kind: &'static str) -> Self {
        ApiError { kind, ..self }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// The work queue is full; the client should retry after a pause.
    pub fn busy(capacity: usize) -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: all {capacity} work slots are taken; retry after a short pause \
                 (or start the server with a larger --queue)"
            ),
        )
        .with_kind("busy")
    }

    /// A job ran past `--job-timeout` and was cancelled.
    pub fn timed_out(timeout: std::time::Duration) -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the job ran past its time budget of {} s (--job-timeout) and was cancelled; \
                 ask for less work per request (fewer cards or items), or start the server \
                 with a larger --job-timeout",
                timeout.as_secs_f64()
            ),
        )
        .with_kind("timed_out")
    }

    /// An answer would be larger than `--max-response`.
    pub fn response_too_large(max_response: usize) -> Self {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the answer would be over the response limit of {max_response} bytes \
                 (--max-response); ask for fewer cards or items per request (generate \
                 fetches pages with `offset`), or start the server with a larger --max-response"
            ),
        )
        .with_kind("response_too_large")
    }

    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl From<EnvError> for ApiError {
    fn from(error: EnvError) -> Self {
        let status = match &error {
            EnvError::UnknownEnv { .. }
            | EnvError::VersionNotFound { .. }
            | EnvError::UnknownPreset { .. } => StatusCode::NOT_FOUND,
            // Known, but only its cards are served: 410 names what replaced it.
            EnvError::Superseded { .. } => StatusCode::GONE,
            EnvError::EpisodeOver(_) | EnvError::NotYourTurn { .. } => StatusCode::CONFLICT,
            EnvError::DuplicateId(_) => StatusCode::INTERNAL_SERVER_ERROR,
            // The config is valid but has no task the env can find: asking
            // again gives the same answer, so not 503.
            EnvError::NoTaskWithinBudget { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            EnvError::BadConfig { .. }
            | EnvError::BadCard { .. }
            | EnvError::BadLabel(_)
            | EnvError::CardRefused { .. }
            | EnvError::NotSingleTurn(_)
            | EnvError::ResetNeeded
            | EnvError::InvalidAction(_) => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, error.to_string()).with_kind(error.kind())
    }
}

/// The kind of an error that names no more specific one: its status, as a
/// word (`bad_request`, `not_found`, `conflict`, …).
pub fn kind_of_status(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        410 => "gone",
        413 => "too_large",
        422 => "unprocessable",
        429 => "too_many_requests",
        503 => "unavailable",
        _ => "internal",
    }
}

impl ApiError {
    pub fn into_response(self) -> HttpResponse {
        let mut response = json_response(
            self.status,
            json!({ "error": self.message, "kind": self.kind }).to_string(),
        );
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

fn too_large(max_body: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "request body too large: the limit is {max_body} bytes; split the batch \
             (or start the server with a larger --max-body)"
        ),
    )
    .with_kind("body_too_large")
}

/// Reads and drops a request body (at most `max_body` bytes, one frame at a
/// time, never parsed or kept), for a request refused before its body was
/// read: a client still sending a large body would otherwise see the
/// connection reset instead of the refusal.
pub async fn discard_body(request: Request<Incoming>, max_body: usize) {
    let mut body = request.into_body();
    let mut seen = 0usize;
    while let Some(Ok(frame)) = body.frame().await {
        if let Some(data) = frame.data_ref() {
            seen += data.len();
            if seen > max_body {
                return;
            }
        }
    }
}

/// Reads a JSON request body of at most `max_body` bytes. Any content type
/// is accepted (curl's `-d` sends form encoding by default); a body over the
/// limit is refused with 413 as soon as its length is known, bad JSON with
/// 400 naming the problem.
///
/// # Errors
/// 413 over the limit, 400 unreadable or not the expected JSON.
pub async fn read_json<T: DeserializeOwned>(
    request: Request<Incoming>,
    max_body: usize,
) -> Result<T, ApiError> {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max_body as u64) {
        return Err(too_large(max_body));
    }
    let bytes = Limited::new(request.into_body(), max_body)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                too_large(max_body)
            } else {
                ApiError::bad_request(format!("cannot read the request body: {e}"))
            }
        })?
        .to_bytes();
    // An empty body reads as `null` (OpenEnv's optional reset body).
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"null"
    } else {
        &bytes
    };
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
}
