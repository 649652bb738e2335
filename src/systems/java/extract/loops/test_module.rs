//! Modules published for test suites (issue 18).

/// The module the file is in is named for tests: its name's last word
/// (split at `-`, `_`, `.`) says so after another word (`temporal-testing`,
/// `acme-test-utils`, `client-tests`, `kafka-testkit`). Build tools publish
/// such modules as libraries for test suites (a namespace registered in the
/// suite's container, a fake server), so their loops are test support, as
/// a Rust crate's `testing` or `*-tests` folder is (`rust::loops::test_support`).
/// A word alone (`testdata`, `test`) is left to the scan's test folders.
/// The module is the folder holding the source root nearest the file
/// (`<module>/src/...`, Maven's and Gradle's layout): the folders above the
/// project, where the checkout happens to sit (`~/work/acme-tests/repo`),
/// are not read.
pub fn test_module(path: &std::path::Path) -> bool {
    const LAST: &[&str] = &[
        "test",
        "tests",
        "testing",
        "testkit",
        "testutil",
        "testutils",
    ];
    let Some(dir) = path.parent() else {
        return false;
    };
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_ascii_lowercase())
        .collect();
    let Some(module) = parts
        .iter()
        .rposition(|p| p == "src")
        .and_then(|i| i.checked_sub(1))
        .map(|i| &parts[i])
    else {
        return false;
    };
    let words: Vec<&str> = module
        .split(['-', '_', '.'])
        .filter(|w| !w.is_empty())
        .collect();
    let [.., before, last] = words.as_slice() else {
        return false;
    };
    // `acme-test-utils`: the test word before a last `utils`.
    LAST.contains(last) || (*last == "utils" && matches!(*before, "test" | "testing"))
}

#[cfg(test)]
#[test]
fn modules_named_for_tests_are_test_support_and_others_are_not() {
    use std::path::Path;
    for yes in [
        "temporal-testing/src/main/java/io/x/Register.java",
        "acme-test-utils/src/main/java/A.java",
        "client-tests/src/main/java/A.java",
        "kafka_testkit/src/A.java",
    ] {
        assert!(test_module(Path::new(yes)), "{yes}");
    }
    for no in [
        "testdata/rules/RL205/ok/A.java",
        "server/src/main/java/org/acme/utils/A.java",
        "test/A.java",
        "contest-service/src/A.java",
        "acme-testing-service/src/A.java",
        "Testing.java",
        // Where the checkout sits is not the module.
        "/home/dev/acme-tests/repo/server/src/main/java/A.java",
        "acme-tests/repo/server/A.java",
    ] {
        assert!(!test_module(Path::new(no)), "{no}");
    }
}
