//! The logical-to-physical NeuronCore map (`ncdev_logical_to_physical_nc_map`,
//! `arch-README.md` "V3 logical-to-physical core map", `arch-callbacks.tsv`): entry
//! `8*dev + i` names the (device, core) that logical core `i` of device `dev` is.
//!
//! V3 (and V4 on STD/ULTRASERVER): per-device core order by pattern, A for devices
//! 0, 2, 8, 10; B for 1, 3, 9, 11; C for 4, 6, 12, 14; D for 5, 7, 13, 15; a die flip reads
//! entry `i XOR 6` instead of `i`. V4 on a PDS platform (2.26.5.0): its own table, A for every
//! even device and B for every odd one, no die flip. Mapping type 0 only; V2 has no map.

use super::{ArchError, Platform};

/// Entries of the map (16 devices x 8 cores).
pub const NC_MAP_ENTRIES: u16 = 128;
/// Cores per device in the map.
pub const NC_MAP_CORES: u16 = 8;
/// The die flip reads entry `i ^ DIE_FLIP_XOR`.
pub const DIE_FLIP_XOR: u16 = 6;
/// The only mapping type the map answers.
pub const NC_MAP_TYPE: u32 = 0;

/// Core order pattern A.
pub const PATTERN_A: [u8; 8] = [4, 5, 6, 7, 2, 3, 0, 1];
/// Core order pattern B.
pub const PATTERN_B: [u8; 8] = [2, 3, 0, 1, 4, 5, 6, 7];
/// Core order pattern C.
pub const PATTERN_C: [u8; 8] = [0, 1, 2, 3, 6, 7, 4, 5];
/// Core order pattern D.
pub const PATTERN_D: [u8; 8] = [6, 7, 4, 5, 0, 1, 2, 3];

/// A physical NeuronCore: device index and core index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NcLocation {
    /// Device index (0..16).
    pub device: u8,
    /// Core index inside the device (0..8).
    pub core: u8,
}

/// Which table an arch answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NcMapTable {
    /// V3's seng-swap table (patterns A/B/C/D), die flip honoured.
    V3,
    /// V4's PDS table (A even, B odd), no die flip.
    V4Pds,
}

const fn pattern(table: NcMapTable, device: u16) -> &'static [u8; 8] {
    match table {
        NcMapTable::V4Pds => {
            if device % 2 == 0 {
                &PATTERN_A
            } else {
                &PATTERN_B
            }
        }
        NcMapTable::V3 => match (device % 8 >= 4, device % 2 == 1) {
            (false, false) => &PATTERN_A,
            (false, true) => &PATTERN_B,
            (true, false) => &PATTERN_C,
            (true, true) => &PATTERN_D,
        },
    }
}

/// Entry `entry` of `table` (die flip only for [`NcMapTable::V3`]); mapping type other than
/// 0 and an entry past 128 are typed errors.
pub fn nc_map_entry(
    table: NcMapTable,
    mapping_type: u32,
    entry: u16,
    die_flipped: bool,
) -> Result<NcLocation, ArchError> {
    if mapping_type != NC_MAP_TYPE {
        return Err(ArchError::NcMapTypeUnsupported { mapping_type });
    }
    if entry >= NC_MAP_ENTRIES {
        return Err(ArchError::NcMapEntryOutOfRange { entry });
    }
    let j = match table {
        NcMapTable::V3 if die_flipped => entry ^ DIE_FLIP_XOR,
        _ => entry,
    };
    let device = j / NC_MAP_CORES;
    let p = pattern(table, device);
    let out_of_range = ArchError::NcMapEntryOutOfRange { entry };
    let core = *p.get(usize::from(j % NC_MAP_CORES)).ok_or(out_of_range)?;
    let device = u8::try_from(device).map_err(|_| out_of_range)?;
    Ok(NcLocation { device, core })
}

/// The table V4 answers with on `platform`: its own on PDS, V3's otherwise.
pub const fn v4_table(platform: Option<Platform>) -> NcMapTable {
    match platform {
        Some(Platform::Pds) => NcMapTable::V4Pds,
        _ => NcMapTable::V3,
    }
}
