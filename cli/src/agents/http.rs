//! An agent backed by any OpenAI-compatible chat-completions endpoint.
//!
//! Named `http:BASE_URL#MODEL` (e.g. `http:http://127.0.0.1:8000/v1#qwen`).
//! Each episode is one conversation: observations arrive as user messages,
//! the model's replies are the actions, and a refused action is shown back
//! as a user message. Envs that publish tools (`"tools"` in the structured
//! observation) get them as the request's `tools`, and tool calls in the
//! reply become the action (`{"tool_calls": [...]}`).
//!
//! Settings come from the environment: `VERIGYM_API_KEY` (or
//! `OPENAI_API_KEY`) for the bearer token, `VERIGYM_HTTP_TIMEOUT_S`
//! (default 120), `VERIGYM_HTTP_RETRIES` (default 4, exponential backoff on
//! connection errors, 429 and 5xx), `VERIGYM_HTTP_CONCURRENCY` (default 8
//! requests in flight per process) and `VERIGYM_HTTP_CACHE` (a directory;
//! responses are cached by request hash so a rerun is free; default
//! `.verigym-cache/http`, `off` to disable).

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Value, json};
use verigym_envs::card::{canonical_json, sha256_hex};
use verigym_envs::completion::response_action;
use verigym_envs::{Agent, AgentTurn};

/// Settings of HTTP agents, read once from the environment.
#[derive(Clone, Debug)]
pub struct HttpSettings {
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub retries: u32,
    pub concurrency: usize,
    pub cache_dir: Option<PathBuf>,
}

impl HttpSettings {
    pub fn from_env() -> Self {
        let number = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let cache =
            std::env::var("VERIGYM_HTTP_CACHE").unwrap_or_else(|_| ".verigym-cache/http".into());
        HttpSettings {
            api_key: std::env::var("VERIGYM_API_KEY")
                .or_else(|_| std::env::var("OPENAI_API_KEY"))
                .ok(),
            timeout: Duration::from_secs(number("VERIGYM_HTTP_TIMEOUT_S", 120)),
            retries: number("VERIGYM_HTTP_RETRIES", 4) as u32,
            concurrency: number("VERIGYM_HTTP_CONCURRENCY", 8).max(1) as usize,
            cache_dir: (cache != "off").then(|| PathBuf::from(cache)),
        }
    }
}

/// A counting semaphore shared by every HTTP agent of the process.
struct Slots {
    free: Mutex<usize>,
    wake: Condvar,
}

impl Slots {
    fn acquire(&self) {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.wake.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
    }
    fn release(&self) {
        *self.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.wake.notify_one();
    }
}

fn slots(concurrency: usize) -> Arc<Slots> {
    static SLOTS: OnceLock<Arc<Slots>> = OnceLock::new();
    SLOTS
        .get_or_init(|| {
            Arc::new(Slots {
                free: Mutex::new(concurrency),
                wake: Condvar::new(),
            })
        })
        .clone()
}

/// A chat-completions agent; one conversation per episode.
pub struct HttpAgent {
    name: String,
    url: String,
    model: String,
    settings: HttpSettings,
    seed: u64,
    messages: Vec<Value>,
    error: Option<String>,
}

const SYSTEM_PROMPT: &str =
    "You are an agent in a verifiable environment. Follow the task's answer format exactly.";

impl HttpAgent {
    /// Parses `http:BASE_URL#MODEL`.
    ///
    /// # Errors
    /// A spec without `#MODEL` or with a URL that is not http(s).
    pub fn from_spec(spec: &str, settings: HttpSettings) -> Result<Self, String> {
        let rest = spec
            .strip_prefix("http:")
            .ok_or_else(|| format!("`{spec}` is not an http: agent"))?;
        let (base, model) = rest.rsplit_once('#').ok_or_else(|| {
            format!(
                "`{spec}`: name the model after '#', e.g. http:http://127.0.0.1:8000/v1#my-model"
            )
        })?;
        if !(base.starts_with("http://") || base.starts_with("https://")) || model.is_empty() {
            return Err(format!(
                "`{spec}`: expected http:http(s)://HOST[:PORT]/PATH#MODEL"
            ));
        }
        Ok(HttpAgent {
            name: spec.to_string(),
            url: format!("{}/chat/completions", base.trim_end_matches('/')),
            model: model.to_string(),
            settings,
            seed: 0,
            messages: Vec::new(),
            error: None,
        })
    }

    fn request(&self, tools: Option<&Value>) -> Value {
        let mut body = json!({
            "model": self.model,
            "messages": self.messages,
            "temperature": 0,
            "seed": self.seed,
        });
        if let Some(tools) = tools {
            body["tools"] = tools.clone();
        }
        body
    }

    /// Sends a request, with the cache, the concurrency limit and retries.
    fn complete(&self, body: &Value) -> Result<Value, String> {
        let key = sha256_hex(format!("{}\n{}", self.url, canonical_json(body)).as_bytes());
        let cached = self
            .settings
            .cache_dir
            .as_ref()
            .map(|dir| dir.join(format!("{key}.json")));
        if let Some(path) = &cached
            && let Ok(text) = std::fs::read_to_string(path)
            && let Ok(value) = serde_json::from_str(&text)
        {
            return Ok(value);
        }
        let slots = slots(self.settings.concurrency);
        slots.acquire();
        let result = self.post_with_retries(body);
        slots.release();
        let response = result?;
        if let Some(path) = &cached {
            // Write then rename, so a reader never sees half a file.
            let _ = std::fs::create_dir_all(path.parent().unwrap_or(path));
            let partial = path.with_extension(format!("{}.tmp", std::process::id()));
            if std::fs::write(&partial, response.to_string()).is_ok() {
                let _ = std::fs::rename(&partial, path);
            }
        }
        Ok(response)
    }

    fn post_with_retries(&self, body: &Value) -> Result<Value, String> {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(self.settings.timeout))
            .http_status_as_error(false)
            .build()
            .new_agent();
        let mut last_error = String::new();
        for attempt in 0..=self.settings.retries {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(250 << attempt.min(6)));
            }
            let mut request = agent
                .post(&self.url)
                .header("Content-Type", "application/json");
            if let Some(key) = &self.settings.api_key {
                request = request.header("Authorization", &format!("Bearer {key}"));
            }
            match request.send(body.to_string()) {
                Ok(mut response) => {
                    let status = response.status().as_u16();
                    let text = response.body_mut().read_to_string().unwrap_or_default();
                    if status == 429 || status >= 500 {
                        last_error = format!(
                            "HTTP {status}: {}",
                            text.chars().take(200).collect::<String>()
                        );
                        continue;
                    }
                    if status != 200 {
                        return Err(format!(
                            "HTTP {status} from {}: {}",
                            self.url,
                            text.chars().take(300).collect::<String>()
                        ));
                    }
                    return serde_json::from_str(&text)
                        .map_err(|e| format!("response is not JSON: {e}"));
                }
                Err(e) => last_error = e.to_string(),
            }
        }
        Err(format!(
            "{} failed after {} tries: {last_error}",
            self.url,
            self.settings.retries + 1
        ))
    }
}

impl Agent for HttpAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn start_episode(&mut self, seed: u64) {
        self.seed = seed;
        self.messages = vec![json!({"role": "system", "content": SYSTEM_PROMPT})];
        self.error = None;
    }

    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        if self.error.is_some() {
            return String::new();
        }
        let user = match turn.last_error {
            Some(reason) => format!("Invalid action: {reason}\n\n{}", turn.observation.text),
            None => turn.observation.text.clone(),
        };
        self.messages.push(json!({"role": "user", "content": user}));
        let tools = turn
            .observation
            .structured
            .get("tools")
            .filter(|t| t.is_array());
        let body = self.request(tools);
        match self
            .complete(&body)
            .and_then(|r| response_action(&r).map_err(|e| e.to_string()))
        {
            Ok((action, message)) => {
                let mut message = message;
                if message.get("content").is_none() {
                    message["content"] = Value::Null;
                }
                self.messages.push(message);
                action
            }
            Err(e) => {
                self.error = Some(e);
                String::new()
            }
        }
    }

    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_parsed_or_refused_with_the_expected_form() {
        let agent =
            HttpAgent::from_spec("http:http://127.0.0.1:9/v1/#m-1", HttpSettings::from_env())
                .unwrap();
        assert_eq!(agent.url, "http://127.0.0.1:9/v1/chat/completions");
        assert_eq!(agent.model, "m-1");
        for bad in [
            "http:localhost:9#m",
            "http:http://x/v1",
            "http:http://x/v1#",
        ] {
            assert!(
                HttpAgent::from_spec(bad, HttpSettings::from_env()).is_err(),
                "{bad}"
            );
        }
    }
}
