//! The STRIPS logistics world of `logic/logistics-v1`: packages carried by
//! trucks (within a city) and airplanes (between airports), as a planning
//! [`Domain`] with an admissible lower bound for A*.

use serde::{Deserialize, Serialize};

use crate::logic::solvers::plan::Domain;

/// One action; vehicles are numbered trucks first (truck `c` serves city
/// `c`), then airplanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Load { package: usize, vehicle: usize },
    Unload { package: usize, vehicle: usize },
    Go { vehicle: usize, to: usize },
}

/// A logistics world: a state packs each package's place (a location, or
/// `places + v` inside vehicle `v`) and then each vehicle's location into
/// five bits apiece.
pub struct World<'a> {
    pub cities: usize,
    /// Locations per city; location `c * locations` is city `c`'s airport.
    pub locations: usize,
    pub planes: usize,
    /// Each package's goal location.
    pub goals: &'a [usize],
}

fn get(state: u64, slot: usize) -> usize {
    (state >> (5 * slot) & 31) as usize
}

fn set(state: u64, slot: usize, value: usize) -> u64 {
    state & !(31 << (5 * slot)) | (value as u64) << (5 * slot)
}

impl World<'_> {
    pub fn places(&self) -> usize {
        self.cities * self.locations
    }
    pub fn vehicles(&self) -> usize {
        self.cities + self.planes
    }
    pub fn packages(&self) -> usize {
        self.goals.len()
    }
    pub fn city(&self, place: usize) -> usize {
        place / self.locations
    }
    pub fn is_airport(&self, place: usize) -> bool {
        place.is_multiple_of(self.locations)
    }
    pub fn vehicle_at(&self, state: u64, vehicle: usize) -> usize {
        get(state, self.packages() + vehicle)
    }

    /// The state where the packages and vehicles stand at these locations.
    pub fn start(&self, packages_at: &[usize], vehicles_at: &[usize]) -> u64 {
        let packed = packages_at.iter().chain(vehicles_at);
        packed
            .enumerate()
            .fold(0, |state, (slot, &v)| set(state, slot, v))
    }

    /// Whether `vehicle` may go to `to`: another location, in its city for
    /// a truck, an airport for an airplane.
    fn can_go(&self, state: u64, vehicle: usize, to: usize) -> bool {
        let truck = vehicle < self.cities;
        to < self.places()
            && to != self.vehicle_at(state, vehicle)
            && if truck {
                self.city(to) == vehicle
            } else {
                self.is_airport(to)
            }
    }

    /// The state after `action`, when it is legal.
    pub fn apply(&self, state: u64, action: Action) -> Option<u64> {
        let inside = |vehicle| self.places() + vehicle;
        match action {
            Action::Load { package, vehicle } => (get(state, package)
                == self.vehicle_at(state, vehicle))
            .then(|| set(state, package, inside(vehicle))),
            Action::Unload { package, vehicle } => (get(state, package) == inside(vehicle))
                .then(|| set(state, package, self.vehicle_at(state, vehicle))),
            Action::Go { vehicle, to } => self
                .can_go(state, vehicle, to)
                .then(|| set(state, self.packages() + vehicle, to)),
        }
    }
}

impl Domain for World<'_> {
    type Action = Action;

    /// Every legal action except two that no shortest plan takes (the
    /// plan without them, and without the package's later actions that
    /// undo them, is shorter and still legal): loading a package that is
    /// at its goal, and unloading one at a location that is neither its
    /// goal nor an airport (only the same truck could pick it up there).
    fn successors(&self, state: u64, out: &mut Vec<(Action, u64)>) {
        let (places, packages) = (self.places(), self.packages());
        for vehicle in 0..self.vehicles() {
            let here = self.vehicle_at(state, vehicle);
            for package in 0..packages {
                let (at, goal) = (get(state, package), self.goals[package]);
                if at == here && at != goal {
                    let next = set(state, package, places + vehicle);
                    out.push((Action::Load { package, vehicle }, next));
                } else if at == places + vehicle && (here == goal || self.is_airport(here)) {
                    let next = set(state, package, here);
                    out.push((Action::Unload { package, vehicle }, next));
                }
            }
            for to in 0..places {
                if self.can_go(state, vehicle, to) {
                    let next = set(state, packages + vehicle, to);
                    out.push((Action::Go { vehicle, to }, next));
                }
            }
        }
    }

    fn is_goal(&self, state: u64) -> bool {
        (0..self.packages()).all(|p| get(state, p) == self.goals[p])
    }

    /// Loads and unloads each package still needs (by truck out of a
    /// non-airport, by air between cities, by truck to a non-airport goal),
    /// plus a drive to each location where a truck must still load or
    /// unload a package and no truck is, plus a flight to each airport where
    /// an airplane must still load or unload one and no airplane is.
    fn lower_bound(&self, state: u64) -> u32 {
        let places = self.places();
        let mut handling = 0;
        // Bit per location that a truck, or an airplane, must visit.
        let mut truck_stops = 0u32;
        let mut plane_stops = 0u32;
        let airport = |place| place - place % self.locations;
        for (package, &goal) in self.goals.iter().enumerate() {
            let at = get(state, package);
            if at == goal {
                continue;
            }
            // Where the package is, and whether in a truck or an airplane.
            let (place, in_truck, in_plane) = if at < places {
                (at, false, false)
            } else {
                let vehicle = at - places;
                let truck = vehicle < self.cities;
                (self.vehicle_at(state, vehicle), truck, !truck)
            };
            // The goal end: an airplane unloads it at the goal's airport, or
            // a truck of the goal's city carries it from there.
            let by_truck_to_goal = !self.is_airport(goal);
            let flies = in_plane || self.city(place) != self.city(goal);
            if in_plane {
                handling += 1;
            } else if !flies {
                truck_stops |= 1 << place | 1 << goal;
                handling += if in_truck { 1 } else { 2 };
                continue;
            } else {
                // Out of its city: by truck to the airport unless it is there.
                let by_truck_to_airport = in_truck || !self.is_airport(place);
                if by_truck_to_airport {
                    truck_stops |= 1 << place | 1 << airport(place);
                    handling += if in_truck { 1 } else { 2 };
                }
                plane_stops |= 1 << airport(place);
                handling += 2;
            }
            plane_stops |= 1 << airport(goal);
            if by_truck_to_goal {
                truck_stops |= 1 << airport(goal) | 1 << goal;
                handling += 2;
            }
        }
        let (mut trucks_at, mut planes_at) = (0u32, 0u32);
        for vehicle in 0..self.vehicles() {
            let bit = 1 << self.vehicle_at(state, vehicle);
            if vehicle < self.cities {
                trucks_at |= bit;
            } else {
                planes_at |= bit;
            }
        }
        handling + (truck_stops & !trucks_at).count_ones() + (plane_stops & !planes_at).count_ones()
    }
}
