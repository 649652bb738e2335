use super::*;
use crate::model::*;
use std::time::Duration;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

fn only(src: &str) -> RetryPolicy {
    let f = read(src);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    f.policies.into_iter().next().unwrap()
}

#[test]
fn a_bare_tenacity_retry_retries_every_exception_for_ever_at_once() {
    let p = only("from tenacity import retry\n\n@retry\ndef f():\n    pass\n");
    assert_eq!(p.system, System::PythonLib("tenacity".into()));
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert!(p.attempts.is_default());
    assert_eq!(p.delay.value, Delay::None);
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
}

#[test]
fn tenacity_stop_wait_and_retry_are_read() {
    let p = only(
        "import tenacity\nfrom tenacity import *\nN = 4\n@tenacity.retry(stop=stop_after_attempt(N) | stop_after_delay(30), wait=wait_random_exponential(multiplier=0.5, max=10), retry=retry_if_exception_type((IOError, TimeoutError)))\ndef f():\n    pass\n",
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.overall_timeout.unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(p.jitter.value, Jitter::Full);
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(500),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(10))
        }
    );
    let RetryOn::Listed { conditions } = p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 2);
}

#[test]
fn backoff_on_exception_defaults_to_full_jitter_and_no_limit() {
    let p = only(
        "import backoff, requests\n@backoff.on_exception(backoff.expo, requests.exceptions.RequestException)\ndef f():\n    return requests.get('http://a.b.svc:80/x', timeout=2)\n",
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(p.jitter.value, Jitter::Full);
    assert_eq!(
        p.per_try_timeout.unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
}

#[test]
fn urllib3_retry_counts_retries_and_waits_nothing_by_default() {
    let f = read(
        "import requests\nfrom urllib3.util.retry import Retry\nfrom requests.adapters import HTTPAdapter\ns = requests.Session()\ns.mount('http://', HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[502, 503])))\ns.get('http://orders:8080/x', timeout=5)\n",
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.delay.value, Delay::None);
    assert!(p.delay.is_default());
    assert_eq!(f.edges.len(), 1);
    assert_eq!(f.edges[0].callee, "orders");
    assert_eq!(f.edges[0].policies, vec![0]);
}

#[test]
fn botocore_max_attempts_counts_retries_and_total_max_attempts_attempts() {
    let p = only(
        "from botocore.config import Config\nc = Config(retries={'max_attempts': 8, 'mode': 'standard'})\n",
    );
    assert_eq!(p.system, System::AwsSdk);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(9));
    let p =
        only("from botocore.config import Config\nc = Config(retries={'total_max_attempts': 8})\n");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(8));
}

#[test]
fn a_bookinfo_loop_retries_the_call_with_its_timeout() {
    let src = r#"import os
import requests
servicesDomain = "" if (os.environ.get("SERVICES_DOMAIN") is None) else "." + os.environ.get("SERVICES_DOMAIN")
reviewsHostname = "reviews" if (os.environ.get("REVIEWS_HOSTNAME") is None) else os.environ.get("REVIEWS_HOSTNAME")
reviews = {
    "name": "http://{0}{1}:9080".format(reviewsHostname, servicesDomain),
    "endpoint": "reviews",
}

def getProductReviews(product_id, headers):
    for _ in range(2):
        try:
            url = reviews['name'] + "/" + reviews['endpoint'] + "/" + str(product_id)
            res = requests.get(url, headers=headers, timeout=3.0)
        except BaseException:
            res = None
        if res and res.status_code == 200:
            return 200, res.json()
    return 500, {}
"#;
    let f = read(src);
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    // Every error, and every answer but 200 (issue 28: a 404 goes round).
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("{:?}", p.retry_on.value)
    };
    let values: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
    assert_eq!(
        values,
        vec![
            &Condition::Exception("Exception".into()),
            &Condition::Status { from: 400, to: 499 },
            &Condition::Status { from: 500, to: 599 }
        ]
    );
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(3))
    );
    assert_eq!(f.edges.len(), 1, "{:#?}", f.edges);
    assert_eq!(f.edges[0].callee, "reviews");
    assert_eq!(f.edges[0].policies, vec![0]);
}

#[test]
fn a_call_without_timeout_in_a_retry_has_no_deadline() {
    let p = only(
        "import requests\nfrom tenacity import retry, stop_after_attempt\n@retry(stop=stop_after_attempt(3))\ndef f():\n    return requests.post('http://payments:8080/charge')\n",
    );
    assert_eq!(p.per_try_timeout.unwrap().value, Timeout::Disabled);
    assert_eq!(p.overall_timeout.unwrap().value, Timeout::Disabled);
    assert_eq!(p.methods.value, Methods::Set(vec!["POST".into()]));
}

#[test]
fn unbalanced_brackets_parse_within_the_budget() {
    // 200 KB of unbalanced brackets: error recovery stays within the
    // budget (the budget itself: `extract::tree_sitter`'s tests), so no
    // RL903 and no policy. Test files are skipped before any reader sees
    // them (`extract::test_code`, which honours `test-code = "read"`).
    let src = format!("import requests\n{}", "(((([[[{{{".repeat(20_000));
    let f = read(&src);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert!(f.policies.is_empty());
}

#[test]
fn uninteresting_files_are_not_wanted() {
    assert!(!wants(b"def main():\n    print('hi')\n"));
    assert!(wants(b"import requests\n"));
    assert!(wants(b"from tenacity import retry\n"));
}

#[test]
fn a_decorator_applied_by_call_retries_the_named_function() {
    // ironic-python-agent: `retry = tenacity.retry(..)` then
    // `retry(self._do_lookup)(..)` is one policy, not a second bare one.
    let src = "import requests\nimport tenacity\n\nclass C:\n    def lookup(self):\n        retry = tenacity.retry(\n            retry=tenacity.retry_if_result(lambda r: r is False),\n            stop=tenacity.stop_after_attempt(5),\n            wait=tenacity.wait_fixed(2))\n        return retry(self._do_lookup)()\n\n    def _do_lookup(self):\n        return requests.get('http://ironic:6385/v1/lookup', timeout=10)\n";
    let f = read(src);
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(p.name.as_deref(), Some("tenacity on _do_lookup"));
    assert_eq!(f.edges.len(), 1);
    assert_eq!(f.edges[0].policies, vec![0]);
}

#[test]
fn a_loop_over_data_is_not_a_retry() {
    // ironic-python-agent `get_bmc_address`: one try per IPMI channel.
    let f = read(
        "import time\n\ndef bmc():\n    for channel in range(1, 12):\n        out = execute('ipmitool lan print {}'.format(channel))\n        try:\n            parse(out)\n        except ValueError:\n            continue\n        return out\n",
    );
    assert!(f.policies.is_empty(), "{:#?}", f.policies);
    // An attempt counter that is only logged and compared is a retry.
    let p = only(
        "import time\n\ndef stat(dev, attempts):\n    for attempt in range(3):\n        try:\n            return os.stat(dev)\n        except OSError as e:\n            LOG.debug('attempt %d', attempt + 1)\n            time.sleep(1)\n",
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(1)
        }
    );
}

#[test]
fn kwargs_may_hold_the_timeout() {
    // ironic-python-agent `_download_with_proxy`.
    let p = only(
        "import time\nimport requests\n\ndef download(url, attrs):\n    session = requests.Session()\n    for attempt in range(3):\n        try:\n            return session.get(url, **attrs)\n        except requests.RequestException:\n            time.sleep(5)\n",
    );
    assert_eq!(p.per_try_timeout.unwrap().value, Timeout::Unknown);
    assert!(p.overall_timeout.is_none());
}

#[test]
fn urllib3_read_errors_are_ambiguous_timeouts_and_methods_are_read() {
    let p =
        only("import urllib3\nr = urllib3.Retry(backoff_factor=0.1, allowed_methods=['POST'])\n");
    assert_eq!(p.methods.value, Methods::Set(vec!["POST".into()]));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(11));
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert!(
        conditions
            .iter()
            .any(|c| c.value == Condition::Transport("read timeout".into()))
    );
}

#[test]
fn an_httpx_transport_retries_connections_only_for_its_clients_calls() {
    let f = read(
        "import httpx\ntransport = httpx.HTTPTransport(retries=2)\nclient = httpx.Client(transport=transport)\nclient.post('http://orders:8080/orders')\n",
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.methods.value, Methods::All);
    assert_eq!(f.edges.len(), 1);
    assert_eq!(f.edges[0].policies, vec![0]);
}

fn loop_delay(header: &str, wait: &str) -> Delay {
    let p = only(&format!(
        "import time, requests\n\ndef f(url):\n    {header}\n        try:\n            return requests.get(url, timeout=2)\n        except requests.ConnectionError:\n            time.sleep({wait})\n"
    ));
    p.delay.value
}

#[test]
fn a_wait_in_the_loop_variable_is_read_at_the_variables_first_values() {
    let exp = |base_ms: u64, m: f64, cap: Option<u64>| Delay::Exponential {
        base: Duration::from_millis(base_ms),
        multiplier: m,
        cap: cap.map(Duration::from_secs),
    };
    // metaflow service.py: `2 ** (i - 1)` starts at 0.5 s, not 1 s.
    assert_eq!(
        loop_delay("for i in range(4):", "2 ** (i - 1)"),
        exp(500, 2.0, None)
    );
    assert_eq!(
        loop_delay("for i in range(4):", "2 ** i"),
        exp(1000, 2.0, None)
    );
    // A range from 1: the first wait is 2 ** 1.
    assert_eq!(
        loop_delay("for i in range(1, 5):", "2 ** i"),
        exp(2000, 2.0, None)
    );
    assert_eq!(
        loop_delay("for i in range(5):", "0.1 * 3 ** i"),
        exp(100, 3.0, None)
    );
    assert_eq!(
        loop_delay("for i in range(5):", "1 << i"),
        exp(1000, 2.0, None)
    );
    assert_eq!(
        loop_delay("for i in range(5):", "pow(2, i + 1)"),
        exp(2000, 2.0, None)
    );
    assert_eq!(
        loop_delay("for i in range(9):", "min(30, 2 ** i)"),
        exp(1000, 2.0, Some(30))
    );
    assert_eq!(
        loop_delay("for i in range(5):", "(i + 1) * 2"),
        Delay::Linear {
            base: Duration::from_secs(2),
            cap: None
        }
    );
}

/// A `while` loop's counter (`attempt += 1` in the loop, `attempt = 0`
/// before it) is its variable: haystack's `link_content.py` waits
/// `min(2 * 2 ** (attempt - 1), 10)` after counting the failure, 2, 4,
/// 8, then 10 s, not the fixed second its value before the loop gives.
#[test]
fn a_while_loops_counter_is_its_variable_in_the_wait() {
    let wait = |pre: &str, post: &str, wait: &str| {
        only(&format!(
            "import time, requests\n\ndef f(url, n=3):\n    attempt = 0\n    while attempt <= n:\n        try:\n            return requests.get(url, timeout=2)\n        except requests.ConnectionError:\n            {pre}\n            time.sleep({wait})\n            {post}\n"
        ))
        .delay
        .value
    };
    let exp = |base_ms: u64, cap: Option<u64>| Delay::Exponential {
        base: Duration::from_millis(base_ms),
        multiplier: 2.0,
        cap: cap.map(Duration::from_secs),
    };
    // Counted before the wait: the first wait is at `attempt == 1`.
    assert_eq!(
        wait("attempt += 1", "pass", "min(2 * 2 ** (attempt - 1), 10)"),
        exp(2000, Some(10))
    );
    // Counted after it: at `attempt == 0`.
    assert_eq!(
        wait("pass", "attempt += 1", "2 ** attempt"),
        exp(1000, None)
    );
    // A counter that is not the one the condition tests is no variable.
    assert_eq!(
        wait("pass", "other = 1", "2 ** attempt"),
        Delay::Fixed {
            delay: Duration::from_secs(1)
        }
    );
}

/// `os.environ.get("X") or "default"` reads as `os.getenv("X",
/// "default")` does: the variable is the call's target, the fallback's
/// host its default where no workload sets it.
#[test]
fn an_or_fallback_is_the_default_of_an_environment_read() {
    let f = read(
        r#"import os
import requests

BASE = os.environ.get("ORDERS_URL") or "http://orders:8080"

def order(i):
    return requests.get(BASE + "/orders/" + str(i), timeout=2)

def stock(i):
    return requests.get((os.getenv("STOCK_URL") or "") + "/stock", timeout=2)
"#,
    );
    assert!(f.edges.is_empty(), "{:#?}", f.edges);
    let envs: Vec<(&str, Option<&str>)> = f
        .unresolved
        .iter()
        .map(|u| (u.written.as_str(), u.if_unset.as_deref()))
        .collect();
    assert_eq!(
        envs,
        [("env ORDERS_URL", Some("orders")), ("env STOCK_URL", None)]
    );
}

/// The one-cursor walk gives the nodes the stack of `named_children`
/// gave, in the same order, comments and error nodes included, and
/// stops at the same node when over its bound; the kind and field
/// tables give what `Node::kind` and `child_by_field_name` give.
#[test]
fn the_node_index_and_kind_table_match_the_tree() {
    let src = "import requests  # c\n\nclass A:\n    def f(self, x=1):\n        for i in range(3):\n            try:\n                return requests.get(f\"http://a/{x}\", timeout=2)\n            except Exception:\n                time.sleep(1) ; (\n\nprint(1)\n";
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_python::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(src, None).unwrap();
    let root = tree.root_node();
    let mut old = Vec::new();
    let mut stack = vec![root];
    let mut cursor = root.walk();
    while let Some(n) = stack.pop() {
        old.push(n);
        let kids: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
        stack.extend(kids.into_iter().rev());
    }
    assert!(old.iter().any(|n| n.kind() == "comment") && old.iter().any(|n| n.is_error()));
    let ids = |v: &[Node<'_>]| v.iter().map(|n| n.id()).collect::<Vec<_>>();
    assert_eq!(ids(&preorder(root, usize::MAX)), ids(&old));
    assert_eq!(ids(&preorder(root, 7)), ids(&old[..7]));
    for n in &old {
        assert_eq!(n.kind_str(), n.kind());
        for f in [
            "name",
            "left",
            "right",
            "body",
            "function",
            "arguments",
            "value",
        ] {
            assert_eq!(field(*n, f), n.child_by_field_name(f));
        }
    }
}
