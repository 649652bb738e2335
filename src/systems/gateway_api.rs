//! Kubernetes Gateway API `HTTPRoute` retries.

use super::SystemSpec;
use crate::model::Layer;

pub static SPEC: SystemSpec = SystemSpec::plain("Gateway API", Layer::Proxy);
