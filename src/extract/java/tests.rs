use super::*;

fn facts(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

#[test]
fn dump_corpus() {
    for p in [
        "../../shared/corpus/signalapp/Signal-Server/service/src/main/java/org/whispersystems/textsecuregcm/http/FaultTolerantHttpClient.java",
        "../../shared/corpus/resilience4j/resilience4j-spring-boot2-demo/src/main/java/io/github/robwin/controller/BackendBController.java",
        "../../shared/corpus/eugenp/tutorials/spring-scheduling/src/main/java/com/baeldung/springretry/MyService.java",
    ] {
        let Ok(t) = std::fs::read_to_string(p) else {
            continue;
        };
        let f = facts(&t);
        for p in &f.policies {
            let l = |s: crate::source::Span| t[..s.start].lines().count();
            println!(
                "{:?} L{} attempts={:?} delay={:?} jitter={:?} on={:?} wraps={:?} per_try={:?} ign={:?}",
                p.name,
                l(p.span),
                p.attempts.value,
                p.delay.value,
                p.jitter.value,
                p.retry_on.value,
                p.wraps_breaker.iter().map(|s| l(*s)).collect::<Vec<_>>(),
                p.per_try_timeout.as_ref().map(|x| &x.value),
                p.ignores.len()
            );
        }
        println!("diags {:?}", f.diagnostics);
        println!("edges {:?}", f.edges);
    }
}
