//! The config servers' locations are the same whether or not units whose
//! files cannot name one ([`may_serve`]) are parsed.

use super::*;
use crate::link::spring_calls::may_be_client;

fn resources_dirs(root: &Path, out: &mut BTreeSet<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if !e.file_type().is_ok_and(|t| t.is_dir()) || depth > 12 {
            continue;
        }
        if p.ends_with("src/main/resources") {
            out.insert(p.clone());
        }
        resources_dirs(&p, out, depth + 1);
    }
}

fn served(v: &[Served]) -> Vec<(PathBuf, bool)> {
    v.iter().map(|s| (s.dir.clone(), s.shared)).collect()
}

#[test]
fn the_word_filter_changes_no_location() {
    let cwd = std::env::current_dir().unwrap();
    let roots: Vec<PathBuf> = crate::extract::fixture_roots()
        .iter()
        .map(|r| cwd.join(r))
        .collect();
    let mut all = BTreeSet::new();
    for r in &roots {
        resources_dirs(r, &mut all, 0);
    }
    assert!(all.len() > 30, "{}", all.len());
    let disk = super::super::Disk::direct();
    let (mut some, mut skipped) = (0, 0);
    let alone = all.iter().map(|r| BTreeSet::from([r.clone()]));
    for dirs in alone.chain(std::iter::once(all.clone())) {
        let with = locations_of(&dirs, &roots, None, disk, &mut Locals::new(), true);
        let without = locations_of(&dirs, &roots, None, disk, &mut Locals::new(), false);
        assert_eq!(served(&with), served(&without), "{dirs:?}");
        some += usize::from(!with.is_empty());
        skipped += dirs.iter().filter(|r| !may_serve(r, disk)).count();
    }
    // Not vacuous: servers are found, and most units are skipped.
    assert!(some >= 3, "{some}");
    assert!(skipped > all.len(), "{skipped}");
}

#[test]
fn a_unit_naming_no_server_word_is_skipped() {
    let dir = std::env::temp_dir().join(format!("retrylint-may-serve-{}", std::process::id()));
    let res = dir.join("src/main/resources");
    std::fs::create_dir_all(res.join("config")).unwrap();
    let disk = super::super::Disk::direct();
    let write = |name: &str, text: &str| std::fs::write(res.join(name), text).unwrap();
    write(
        "application.yml",
        "spring:\n  application:\n    name: orders\n",
    );
    assert!(!may_serve(&res, disk));
    write("other.yml", "native: git\n");
    assert!(!may_serve(&res, disk));
    write(
        "application-dev.properties",
        "spring.profiles.active=NATIVE\n",
    );
    assert!(may_serve(&res, disk));
    std::fs::remove_file(res.join("application-dev.properties")).unwrap();
    write("config/bootstrap.yml", "x: \"\\u006eative\"\n");
    assert!(may_serve(&res, disk));
    std::fs::remove_file(res.join("config/bootstrap.yml")).unwrap();
    write(
        "bootstrap.yml",
        "spring.cloud.config.server.git.uri: file:../repo\n",
    );
    assert!(may_serve(&res, disk));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_unit_its_files_cannot_make_a_client_is_none() {
    let cwd = std::env::current_dir().unwrap();
    let roots: Vec<PathBuf> = crate::extract::fixture_roots()
        .iter()
        .map(|r| cwd.join(r))
        .collect();
    let mut all = BTreeSet::new();
    for r in &roots {
        resources_dirs(r, &mut all, 0);
    }
    let disk = super::super::Disk::direct();
    let (mut clients, mut skipped) = (0, 0);
    for r in &all {
        let client = config_client(&local(r, None, disk, &mut Locals::new()));
        clients += usize::from(client.is_some());
        if !may_be_client(r, disk) {
            assert_eq!(client, None, "{r:?}");
            skipped += 1;
        }
    }
    // Not vacuous: clients are found, and most units are skipped.
    assert!(clients >= 2, "{clients}");
    assert!(skipped * 2 > all.len(), "{skipped} of {}", all.len());
    // Relaxed spellings and escapes are not skipped.
    let dir = std::env::temp_dir().join(format!("retrylint-may-client-{}", std::process::id()));
    let res = dir.join("src/main/resources");
    std::fs::create_dir_all(&res).unwrap();
    let write = |text: &str| std::fs::write(res.join("application.properties"), text).unwrap();
    for (text, may) in [
        ("spring.application.name=orders\n", false),
        ("spring.cloud.Con-Fi_g.uri=http://c:8888\n", true),
        ("spring.\\u0063onfig.import=configserver:\n", true),
        ("spring.cloud.config.uri=http://c:8888\n", true),
    ] {
        write(text);
        assert_eq!(may_be_client(&res, disk), may, "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
