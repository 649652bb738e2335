//! The Kustomize step's result kept between runs (issue 27). Building
//! every overlay is most of a warm run where kustomizations are many
//! (kubeflow/manifests: 1,582 M of a warm run's 1,951 M instructions,
//! its 49 overlays built and their resources parsed again though no
//! file changed; 32 M with the result kept, PERFORMANCE.md stop 52).
//! The step is a function of what it reads: the paths and texts of the
//! scanned files it reads (every kustomization and each file a build
//! loads), the facts it reads and writes of each
//! (policies, timeouts, protections, workloads and Services, call
//! edges: those of the files' own reading, which the facts cache keys by
//! path and bytes, and what the Helm step before it made of them), the
//! working folder, and the files it read from disk (or found missing).
//! So it is kept, beside the facts cache, as the facts it changed, under
//! a hash of all of that but the disk reads, which are listed with a
//! hash of what each gave and read again to check them. The scanned
//! files it read are listed by path: a run finds them again, with every
//! kustomization it scanned (one more is a miss), and hashes them as the
//! build did; a file no build read changes nothing the step gives, so a
//! one-file run that changed a Java file still takes the kept result. A run whose
//! hash and reads match takes the kept facts instead of building; any
//! other (a file it read changed or went, a kustomization added, a disk
//! file changed or appeared, another build of retrylint: its salt)
//! builds and keeps its own result. A kept result that cannot be read is a miss, never wrong.

use crate::model::{
    CallEdge, Facts, Protection, RetryPolicy, ScannedFile, ServiceDecl, TimeoutSetting,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// The file in the cache folder (its format's version in the name).
const FILE: &str = "kustomize-v2";

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

/// The build's inputs, taken before it changes anything: the hash of
/// what it read (the kustomizations and the scanned files it loaded:
/// their paths, texts and facts), those files' paths, and each one's
/// facts as [`encode`] writes them.
pub(super) struct Inputs {
    key: [u64; 2],
    read: Vec<(usize, String)>,
    fields: Vec<Vec<u8>>,
}

impl Inputs {
    /// The inputs of a build that read the scanned files `read` (in any
    /// order, repeats allowed); `None` when a path or the facts cannot be
    /// written down (then nothing is kept).
    pub(super) fn take(
        files: &[ScannedFile],
        cwd: Option<&Path>,
        salt: u64,
        mut read: Vec<usize>,
    ) -> Option<Inputs> {
        read.sort_unstable();
        read.dedup();
        let mut named = Vec::with_capacity(read.len());
        for i in read {
            named.push((i, files.get(i)?.source.path.to_str()?.to_string()));
        }
        // In the order of their paths: the scan's order is not kept.
        named.sort_by(|a, b| a.1.cmp(&b.1));
        let (key, fields) = key(files, cwd, salt, &named)?;
        Some(Inputs {
            key,
            read: named,
            fields,
        })
    }
}

/// The hash of the files `read` (index and path, in path order): the
/// step's format, the working folder, and each file's path, text, claim
/// and facts; with each one's facts as [`encode`] writes them.
fn key(
    files: &[ScannedFile],
    cwd: Option<&Path>,
    salt: u64,
    read: &[(usize, String)],
) -> Option<([u64; 2], Vec<Vec<u8>>)> {
    let mut h = Xxh3::with_seed(salt);
    let mut put = |b: &[u8]| {
        h.update(&(b.len() as u64).to_le_bytes());
        h.update(b);
    };
    put(FILE.as_bytes());
    put(cwd.map_or(&[][..], |c| c.as_os_str().as_encoded_bytes()));
    let mut fields = Vec::with_capacity(read.len());
    for (i, _) in read {
        let f = files.get(*i)?;
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
    Some(([k as u64, (k >> 64) as u64], fields))
}

/// The kept result: the key it was built under, the scanned files the
/// build read (by path), the disk reads (path, hash of the text or `None`
/// when it could not be read), and each changed file's facts (by path).
/// A file the build did not read is neither in the key nor changed: a
/// one-file run that changed only such a file (a Java source, a Spring
/// configuration) takes the result.
#[derive(Serialize, Deserialize)]
struct Kept {
    key: [u64; 2],
    read: Vec<String>,
    reads: Vec<(String, Option<u64>)>,
    changed: Vec<(String, Vec<u8>)>,
}

/// The changed facts a previous run kept under the same inputs, if any:
/// the files it read are found again by path, with every kustomization
/// of this scan (a new one is a miss), and hashed as it hashed them.
pub(super) fn load(
    dir: &Path,
    salt: u64,
    files: &[ScannedFile],
    cwd: Option<&Path>,
    disk: super::super::Disk<'_>,
) -> Option<Vec<(usize, Fields)>> {
    let bytes = std::fs::read(dir.join(FILE)).ok()?;
    let (hash, body) = bytes.split_at_checked(8)?;
    if u64::from_le_bytes(hash.try_into().ok()?) != xxh3_64(body) {
        return None;
    }
    let kept: Kept = rmp_serde::from_slice(body).ok()?;
    let by_path: std::collections::HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| Some((f.source.path.to_str()?, i)))
        .collect();
    let mut read: Vec<(usize, String)> = Vec::with_capacity(kept.read.len());
    for p in &kept.read {
        read.push((*by_path.get(p.as_str())?, p.clone()));
    }
    let kustomizations = files
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.facts
                .extractors
                .contains(&crate::extract::kustomize::CLAIM)
        })
        .map(|(i, _)| i);
    for k in kustomizations {
        if !read.iter().any(|(i, _)| *i == k) {
            return None;
        }
    }
    if key(files, cwd, salt, &read)?.0 != kept.key {
        return None;
    }
    // A file the build read from disk that this scan holds would be
    // loaded as a scanned file now (with its facts): a miss.
    let scanned: std::collections::HashSet<PathBuf> = files
        .iter()
        .map(|f| {
            crate::extract::kustomize::normal(&match cwd {
                Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
                _ => f.source.path.clone(),
            })
        })
        .collect();
    for (path, hash) in &kept.reads {
        if scanned.contains(Path::new(path)) {
            return None;
        }
        let now = disk.read(Path::new(path), super::MAX_FILE);
        if now.map(|t| xxh3_64(t.as_bytes())) != *hash {
            return None;
        }
    }
    kept.changed
        .iter()
        .map(|(p, b)| {
            let i = *by_path.get(p.as_str())?;
            rmp_serde::from_slice(b).ok().map(|f| (i, f))
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
    inputs: Inputs,
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
    for ((i, path), before) in inputs.read.iter().zip(&inputs.fields) {
        let Some(b) = files.get(*i).and_then(|f| encode(&f.facts)) else {
            return;
        };
        if b != *before {
            changed.push((path.clone(), b));
        }
    }
    let kept = Kept {
        key: inputs.key,
        read: inputs.read.into_iter().map(|(_, p)| p).collect(),
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
