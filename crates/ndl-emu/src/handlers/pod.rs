//! Pods (`ndl-std` family `pod`): POD_INFO, POD_STATUS(_V2) and POD_CTRL(_V2). The model's
//! pod is its devices, with no election: the state and mode POD_CTRL sets are kept and read
//! back.

use ndl_abi::{PodCtrl, PodCtrlV2, PodInfo, PodStatus, PodStatusV2};
use ndl_std::Errno;

use super::{Answer, DONE};
use crate::state::{Call, State};

/// POD_STATUS `node_id` of a device outside any pod: the model's choice (-1, "no node");
/// the reference gives the field (`__s8`, out) but not the driver's value here.
pub(crate) const POD_NODE_ID_NONE: i8 = -1;

/// POD_STATUS_V2 `modes_supported`: the model's choice (two low bits set);
/// the reference gives the field (out), not its bits.
pub(crate) const POD_MODES_SUPPORTED: u32 = 0b11;

/// The `sz` field must be the struct's own size (POD_INFO 260, POD_STATUS 268, ...).
fn check_sz<T>(sz: u16) -> Result<(), Errno> {
    if usize::from(sz) == size_of::<T>() {
        Ok(())
    } else {
        Err(Errno::INVAL)
    }
}

fn pod_size(st: &State) -> u8 {
    u8::try_from(st.devices.len()).unwrap_or(u8::MAX)
}

/// POD_INFO.
pub(crate) fn info(st: &mut State, _: &Call<'_>, a: &mut PodInfo) -> Answer {
    check_sz::<PodInfo>(a.sz)?;
    a.pod_type = 0;
    a.pod_sz = pod_size(st);
    a.pod_id = [0; 256];
    DONE
}

/// The v1 part of POD_STATUS(_V2); `sz` is all the driver reads.
fn status_v1(st: &State, call: &Call<'_>, sz: u16) -> Result<PodStatus, Errno> {
    let d = st.device(call.device).ok_or(Errno::NODEV)?;
    Ok(PodStatus {
        sz,
        state: d.pod_state,
        pod_sz: pod_size(st),
        node_id: POD_NODE_ID_NONE,
        ..zerocopy::FromZeros::new_zeroed()
    })
}

/// POD_STATUS.
pub(crate) fn status(st: &mut State, call: &Call<'_>, a: &mut PodStatus) -> Answer {
    check_sz::<PodStatus>(a.sz)?;
    *a = status_v1(st, call, a.sz)?;
    DONE
}

/// POD_STATUS_V2: adds the mode and the modes supported.
pub(crate) fn status_v2(st: &mut State, call: &Call<'_>, a: &mut PodStatusV2) -> Answer {
    check_sz::<PodStatusV2>(a.v1.sz)?;
    let v1 = status_v1(st, call, a.v1.sz)?;
    let mode = st.device(call.device).ok_or(Errno::NODEV)?.pod_mode;
    *a = PodStatusV2 {
        v1,
        mode,
        modes_supported: POD_MODES_SUPPORTED,
    };
    DONE
}

/// POD_CTRL: the state is kept and answered.
pub(crate) fn ctrl(st: &mut State, call: &Call<'_>, a: &mut PodCtrl) -> Answer {
    check_sz::<PodCtrl>(a.sz)?;
    let d = st.device_mut(call.device).ok_or(Errno::NODEV)?;
    d.pod_state = a.ctrl;
    a.state = d.pod_state;
    DONE
}

/// POD_CTRL_V2: state and mode are kept.
pub(crate) fn ctrl_v2(st: &mut State, call: &Call<'_>, a: &mut PodCtrlV2) -> Answer {
    check_sz::<PodCtrlV2>(a.v1.sz)?;
    let d = st.device_mut(call.device).ok_or(Errno::NODEV)?;
    d.pod_state = a.v1.ctrl;
    d.pod_mode = a.mode;
    a.v1.state = d.pod_state;
    DONE
}
