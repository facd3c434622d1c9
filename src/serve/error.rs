//! The server's one error type and its JSON body extractor.
//!
//! Every failure leaves as `{"error": "…"}` with a status that says whose
//! fault it was: 400 bad input, 404 unknown env or episode, 409 a step the
//! episode cannot take, 413 a body over `--max-body`, 429 too many live
//! episodes, 503 the work queue is full (retry later).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;
use verigym_envs::EnvError;

use super::SharedState;

/// An HTTP error answer: a status and the message for `{"error": …}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
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
            EnvError::EpisodeOver(_) | EnvError::NotYourTurn { .. } => StatusCode::CONFLICT,
            EnvError::DuplicateId(_) => StatusCode::INTERNAL_SERVER_ERROR,
            EnvError::BadConfig { .. }
            | EnvError::BadCard(_)
            | EnvError::ResetNeeded
            | EnvError::InvalidAction(_) => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({ "error": self.message }))).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// A JSON request body. Unlike `axum::Json` it accepts any content type
/// (curl's `-d` sends form encoding by default) and answers every problem
/// as an [`ApiError`]: 413 over the size limit, 400 for bad JSON.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<SharedState> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &SharedState) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "request body too large: the limit is {} bytes; split the batch \
                         (or start the server with a larger --max-body)",
                        state.options.max_body
                    ),
                )
            } else {
                ApiError::bad_request(format!("cannot read the request body: {rejection}"))
            }
        })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
    }
}
