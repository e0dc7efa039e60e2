//! Commands that talk to the device firmware: metrics, power profile, throttling
//! notifications (device lane).

use zerocopy::FromZeros;

use crate::error::Result;
use crate::gateway::{Device, ioctl, ioctl_ptr};
use crate::kernel::Kernel;
use crate::wrappers::types::u32_arg;
use ndl_abi::{METRICS_CTRL, POST_METRIC, POWER_PROFILE, THROTTLING_NOTIFICATIONS};
use ndl_abi::{MetricsCtrl, PostMetric, PowerProfile, ThrottlingNotifications, UserPtr};

impl<K: Kernel> Device<'_, K> {
    /// POST_METRIC: posts `data` (its bytes, `data_size` = 4 x words) to the firmware.
    pub fn post_metric(&self, data: &[u32]) -> Result<()> {
        let cmd = POST_METRIC.name();
        let mut arg = PostMetric::new_zeroed();
        arg.data = UserPtr::input_slice(data);
        arg.data_size = u32_arg(cmd, "data bytes", size_of_val(data) as u64)?;
        // SAFETY: `data` points to `data_size` readable bytes of the borrowed slice.
        unsafe { ioctl_ptr!(self, POST_METRIC, &mut arg) }
    }

    /// METRICS_CTRL: sets the metric posting mode.
    pub fn metrics_ctrl(&self, mode: u32) -> Result<()> {
        let mut arg = MetricsCtrl { mode };
        ioctl!(self, METRICS_CTRL, &mut arg)
    }

    /// POWER_PROFILE: `ctrl` 0 sets `profile` (the only control the driver supports; others
    /// answer ENOTSUPP). `sz` is set to the struct size, the convention of the header's
    /// versioned `sz` fields (checked for POD_*); the reference does not say what this
    /// handler checks.
    pub fn power_profile(&self, ctrl: u16, profile: u32) -> Result<()> {
        let mut arg = PowerProfile::new_zeroed();
        arg.sz = size_of::<PowerProfile>() as u16; // 8
        arg.ctrl = ctrl;
        arg.profile = profile;
        ioctl!(self, POWER_PROFILE, &mut arg)
    }

    /// THROTTLING_NOTIFICATIONS (2.26.5.0): `true` asks the firmware for throttling
    /// notifications, `false` sends an empty feature set (clearing every firmware feature).
    pub fn throttling_notifications(&self, enable: bool) -> Result<()> {
        let mut arg = ThrottlingNotifications {
            enable: u32::from(enable),
        };
        ioctl!(self, THROTTLING_NOTIFICATIONS, &mut arg)
    }
}
