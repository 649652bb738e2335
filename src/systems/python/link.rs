//! Celery's broker settings joined to the task retries (and the tasks
//! sent to run later) of the same program (issue 28, mozmeao/basket #474): a settings module names the
//! broker, the app's module may add transport options
//! (`app.conf.update(..)`), the tasks are in a third file. Each Celery
//! policy takes the nearest file's broker URL and the nearest file's
//! `visibility_timeout` (its own file, then the longest common folder; two
//! equally near files that disagree set nothing; a timeout farther away
//! than the URL is another app's and is not taken), and from them the redelivery timeout its
//! countdowns are held under (`RetryPolicy::redelivery`, RL305):
//! the written `visibility_timeout` on the Redis or SQS transport (or with
//! no URL read), kombu's one hour on Redis with none written; nothing on
//! AMQP and the others (no visibility timeout), or on SQS with none
//! written (the queue's own setting, not in these files).

use super::KOMBU_REDIS_VISIBILITY_TIMEOUT;
use crate::model::{BrokerSettingKind, Redelivery, ScannedFile, SettingPlace, System};
use std::path::Path;

const SETTING: &str = "`broker_transport_options` `visibility_timeout`";

/// One setting: where (path, line) and what.
struct Found {
    path: std::path::PathBuf,
    place: SettingPlace,
    kind: BrokerSettingKind,
}

pub fn celery_brokers(files: &mut [ScannedFile]) {
    let mut found = Vec::new();
    for f in files.iter() {
        for b in &f.facts.broker_settings {
            if b.system == "celery" {
                found.push(Found {
                    path: f.source.path.clone(),
                    place: SettingPlace {
                        path: f.source.display_path(),
                        line: f.source.line_col(b.span.start).line,
                    },
                    kind: b.kind.clone(),
                });
            }
        }
    }
    if found.is_empty() {
        return;
    }
    let transports: Vec<&Found> = found
        .iter()
        .filter(|f| matches!(f.kind, BrokerSettingKind::Transport { .. }))
        .collect();
    let timeouts: Vec<&Found> = found
        .iter()
        .filter(|f| matches!(f.kind, BrokerSettingKind::Timeout { .. }))
        .collect();
    for f in files.iter_mut() {
        let celery = |s: &System| matches!(s, System::PythonLib(l) if l == "celery");
        if !f.facts.policies.iter().any(|p| celery(&p.system))
            && !f.facts.delayed_sends.iter().any(|d| d.system == "celery")
        {
            continue;
        }
        let here = &f.source.path;
        let transport = nearest(here, &transports);
        // A timeout farther away than the broker's own URL is another
        // app's (a sibling folder, or another file beside the one naming
        // its own broker): the URL and its transport options are one
        // app's settings, so the timeout is never taken from farther out.
        let timeout = nearest(here, &timeouts).filter(|o| {
            transport.is_none_or(|t| nearness(here, &o.path) >= nearness(here, &t.path))
        });
        let transport = transport.map(|t| match &t.kind {
            BrokerSettingKind::Transport { name } => name.as_str(),
            BrokerSettingKind::Timeout { .. } | BrokerSettingKind::RetryOption { .. } => "",
        });
        let redelivery = match (transport, timeout) {
            (Some("redis" | "sqs") | None, Some(t)) => match &t.kind {
                BrokerSettingKind::Timeout { after, written_as } => Some(Redelivery {
                    after: *after,
                    setting: SETTING.into(),
                    written_as: written_as.clone(),
                    place: Some(t.place.clone()),
                }),
                BrokerSettingKind::Transport { .. } | BrokerSettingKind::RetryOption { .. } => None,
            },
            (Some("redis"), None) => Some(Redelivery {
                after: KOMBU_REDIS_VISIBILITY_TIMEOUT,
                setting: SETTING.into(),
                written_as: "none set: kombu's Redis transport default of one hour".into(),
                place: None,
            }),
            _ => None,
        };
        let Some(r) = redelivery else {
            continue;
        };
        for p in f.facts.policies.iter_mut().filter(|p| celery(&p.system)) {
            p.redelivery = Some(r.clone());
        }
        for d in f
            .facts
            .delayed_sends
            .iter_mut()
            .filter(|d| d.system == "celery")
        {
            d.redelivery = Some(r.clone());
        }
    }
}

/// How near `b` is to `here`: the folders they share, counted twice, and
/// one more for the file itself (a setting in the policy's own file is
/// nearer than one beside it).
fn nearness(here: &Path, b: &Path) -> usize {
    let shared = here
        .parent()
        .unwrap_or(here)
        .components()
        .zip(b.parent().unwrap_or(b).components())
        .take_while(|(x, y)| x == y)
        .count();
    shared * 2 + usize::from(here == b)
}

/// Of `candidates`, the one nearest to `here` (its own file, then the
/// longest common folder); several equally near are taken only when they
/// say the same.
fn nearest<'a>(here: &Path, candidates: &[&'a Found]) -> Option<&'a Found> {
    let best = candidates.iter().map(|c| nearness(here, &c.path)).max()?;
    let mut near = candidates
        .iter()
        .filter(|c| nearness(here, &c.path) == best);
    let first = near.next()?;
    near.all(|c| same(&c.kind, &first.kind)).then_some(*first)
}

fn same(a: &BrokerSettingKind, b: &BrokerSettingKind) -> bool {
    match (a, b) {
        (BrokerSettingKind::Transport { name: x }, BrokerSettingKind::Transport { name: y }) => {
            x == y
        }
        (
            BrokerSettingKind::Timeout { after: x, .. },
            BrokerSettingKind::Timeout { after: y, .. },
        ) => x == y,
        _ => false,
    }
}
