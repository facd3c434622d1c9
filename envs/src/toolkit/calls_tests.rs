use serde_json::json;

use super::calls::{CallFormat, ToolCall, render_call};
use super::parse::parse_call;
use super::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec::new(
            "write",
            "write a file",
            vec![
                Param::required("path", ParamType::String, "file path"),
                Param::required("content", ParamType::String, "text"),
            ],
        ),
        ToolSpec::new(
            "click",
            "click an element",
            vec![Param::required("id", ParamType::Integer, "element id")],
        ),
        ToolSpec::new(
            "scroll",
            "scroll",
            vec![
                Param::required("direction", ParamType::String, "up or down")
                    .one_of(&["up", "down"]),
            ],
        ),
        answer_tool("finish"),
    ]
}

fn write_call() -> ToolCall {
    ToolCall::new(
        "write",
        json!({"path": "/a b.txt", "content": "x \"q\"\nline"}),
    )
}

#[test]
fn every_format_round_trips() {
    let tools = tools();
    for call in [write_call(), ToolCall::new("click", json!({"id": 12}))] {
        for format in CallFormat::ALL {
            let text = render_call(&call, format, &tools).unwrap();
            assert_eq!(
                parse_call(&text, &tools).unwrap(),
                call,
                "{format:?}: {text}"
            );
        }
    }
}

#[test]
fn formats_as_agents_write_them() {
    let tools = tools();
    let click = ToolCall::new("click", json!({"id": 7}));
    for text in [
        r#"{"tool_calls":[{"id":"c1","type":"function","function":{"name":"click","arguments":"{\"id\": 7}"}}]}"#,
        r#"[{"type":"function","function":{"name":"click","arguments":"{\"id\":\"7\"}"}}]"#,
        "I will click it.\n<tool_call>\n{\"name\": \"click\", \"arguments\": {\"id\": 7}}\n</tool_call>",
        "```json\n{\"name\": \"click\", \"parameters\": {\"id\": 7.0}}\n```",
        "Thought: the link is 7\nAction: click\nAction Input: {\"id\": 7}\nObservation:",
        "Action: click\nAction Input: 7",
        "click [7]",
        "CLICK 7",
    ] {
        assert_eq!(parse_call(text, &tools).unwrap(), click, "{text}");
    }
    let answer = ToolCall::new("answer", json!({"answer": "Mon 12:00"}));
    assert_eq!(parse_call("answer Mon 12:00", &tools).unwrap(), answer);
    assert_eq!(parse_call("answer \"Mon 12:00\"", &tools).unwrap(), answer);
    let write = ToolCall::new("write", json!({"path": "/a", "content": "two words"}));
    assert_eq!(parse_call("write /a two words", &tools).unwrap(), write);
    assert!(
        parse_call("write /a \"x\" y", &tools).is_err(),
        "quoted text is one argument"
    );
    assert_eq!(
        parse_call(r#"type_x [1]"#, &tools).unwrap_err().reason,
        "unknown tool `type_x`; tools: write, click, scroll, answer. Call one like <tool_call>{\"name\": \"TOOL\", \"arguments\": {...}}</tool_call>"
    );
}

#[test]
fn bad_calls_are_refused_with_reasons() {
    let tools = tools();
    let cases = [
        ("", "empty action"),
        ("click [x]", "is not an element id"),
        ("click [1] [2]", "at most 1 arguments"),
        (
            r#"{"name":"click","arguments":{"id":"seven"}}"#,
            "must be a integer",
        ),
        (r#"{"name":"click","arguments":{}}"#, "needs argument `id`"),
        (
            r#"{"name":"click","arguments":{"id":1,"x":2}}"#,
            "has no argument `x`",
        ),
        ("scroll sideways", "must be one of: up, down"),
        (
            "<tool_call>{}</tool_call><tool_call>{}</tool_call>",
            "has no `name`",
        ),
        (
            r#"[{"name":"click"},{"name":"click"}]"#,
            "needs argument `id`",
        ),
        ("{not json", "does not parse"),
        ("Action: click\nAction: click", "one `Action:`"),
        ("infeasible", "unknown tool `infeasible`"),
        ("print(open('/etc/passwd').read())", "unknown tool"),
    ];
    for (text, want) in cases {
        let got = parse_call(text, &tools).unwrap_err().reason;
        assert!(got.contains(want), "{text:?}: {got}");
    }
}

#[test]
fn schemas_are_openai_functions() {
    let specs = openai_specs(&tools());
    assert_eq!(
        specs[2],
        json!({"type": "function", "function": {"name": "scroll", "description": "scroll",
            "parameters": {"type": "object", "required": ["direction"], "properties": {
                "direction": {"type": "string", "description": "up or down", "enum": ["up", "down"]}}}}})
    );
}

/// Text after a call is prose and never read (DESIGN rule 4): another
/// candidate in words costs nothing, since only the call is graded. Only a
/// second call (in any format) is a second action.
#[test]
fn prose_after_a_call_passes_and_a_second_call_is_refused() {
    let answer = r#"<tool_call>{"name": "answer", "arguments": {"answer": "1479"}}</tool_call>"#;
    let want = ToolCall::new("answer", json!({"answer": "1479"}));
    for after in [
        "",
        "\n",
        "\n\nI will wait for the result.",
        " That is the amount of the invoice, 1479 in total.",
        " 1500",
        " or 1500",
        "\nmaybe infeasible: INV-2066",
        " tool_call arguments path backup name mkdir",
        " tool_call arguments answer infeasible INV-2066 name answer",
        "\nwrite /a.txt hello",
        "\nanswer 1500",
    ] {
        let text = format!("I read the file.\n{answer}{after}");
        assert_eq!(parse_call(&text, &tools()).unwrap(), want, "{after:?}");
    }
    for after in [
        "\n<tool_call>{\"name\": \"answer\", \"arguments\": {\"answer\": \"7\"}}",
        "\nAction: answer\nAction Input: {\"answer\": \"7\"}",
        "\n[answer(answer='7')]",
        "\n```json\n{\"name\": \"answer\", \"arguments\": {\"answer\": \"7\"}}\n```",
    ] {
        let text = format!("{answer}{after}");
        assert!(parse_call(&text, &tools()).is_err(), "{after:?}");
    }
}
