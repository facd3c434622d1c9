//! Prints golden card hashes (`ID@PRESET SHA256`, as `tests/golden/cards.txt`
//! in the root crate expects: 50 cards from seed 1) for the logic envs whose
//! id contains the filter: `cargo run --release -p verigym-envs --example logic_golden [filter]`.

use verigym_envs::card::sha256_hex;
use verigym_envs::{Registry, mix_seed};

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let registry = Registry::builtin();
    for registration in registry.entries() {
        let spec = registration.spec;
        if !spec.id.starts_with("logic/") || !spec.id.contains(filter.as_str()) {
            continue;
        }
        for preset in spec.presets {
            let id = format!("{}@{}", spec.id, preset.name);
            let env = registry.make(&id, None).expect("preset");
            let jsonl: String = (0..50u64)
                .map(|i| env.generate(mix_seed(1, i)).to_json_line() + "\n")
                .collect();
            println!("{id} {}", sha256_hex(jsonl.as_bytes()));
        }
    }
}
