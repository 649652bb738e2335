//! Istio's sidecar retries (`VirtualService` `retries`, meshConfig
//! `defaultHttpRetryPolicy`).

use super::SystemSpec;
use crate::model::Layer;

pub static SPEC: SystemSpec = SystemSpec::plain("Istio", Layer::Mesh);
