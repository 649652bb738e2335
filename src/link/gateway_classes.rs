//! Gateway API Gateways of a class whose `GatewayClass` another file
//! declares (issue 17, item 4): a class of any name whose controller is
//! Istio's is run by Istio, which applies its default retry policy to the
//! routes (the class named `istio` is Istio's own and is read where the
//! Gateway is).

use super::*;
use crate::model::System;
use crate::model::calls::MeshHint;
use std::collections::BTreeMap;

/// The `spec.controllerName`s of Istio's Gateway controllers: the
/// managed one (istio/istio `pilot/pkg/features/pilot.go`,
/// `ManagedGatewayController`, default of `PILOT_GATEWAY_API_CONTROLLER_NAME`)
/// and the unmanaged one (`pkg/config/constants/constants.go`,
/// `UnmanagedGatewayController`), istio/istio at 86c9f01 (2026-08-22).
const ISTIO_CONTROLLERS: &[&str] = &["istio.io/gateway-controller", "istio.io/unmanaged-gateway"];

pub fn gateway_classes(files: &mut [ScannedFile]) {
    // Class name -> controllers (two files may declare the same class
    // differently: then it is not known which one holds).
    let mut classes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files.iter() {
        for g in &f.facts.gateway_classes {
            let c = classes.entry(g.name.clone()).or_default();
            if !c.contains(&g.controller) {
                c.push(g.controller.clone());
            }
        }
    }
    if classes.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        for s in &mut f.facts.services {
            let Some((class, span)) = &s.placement.gateway_class else {
                continue;
            };
            if let Some([controller]) = classes.get(class).map(Vec::as_slice)
                && ISTIO_CONTROLLERS.contains(&controller.as_str())
                && !s.placement.mesh.iter().any(|h| h.mesh == System::Istio)
            {
                s.placement.mesh.push(MeshHint {
                    mesh: System::Istio,
                    on: true,
                    span: *span,
                });
            }
        }
    }
}
