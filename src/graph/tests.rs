use super::*;

fn layer(attempts: u64, per_try: u64, hedge_delay: Option<u64>) -> RetryLayer {
    RetryLayer {
        policy: None,
        system: System::DotnetStandard,
        kind: LayerKind::Application,
        attempts: AttemptCount::Finite(attempts),
        per_try: Some(Duration::from_secs(per_try)),
        overall: None,
        backoff: Duration::from_secs(1),
        hedge_delay: hedge_delay.map(Duration::from_secs),
        implicit: false,
        loc: Loc::default(),
        timeout_loc: None,
        label: String::new(),
        setting: String::new(),
    }
}

fn one_edge(l: RetryLayer) -> Graph {
    Graph {
        edges: vec![Edge {
            from: 0,
            to: 1,
            proof: Loc::default(),
            via: String::new(),
            layers: vec![l],
            also: Vec::new(),
            protocol: Protocol::Unknown,
            mesh: None,
            path: None,
            route: Vec::new(),
            host: None,
            route_hosts: Vec::new(),
        }],
        ..Graph::default()
    }
}

#[test]
fn hedged_copies_take_time_side_by_side_retries_one_after_the_other() {
    // 4 retries of 5s with 1s of back-off in all: 21s.
    assert_eq!(
        one_edge(layer(4, 5, None)).edge_time(0, None),
        Some(Duration::from_secs(21))
    );
    // 4 copies 2s apart, 5s each: the last starts at 6s, answers by 11s.
    assert_eq!(
        one_edge(layer(4, 5, Some(2))).edge_time(0, None),
        Some(Duration::from_secs(11))
    );
    // A delay longer than a copy's timeout: the next goes out when the
    // previous times out.
    assert_eq!(
        one_edge(layer(3, 2, Some(10))).edge_time(0, Some(Duration::from_secs(1))),
        Some(Duration::from_secs(3))
    );
}
