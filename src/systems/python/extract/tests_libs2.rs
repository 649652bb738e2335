//! Unit tests of the readings added for aiohttp_retry, tenacity `&` and
//! `reraise`, urllib3's Retry-After and 1.x/2.x arguments, boto3 clients
//! and adapters tied to their session.

use super::*;
use crate::model::*;
use std::time::Duration;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

#[test]
fn tenacity_and_stops_after_both_and_reraise_is_stated() {
    let f = read(
        "from tenacity import *\n@retry(stop=stop_after_attempt(3) & stop_after_attempt(7), reraise=True)\ndef f():\n    pass\n@retry(stop=stop_after_attempt(3) & stop_after_delay(9))\ndef g():\n    pass\n",
    );
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(7));
    assert!(
        f.policies[0]
            .why
            .iter()
            .any(|w| w.starts_with("reraise=True"))
    );
    // A count and a delay: finite, but how many tries depends on the waits.
    assert_eq!(f.policies[1].attempts.value.count, AttemptCount::Unknown);
    assert!(f.policies[1].overall_timeout.is_none());
    assert!(f.policies[1].why.iter().any(|w| w.contains("RetryError")));
}

#[test]
fn urllib3_honours_retry_after_unless_told_not_to() {
    let f = read(
        "from urllib3.util.retry import Retry\na = Retry(total=3)\nb = Retry(total=3, respect_retry_after_header=False)\nc = Retry(total=3, retry_after_max=30)\nd = Retry(total=0)\n",
    );
    let d = f.policies[0].server_delay.as_ref().unwrap();
    assert!(d.is_default() && !d.value.capped && !d.value.jittered);
    assert!(f.policies[1].server_delay.is_none());
    assert!(f.policies[2].server_delay.as_ref().unwrap().value.capped);
    assert!(f.policies[3].server_delay.is_none());
    // The Retry-After statuses are not conditions (RL603, RL101).
    let RetryOn::Listed { conditions } = &f.policies[0].retry_on.value else {
        panic!()
    };
    assert!(
        !conditions
            .iter()
            .any(|c| matches!(c.value, Condition::Status { .. }))
    );
}

#[test]
fn urllib3_method_whitelist_is_reported_and_still_read() {
    let f = read("from urllib3 import Retry\nr = Retry(3, method_whitelist=['GET'])\n");
    assert_eq!(f.diagnostics.len(), 1);
    assert_eq!(f.diagnostics[0].code, crate::diag::Code::RL901);
    assert_eq!(
        f.policies[0].methods.value,
        Methods::Set(vec!["GET".into()])
    );
    let f =
        read("from urllib3 import Retry\nr = Retry(3, allowed_methods=['GET'], backoff_max=5)\n");
    assert!(f.diagnostics.is_empty());
}

#[test]
fn aiohttp_retry_defaults_from_its_source() {
    let f = read(
        "from aiohttp_retry import RetryClient, ExponentialRetry, ListRetry\nclient = RetryClient()\nopts = ListRetry(timeouts=[0.1, 2, 2, 2])\nc2 = RetryClient(retry_options=opts)\n",
    );
    let p = &f.policies[0];
    assert_eq!(p.system, System::PythonLib("aiohttp_retry".into()));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs_f64(0.2),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(30)),
        }
    );
    // 5xx only: exceptions are retried only when listed.
    assert_eq!(
        p.retry_on.value,
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Status { from: 500, to: 599 },
                p.span
            )]
        }
    );
    let Methods::Set(ms) = &p.methods.value else {
        panic!()
    };
    assert!(ms.contains(&"POST".to_string()));
    let l = &f.policies[1];
    assert_eq!(l.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        l.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
}

#[test]
fn boto3_clients_take_their_config_or_botocore_defaults() {
    let f = read(
        "import boto3\nfrom botocore.config import Config\ncfg = Config(retries={'max_attempts': 2})\ns3 = boto3.client('s3', config=cfg)\nsqs = boto3.client('sqs')\nsns = boto3.client('sns', **params)\nsfn = boto3.resource('arn:aws:states:::s3:getObject')\n",
    );
    assert_eq!(f.policies.len(), 2, "{:#?}", f.policies);
    assert_eq!(
        f.policies[0].name.as_deref(),
        Some("botocore Config of boto3.client(\"s3\")")
    );
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(3));
    let d = &f.policies[1];
    assert_eq!(d.system, System::AwsSdk);
    assert!(d.attempts.is_default());
    assert_eq!(d.attempts.value.count, AttemptCount::Finite(5));
}

#[test]
fn an_adapter_applies_to_the_session_it_is_mounted_on() {
    let src = "import requests\nfrom requests.adapters import HTTPAdapter\nfrom urllib3.util.retry import Retry\na = requests.Session()\na.mount('https://', HTTPAdapter(max_retries=Retry(total=2)))\nb = requests.Session()\n\ndef f():\n    a.get('https://x.example/a', timeout=1)\n    a.get('http://y.example/a', timeout=1)\n    b.get('https://z.example/a', timeout=1)\n";
    let f = read(src);
    let by = |h: &str| f.edges.iter().find(|e| e.callee == h).unwrap();
    assert_eq!(by("x").policies.len(), 1);
    // http:// is not the mounted prefix; b has requests' default adapter.
    assert!(by("y").policies.is_empty());
    assert!(by("z").policies.is_empty());
}

/// A Celery `Task` subclass setting `autoretry_for` as class attributes
/// (saksham-segra/exponential-backoff-system `core/tasks.py`): the count
/// from `retry_kwargs["max_retries"]`, the wait the class's own `retry`
/// computes.
#[test]
fn celery_task_classes_are_retry_policies() {
    let f = read(
        "import celery\n\nclass BackoffTask(celery.Task):\n    autoretry_for = (Exception,)\n    max_retries = 2\n    retry_kwargs = {'max_retries': 5}\n    retry_jitter = True\n\n    def retry(self, countdown=None, **options):\n        return super().retry(countdown=2 ** self.request.retries, **options)\n\nclass Plain(object):\n    autoretry_for = (Exception,)\n",
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    assert_eq!(p.delay.value, Delay::Custom);
    assert_eq!(p.name.as_deref(), Some("Celery task class BackoffTask"));
}

/// pika: `ConnectionParameters(host=..)` and `URLParameters(url)` are
/// AMQP edges to the broker (a class constant read through `self.`, an
/// `env X` call for a host from the environment, with the code's default
/// beside it, none for pika's default `localhost`); `connection_attempts` above 1 is a connect
/// retry, on no edge (pika 2126d43 `pika/connection.py`).
#[test]
fn pika_parameters_name_the_broker() {
    let f = read(
        r#"import os
import pika

class Publisher:
    HOST = os.getenv('AMQP_HOST', 'rabbitmq')

    def __init__(self):
        self._params = pika.connection.ConnectionParameters(host=self.HOST, connection_attempts=8, retry_delay=5)

def events():
    return pika.BlockingConnection(pika.URLParameters("amqp://guest:guest@events-mq:5672/%2F"))

def audit():
    return pika.ConnectionParameters(host=os.environ["AUDIT_MQ_HOST"])

def local():
    return pika.ConnectionParameters()

hostname = os.environ.get('rabbit_host') or 'localhost'

def errors():
    return pika.ConnectionParameters(host=hostname, port=5672)
"#,
    );
    let edges: Vec<(&str, Option<crate::model::calls::Protocol>, usize)> = f
        .edges
        .iter()
        .map(|e| (e.callee.as_str(), e.protocol, e.policies.len()))
        .collect();
    assert_eq!(
        edges,
        [("events-mq", Some(crate::model::calls::Protocol::Amqp), 0)]
    );
    // `os.getenv('AMQP_HOST', 'rabbitmq')`: the variable, its default
    // beside it (the workload's entry wins).
    let envs: Vec<(&str, Option<&str>)> = f
        .unresolved
        .iter()
        .map(|u| (u.written.as_str(), u.if_unset.as_deref()))
        .collect();
    assert_eq!(
        envs,
        [
            ("env AMQP_HOST", Some("rabbitmq")),
            ("env AUDIT_MQ_HOST", None),
            ("env rabbit_host", None)
        ]
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(p.kind, PolicyKind::Connect);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(8));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(5)
        }
    );
    assert_eq!(
        p.per_try_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(15)))
    );
}

/// The options a broker module gives Dramatiq's `Retries` middleware are
/// broker settings of the file.
#[test]
fn dramatiq_broker_retries_options() {
    let mut f = Facts::default();
    super::extract(
        "import dramatiq\nfrom dramatiq.middleware import Retries\nbroker.add_middleware(Retries(max_retries=3, min_backoff=1000))\n",
        &mut f,
    );
    let got: Vec<_> = f
        .broker_settings
        .iter()
        .map(|b| (b.system.as_str(), b.kind.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "dramatiq",
                crate::model::BrokerSettingKind::RetryOption {
                    option: "max_retries".into(),
                    value: 3.0
                }
            ),
            (
                "dramatiq",
                crate::model::BrokerSettingKind::RetryOption {
                    option: "min_backoff".into(),
                    value: 1000.0
                }
            )
        ]
    );
}
