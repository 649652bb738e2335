//! Spring Cloud Gateway routes built in Java (`gateway_routes`): the
//! shapes real gateways write (eazybytes/microservices 7fa7d89 and the
//! forms the Spring Cloud Gateway reference shows).

use super::*;

const HEAD: &str = "import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;\nclass G { RouteLocator r(RouteLocatorBuilder b) { return b.routes()\n";

fn routes(body: &str) -> Facts {
    facts(&format!("{HEAD}{body}\n.build(); }} }}"))
}

#[test]
fn retry_with_a_count_is_the_filter_with_that_many_retries() {
    let f = routes(
        r#".route("orders", r -> r.path("/orders/**").filters(f -> f.retry(2)).uri("lb://ORDERS"))"#,
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.system, System::SpringCloudGateway);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.name.as_deref(), Some("route orders"));
    assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
    // The route's call carries it.
    let e: Vec<_> = f.edges.iter().filter(|e| e.callee == "orders").collect();
    assert_eq!(e.len(), 1, "{:#?}", f.edges);
    assert_eq!(e[0].policies, [0]);
}

#[test]
fn setters_in_a_block_are_read_and_other_routes_keep_no_policy() {
    let f = routes(
        r#".route(p -> p.path("/hotel/**").filters(f -> f.retry(c -> {
                c.setBackoff(Duration.ofMillis(100), Duration.ofMillis(500), 2, true);
                c.setRetries(4).allMethods();
            })).uri("lb://HOTEL-SERVICE"))
           .route(p -> p.path("/cars/**").uri("lb://CAR-SERVICE"))"#,
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(p.name.as_deref(), Some("route /hotel/**"));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 2.0,
            cap: Some(ms(500)),
        }
    );
    assert!(matches!(&p.methods.value, Methods::Set(m) if m.contains(&"POST".to_string())));
    let hotel = f
        .edges
        .iter()
        .find(|e| e.callee == "hotel-service")
        .unwrap();
    assert_eq!(hotel.policies, [0]);
    let cars = f.edges.iter().find(|e| e.callee == "car-service").unwrap();
    assert!(cars.policies.is_empty());
}

#[test]
fn a_retry_config_variable_is_not_guessed() {
    let f = routes(r#".route(p -> p.path("/a/**").filters(f -> f.retry(config)).uri("lb://A"))"#);
    assert!(f.policies.is_empty(), "{:#?}", f.policies);
}
