//! Where the learner's gradient steps run. The default, and the only one the
//! shipped checkpoints and tests use, is burn's pure-Rust `flex` CPU backend
//! (deterministic for a seed on one thread). A build with the `wgpu` cargo
//! feature can put the learner on a GPU with `VERIGYM_DEVICE=wgpu`;
//! rollouts and evaluation stay on the CPU, where the small networks are
//! fastest. GPU runs are not bit-reproducible.

use burn::tensor::Device;

use crate::error::AgentError;

/// The environment variable that picks the training device.
pub const DEVICE_VAR: &str = "VERIGYM_DEVICE";

/// The devices this build can train on, for messages.
fn available() -> &'static str {
    if cfg!(feature = "wgpu") {
        "cpu, wgpu"
    } else {
        "cpu (build verigym-agent with `--features wgpu` for a GPU)"
    }
}

/// The device named by `name` (`cpu` when `None` or empty).
///
/// # Errors
/// [`AgentError::Device`] for a name this build does not support.
pub fn device_named(name: Option<&str>) -> Result<Device, AgentError> {
    match name.map(str::trim).unwrap_or("") {
        "" | "cpu" | "flex" => Ok(Device::flex()),
        #[cfg(feature = "wgpu")]
        "wgpu" => Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)),
        other => Err(AgentError::Device {
            name: other.to_string(),
            available: available(),
        }),
    }
}

/// The learner's device: `VERIGYM_DEVICE`, or the CPU when it is unset.
///
/// # Errors
/// [`AgentError::Device`] for a name this build does not support.
pub fn training_device() -> Result<Device, AgentError> {
    device_named(std::env::var(DEVICE_VAR).ok().as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_is_the_default_and_unknown_names_say_what_is_available() {
        assert!(device_named(None).is_ok());
        assert!(device_named(Some("cpu")).is_ok());
        let err = device_named(Some("tpu")).unwrap_err().to_string();
        assert!(err.contains("tpu") && err.contains("cpu"), "{err}");
    }
}
