//! The hand-written OpenAPI 3 description served at `/openapi.json`.
//!
//! Written by hand rather than derived so that it carries the prose users
//! need; `tests/serve.rs` checks that it parses and names every route in
//! [`super::ROUTES`] with the right method.

use serde_json::{Value, json};

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    })
}

fn json_response(description: &str, schema: Value) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": schema}}})
}

fn json_body(schema: Value) -> Value {
    json!({"required": true, "content": {"application/json": {"schema": schema}}})
}

fn episode_id_parameter() -> Value {
    json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string"},
            "description": "The episode id from POST /v1/episodes."}])
}

/// The `Episode` schema: the serialised seat view (`verigym_envs::seat_view`).
fn episode_schema() -> Value {
    json!({"type": "object",
    "description": "One seat's view (or the trainer view): verigym_envs::seat_view::SeatView, the README's \"Whose view\".",
    "properties": {
        "episode_id": {"type": "string"}, "env_id": {"type": "string"},
        "card_id": {"type": "string", "description": "Trainer view, or once over."},
        "players": {"type": "integer"},
        "observation": {"$ref": "#/components/schemas/Observation"},
        "observations": {"type": "object",
            "description": "Player number -> observation: the seat's own (every seat's in the trainer view).",
            "additionalProperties": {"$ref": "#/components/schemas/Observation"}},
        "terminated": {"type": "boolean"}, "truncated": {"type": "boolean"},
        "player": {"type": "integer", "description": "Who acted (step answers)."},
        "reward": {"type": "number", "description": "The seat's own reward of the step (trainer view: the actor's)."},
        "rewards": {"type": "array", "items": {"type": "number"},
            "description": "Every seat's reward of the step: trainer view, or once over."},
        "info": {"type": "object", "properties": {
            "view": {"description": "A seat number, or \"all\"."},
            "current_player": {"type": "integer", "nullable": true},
            "to_move": {"type": "array", "items": {"type": "integer"}},
            "steps": {"type": "integer"}, "max_steps": {"type": "integer"},
            "invalid_actions": {"type": "integer"},
            "retries_left": {"type": "integer", "nullable": true},
            "forfeit": {"type": "integer"},
            "score": {"type": "object", "description": "The seat's own (seat view)."},
            "scores": {"type": "array", "description": "Per player: reward, passed, breakdown (trainer view, or once over)."},
            "prompt": {"type": "string", "description": "Trainer view, once over, or a one-player env."},
            "events": {"type": "array", "items": {"type": "string"}, "description": "The step's public events."}
        }}
    }})
}

/// The whole document.
pub fn document() -> Value {
    let busy = error_response(
        "Busy: the work queue is full (retry after `Retry-After` seconds), or the job ran past \
         --job-timeout.",
    );
    let no_task = error_response(
        "No task within budget: the config is valid but the generator found no task in its \
         search budget; relax the field the message names.",
    );
    let bad = error_response("Bad input (malformed JSON, bad config, invalid action).");
    let too_large =
        error_response("The body is over --max-body bytes, or the answer over --max-response.");
    let unknown = error_response(
        "Unknown env (with did-you-mean suggestions), or an episode that is unknown or not \
         this token's (one answer for both).",
    );
    let forbidden = error_response("A seat token used for another seat, or to delete.");
    let bearer = json!([{"token": []}]);
    let episode = json!({"$ref": "#/components/schemas/Episode"});
    let mut document = json!({
        "openapi": "3.0.3",
        "info": {
            "title": "verigym env server",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Verifiable-reward environments over HTTP. Generation and scoring are \
                stateless (any replica answers); episodes live in one server's memory until \
                deleted or idle past --episode-ttl. Every error is {\"error\": \"...\"}."
        },
        "paths": {
            "/healthz": {"get": {
                "summary": "Liveness, live episodes and work-queue counters.",
                "responses": {"200": json_response("Up.", json!({"type": "object"}))}
            }},
            "/openapi.json": {"get": {
                "summary": "This document.",
                "responses": {"200": json_response("OpenAPI 3 JSON.", json!({"type": "object"}))}
            }},
            "/v1/envs": {"get": {
                "summary": "Every env: id, kind, family, players, presets, levels, default config.",
                "responses": {"200": json_response("The env list.", json!({
                    "type": "object",
                    "properties": {"envs": {"type": "array", "items": {"type": "object"}}}
                }))}
            }},
            "/v1/generate": {"post": {
                "summary": "Task cards, byte-identical to `verigym generate ID --n N --seed S`.",
                "requestBody": json_body(json!({
                    "type": "object", "required": ["id"],
                    "properties": {
                        "id": {"type": "string", "example": "math/arithmetic-v1@hard"},
                        "n": {"type": "integer", "default": 10},
                        "seed": {"type": "integer", "default": 0,
                                 "description": "Batch seed, as `verigym generate --seed`: \
                                                 the same batch for the same seed, so pages \
                                                 fetched with `offset` fit together."},
                        "offset": {"type": "integer", "default": 0,
                                   "description": "First card index, for paging a batch."},
                        "preset": {"type": "string"},
                        "config": {"type": "object", "description": "Config overrides."},
                        "format": {"type": "string", "enum": ["card", "chat"]}
                    }
                })),
                "responses": {
                    "200": json_response("The cards.", json!({
                        "type": "object",
                        "properties": {"cards": {"type": "array",
                            "items": {"$ref": "#/components/schemas/TaskCard"}}}
                    })),
                    "400": bad.clone(), "404": unknown.clone(), "413": too_large.clone(),
                    "422": no_task.clone(), "503": busy.clone()
                }
            }},
            "/v1/score": {"post": {
                "summary": "Scores a batch of answers against their task cards (stateless).",
                "requestBody": json_body(json!({
                    "type": "object", "required": ["items"],
                    "properties": {
                        "items": {"type": "array", "items": {
                            "type": "object", "required": ["card"],
                            "properties": {
                                "card": {"$ref": "#/components/schemas/TaskCard"},
                                "answer": {"description": "The action text, or a list of them (one per turn)."},
                                "response": {"type": "object",
                                             "description": "A chat completion or its message; its content or tool calls is the answer."}
                            }
                        }},
                        "shaping": {"type": "object",
                                    "description": "Reward shaping, as `verigym score --shaping`."}
                    }
                })),
                "responses": {
                    "200": json_response("One result per item, in order.", json!({
                        "type": "object",
                        "properties": {
                            "results": {"type": "array", "items": {"type": "object", "properties": {
                                "id": {"type": "string"},
                                "reward": {"type": ["number", "null"],
                                           "description": "null when the answer got no verdict \
                                                           (the sandbox or a toolchain failed); \
                                                           `no_verdict` says why."},
                                "no_verdict": {"type": "string"},
                                "passed": {"type": "boolean"}, "breakdown": {"type": "object"},
                                "index": {"type": "integer"}, "error": {"type": "string"},
                                "kind": {"type": "string",
                                         "description": "Why the item was not scored, as a \
                                                         stable word: `bad_card`, `bad_answer` \
                                                         or an env error's kind."}
                            }}},
                            "summary": {"type": "object"}
                        }
                    })),
                    "400": bad.clone(), "413": too_large.clone(), "503": busy.clone()
                }
            }},
            "/v1/episodes": {"post": {
                "summary": "Starts an episode from an env id and seed, or from a task card.",
                "requestBody": json_body(json!({
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "example": "games/tictactoe-v1"},
                        "seed": {"type": "integer",
                                 "description": "Default: a fresh random seed, answered to the creator."},
                        "config": {"type": "object"},
                        "card": {"$ref": "#/components/schemas/TaskCard"}
                    }
                })),
                "responses": {
                    "200": json_response(
                        "The new episode, its tokens (`tokens.creator`, `tokens.seats[P]`), its \
                         `seed` and the creator's first view.",
                        episode.clone()
                    ),
                    "400": bad.clone(), "404": unknown.clone(), "413": too_large.clone(),
                    "422": no_task,
                    "429": error_response("Too many live episodes (--max-episodes)."),
                    "503": busy.clone()
                }
            }},
            "/v1/episodes/{id}": {
                "get": {
                    "summary": "Where the episode stands (a seat token: its own seat's view).",
                    "parameters": episode_id_parameter(),
                    "security": bearer.clone(),
                    "responses": {"200": json_response("The episode.", episode.clone()),
                                  "403": forbidden.clone(), "404": unknown.clone()}
                },
                "delete": {
                    "summary": "Ends the episode and frees its slot (creator token only); \
                                answers its final state.",
                    "parameters": episode_id_parameter(),
                    "security": bearer.clone(),
                    "responses": {"200": json_response("The final state.", episode.clone()),
                                  "403": forbidden.clone(), "404": unknown.clone()}
                }
            },
            "/v1/episodes/{id}/step": {"post": {
                "summary": "One action of one player (a seat token: its own seat).",
                "parameters": episode_id_parameter(),
                "security": bearer,
                "requestBody": json_body(json!({
                    "type": "object", "required": ["action"],
                    "properties": {
                        "player": {"type": "integer",
                                   "description": "Who acts; optional when one player moves."},
                        "action": {"type": "string"}
                    }
                })),
                "responses": {
                    "200": json_response("The step's outcome.", json!({"allOf": [episode, {
                        "type": "object", "properties": {
                            "player": {"type": "integer"},
                            "reward": {"type": "number"},
                            "rewards": {"type": "array", "items": {"type": "number"}}
                        }
                    }]})),
                    "400": bad, "403": forbidden, "404": unknown,
                    "409": error_response("The episode is over, or it is not this player's turn."),
                    "413": too_large, "503": busy
                }
            }}
        },
        "components": {
        "securitySchemes": {"token": {"type": "http", "scheme": "bearer",
            "description": "An episode's creator token or one of its seat tokens."}},
        "schemas": {
            "Error": {"type": "object", "required": ["error", "kind"],
                      "properties": {"error": {"type": "string"},
                                     "kind": {"type": "string",
                                              "description": "The cause as a stable snake_case word: \
                                                              an env error's kind (`bad_card`, \
                                                              `bad_config`, `unknown_env`, …), the \
                                                              server's own (`busy`, `timed_out`, \
                                                              `body_too_large`, \
                                                              `response_too_large`), else the \
                                                              status's (`bad_request`, \
                                                              `not_found`, …)."}}},
            "TaskCard": {"type": "object",
                "required": ["id", "env_id", "env_version", "config", "config_hash", "seed", "prompt", "task"],
                "properties": {
                    "id": {"type": "string"}, "env_id": {"type": "string"},
                    "env_version": {"type": "integer"}, "config": {"type": "object"},
                    "config_hash": {"type": "string"}, "seed": {"type": "integer"},
                    "prompt": {"type": "string"}, "task": {}, "reference": {}
                }},
            "Observation": {"type": "object", "properties": {
                "text": {"type": "string"}, "structured": {},
                "legal_actions": {"type": "array", "nullable": true, "items": {"type": "string"}}
            }}
        }}
    });
    document["components"]["schemas"]["Episode"] = episode_schema();
    document["paths"]["/openrlhf/reward"] = super::openrlhf::openapi_path();
    for (path, item) in super::openenv::openapi_paths() {
        document["paths"][path] = item;
    }
    document
}
