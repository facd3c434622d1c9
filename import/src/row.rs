//! Reading one field of a row: the leaf every layout uses (no layout or
//! import logic here, so the layouts never reach back into the crate root).

use serde_json::Value;

use crate::report::DropReason;

/// A field, by name or dotted path (`reward_model.ground_truth`).
pub fn field<'a>(r: &'a Value, name: &str) -> Option<&'a Value> {
    if let Some(v) = r.get(name) {
        return Some(v).filter(|v| !v.is_null());
    }
    name.split('.')
        .try_fold(r, |v, part| v.get(part))
        .filter(|v| !v.is_null())
}

pub fn opt_str(r: &Value, name: &str) -> Option<String> {
    field(r, name).and_then(Value::as_str).map(str::to_string)
}

pub fn req_str(r: &Value, name: &str) -> Result<String, DropReason> {
    match field(r, name) {
        None => Err(DropReason::MissingField(name.into())),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(_) => Err(DropReason::BadField(
            name.into(),
            "not a non-empty string".into(),
        )),
    }
}
