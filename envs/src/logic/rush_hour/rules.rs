//! The rules of rush hour: positions (packed into a `u64`), legal moves, the
//! goal.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Move, Vehicle};

/// X and at most 14 cars: 15 positions of 3 bits fit a `u64`.
const MAX_VEHICLES: usize = 15;

/// The row the red car drives along: the third (the classic exit row).
pub(super) fn exit_row(size: usize) -> u8 {
    (size as u8 - 1) / 2
}

/// Occupancy bitmask of a position (bit `row * size + col`).
pub(super) fn occupancy(size: usize, vehicles: &[Vehicle], position: &[u8]) -> u64 {
    let mut occupied = 0u64;
    for (v, &at) in vehicles.iter().zip(position) {
        for k in 0..v.length {
            occupied |= 1 << cell(size, v, at + k);
        }
    }
    occupied
}

/// The cell index of the `offset`-th cell along a vehicle's line.
pub(super) fn cell(size: usize, v: &Vehicle, offset: u8) -> usize {
    if v.horizontal {
        v.line as usize * size + offset as usize
    } else {
        offset as usize * size + v.line as usize
    }
}

/// Every legal move from `position`, in a fixed order.
pub(super) fn moves_from(size: usize, vehicles: &[Vehicle], position: &[u8], out: &mut Vec<Move>) {
    out.clear();
    let occupied = occupancy(size, vehicles, position);
    for (i, v) in vehicles.iter().enumerate() {
        let at = position[i];
        for step in 1..=at {
            if occupied >> cell(size, v, at - step) & 1 == 1 {
                break;
            }
            out.push(Move {
                vehicle: i,
                delta: -(step as i8),
            });
        }
        let end = at + v.length; // first cell after the vehicle
        for step in 0..(size as u8).saturating_sub(end) {
            if occupied >> cell(size, v, end + step) & 1 == 1 {
                break;
            }
            out.push(Move {
                vehicle: i,
                delta: step as i8 + 1,
            });
        }
    }
}

/// Applies a move if it is legal: the vehicle exists, stays on the lot and
/// passes only free cells.
pub(super) fn try_move(size: usize, vehicles: &[Vehicle], position: &mut [u8], m: Move) -> bool {
    let Some(v) = vehicles.get(m.vehicle) else {
        return false;
    };
    let at = i16::from(position[m.vehicle]);
    let target = at + i16::from(m.delta);
    if m.delta == 0 || target < 0 || target + i16::from(v.length) > size as i16 {
        return false;
    }
    let occupied = occupancy(size, vehicles, position);
    let (from, to) = if m.delta < 0 {
        (target, at - 1)
    } else {
        (at + i16::from(v.length), target + i16::from(v.length) - 1)
    };
    if (from..=to).any(|c| occupied >> cell(size, v, c as u8) & 1 == 1) {
        return false;
    }
    position[m.vehicle] = target as u8;
    true
}

pub(super) fn pack(position: &[u8]) -> u64 {
    position
        .iter()
        .fold(0u64, |acc, &p| acc << 3 | u64::from(p))
}

/// The position of `count` vehicles packed by [`pack`].
pub(super) fn unpack(mut key: u64, count: usize) -> [u8; MAX_VEHICLES] {
    let mut position = [0u8; MAX_VEHICLES];
    for slot in position[..count].iter_mut().rev() {
        *slot = (key & 7) as u8;
        key >>= 3;
    }
    position
}

/// The packed position after a legal move.
pub(super) fn moved(key: u64, count: usize, m: Move) -> u64 {
    let shift = 3 * (count - 1 - m.vehicle);
    let at = (key >> shift & 7) as i64 + i64::from(m.delta);
    key & !(7 << shift) | (at as u64) << shift
}

pub(super) fn is_goal(size: usize, position: &[u8]) -> bool {
    position[0] as usize == size - 2
}

/// A fast deterministic hasher for packed positions (FxHash's mixing).
#[derive(Default)]
pub(super) struct PositionHasher(u64);

impl Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

pub(super) type PositionMap<V> = HashMap<u64, V, BuildHasherDefault<PositionHasher>>;
