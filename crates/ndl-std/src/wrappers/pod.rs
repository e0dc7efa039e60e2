//! Pod (multi-node) queries on the misc gateway.

use zerocopy::FromZeros;

use crate::compat::Family;
use crate::error::Result;
use crate::gateway::{Misc, ioctl};
use crate::kernel::Kernel;
use ndl_abi::{POD_CTRL, POD_CTRL_V2, POD_INFO, POD_STATUS, POD_STATUS_V2};
use ndl_abi::{PodCtrl, PodCtrlV2, PodInfo, PodStatus, PodStatusV2};

/// The driver checks the `sz` field against the struct it expects.
const fn sz<T>() -> u16 {
    // Pod structs are at most 276 bytes.
    size_of::<T>() as u16
}

/// The mode fields POD_STATUS_V2 adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodModes {
    /// Current mode.
    pub mode: u32,
    /// Supported modes.
    pub supported: u32,
}

/// POD_STATUS's answer; `modes` is `None` on drivers without the V2 form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodStatusInfo {
    /// The V1 status.
    pub status: PodStatus,
    /// The V2 additions.
    pub modes: Option<PodModes>,
}

impl<K: Kernel> Misc<'_, K> {
    /// POD_INFO: pod type, id and size.
    pub fn pod_info(&self) -> Result<PodInfo> {
        let mut arg = PodInfo::new_zeroed();
        arg.sz = sz::<PodInfo>();
        ioctl!(self, POD_INFO, &mut arg)?;
        Ok(arg)
    }

    /// POD_STATUS_V2 (falling back to POD_STATUS): pod state, type, size and node id.
    pub fn pod_status(&self) -> Result<PodStatusInfo> {
        self.compat(
            Family::PodStatus,
            || {
                let mut arg = PodStatusV2::new_zeroed();
                arg.v1.sz = sz::<PodStatusV2>();
                ioctl!(self, POD_STATUS_V2, &mut arg)?;
                let modes = PodModes {
                    mode: arg.mode,
                    supported: arg.modes_supported,
                };
                Ok(PodStatusInfo {
                    status: arg.v1,
                    modes: Some(modes),
                })
            },
            || {
                let mut arg = PodStatus::new_zeroed();
                arg.sz = sz::<PodStatus>();
                ioctl!(self, POD_STATUS, &mut arg)?;
                Ok(PodStatusInfo {
                    status: arg,
                    modes: None,
                })
            },
        )
    }

    /// POD_CTRL: requests pod state change `ctrl`, waiting up to `timeout`; returns the state.
    pub fn pod_ctrl(&self, ctrl: u32, timeout: u32) -> Result<u32> {
        let mut arg = PodCtrl::new_zeroed();
        arg.sz = sz::<PodCtrl>();
        arg.ctrl = ctrl;
        arg.timeout = timeout;
        ioctl!(self, POD_CTRL, &mut arg)?;
        Ok(arg.state)
    }

    /// POD_CTRL_V2: as [`Misc::pod_ctrl`] with a pod `mode`.
    pub fn pod_ctrl_v2(&self, ctrl: u32, timeout: u32, mode: u32) -> Result<u32> {
        let mut arg = PodCtrlV2::new_zeroed();
        arg.v1.sz = sz::<PodCtrlV2>();
        arg.v1.ctrl = ctrl;
        arg.v1.timeout = timeout;
        arg.mode = mode;
        ioctl!(self, POD_CTRL_V2, &mut arg)?;
        Ok(arg.v1.state)
    }
}
