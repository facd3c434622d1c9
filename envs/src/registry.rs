//! The registry: every built-in env, one line each, grouped by family.
//!
//! Nothing registers itself at run time and there is no global mutable
//! state: [`Registry::builtin`] copies the [`BUILTIN`] list, and users add
//! their own envs to their own `Registry` with [`Registry::register`].
//!
//! An env is named `family/name-vN`, optionally followed by `@preset`
//! (`logic/guess-number-v2@hard`) or `@LEVEL`, a difficulty level counted
//! from 0 (`logic/guess-number-v2@0`); JSON overrides merge over either.

use std::borrow::Cow;

use serde_json::Value;

use crate::card::{TaskCard, merge_json};
#[cfg(feature = "sandbox")]
use crate::code;
use crate::core::{Env, EnvSpec, Superseded};
use crate::dynenv::{DynEnv, Instance};
use crate::error::EnvError;
use crate::upgrade::upgrade_card;
use crate::{games, logic, math, selfplay, tools, web};

/// One registry line: an env's static facts and how to make it.
#[derive(Clone, Copy)]
pub struct Registration {
    pub spec: &'static EnvSpec,
    /// The default config as JSON.
    pub default_config: fn() -> Value,
    /// Makes the env from a complete config.
    pub make: fn(Value) -> Result<Box<dyn DynEnv>, EnvError>,
    /// The env's explicit difficulty scale ([`Env::LEVELS`]); see
    /// [`Registration::levels`].
    pub explicit_levels: &'static [&'static str],
    /// The versions the env replaced ([`Env::SUPERSEDED`]).
    pub superseded: &'static [Superseded],
    /// A card of this env or of a superseded version, as this version reads
    /// it ([`crate::upgrade::upgrade_card`]).
    pub upgrade: fn(&TaskCard) -> Result<Cow<'_, TaskCard>, EnvError>,
}

/// The presets that name points on every difficulty scale, easiest first.
pub const NAMED_LEVELS: [&str; 3] = ["easy", "medium", "hard"];

impl Registration {
    /// The difficulty scale as JSON patches over the default config, easiest
    /// first: the env's `LEVELS`, or else its `easy`/`medium`/`hard` presets
    /// (those it has).
    pub fn levels(&self) -> Vec<&'static str> {
        if !self.explicit_levels.is_empty() {
            return self.explicit_levels.to_vec();
        }
        NAMED_LEVELS
            .iter()
            .filter_map(|name| self.spec.presets.iter().find(|p| p.name == *name))
            .map(|p| p.overrides)
            .collect()
    }

    /// The complete config of difficulty level `level` (0 = easiest).
    ///
    /// # Errors
    /// `UnknownPreset` naming the scale when `level` is past its end, or
    /// `BadConfig` when the level's patch is not JSON.
    pub fn level_config(&self, level: usize) -> Result<Value, EnvError> {
        let levels = self.levels();
        let patch = levels.get(level).ok_or_else(|| EnvError::UnknownPreset {
            env: self.spec.id.to_string(),
            preset: level.to_string(),
            available: self.preset_names(),
        })?;
        let mut config = (self.default_config)();
        merge_json(
            &mut config,
            &parse_patch(self.spec.id, &level.to_string(), patch)?,
        );
        Ok(config)
    }

    /// The complete config of a named preset.
    ///
    /// # Errors
    /// `UnknownPreset` listing the presets and levels, or `BadConfig`.
    pub fn preset_config(&self, name: &str) -> Result<Value, EnvError> {
        if let Ok(level) = name.parse::<usize>() {
            return self.level_config(level);
        }
        let preset = self
            .spec
            .presets
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| EnvError::UnknownPreset {
                env: self.spec.id.to_string(),
                preset: name.to_string(),
                available: self.preset_names(),
            })?;
        let mut config = (self.default_config)();
        merge_json(
            &mut config,
            &parse_patch(self.spec.id, name, preset.overrides)?,
        );
        Ok(config)
    }

    /// The level a named preset sits on, if its config equals one.
    pub fn level_of_preset(&self, name: &str) -> Option<usize> {
        let config = self.preset_config(name).ok()?;
        (0..self.levels().len()).find(|&l| self.level_config(l).ok().as_ref() == Some(&config))
    }

    /// Preset names, then the level range, for error messages.
    fn preset_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .spec
            .presets
            .iter()
            .map(|p| p.name.to_string())
            .collect();
        match self.levels().len() {
            0 => {}
            n => names.push(format!("levels 0-{}", n - 1)),
        }
        names
    }
}

fn parse_patch(env: &str, name: &str, patch: &str) -> Result<Value, EnvError> {
    serde_json::from_str(patch).map_err(|e| EnvError::BadConfig {
        env: env.to_string(),
        message: format!("preset `{name}`: {e}"),
    })
}

/// The registry line of env type `E`.
pub const fn entry<E: Env>() -> Registration {
    Registration {
        spec: &E::SPEC,
        default_config: default_config::<E>,
        make: make::<E>,
        explicit_levels: E::LEVELS,
        superseded: E::SUPERSEDED,
        upgrade: upgrade_card::<E>,
    }
}

fn default_config<E: Env>() -> Value {
    serde_json::to_value(E::Config::default()).expect("configs always serialise")
}

fn make<E: Env>(config: Value) -> Result<Box<dyn DynEnv>, EnvError> {
    let config: E::Config = serde_json::from_value(config).map_err(|e| EnvError::BadConfig {
        env: E::SPEC.id.to_string(),
        message: e.to_string(),
    })?;
    Ok(Box::new(Instance::<E>::new(config)?))
}

/// Every built-in env. Add one line per env under its family banner.
pub static BUILTIN: &[Registration] = &[
    // ---- math ----
    entry::<math::arithmetic::Arithmetic>(),
    entry::<math::fractions::Fractions>(),
    entry::<math::order_of_operations::OrderOfOperations>(),
    entry::<math::gcd_lcm::GcdLcm>(),
    entry::<math::modular::Modular>(),
    entry::<math::prime_factorization::PrimeFactorization>(),
    entry::<math::linear_equation::LinearEquation>(),
    entry::<math::linear_system::LinearSystem>(),
    entry::<math::quadratic::Quadratic>(),
    entry::<math::polynomial_expand::PolynomialExpand>(),
    entry::<math::polynomial_factor::PolynomialFactor>(),
    entry::<math::rational_simplify::RationalSimplify>(),
    entry::<math::derivative::Derivative>(),
    entry::<math::definite_integral::DefiniteIntegral>(),
    entry::<math::sequence::Sequence>(),
    entry::<math::counting::Counting>(),
    entry::<math::probability::Probability>(),
    entry::<math::inequality::Inequality>(),
    entry::<math::matrix::Matrix>(),
    entry::<math::base_conversion::BaseConversion>(),
    entry::<math::crt::Crt>(),
    entry::<math::diophantine::Diophantine>(),
    entry::<math::statistics::Statistics>(),
    entry::<math::complex::Complex>(),
    entry::<math::determinant::Determinant>(),
    entry::<math::matrix_inverse::MatrixInverse>(),
    entry::<math::word_problems::WordProblems>(),
    entry::<math::recurrence::Recurrence>(),
    entry::<math::inclusion_exclusion::InclusionExclusion>(),
    entry::<math::series::Series>(),
    entry::<math::limits::Limits>(),
    entry::<math::coordinate_geometry::CoordinateGeometry>(),
    entry::<math::eigenvalues::EigenvaluesEnv>(),
    entry::<math::dataset::MathDataset>(),
    // ---- logic ----
    entry::<logic::guess_number::GuessNumber>(),
    entry::<logic::sat::SatEnv>(),
    entry::<logic::sudoku::SudokuEnv>(),
    entry::<logic::mini_sudoku::MiniSudokuEnv>(),
    entry::<logic::futoshiki::FutoshikiEnv>(),
    entry::<logic::countdown::CountdownEnv>(),
    entry::<logic::game24::Game24Env>(),
    entry::<logic::knights_knaves::KnightsKnavesEnv>(),
    entry::<logic::zebra::ZebraEnv>(),
    entry::<logic::graph_coloring::GraphColoringEnv>(),
    entry::<logic::topological_sort::TopologicalSortEnv>(),
    entry::<logic::n_queens::NQueensEnv>(),
    entry::<logic::hanoi::HanoiEnv>(),
    entry::<logic::maze::MazeEnv>(),
    entry::<logic::latin_square::LatinSquareEnv>(),
    entry::<logic::game_of_life::GameOfLifeEnv>(),
    entry::<logic::subset_sum::SubsetSumEnv>(),
    entry::<logic::kakurasu::KakurasuEnv>(),
    entry::<logic::knapsack::KnapsackEnv>(),
    entry::<logic::fol_entailment::FolEntailmentEnv>(),
    entry::<logic::arc_grid::ArcGridEnv>(),
    entry::<logic::binairo::BinairoEnv>(),
    entry::<logic::skyscrapers::SkyscrapersEnv>(),
    entry::<logic::water_jugs::WaterJugsEnv>(),
    entry::<logic::bin_packing::BinPackingEnv>(),
    entry::<logic::cryptarithm::CryptarithmEnv>(),
    entry::<logic::sliding_puzzle::SlidingPuzzleEnv>(),
    entry::<logic::nonogram::NonogramEnv>(),
    entry::<logic::mastermind::Mastermind>(),
    entry::<logic::minesweeper::Minesweeper>(),
    entry::<logic::wordle::Wordle>(),
    entry::<logic::kakuro::KakuroEnv>(),
    entry::<logic::sokoban::SokobanEnv>(),
    entry::<logic::rush_hour::RushHourEnv>(),
    entry::<logic::river_crossing::RiverCrossingEnv>(),
    entry::<logic::magic_square::MagicSquareEnv>(),
    entry::<logic::cfg_membership::CfgMembershipEnv>(),
    entry::<logic::dfa_minimise::DfaMinimiseEnv>(),
    entry::<logic::cfg_derivation::CfgDerivationEnv>(),
    entry::<logic::regex_synthesis::RegexSynthesisEnv>(),
    entry::<logic::tents::TentsEnv>(),
    entry::<logic::star_battle::StarBattleEnv>(),
    entry::<logic::hitori::HitoriEnv>(),
    entry::<logic::shortest_path::ShortestPathEnv>(),
    entry::<logic::min_spanning_tree::MinSpanningTreeEnv>(),
    entry::<logic::bipartite_matching::BipartiteMatchingEnv>(),
    entry::<logic::euler_path::EulerPathEnv>(),
    entry::<logic::max_flow::MaxFlowEnv>(),
    entry::<logic::interval_scheduling::IntervalSchedulingEnv>(),
    entry::<logic::set_cover::SetCoverEnv>(),
    entry::<logic::job_shop::JobShopEnv>(),
    entry::<logic::akari::AkariEnv>(),
    entry::<logic::kenken::KenKenEnv>(),
    entry::<logic::slitherlink::SlitherlinkEnv>(),
    entry::<logic::blocksworld::BlocksworldEnv>(),
    entry::<logic::logistics::LogisticsEnv>(),
    // ---- games ----
    entry::<games::tictactoe::TicTacToe>(),
    entry::<games::kuhn_poker::KuhnPoker>(),
    entry::<games::connect_four::ConnectFour>(),
    entry::<games::nim::Nim>(),
    entry::<games::leduc_poker::LeducPoker>(),
    entry::<games::heads_up_limit_holdem::HeadsUpLimitHoldem>(),
    entry::<games::liars_dice::LiarsDice>(),
    entry::<games::goofspiel::Goofspiel>(),
    entry::<games::blotto::Blotto>(),
    entry::<games::prisoners_dilemma::PrisonersDilemma>(),
    entry::<games::pig::Pig>(),
    entry::<games::othello::Othello>(),
    entry::<games::breakthrough::Breakthrough>(),
    entry::<games::hex::Hex>(),
    entry::<games::battleship::Battleship>(),
    entry::<games::dots_and_boxes::DotsAndBoxes>(),
    entry::<games::negotiation::Negotiation>(),
    entry::<games::checkers::Checkers>(),
    entry::<games::kalah::Kalah>(),
    entry::<games::gomoku::Gomoku>(),
    entry::<games::nine_mens_morris::NineMensMorris>(),
    entry::<games::twenty_forty_eight::TwentyFortyEight>(),
    entry::<games::quoridor::Quoridor>(),
    entry::<games::hangman::Hangman>(),
    entry::<games::yacht::Yacht>(),
    entry::<games::crazy_eights::CrazyEights<2>>(),
    entry::<games::crazy_eights::CrazyEights<3>>(),
    entry::<games::crazy_eights::CrazyEights<4>>(),
    entry::<games::chess::Chess>(),
    entry::<games::santorini::Santorini>(),
    entry::<games::backgammon::Backgammon>(),
    entry::<games::go::Go>(),
    // ---- tools ----
    entry::<tools::vfs_shell::VfsShell>(),
    entry::<tools::fncall::Fncall>(),
    entry::<tools::service_desk::ServiceDesk>(),
    entry::<tools::search_qa::SearchQa>(),
    entry::<tools::sql_db::SqlDbEnv>(),
    entry::<tools::calendar::Calendar>(),
    entry::<tools::bank::BankEnv>(),
    entry::<tools::api_chain::ApiChainEnv>(),
    entry::<tools::email::Email>(),
    entry::<tools::retail::Retail>(),
    entry::<tools::airline::AirlineEnv>(),
    entry::<tools::spreadsheet::Spreadsheet>(),
    entry::<tools::travel::Travel>(),
    // ---- web ----
    entry::<web::shop::Shop>(),
    entry::<web::site_nav::SiteNav>(),
    entry::<web::forms::Forms>(),
    // ---- code (feature `sandbox`) ----
    #[cfg(feature = "sandbox")]
    entry::<code::humaneval::HumanEval>(),
    #[cfg(feature = "sandbox")]
    entry::<code::functions::Functions>(),
    #[cfg(feature = "sandbox")]
    entry::<code::functions_c::FunctionsC>(),
    #[cfg(feature = "sandbox")]
    entry::<code::functions_cpp::FunctionsCpp>(),
    #[cfg(feature = "sandbox")]
    entry::<code::repl::Repl>(),
    #[cfg(feature = "sandbox")]
    entry::<code::dataset::CodeDataset>(),
    #[cfg(feature = "sandbox")]
    entry::<code::sql_query::SqlQueryEnv>(),
    #[cfg(feature = "sandbox")]
    entry::<code::output_prediction::OutputPredictionEnv>(),
    #[cfg(feature = "sandbox")]
    entry::<code::input_prediction::InputPredictionEnv>(),
    #[cfg(feature = "sandbox")]
    entry::<code::repair::Repair>(),
    #[cfg(feature = "sandbox")]
    entry::<code::regex_extract::RegexExtractEnv>(),
    // ---- selfplay (code-io needs feature `sandbox`) ----
    #[cfg(feature = "sandbox")]
    entry::<selfplay::code_io::CodeIo>(),
    entry::<selfplay::math_propose::MathPropose>(),
    entry::<selfplay::puzzle_propose::PuzzlePropose>(),
    entry::<selfplay::sql_propose::SqlPropose>(),
];

/// A set of envs to make by id.
#[derive(Clone)]
pub struct Registry {
    entries: Vec<Registration>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::builtin()
    }
}

impl Registry {
    /// Every built-in env.
    pub fn builtin() -> Self {
        Registry {
            entries: BUILTIN.to_vec(),
        }
    }

    /// No envs at all.
    pub fn empty() -> Self {
        Registry {
            entries: Vec::new(),
        }
    }

    /// Adds a user env.
    ///
    /// # Errors
    /// [`EnvError::DuplicateId`] when the id is taken.
    pub fn register<E: Env>(&mut self) -> Result<(), EnvError> {
        self.add(entry::<E>())
    }

    /// Adds a registration.
    ///
    /// # Errors
    /// [`EnvError::DuplicateId`] when the id is taken.
    pub fn add(&mut self, registration: Registration) -> Result<(), EnvError> {
        if self
            .entries
            .iter()
            .any(|e| e.spec.id == registration.spec.id)
        {
            return Err(EnvError::DuplicateId(registration.spec.id.to_string()));
        }
        self.entries.push(registration);
        Ok(())
    }

    /// All registrations, in registry order.
    pub fn entries(&self) -> &[Registration] {
        &self.entries
    }

    /// `ID@PRESET` for every preset of every env, in registry order: what
    /// the audit, the golden hashes and the per-env tests walk over.
    pub fn preset_ids(&self) -> Vec<String> {
        self.entries
            .iter()
            .flat_map(|r| {
                r.spec
                    .presets
                    .iter()
                    .map(move |p| format!("{}@{}", r.spec.id, p.name))
            })
            .collect()
    }

    /// The registration of an exact id (no preset).
    ///
    /// # Errors
    /// `UnknownEnv` with suggestions, `Superseded` for a released version
    /// that a newer one replaced, or `VersionNotFound`; both name the newest.
    pub fn get(&self, id: &str) -> Result<&Registration, EnvError> {
        if let Some(found) = self.entries.iter().find(|e| e.spec.id == id) {
            return Ok(found);
        }
        let base = id.rsplit_once("-v").map_or(id, |(base, _)| base);
        let newest = self
            .entries
            .iter()
            .filter(|e| e.spec.unversioned() == base)
            .max_by_key(|e| e.spec.version());
        if let Some(newest) = newest {
            let asked = crate::upgrade::split_version(id).map(|(_, n)| n);
            if newest.superseded.iter().any(|s| Some(s.version) == asked) {
                return Err(EnvError::Superseded {
                    id: id.to_string(),
                    newest: newest.spec.id.to_string(),
                });
            }
            return Err(EnvError::VersionNotFound {
                id: id.to_string(),
                asked: id
                    .strip_prefix(base)
                    .unwrap_or(id)
                    .trim_start_matches('-')
                    .to_string(),
                newest: newest.spec.id.to_string(),
            });
        }
        Err(EnvError::UnknownEnv {
            id: id.to_string(),
            suggestions: self.suggest(id),
        })
    }

    /// Ids close to `id` by edit distance, or that contain it.
    fn suggest(&self, id: &str) -> Vec<String> {
        let wanted = id.to_ascii_lowercase();
        let mut scored: Vec<(usize, &str)> = self
            .entries
            .iter()
            .map(|e| {
                let name = e.spec.id;
                let short = name.split_once('/').map_or(name, |(_, n)| n);
                let distance = edit_distance(&wanted, name).min(edit_distance(&wanted, short));
                let contains = name.contains(wanted.as_str()) && wanted.len() >= 3;
                (if contains { 0 } else { distance }, name)
            })
            .filter(|(d, _)| *d <= 3.max(wanted.len() / 3))
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(3)
            .map(|(_, n)| n.to_string())
            .collect()
    }

    /// Resolves `id[@preset]` plus overrides to a registration and complete
    /// config JSON.
    ///
    /// # Errors
    /// Unknown env or preset, or overrides that are not a JSON object.
    pub fn resolve(
        &self,
        id_and_preset: &str,
        overrides: Option<&Value>,
    ) -> Result<(&Registration, Value), EnvError> {
        let (id, preset) = match id_and_preset.split_once('@') {
            Some((id, preset)) => (id, Some(preset)),
            None => (id_and_preset, None),
        };
        let registration = self.get(id)?;
        let mut config = match preset {
            Some(name) => registration.preset_config(name)?,
            None => (registration.default_config)(),
        };
        if let Some(overrides) = overrides {
            if !overrides.is_object() {
                return Err(EnvError::BadConfig {
                    env: id.to_string(),
                    message: format!("overrides must be a JSON object, got `{overrides}`"),
                });
            }
            merge_json(&mut config, overrides);
        }
        Ok((registration, config))
    }

    /// Makes an env from `id[@preset]` and optional JSON overrides.
    ///
    /// # Errors
    /// As [`Registry::resolve`], plus configs the env refuses.
    pub fn make(
        &self,
        id_and_preset: &str,
        overrides: Option<&Value>,
    ) -> Result<Box<dyn DynEnv>, EnvError> {
        let (registration, config) = self.resolve(id_and_preset, overrides)?;
        (registration.make)(config)
    }
}

/// Levenshtein distance over bytes (ids are ASCII).
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_unique_versioned_and_well_formed() {
        let mut ids: Vec<&str> = BUILTIN.iter().map(|r| r.spec.id).collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate ids in BUILTIN");
        for r in BUILTIN {
            assert!(r.spec.version() >= 1, "{} lacks -vN", r.spec.id);
            assert!(r.spec.id.contains('/'), "{} lacks a family", r.spec.id);
            assert!(!r.spec.presets.is_empty(), "{} has no presets", r.spec.id);
        }
    }

    #[test]
    fn unknown_ids_get_suggestions_and_old_versions_name_the_newest() {
        let registry = Registry::builtin();
        let err = registry
            .make("math/arithmatic-v1", None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("did you mean `math/arithmetic-v1`"), "{err}");
        let err = registry
            .make("math/arithmetic-v9", None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("newest is `math/arithmetic-v1`"), "{err}");
        let err = registry.make("tictactoe", None).err().unwrap().to_string();
        assert!(err.contains("games/tictactoe-v1"), "{err}");
        let err = registry
            .make("zzzzzz/qqqq-v1", None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("verigym list"), "{err}");
    }

    #[test]
    fn presets_and_overrides_merge_in_order() {
        let registry = Registry::builtin();
        let (_, easy) = registry
            .resolve("logic/guess-number-v2@easy", None)
            .unwrap();
        let (_, over) = registry
            .resolve("logic/guess-number-v2@easy", Some(&json!({"high": 50})))
            .unwrap();
        assert_ne!(easy, over);
        assert_eq!(over["high"], 50);
        assert_eq!(over["low"], easy["low"]);
        let err = registry
            .make("logic/guess-number-v2@insane", None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("presets: easy"), "{err}");
        let err = registry
            .make("logic/guess-number-v2", Some(&json!({"hgih": 3})))
            .err()
            .unwrap();
        assert!(err.to_string().contains("unknown field `hgih`"), "{err}");
        assert!(
            registry
                .make("logic/guess-number-v2", Some(&json!([1])))
                .is_err()
        );
        for r in BUILTIN {
            for preset in r.spec.presets {
                let id = format!("{}@{}", r.spec.id, preset.name);
                registry
                    .make(&id, None)
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
            }
        }
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
