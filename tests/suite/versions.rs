//! Library versions from build files: which version each file's build
//! unit uses, resolved across the scanned tree (`retrylint::versions`).

use retrylint::config::Settings;
use retrylint::model::versions::{Library, Version};
use retrylint::versions::Index;
use std::path::Path;

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The version of `library` for `file` in a scan of `dir`: its spec and
/// the build file (below `dir`) and line that tell it.
fn version(dir: &Path, file: &str, library: Library) -> Option<(String, String)> {
    let scan = retrylint::scan(&[dir.to_path_buf()], &Settings::default()).unwrap();
    let index = Index::new(&scan.files);
    let r = index.version(&dir.join(file), library)?;
    let prefix = format!("{}/", retrylint::source::display_path(dir));
    Some((r.range.spec, r.from.trim_start_matches(&prefix).to_string()))
}

fn pom(body: &str) -> String {
    format!("<?xml version=\"1.0\"?>\n<project>\n{body}\n</project>\n")
}

const R4J_NO_VERSION: &str = "<dependencies><dependency><groupId>io.github.resilience4j</groupId><artifactId>resilience4j-spring-boot2</artifactId></dependency></dependencies>";

#[test]
fn a_maven_module_takes_the_version_of_a_bom_it_imports_from_the_tree() {
    let bom = pom(
        "<groupId>com.ex</groupId><artifactId>platform-bom</artifactId><version>4</version>\n<properties><r4j>1.7.1</r4j></properties>\n<dependencyManagement><dependencies>\n<dependency><groupId>io.github.resilience4j</groupId><artifactId>resilience4j-bom</artifactId><version>${r4j}</version></dependency>\n</dependencies></dependencyManagement>",
    );
    let svc = pom(&format!(
        "<groupId>com.ex</groupId><artifactId>svc</artifactId><version>1</version>\n<properties><platform.version>4</platform.version></properties>\n<dependencyManagement><dependencies><dependency><groupId>com.ex</groupId><artifactId>platform-bom</artifactId><version>${{platform.version}}</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>\n{R4J_NO_VERSION}"
    ));
    let dir = tree(&[("bom/pom.xml", &bom), ("svc/pom.xml", &svc)]);
    assert_eq!(
        version(
            dir.path(),
            "svc/src/main/resources/application.yml",
            Library::Resilience4j
        ),
        Some(("1.7.1".into(), "bom/pom.xml:6".into()))
    );
}

#[test]
fn a_child_property_overrides_the_parent_s_in_inherited_management() {
    // root (manages the version by a property) <- mid (names no library,
    // an aggregator) <- leaf (overrides the property).
    let root = pom(
        "<groupId>com.ex</groupId><artifactId>root</artifactId><version>1</version><packaging>pom</packaging>\n<parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.3.1</version></parent>\n<modules><module>mid</module></modules>\n<properties><resilience4j.version>2.2.0</resilience4j.version></properties>\n<dependencyManagement><dependencies><dependency><groupId>io.github.resilience4j</groupId><artifactId>resilience4j-spring-boot3</artifactId><version>${resilience4j.version}</version></dependency></dependencies></dependencyManagement>",
    );
    let mid = pom(
        "<parent><groupId>com.ex</groupId><artifactId>root</artifactId><version>1</version></parent><artifactId>mid</artifactId><modules><module>leaf</module></modules>",
    );
    let leaf = |v: &str| {
        pom(&format!(
            "<parent><groupId>com.ex</groupId><artifactId>mid</artifactId><version>1</version></parent><artifactId>leaf</artifactId>\n<properties><resilience4j.version>{v}</resilience4j.version></properties>\n{R4J_NO_VERSION}"
        ))
    };
    let dir = tree(&[
        ("pom.xml", &root),
        ("mid/pom.xml", &mid),
        ("mid/leaf/pom.xml", &leaf("2.1.0")),
    ]);
    let app = "mid/leaf/src/main/resources/application.yml";
    assert_eq!(
        version(dir.path(), app, Library::Resilience4j),
        Some(("2.1.0".into(), "pom.xml:7".into()))
    );
    // The parent's parent names Spring Boot's version.
    assert_eq!(
        version(dir.path(), app, Library::SpringBoot),
        Some(("3.3.1".into(), "pom.xml:4".into()))
    );
    // The artifact's name says 2.x even when the property does not parse.
    let dir = tree(&[
        ("pom.xml", &root),
        ("mid/pom.xml", &mid),
        ("mid/leaf/pom.xml", &leaf("${undefined}")),
    ]);
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    let r = Index::new(&scan.files)
        .version(&dir.path().join(app), Library::Resilience4j)
        .unwrap();
    assert_eq!(r.range.is_at_least(Version::new(2, 0, 0)), Some(true));
}

#[test]
fn the_nearest_pom_decides_even_when_it_does_not_tell() {
    // A module whose version comes from a BOM outside the tree: unknown,
    // not the version of an unrelated build above it.
    let outer = pom(
        "<artifactId>outer</artifactId><dependencies><dependency><groupId>io.github.resilience4j</groupId><artifactId>resilience4j-core</artifactId><version>1.7.0</version></dependency></dependencies><modules><module>svc</module></modules>",
    );
    let svc = pom(&format!(
        "<artifactId>svc</artifactId><dependencyManagement><dependencies><dependency><groupId>org.springframework.cloud</groupId><artifactId>spring-cloud-dependencies</artifactId><version>2023.0.0</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>{R4J_NO_VERSION}"
    ));
    let dir = tree(&[("pom.xml", &outer), ("svc/pom.xml", &svc)]);
    let found = version(dir.path(), "svc/application.yml", Library::Resilience4j).unwrap();
    assert_eq!(found.1, "svc/pom.xml:3");
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    let r = Index::new(&scan.files)
        .version(
            &dir.path().join("svc/application.yml"),
            Library::Resilience4j,
        )
        .unwrap();
    assert!(!r.range.is_known());
}

#[test]
fn gradle_subprojects_use_the_root_script_s_variables_and_the_catalog() {
    let root = "ext {\n    resilience4jVersion = '1.7.1'\n}\n";
    let sub = "dependencies {\n    implementation \"io.github.resilience4j:resilience4j-spring-boot2:${resilience4jVersion}\"\n}\n";
    let dir = tree(&[
        ("build.gradle", root),
        ("orders/build.gradle", sub),
        (
            "gradle/libs.versions.toml",
            "[plugins]\nboot = { id = \"org.springframework.boot\", version = \"2.7.18\" }\n",
        ),
    ]);
    let app = "orders/src/main/resources/application.yml";
    assert_eq!(
        version(dir.path(), app, Library::Resilience4j),
        Some(("1.7.1".into(), "orders/build.gradle:2".into()))
    );
    assert_eq!(
        version(dir.path(), app, Library::SpringBoot),
        Some(("2.7.18".into(), "gradle/libs.versions.toml:2".into()))
    );
    // A script that leaves the version to something unscanned: unknown.
    let dir = tree(&[(
        "build.gradle.kts",
        "dependencies { implementation(\"io.github.resilience4j:resilience4j-spring-boot2\") }\n",
    )]);
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    let r = Index::new(&scan.files)
        .version(
            &dir.path().join("src/application.yml"),
            Library::Resilience4j,
        )
        .unwrap();
    assert!(!r.range.is_known());
}

#[test]
fn cargo_lock_and_csproj_tell_exact_versions() {
    let lock = "version = 3\n\n[[package]]\nname = \"reqwest-retry\"\nversion = \"0.7.0\"\n";
    let csproj = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup>\n<PackageReference Include=\"Polly\" Version=\"7.2.4\" />\n</ItemGroup></Project>\n";
    let dir = tree(&[
        ("Cargo.lock", lock),
        ("crates/client/Cargo.toml", "[package]\nname = \"client\"\n"),
        ("Api/Api.csproj", csproj),
    ]);
    assert_eq!(
        version(
            dir.path(),
            "crates/client/src/lib.rs",
            Library::ReqwestRetry
        ),
        Some(("0.7.0".into(), "Cargo.lock:4".into()))
    );
    assert_eq!(
        version(dir.path(), "Api/appsettings.json", Library::Polly),
        Some(("7.2.4".into(), "Api/Api.csproj:2".into()))
    );
    assert_eq!(
        version(dir.path(), "Other/appsettings.json", Library::Polly),
        None
    );
}

#[test]
fn build_files_that_name_no_modelled_library_are_not_kept() {
    let dir = tree(&[
        ("pom.xml", &pom("<artifactId>plain</artifactId>")),
        (
            "build.gradle",
            "dependencies { implementation 'com.google.guava:guava:33.0.0' }\n",
        ),
        (
            "Cargo.lock",
            "[[package]]\nname = \"serde\"\nversion = \"1.0.0\"\n",
        ),
    ]);
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    assert!(
        scan.files.is_empty(),
        "{:?}",
        scan.files
            .iter()
            .map(|f| f.source.display_path())
            .collect::<Vec<_>>()
    );
    assert_eq!(scan.stats.files_parsed, 0);
}

/// The attempts of the first policy of `system` a fixture tree reads.
fn attempts(fixture: &str, system: retrylint::model::System) -> Option<u64> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/rules")
        .join(fixture);
    let scan = retrylint::scan(&[root], &Settings::default()).unwrap();
    scan.files
        .iter()
        .flat_map(|f| &f.facts.policies)
        .find(|p| p.system == system)
        .and_then(|p| p.attempts.value.count.finite())
}

#[test]
fn the_attempts_follow_the_version_the_build_uses() {
    use retrylint::model::System::{Resilience4j, SpringAmqp};
    // `maxRetryAttempts: 6`: counted by 1.x, ignored by 2.x (default 3),
    // the 2.x reading when no build file tells.
    assert_eq!(
        attempts("RL206/err/resilience4j-legacy-key-maven-1x", Resilience4j),
        Some(6)
    );
    assert_eq!(
        attempts("RL901/err/resilience4j-removed-key-gradle-2x", Resilience4j),
        Some(3)
    );
    assert_eq!(
        attempts(
            "RL901/err/resilience4j-removed-key-catalog-2x",
            Resilience4j
        ),
        Some(3)
    );
    assert_eq!(
        attempts(
            "RL901/err/resilience4j-removed-key-no-build-file",
            Resilience4j
        ),
        Some(3)
    );
    // Rabbit `max-attempts: 2`: Boot 3 reads it; Boot 4 ignores it and
    // makes its default `max-retries: 3`, 4 attempts.
    assert_eq!(
        attempts(
            "RL901/ok/springretryconfig-rabbit-max-attempts-boot3",
            SpringAmqp
        ),
        Some(2)
    );
    assert_eq!(
        attempts(
            "RL901/err/springretryconfig-rabbit-max-attempts-boot4",
            SpringAmqp
        ),
        Some(4)
    );
    // Rabbit `max-retries: 1`: Boot 4 reads it (2 attempts); Boot 3
    // ignores it, default `max-attempts: 3`.
    assert_eq!(
        attempts(
            "RL901/ok/springretryconfig-rabbit-max-retries-boot4",
            SpringAmqp
        ),
        Some(2)
    );
    assert_eq!(
        attempts(
            "RL901/err/springretryconfig-rabbit-max-retries-boot3",
            SpringAmqp
        ),
        Some(3)
    );
}

#[test]
fn poms_that_import_each_other_in_a_web_do_not_stall_the_lookup() {
    // 20 BOMs, each importing all the others: walked once per path, the
    // lookup would take 19^16 steps; it is cut at a visit budget.
    let n = 20;
    let mut files: Vec<(String, String)> = Vec::new();
    for k in 0..n {
        let imports: String = (0..n)
            .filter(|j| *j != k)
            .map(|j| format!("<dependency><groupId>com.ex</groupId><artifactId>m{j}</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>"))
            .collect();
        files.push((
            format!("m{k}/pom.xml"),
            pom(&format!(
                "<groupId>com.ex</groupId><artifactId>m{k}</artifactId><version>1</version><dependencyManagement><dependencies>{imports}</dependencies></dependencyManagement>{R4J_NO_VERSION}"
            )),
        ));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = tree(&refs);
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    let start = std::time::Instant::now();
    let r = Index::new(&scan.files).version(
        &dir.path().join("m0/application.yml"),
        Library::Resilience4j,
    );
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(r.is_some_and(|r| !r.range.is_known()));
}

#[test]
fn the_retry_crate_before_2_multiplies_by_its_base() {
    use retrylint::model::{Delay, System};
    use std::time::Duration;
    let code = "use retry::delay::Exponential;\nuse retry::retry;\n\npub fn fetch() -> Result<u32, retry::Error<E>> {\n    retry(Exponential::from_millis(10).take(3), || download())\n}\n";
    let lock =
        |v: &str| format!("version = 3\n\n[[package]]\nname = \"retry\"\nversion = \"{v}\"\n");
    let multiplier = |lock: Option<String>| {
        let mut files = vec![("src/lib.rs", code.to_string())];
        files.extend(lock.map(|l| ("Cargo.lock", l)));
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let dir = tree(&files);
        let scan = retrylint::scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
        let p = scan
            .files
            .iter()
            .flat_map(|f| &f.facts.policies)
            .find(|p| p.system == System::RustCrate("retry".into()))
            .cloned()
            .unwrap();
        match p.delay.value {
            Delay::Exponential {
                base, multiplier, ..
            } if base == Duration::from_millis(10) => multiplier,
            other => panic!("{other:?}"),
        }
    };
    // 1.x multiplies by the base (1.3.1 `factor: base as f64`), 2.x by 2.
    assert_eq!(multiplier(Some(lock("1.3.1"))), 10.0);
    assert_eq!(multiplier(Some(lock("2.2.0"))), 2.0);
    // No lock file: the current reading.
    assert_eq!(multiplier(None), 2.0);
}
