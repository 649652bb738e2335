//! The Kustomize step's result kept between runs (issue 27). Building
//! every overlay is most of a warm run where kustomizations are many
//! (kubeflow/manifests: 1,582 M of a warm run's 1,951 M instructions,
//! its 49 overlays built and their resources parsed again though no
//! file changed; 32 M with the result kept, PERFORMANCE.md stop 52).
//! The step is a function of what it reads: the scanned files' paths
//! and texts, the facts it reads and writes of each
//! (policies, timeouts, protections, workloads and Services, call
//! edges: those of the files' own reading, which the facts cache keys by
//! path and bytes, and what the Helm step before it made of them), the
//! working folder, and the files it read from disk (or found missing).
//! So it is kept, beside the facts cache, as the facts it changed, under
//! a hash of all of that but the disk reads, which are listed with a
//! hash of what each gave and read again to check them. A run whose
//! hash and reads match takes the kept facts instead of building; any
//! other (a file changed, added or removed, a disk file changed or
//! appeared, another build of retrylint: its salt) builds and keeps its
//! own result. A kept result that cannot be read is a miss, never wrong.

use crate::model::{
    CallEdge, Facts, Protection, RetryPolicy, ScannedFile, ServiceDecl, TimeoutSetting,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// The file in the cache folder (its format's version in the name).
const FILE: &str = "kustomize-v1";

/// The facts of a file the step reads and writes.
#[derive(Serialize)]
struct FieldsRef<'a> {
    policies: &'a [RetryPolicy],
    timeouts: &'a [TimeoutSetting],
    protections: &'a [Protection],
    services: &'a [ServiceDecl],
    edges: &'a [CallEdge],
}

/// [`FieldsRef`] read back.
#[derive(Deserialize)]
pub(super) struct Fields {
    policies: Vec<RetryPolicy>,
    timeouts: Vec<TimeoutSetting>,
    protections: Vec<Protection>,
    services: Vec<ServiceDecl>,
    edges: Vec<CallEdge>,
}

/// Those facts as the facts cache writes them (MessagePack, every field);
/// `None` if they cannot be written (then nothing is kept or taken).
fn encode(f: &Facts) -> Option<Vec<u8>> {
    let r = FieldsRef {
        policies: &f.policies,
        timeouts: &f.timeouts,
        protections: &f.protections,
        services: &f.services,
        edges: &f.edges,
    };
    crate::model::skip::every_field(|| rmp_serde::to_vec(&r)).ok()
}

/// What the step is given, taken before it runs: the hash of its inputs
/// and each file's facts as [`encode`] writes them.
pub(super) struct Before {
    key: [u64; 2],
    fields: Vec<Vec<u8>>,
}

pub(super) fn before(files: &[ScannedFile], cwd: Option<&Path>, salt: u64) -> Option<Before> {
    let mut h = Xxh3::with_seed(salt);
    let mut put = |b: &[u8]| {
        h.update(&(b.len() as u64).to_le_bytes());
        h.update(b);
    };
    put(FILE.as_bytes());
    put(cwd.map_or(&[][..], |c| c.as_os_str().as_encoded_bytes()));
    let mut fields = Vec::with_capacity(files.len());
    for f in files {
        put(f.source.path.as_os_str().as_encoded_bytes());
        put(f.source.text.as_bytes());
        let claimed = f
            .facts
            .extractors
            .contains(&crate::extract::kustomize::CLAIM);
        put(&[u8::from(claimed)]);
        let b = encode(&f.facts)?;
        put(&b);
        fields.push(b);
    }
    let k = h.digest128();
    Some(Before {
        key: [k as u64, (k >> 64) as u64],
        fields,
    })
}

/// The kept result: the key it was built under, the disk reads (path, hash
/// of the text or `None` when it could not be read), and each changed
/// file's facts.
#[derive(Serialize, Deserialize)]
struct Kept {
    key: [u64; 2],
    reads: Vec<(String, Option<u64>)>,
    changed: Vec<(usize, Vec<u8>)>,
}

/// The changed facts a previous run kept under the same inputs, if any.
pub(super) fn load(
    dir: &Path,
    before: &Before,
    files: &[ScannedFile],
    disk: super::super::Disk<'_>,
) -> Option<Vec<(usize, Fields)>> {
    let bytes = std::fs::read(dir.join(FILE)).ok()?;
    let (hash, body) = bytes.split_at_checked(8)?;
    if u64::from_le_bytes(hash.try_into().ok()?) != xxh3_64(body) {
        return None;
    }
    let kept: Kept = rmp_serde::from_slice(body).ok()?;
    if kept.key != before.key {
        return None;
    }
    for (path, hash) in &kept.reads {
        let now = disk.read(Path::new(path), super::MAX_FILE);
        if now.map(|t| xxh3_64(t.as_bytes())) != *hash {
            return None;
        }
    }
    kept.changed
        .iter()
        .map(|(i, b)| {
            (*i < files.len())
                .then(|| rmp_serde::from_slice(b).ok())
                .flatten()
                .map(|f| (*i, f))
        })
        .collect()
}

/// Put the kept facts in place.
pub(super) fn apply(files: &mut [ScannedFile], changed: Vec<(usize, Fields)>) {
    for (i, f) in changed {
        let facts = &mut files[i].facts;
        facts.policies = f.policies;
        facts.timeouts = f.timeouts;
        facts.protections = f.protections;
        facts.services = f.services;
        facts.edges = f.edges;
    }
}

/// Keep this run's result (errors ignored: the next run builds again).
pub(super) fn save(
    dir: &Path,
    before: &Before,
    files: &[ScannedFile],
    reads: Vec<(PathBuf, Option<u64>)>,
) {
    let Some(reads) = reads
        .into_iter()
        .map(|(p, h)| p.to_str().map(|s| (s.to_string(), h)))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    let mut changed = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let Some(b) = encode(&f.facts) else { return };
        if before.fields.get(i) != Some(&b) {
            changed.push((i, b));
        }
    }
    let kept = Kept {
        key: before.key,
        reads,
        changed,
    };
    let Ok(body) = rmp_serde::to_vec(&kept) else {
        return;
    };
    let mut bytes = xxh3_64(&body).to_le_bytes().to_vec();
    bytes.extend_from_slice(&body);
    if crate::cache::prepare(dir).is_ok() {
        let _ = crate::cache::write_atomically(&dir.join(FILE), &bytes);
    }
}
