//! Templated and embedded configuration (issue 22): each folder of
//! `testdata/templates/` is scanned whole, as `retrylint check <folder>`
//! does, and its concise findings are a snapshot
//! (`tests/snapshots/templates__NAME.snap`); the folder's README works
//! each finding out by hand. No finding may be a warning or an error
//! about a template being a template: RL903 stays at `info`.

mod common;

#[test]
fn every_folder_gives_the_findings_its_readme_works_out() {
    let dir = common::root().join("testdata/templates");
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .expect("testdata/templates")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    assert!(!folders.is_empty());
    for folder in folders {
        let rel = folder.strip_prefix(common::root()).unwrap().to_path_buf();
        let name = rel.file_name().unwrap().to_string_lossy().to_string();
        assert!(folder.join("README.md").is_file(), "{name} has no README");
        let (scan, findings) = common::run(&rel, &[]);
        for f in &findings {
            if f.rule.code == "RL903" {
                assert_eq!(
                    f.severity.as_str(),
                    "info",
                    "{name}: RL903 above info: {}",
                    f.message
                );
            }
        }
        insta::assert_snapshot!(name, common::concise(&scan, &findings));
    }
}
