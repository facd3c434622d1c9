//! `logic/logistics-v1`: deliver packages with trucks and airplanes in the
//! fewest actions (STRIPS logistics, optimum proven by A* search).
//!
//! # Task
//! `cities` cities of `locations` locations each, the first of them the
//! city's airport; one truck per city, `planes` airplanes at airports and
//! `packages` packages at random locations, each with a random other goal
//! location. Every object has a distinct random three-letter name. Actions:
//! load a package into a vehicle at the same location, unload it where the
//! vehicle is, drive a truck to another location of its city, fly an
//! airplane to another airport. The goal names only the packages; vehicles
//! may end anywhere. The generator finds the fewest actions by A* search
//! (its admissible bound counts the loads and unloads each package still
//! needs, the locations each truck must still visit and the airports
//! airplanes must still visit) and keeps tasks needing at least
//! `min_actions`; the search skips loading a package at its goal and
//! unloading one where only its truck could fetch it again (no shortest
//! plan does either).
//!
//! # Action
//! The actions in order, each `load(P, V)`, `unload(P, V)`, `drive(T, L)` or
//! `fly(A, L)`; also with words (`load P into V`, `unload P from V`,
//! `drive T to L`, `fly A to L`), with the PDDL verbs (`load-truck`,
//! `unload-airplane`, `drive-truck`, `fly-airplane`) and with the PDDL
//! arguments (`load(P, V, L)`, `drive(T, FROM, TO)`, `drive(T, FROM, TO,
//! CITY)`, `fly(A, FROM, TO)`; each extra place must be where the vehicle
//! is, or its city). Actions are separated by newlines, `;` or `,`; list
//! numbering (`1.`, `2)`) is skipped and case is ignored. In `\boxed{…}` or
//! as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The cities and their locations, where each vehicle and package is, and
//! each package's goal. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the plan, simulated from the start, takes only legal
//! actions, leaves every package at its goal and is as short as the optimum
//! (any shortest plan passes; the check never compares with one reference
//! plan); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `cities` (1..=3), `locations` (1..=3 per city, at least 2 places in all),
//! `planes` (0..=2, at least 1 with 2 or more cities), `packages` (1..=4),
//! `min_actions` (1..=30).
//!
//! # Seeding
//! Names, positions and goals come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
pub use crate::logic::solvers::logistics::Action;
use crate::logic::solvers::logistics::World;
use crate::logic::solvers::plan::{Domain, Found, draw_object_names, read_actions, shortest_plan};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws at most for one task.
const MAX_DRAWS: u64 = 2_000;
/// States A* may expand for one draw before the draw is given up.
const MAX_EXPANSIONS: usize = 40_000;
/// Actions read at most from one answer.
const MAX_ACTIONS: usize = 400;

const VERBS: &[&[&str]] = &[
    &["load", "loadtruck", "loadairplane", "loadplane"],
    &["unload", "unloadtruck", "unloadairplane", "unloadplane"],
    &["drive", "drivetruck"],
    &["fly", "flyairplane", "flyplane"],
];
const FILLERS: &[&str] = &[
    "into", "in", "onto", "on", "from", "to", "at", "the", "then",
];
/// Words no object may be named.
const RESERVED: &[&str] = &[
    "fly", "the", "in", "on", "to", "at", "into", "onto", "from", "then",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogisticsConfig {
    pub cities: usize,
    pub locations: usize,
    pub planes: usize,
    pub packages: usize,
    pub min_actions: usize,
}

impl Default for LogisticsConfig {
    fn default() -> Self {
        LogisticsConfig {
            cities: 2,
            locations: 3,
            planes: 1,
            packages: 3,
            min_actions: 12,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogisticsTask {
    pub cities: usize,
    /// Locations per city; location `c * locations` is city `c`'s airport.
    pub locations: usize,
    pub planes: usize,
    /// Names: cities, locations, trucks, airplanes, packages, in that order.
    pub names: Vec<String>,
    /// Where each vehicle starts (a location).
    pub vehicles_at: Vec<usize>,
    /// Where each package starts and must end (locations).
    pub packages_at: Vec<usize>,
    pub goals: Vec<usize>,
    /// One shortest plan.
    pub plan: Vec<Action>,
}

/// The task's world for the planner.
fn world(task: &LogisticsTask) -> World<'_> {
    World {
        cities: task.cities,
        locations: task.locations,
        planes: task.planes,
        goals: &task.goals,
    }
}

/// Where the locations, vehicles and packages start in `names`.
fn layout(task: &LogisticsTask) -> (usize, usize, usize) {
    let vehicles = task.cities * (1 + task.locations);
    (task.cities, vehicles, vehicles + task.cities + task.planes)
}

fn location_name(task: &LogisticsTask, place: usize) -> &str {
    &task.names[layout(task).0 + place]
}

fn vehicle_name(task: &LogisticsTask, vehicle: usize) -> &str {
    &task.names[layout(task).1 + vehicle]
}

fn package_name(task: &LogisticsTask, package: usize) -> &str {
    &task.names[layout(task).2 + package]
}

fn action_text(task: &LogisticsTask, action: Action) -> String {
    let (verb, first, second) = match action {
        Action::Load { package, vehicle } => ("load", package_name(task, package), vehicle),
        Action::Unload { package, vehicle } => ("unload", package_name(task, package), vehicle),
        Action::Go { vehicle, to } => {
            let verb = if vehicle < task.cities {
                "drive"
            } else {
                "fly"
            };
            return format!(
                "{verb}({}, {})",
                vehicle_name(task, vehicle),
                location_name(task, to)
            );
        }
    };
    format!("{verb}({first}, {})", vehicle_name(task, second))
}

/// An object named in an answer, by kind.
#[derive(Clone, Copy, PartialEq)]
enum Object {
    City(usize),
    Place(usize),
    Vehicle(usize),
    Package(usize),
}

fn read_object(task: &LogisticsTask, word: &str) -> Result<Object, CheckError> {
    let (locations, vehicles, packages) = layout(task);
    let i = task
        .names
        .iter()
        .position(|name| name.eq_ignore_ascii_case(word))
        .ok_or_else(|| {
            format!("`{word}` is not the name of a city, location, vehicle or package")
        })?;
    Ok(if i < locations {
        Object::City(i)
    } else if i < vehicles {
        Object::Place(i - locations)
    } else if i < packages {
        Object::Vehicle(i - vehicles)
    } else {
        Object::Package(i - packages)
    })
}

/// One action as written: the action, and the places (and city) it says the
/// vehicle is at, which must hold when it is taken. `None` when the words
/// name the wrong kinds of object (a readable but illegal action).
type Written = Option<(Action, Vec<Object>)>;

fn read_plan(task: &LogisticsTask, answer: &str) -> Result<Vec<Written>, CheckError> {
    let mut plan = Vec::new();
    for action in read_actions(answer, VERBS, FILLERS, MAX_ACTIONS)? {
        let objects = action
            .args
            .iter()
            .map(|word| read_object(task, word))
            .collect::<Result<Vec<_>, _>>()?;
        let arity = match action.verb {
            0 | 1 => 2..=3,
            _ => 2..=4,
        };
        if !arity.contains(&objects.len()) {
            return Err(format!(
                "`{}` takes {} to {} names",
                VERBS[action.verb][0],
                arity.start(),
                arity.end()
            )
            .into());
        }
        plan.push(match (action.verb, objects[0]) {
            (0 | 1, Object::Package(package)) => match objects[1] {
                Object::Vehicle(vehicle) if action.verb == 0 => {
                    Some((Action::Load { package, vehicle }, objects[2..].to_vec()))
                }
                Object::Vehicle(vehicle) => {
                    Some((Action::Unload { package, vehicle }, objects[2..].to_vec()))
                }
                _ => None,
            },
            (2 | 3, Object::Vehicle(vehicle)) => {
                // The destination is the last place named; the others
                // (and a city) say where the vehicle is.
                let last = objects.iter().rposition(|o| matches!(o, Object::Place(_)));
                match last.map(|i| (i, objects[i])) {
                    Some((i, Object::Place(to)))
                        if (vehicle < task.cities) == (action.verb == 2) =>
                    {
                        let said = [&objects[1..i], &objects[i + 1..]].concat();
                        Some((Action::Go { vehicle, to }, said))
                    }
                    _ => None,
                }
            }
            _ => None,
        });
    }
    Ok(plan)
}

pub struct Logistics;

pub type LogisticsEnv = SingleTurn<Logistics>;

impl Logistics {
    /// One draw: positions and goals, kept when the optimum is long enough
    /// and A* proves it within its budget.
    fn draw(config: &LogisticsConfig, rng: &mut Rng) -> Option<LogisticsTask> {
        let (cities, locations) = (config.cities, config.locations);
        let places = cities * locations;
        let count = cities + places + cities + config.planes + config.packages;
        let names = draw_object_names(count, RESERVED, rng);
        let mut vehicles_at: Vec<usize> = (0..cities)
            .map(|c| c * locations + rng.below(locations as u64) as usize)
            .collect();
        vehicles_at
            .extend((0..config.planes).map(|_| rng.below(cities as u64) as usize * locations));
        let packages_at: Vec<usize> = (0..config.packages)
            .map(|_| rng.below(places as u64) as usize)
            .collect();
        let goals: Vec<usize> = packages_at
            .iter()
            .map(|&at| (at + 1 + rng.below(places as u64 - 1) as usize) % places)
            .collect();
        let mut task = LogisticsTask {
            cities,
            locations,
            planes: config.planes,
            names,
            vehicles_at,
            packages_at,
            goals,
            plan: Vec::new(),
        };
        let world = world(&task);
        let start = world.start(&task.packages_at, &task.vehicles_at);
        let Found::Plan(plan) = shortest_plan(&world, start, MAX_EXPANSIONS) else {
            return None;
        };
        task.plan = plan;
        (task.plan.len() >= config.min_actions).then_some(task)
    }
}

impl Question for Logistics {
    type Config = LogisticsConfig;
    type Task = LogisticsTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/logistics-v1",
        kind: EnvKind::SingleTurn,
        description: "Deliver packages with trucks and airplanes in the fewest actions; any shortest legal plan passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"cities":2,"locations":2,"packages":1,"min_actions":4}"#,
        r#"{"cities":2,"locations":2,"packages":2,"min_actions":7}"#,
        r#"{"cities":2,"locations":3,"packages":2,"min_actions":9}"#,
        "{}",
        r#"{"cities":3,"locations":2,"packages":3,"min_actions":14}"#,
        r#"{"cities":3,"locations":2,"packages":4,"min_actions":17}"#,
        r#"{"cities":3,"locations":3,"packages":4,"min_actions":20}"#,
    ];

    fn effort(task: &LogisticsTask) -> Option<f64> {
        let objects = task.goals.len() + task.cities + task.planes;
        Some((task.plan.len() * objects) as f64)
    }

    fn validate(config: &LogisticsConfig) -> Result<(), ConfigError> {
        let c = config;
        let places_ok = (1..=3).contains(&c.cities)
            && (1..=3).contains(&c.locations)
            && c.cities * c.locations >= 2;
        let planes_ok = c.planes <= 2 && (c.cities == 1 || c.planes >= 1);
        if !places_ok
            || !planes_ok
            || !(1..=4).contains(&c.packages)
            || !(1..=30).contains(&c.min_actions)
        {
            return Err("need cities and locations in 1..=3 (cities * locations >= 2), planes in 0..=2 \
                        (at least 1 with 2 or more cities), packages in 1..=4, min_actions in 1..=30"
                .into());
        }
        Ok(())
    }

    fn generate(config: &LogisticsConfig, rng: &mut Rng) -> LogisticsTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &LogisticsConfig, rng: &mut Rng) -> Result<LogisticsTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no draw in {MAX_DRAWS} needed {} actions (within the search budget): lower \
                     min_actions, or raise packages or cities",
                    config.min_actions
                )
            },
        )
    }

    fn prompt(task: &LogisticsTask) -> String {
        let mut lines = Vec::new();
        for c in 0..task.cities {
            let places: Vec<&str> = (0..task.locations)
                .map(|l| location_name(task, c * task.locations + l))
                .collect();
            lines.push(format!(
                "City {} has locations {}; its airport is {}.",
                task.names[c],
                places.join(", "),
                places[0]
            ));
        }
        for v in 0..task.cities + task.planes {
            let kind = if v < task.cities { "Truck" } else { "Airplane" };
            let at = location_name(task, task.vehicles_at[v]);
            lines.push(format!("{kind} {} is at {at}.", vehicle_name(task, v)));
        }
        for p in 0..task.goals.len() {
            lines.push(format!(
                "Package {} is at {} and must be delivered to {}.",
                package_name(task, p),
                location_name(task, task.packages_at[p]),
                location_name(task, task.goals[p])
            ));
        }
        format!(
            "Logistics: deliver the packages.\n{}\n\nActions:\n\
             load(P, V): put package P into vehicle V; both must be at the same location.\n\
             unload(P, V): take package P out of vehicle V, at V's location.\n\
             drive(T, L): drive truck T to another location L of its own city.\n\
             fly(A, L): fly airplane A to another airport L.\n\n\
             Find a plan that leaves every package at its goal (vehicles may end anywhere) with as few actions as \
             possible; only a shortest plan counts. Answer with the actions in order, one per line, inside \
             \\boxed{{}}.",
            lines.join("\n")
        )
    }

    fn structured(task: &LogisticsTask) -> Value {
        let cities: Vec<Value> = (0..task.cities)
            .map(|c| {
                let places: Vec<&str> = (0..task.locations)
                    .map(|l| location_name(task, c * task.locations + l))
                    .collect();
                json!({ "city": task.names[c], "airport": places[0], "locations": places })
            })
            .collect();
        let vehicles = |range: std::ops::Range<usize>| -> Vec<Value> {
            range
                .map(|v| json!({ "name": vehicle_name(task, v), "at": location_name(task, task.vehicles_at[v]) }))
                .collect()
        };
        let packages: Vec<Value> = (0..task.goals.len())
            .map(|p| {
                json!({
                    "name": package_name(task, p),
                    "at": location_name(task, task.packages_at[p]),
                    "goal": location_name(task, task.goals[p]),
                })
            })
            .collect();
        json!({
            "cities": cities,
            "trucks": vehicles(0..task.cities),
            "airplanes": vehicles(task.cities..task.cities + task.planes),
            "packages": packages,
        })
    }

    fn reference(task: &LogisticsTask) -> String {
        task.plan
            .iter()
            .map(|&action| action_text(task, action))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &LogisticsTask, answer: &str) -> Result<bool, CheckError> {
        let plan = read_plan(task, answer)?;
        let world = world(task);
        let mut state = world.start(&task.packages_at, &task.vehicles_at);
        for written in &plan {
            let Some((action, said)) = written else {
                return Ok(false);
            };
            let vehicle = match *action {
                Action::Load { vehicle, .. }
                | Action::Unload { vehicle, .. }
                | Action::Go { vehicle, .. } => vehicle,
            };
            let here = world.vehicle_at(state, vehicle);
            let true_place = said.iter().all(|&object| match object {
                Object::Place(place) => place == here,
                Object::City(city) => city == world.city(here),
                _ => false,
            });
            match world.apply(state, *action).filter(|_| true_place) {
                Some(next) => state = next,
                None => return Ok(false),
            }
        }
        Ok(world.is_goal(state) && plan.len() == task.plan.len())
    }
}

#[cfg(test)]
#[path = "logistics_tests.rs"]
mod tests;
