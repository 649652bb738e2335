//! Files that other files declare as test code, dropped after the scan
//! (unless test code is read): Rust test modules and .NET test projects'
//! sources.

use crate::{ScannedFile, extract};

/// The shown paths of the files another file declares as test code: Rust
/// test modules (`#[cfg(test)] mod x;`) and the C# and F# files of a .NET
/// test project (its `*.csproj` says so).
pub(super) fn declared_test_files(files: &[ScannedFile]) -> std::collections::HashSet<String> {
    let read: Vec<(String, bool, &[String])> = files
        .iter()
        .filter_map(|f| {
            let p = f.facts.build.as_ref()?.project.as_ref()?;
            Some((f.source.display_path(), p.test, p.references.as_slice()))
        })
        .collect();
    // A test-marked library that a program references ships in it.
    let shipped = extract::test_code::dotnet_shipped_projects(
        read.iter().map(|(p, t, r)| (p.as_str(), *t, *r)),
    );
    let projects: Vec<(String, bool)> = read
        .into_iter()
        .map(|(p, t, _)| {
            let test = t && !shipped.contains(&p);
            (p, test)
        })
        .collect();
    let shown: Vec<String> = if projects.iter().any(|(_, t)| *t) {
        files.iter().map(|f| f.source.display_path()).collect()
    } else {
        Vec::new()
    };
    let mut tests = extract::test_code::dotnet_test_project_files(
        projects.iter().map(|(p, t)| (p.as_str(), *t)),
        shown.iter().map(String::as_str),
    );
    tests.extend(rust_test_modules(files));
    tests
}

/// The shown paths of the Rust files that another file declares as its
/// test module (`#[cfg(test)] mod x;`).
fn rust_test_modules(files: &[ScannedFile]) -> std::collections::HashSet<String> {
    let declared: Vec<(String, &[String])> = files
        .iter()
        .filter(|f| !f.facts.rust.test_modules.is_empty())
        .map(|f| {
            (
                f.source.display_path(),
                f.facts.rust.test_modules.as_slice(),
            )
        })
        .collect();
    extract::test_code::rust_test_module_files(declared.iter().map(|(p, m)| (p.as_str(), *m)))
}
