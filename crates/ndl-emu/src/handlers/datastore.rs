//! Datastores (`ndl-std` family `datastore`): ACQUIRE_NEURON_DS and RELEASE_NEURON_DS.

use ndl_abi::NeuronDsInfo;
use ndl_std::{Errno, MemLocation};

use super::{Answer, DONE};
use crate::state::{Call, DeviceState, Lifespan, PAGE};

/// Size of a datastore the model hands out: one page. The reference does not give the
/// driver's size; callers read it from the answer.
pub(crate) const DATASTORE_BYTES: u64 = PAGE;

/// ACQUIRE_NEURON_DS: pid 0 means a new datastore for the caller; another pid finds that
/// process's (EINVAL when it has none).
pub(crate) fn acquire(d: &mut DeviceState, call: &Call<'_>, a: &mut NeuronDsInfo) -> Answer {
    let owner = if a.pid == 0 {
        call.tgid
    } else {
        u32::try_from(a.pid).map_err(|_| Errno::INVAL)?
    };
    if d.foreign(owner) {
        // Strict isolation: another process's datastore is one it does not have.
        return Err(Errno::INVAL);
    }
    let handle = match d.datastores.get(&owner) {
        Some(h) => *h,
        None if a.pid == 0 => {
            // A device-lifespan chunk (mmap-README.md): writable by every process that
            // maps it.
            let h = d.alloc(
                DATASTORE_BYTES,
                0,
                MemLocation::Host,
                call.tgid,
                Lifespan::Device,
            )?;
            d.datastores.insert(owner, h);
            h
        }
        None => return Err(Errno::INVAL),
    };
    let m = d.mem(handle)?;
    a.mmap_offset = m.cookie;
    a.size = u32::try_from(m.size).map_err(|_| Errno::INVAL)?;
    DONE
}

/// RELEASE_NEURON_DS: returns 0 whether or not the pid had one (isolated: another
/// process's is left alone, as one it does not have).
pub(crate) fn release(d: &mut DeviceState, _: &Call<'_>, a: &mut NeuronDsInfo) -> Answer {
    if let Some(h) = u32::try_from(a.pid)
        .ok()
        .filter(|pid| !d.foreign(*pid))
        .and_then(|pid| d.datastores.remove(&pid))
    {
        d.free(h)?;
    }
    DONE
}
