//! Test code is not the service: source files in test folders or named as
//! tests are not read (unless `test-code = "read"`), and are counted.
//!
//! Decided from the path relative to the scan root, before the file is
//! read: Maven and Gradle test source sets, `src/test/**` and the other
//! sets named as tests (`src/it/**`, `src/e2e/**`, `src/testFixtures/**`,
//! `src/integrationTest/**`, `src/component-test/**`,
//! `src/integration_tests/**`), `tests/**`, `__tests__/**`, fixture folders
//! (`fixtures`, `testdata`, `test-data`, `test_data`, `__fixtures__`,
//! `__mocks__`), `unittests/**`, a top-level `e2e/**`, and files named as tests: `*_test.go`, `test_*.py`,
//! `*_test.py` and Python and Go files under `test/`, Go mocks (`*_mock.go`, `mock_*.go`), `*Test.java`, `*Tests.java`, `*IT.java`, `*Test.kt`,
//! `*Tests.cs`, `*Test.cs` (and every C# file of a .NET test project's
//! folder, `Orders.Tests/`, `Api.UnitTests/`, or of a project whose
//! `*.csproj` references a test framework, whatever its folder is called:
//! dropped after the scan, as Rust test modules are), `*.test.ts`, `*.spec.ts` (and `.js`). Gradle
//! build logic (`buildSrc/`, `build-logic/`) is not the service either
//! and is skipped and counted with it (ftgo-application's `buildSrc` was
//! a caller), and so is the Maven Wrapper's `.mvn/` (its downloader's URL
//! was a call on ewolff/microservice-istio).
//!
//! Only source code is concerned: configuration files in test folders are
//! still read (real settings are often kept there as examples, and the
//! scan of a test environment's manifests is wanted), but what a fixture
//! folder's files configure is kept off the call graph
//! ([`fixture_folder`], `link::test_inputs`). Rust test modules
//! declared in another file (`#[cfg(test)] mod x;`) are found by the
//! call-site pass (`calls`) and dropped after the scan (`lib.rs`).

/// Extensions of source code, in the languages read or not.
const CODE: &[&str] = &[
    "java", "kt", "kts", "scala", "groovy", "rs", "go", "py", "cs", "fs", "ts", "tsx", "js", "jsx",
    "mjs", "cjs", "rb", "php", "swift", "ex", "exs",
];

/// Folders of test suites whose files are test code; with
/// [`FIXTURE_DIRS`], every folder whose files are.
const SUITE_DIRS: &[&str] = &[
    "tests",
    "__tests__",
    // Python projects' unit suites and their helpers (DefectDojo's
    // `unittests/dojo_test_case.py`, aliyun-oss-python-sdk's
    // `unittests/common.py`, SpiNNMan's `unittests/virtual_spinnaker.py`,
    // datatrails-python's `unittests/mock_response.py`, glideinwms's
    // `unittests/fixtures/`): decided on those five, all test code.
    "unittests",
];

/// Whether a folder's name (lowercased) says its files are test code.
fn test_dir(lower: &str) -> bool {
    SUITE_DIRS.contains(&lower) || FIXTURE_DIRS.contains(&lower)
}

/// The folder of `relative` (to the scan root, `/`-separated) that holds
/// test inputs, when there is one: a folder of tests or fixtures ([`SUITE_DIRS`], [`FIXTURE_DIRS`]), or a
/// `test/` or `e2e/` folder. A configuration file there is still read
/// (see above), but one that does not parse is most often a test's input
/// (linkerd2's `cli/cmd/testdata/*.bad.input.yml`, broken on purpose, and
/// its `testdata/ipfamilies-policy.yml` with `{IPv6}` for a test to fill
/// in; ingress-nginx's `test/data/cleanConf.src.conf`), not a setting
/// that went unchecked.
pub fn test_inputs_folder(relative: &str) -> Option<&str> {
    let (dirs, _) = relative.rsplit_once('/')?;
    dirs.split('/').find(|d| {
        let l = d.to_ascii_lowercase();
        test_dir(&l) || l == "test" || l == "e2e"
    })
}

/// Folders of test inputs and expected outputs (fixtures, golden files):
/// not the folders of test suites ([`SUITE_DIRS`]), whose manifests may
/// deploy a test environment.
const FIXTURE_DIRS: &[&str] = &[
    "fixtures",
    "__fixtures__",
    "__mocks__",
    "testdata",
    "test-data",
    "test_data",
    "testfixtures",
    "test-fixtures",
];

/// The fixture folder of `relative` (to the scan root, `/`-separated),
/// when there is one: what a file there configures is a test's input or
/// its expected output (kumahq/kuma's `testdata/*.golden.yaml`, the Envoy
/// configuration its policy plugins are expected to write; traefik's
/// provider `fixtures/`), not a deployment, so it is kept off the call
/// graph (`link::test_inputs`). Its settings are still checked.
pub fn fixture_folder(relative: &str) -> Option<&str> {
    let (dirs, _) = relative.rsplit_once('/')?;
    dirs.split('/')
        .find(|d| FIXTURE_DIRS.contains(&d.to_ascii_lowercase().as_str()))
}

/// Whether a folder holds Gradle build logic rather than a program:
/// `buildSrc` (Gradle's fixed name) or `build-logic` (the included build
/// Gradle's guide names; docs.gradle.org/current/userguide/sharing_build_logic_between_subprojects.html).
pub fn is_build_logic(folder: &str) -> bool {
    matches!(folder, "buildSrc" | "build-logic")
}

/// Whether a source set's folder (the child of `src/`) is named as tests:
/// Gradle names a set freely (`integrationTest`, `component-test`), Maven
/// plugins use `src/it/`; `src/contest/` or `src/latest/` are not.
fn test_source_set(d: &str) -> bool {
    let l = d.to_ascii_lowercase();
    l == "it"
        || l == "e2e"
        || l.starts_with("test")
        || l.starts_with("e2e-")
        || l.starts_with("e2e_")
        || d.ends_with("Test")
        || d.ends_with("Tests")
        || ["-test", "_test", "-tests", "_tests", "-e2e", "_e2e"]
            .iter()
            .any(|s| l.ends_with(s))
}

/// Whether a source file at `relative` (to the scan root, `/`-separated)
/// is test code.
/// Whether a file is in the resources of a test source set
/// (`src/test/resources/application.yml`): the configuration a unit's
/// tests run with. Read for its settings like any configuration file,
/// but the calls it names are the tests', not the service's.
pub fn is_test_resource(path: &str) -> bool {
    let dirs: Vec<&str> = path.split(['/', '\\']).collect();
    dirs.windows(3)
        .any(|w| w[0] == "src" && test_source_set(w[1]) && w[2] == "resources")
}

pub fn is_test_source(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let ext = ext.to_ascii_lowercase();
    if !CODE.contains(&ext.as_str()) {
        return false;
    }
    let dirs: Vec<&str> = relative.split('/').collect();
    let dirs = &dirs[..dirs.len() - 1];
    let in_test_dir = dirs.iter().enumerate().any(|(i, d)| {
        test_dir(&d.to_ascii_lowercase())
            // Gradle build logic runs in the build, not in a service.
            || is_build_logic(d)
            // The Maven Wrapper's downloader (`.mvn/wrapper/
            // MavenWrapperDownloader.java`, which `mvnw` compiles and runs
            // to fetch the wrapper jar: maven.apache.org/wrapper, the
            // `source` type) runs in the build too.
            || *d == ".mvn"
            // A source set named as tests: `src/test/`, `src/it/`,
            // `src/testFixtures/`, `src/integrationTest/`,
            // `src/component-test/`, `src/e2e/`.
            || (i > 0 && dirs[i - 1] == "src" && test_source_set(d))
            // A repository's top-level `e2e/`: its end-to-end suites and the
            // harness they run (external-secrets `e2e/framework`, woodpecker
            // `e2e/setup`). Only at the top: a package named `e2e` deeper
            // down may be product code (end-to-end encryption).
            || (i == 0 && *d == "e2e")
    });
    // A .NET test project's folder, as `dotnet new` names it:
    // `Orders.Tests/`, `Arcade.Validation.Tests/`, `Api.UnitTests/`.
    let dotnet_test_project = matches!(ext.as_str(), "cs" | "fs")
        && dirs.iter().any(|d| {
            d.rsplit_once('.')
                .is_some_and(|(_, last)| last.ends_with("Tests") || last == "Test")
        });
    if in_test_dir || dotnet_test_project {
        return true;
    }
    match ext.as_str() {
        // A Go `test/` folder holds the end-to-end suites, their fixtures
        // and the servers and tools they run (Go's project layout:
        // "additional external test apps and test data"): every file
        // under one was test code on argo-cd (55 files), envoyproxy/gateway
        // (167), istio's `pkg/test/` (228), thanos (2), temporal (4) and
        // nats-server (its `test/test.go` helper was a finding).
        // A Go test double named as one (`tfe_client_mock.go`,
        // `mock_provider.go`: hashicorp/terraform 883c7221ee holds 11
        // such files of mocks beside the code; gomock's `-destination`
        // convention): only tests use it.
        "go" => {
            stem.ends_with("_test")
                || stem.ends_with("_mock")
                || stem.starts_with("mock_")
                || dirs.contains(&"test")
        }
        // A Python `test/` folder is a test suite (metaflow's
        // `test/core/run_tests.py`, CPython's `Lib/test`).
        "py" => {
            stem.starts_with("test_")
                || stem.ends_with("_test")
                || stem == "conftest"
                || dirs.contains(&"test")
        }
        "java" | "kt" | "scala" | "groovy" => {
            stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("IT")
        }
        "cs" | "fs" => stem.ends_with("Tests") || stem.ends_with("Test"),
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" => {
            stem.ends_with(".test") || stem.ends_with(".spec")
        }
        "rb" => stem.ends_with("_spec") || stem.ends_with("_test"),
        _ => false,
    }
}

/// The files of `files` (shown paths) that Rust test modules declared
/// with `#[cfg(test)] mod x;` are: for a declaration in `dir/lib.rs`,
/// `main.rs` or `mod.rs`, `dir/x.rs` and `dir/x/mod.rs`; in `dir/foo.rs`,
/// `dir/foo/x.rs` and `dir/foo/x/mod.rs`.
pub fn rust_test_module_files<'a>(
    declared: impl Iterator<Item = (&'a str, &'a [String])>,
) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for (path, modules) in declared {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        let stem = name.strip_suffix(".rs").unwrap_or(name);
        let base = if matches!(stem, "lib" | "main" | "mod") {
            dir.to_string()
        } else if dir.is_empty() {
            stem.to_string()
        } else {
            format!("{dir}/{stem}")
        };
        for m in modules {
            let join = |p: &str| {
                if base.is_empty() {
                    p.to_string()
                } else {
                    format!("{base}/{p}")
                }
            };
            out.insert(join(&format!("{m}.rs")));
            out.insert(join(&format!("{m}/mod.rs")));
        }
    }
    out
}

/// The C# and F# files of `sources` (shown paths) that belong to a .NET
/// test project: the nearest folder above the file that holds a project
/// file (`*.csproj`, `*.fsproj`; an SDK-style project compiles every
/// source file below its folder) is one of `projects` marked as a test
/// project (a test SDK or framework, `<IsTestProject>`). A test tool's
/// folder need not be named as tests: Squidex's `tools/TestSuite/
/// TestSuite.Shared/` references xunit and waits for the server in a loop.
pub fn dotnet_test_project_files<'a>(
    projects: impl Iterator<Item = (&'a str, bool)>,
    sources: impl Iterator<Item = &'a str>,
) -> std::collections::HashSet<String> {
    // Only project files: a `Directory.Packages.props` that pins xunit's
    // version for the whole tree is no test project.
    let folders: std::collections::HashMap<&str, bool> = projects
        .filter(|(path, _)| path.ends_with(".csproj") || path.ends_with(".fsproj"))
        .map(|(path, test)| (path.rsplit_once('/').map_or("", |(d, _)| d), test))
        .collect();
    let mut out = std::collections::HashSet::new();
    if !folders.values().any(|t| *t) {
        return out;
    }
    for path in sources {
        if !(path.ends_with(".cs") || path.ends_with(".fs")) {
            continue;
        }
        let mut dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        let nearest = loop {
            if let Some(test) = folders.get(dir) {
                break *test;
            }
            if dir.is_empty() {
                break false;
            }
            dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
        };
        if nearest {
            out.insert(path.to_string());
        }
    }
    out
}

/// The .NET projects of `projects` (shown path, marked as a test project,
/// `<ProjectReference>` paths as written, `/`-separated) marked as tests
/// that a shipped project references: one neither marked nor named as
/// tests (`*.Tests`), or a marked one found shipped this way (a chain of
/// helper libraries). A shared library that also holds its services'
/// test helpers (it references xunit's extensibility packages,
/// Testcontainers, `Mvc.Testing`) ships in the programs that reference it
/// and is no test project (meysamhadeli/booking-microservices'
/// `BuildingBlocks`: its Polly retry was dropped as test code). A library
/// only tests reference stays test code (Squidex's `TestSuite.Shared`).
/// Paths are compared without case: MSBuild on Windows finds
/// `..\blocks\Blocks.csproj` whatever its case.
pub fn dotnet_shipped_projects<'a>(
    projects: impl Iterator<Item = (&'a str, bool, &'a [String])>,
) -> std::collections::HashSet<String> {
    let projects: Vec<(&str, bool, &[String])> = projects.collect();
    let mut out = std::collections::HashSet::new();
    if !projects.iter().any(|(_, test, _)| *test) {
        return out;
    }
    // Each test-marked project by its lowercased path.
    let marked: std::collections::HashMap<String, &str> = projects
        .iter()
        .filter(|(_, test, _)| *test)
        .map(|(path, _, _)| (path.to_lowercase(), *path))
        .collect();
    let mut shipping: Vec<&(&str, bool, &[String])> = projects
        .iter()
        .filter(|(path, test, _)| {
            let stem = path.rsplit('/').next().unwrap_or(path);
            let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
            let last = stem.rsplit('.').next().unwrap_or(stem);
            !*test && !last.ends_with("Tests") && last != "Test"
        })
        .collect();
    while let Some((path, _, references)) = shipping.pop() {
        let folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        for reference in references.iter() {
            let joined = std::path::Path::new(folder).join(reference);
            let shown = crate::source::display_path(&crate::source::fold_dots(&joined));
            let Some(found) = marked.get(&shown.to_lowercase()) else {
                continue;
            };
            if out.insert(found.to_string())
                && let Some(next) = projects.iter().find(|(p, _, _)| p == found)
            {
                shipping.push(next);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_inputs_folders_are_fixture_test_and_e2e_folders() {
        assert_eq!(
            test_inputs_folder("cli/cmd/testdata/inject.bad.input.yml"),
            Some("testdata")
        );
        assert_eq!(test_inputs_folder("test/data/clean.conf"), Some("test"));
        assert_eq!(test_inputs_folder("a/Fixtures/x.yaml"), Some("Fixtures"));
        assert_eq!(test_inputs_folder("e2e/vs.yaml"), Some("e2e"));
        assert_eq!(test_inputs_folder("k8s/vs.yaml"), None);
        assert_eq!(test_inputs_folder("testdata.yaml"), None);
        assert_eq!(test_inputs_folder("deploy/latest/vs.yaml"), None);
    }

    #[test]
    fn fixture_folders_are_the_data_folders_of_tests() {
        assert_eq!(
            fixture_folder("pkg/plugins/meshretry/testdata/http.golden.yaml"),
            Some("testdata")
        );
        assert_eq!(fixture_folder("provider/Fixtures/a.yml"), Some("Fixtures"));
        assert_eq!(fixture_folder("tests/e2e/app.yaml"), None);
        assert_eq!(fixture_folder("test/data/clean.conf"), None);
        assert_eq!(fixture_folder("testdata.yaml"), None);
        assert_eq!(fixture_folder("deploy/vs.yaml"), None);
    }

    #[test]
    fn test_sources_are_known_by_folder_and_name() {
        for p in [
            "ts-user-service/src/test/java/user/UserServiceImplTest.java",
            "orders/src/it/java/OrdersIT.java",
            "crate/tests/api.rs",
            "web/__tests__/a.js",
            "pkg/client_test.go",
            "app/test_client.py",
            "test/core/run_tests.py",
            "test/e2e/client.go",
            "pkg/test/echo/server/instance.go",
            "Orders.Tests/OrderServiceTests.cs",
            "src/Microsoft.DotNet.Arcade.Validation.Tests/TestRepoBuilder.cs",
            "test/Api.IntegrationTests/Helpers/Retry.cs",
            "lib/fixtures/Caller.java",
            "ts-order-service/src/main/java/order/OrderControllerTest.java",
            // ftgo-application's Gradle source sets (seen wrong there: the
            // component tests' `http://%s:%s%s` was listed as a call).
            "ftgo-order-service/src/component-test/java/net/chrisrichardson/ftgo/orderservice/OrderServiceComponentTestStepDefinitions.java",
            "ftgo-order-service/src/integration-test/java/a/OrderJpaTestConfiguration.java",
            "web/src/e2e/java/a/Flow.java",
            "web/src/integrationTest/kotlin/a/Flow.kt",
            "web/src/functional_tests/java/a/Flow.java",
            "buildSrc/src/main/groovy/WaitForMySql.java",
            "build-logic/src/main/kotlin/Conventions.kt",
            "microservice-istio-bonus/.mvn/wrapper/MavenWrapperDownloader.java",
            // DefectDojo's test base class, named as no test is.
            "unittests/dojo_test_case.py",
            "unittests/tools/test_zap_parser.py",
            "e2e/setup/agent.go",
            "e2e/framework/addon/vault.go",
            "internal/cloud/tfe_client_mock.go",
            "internal/refactoring/mock_provider.go",
        ] {
            assert!(is_test_source(p), "{p}");
        }
        for p in [
            "ts-user-service/src/main/java/user/service/impl/UserServiceImpl.java",
            "deploy/test/application.yml",
            "src/test/resources/application.yml",
            "overlays/test/kustomization.yaml",
            "src/contest/Main.java",
            "pkg/testing/client.go",
            "cmd/attest/main.go",
            "app/testing/client.py",
            "web/src/latest/java/Main.java",
            "web/src/attest/java/Main.java",
            "ftgo-order-service/src/main/java/a/OrderService.java",
            "app/client.py",
            "Latest.java",
            "src/Microsoft.DotNet.Helix/JobSender/StorageHelpers/ContainerBase.cs",
            "src/Catalog.Tests.Shared/appsettings.json",
            "unittests/scans/cfn_lint/templates.yaml",
            "dojo/unittest_helpers.py",
            "pkg/crypto/e2e/session.go",
            "pkg/mockery/client.go",
            "internal/mocking.go",
        ] {
            assert!(!is_test_source(p), "{p}");
        }
    }

    #[test]
    fn rust_test_modules_resolve_like_cargo() {
        let a = vec!["tests".to_string()];
        let b = vec!["fixtures".to_string()];
        let got = rust_test_module_files(
            [
                ("c/src/lib.rs", a.as_slice()),
                ("c/src/net.rs", b.as_slice()),
            ]
            .into_iter(),
        );
        assert!(got.contains("c/src/tests.rs"));
        assert!(got.contains("c/src/tests/mod.rs"));
        assert!(got.contains("c/src/net/fixtures.rs"));
        assert!(!got.contains("c/src/fixtures.rs"));
    }

    #[test]
    fn dotnet_files_belong_to_the_nearest_project() {
        let projects = [
            (
                "tools/TestSuite/TestSuite.Shared/TestSuite.Shared.csproj",
                true,
            ),
            ("tools/TestSuite/TestSuite.Shared/Inner/Inner.csproj", false),
            ("src/Api/Api.csproj", false),
            ("Root.fsproj", false),
            // Central package management names xunit for the tests below.
            ("src/Directory.Packages.props", true),
        ];
        let sources = [
            "tools/TestSuite/TestSuite.Shared/ClientWrapper.cs",
            "tools/TestSuite/TestSuite.Shared/Utils/Wait.cs",
            "tools/TestSuite/TestSuite.Shared/Inner/Client.cs",
            "tools/TestSuite/TestSuite.Shared/Build.java",
            "src/Api/Program.cs",
            "Script.fs",
            "loose/Other.cs",
        ];
        let found = dotnet_test_project_files(projects.into_iter(), sources.into_iter());
        let mut found: Vec<&str> = found.iter().map(String::as_str).collect();
        found.sort_unstable();
        assert_eq!(
            found,
            [
                "tools/TestSuite/TestSuite.Shared/ClientWrapper.cs",
                "tools/TestSuite/TestSuite.Shared/Utils/Wait.cs"
            ]
        );
        let none = dotnet_test_project_files(projects[1..].iter().copied(), sources.into_iter());
        assert!(none.is_empty());
    }

    #[test]
    fn a_test_marked_library_a_program_references_ships() {
        let none: Vec<String> = Vec::new();
        let flights = ["../Blocks/Blocks.csproj".to_string()];
        let tests = ["../../src/Blocks/Blocks.csproj".to_string()];
        let projects = [
            ("/r/src/Blocks/Blocks.csproj", true, &none[..]),
            ("/r/src/Flights/Flights.csproj", false, &flights[..]),
            ("/r/tests/A.Tests/A.Tests.csproj", false, &tests[..]),
        ];
        let shipped = dotnet_shipped_projects(projects.iter().copied());
        assert_eq!(
            shipped.into_iter().collect::<Vec<_>>(),
            ["/r/src/Blocks/Blocks.csproj"]
        );
        // Referenced by a project named as tests only: still test code.
        let only_tests = dotnet_shipped_projects([projects[0], projects[2]].into_iter());
        assert!(only_tests.is_empty());
        // Through a marked helper a program references, in another case.
        let helpers = ["../blocks/blocks.csproj".to_string()];
        let api = ["../Helpers/Helpers.csproj".to_string()];
        let chain = [
            projects[0],
            ("/r/src/Helpers/Helpers.csproj", true, &helpers[..]),
            ("/r/src/Api/Api.csproj", false, &api[..]),
        ];
        let mut shipped: Vec<String> = dotnet_shipped_projects(chain.iter().copied())
            .into_iter()
            .collect();
        shipped.sort();
        assert_eq!(
            shipped,
            [
                "/r/src/Blocks/Blocks.csproj",
                "/r/src/Helpers/Helpers.csproj"
            ]
        );
    }
}
