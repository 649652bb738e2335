//! Kubernetes Gateway API `HTTPRoute` retries.

pub mod extract;

use super::SystemSpec;
use crate::model::Layer;

pub static SPEC: SystemSpec = SystemSpec::plain("Gateway API", Layer::Proxy);
