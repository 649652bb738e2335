//! The per-file half: which files are build files, whether one names a
//! modelled library (a cheap sniff), and what versions it writes.

pub(crate) mod xml;

use crate::extract::Needles;
use crate::model::versions::{
    BuildFacts, BuildKind, Coords, Dep, Library, MavenFacts, MsBuildProject,
};
use std::sync::LazyLock;
use xml::Element;

/// The kind of build file a name is, if any (lower-case name).
pub fn kind_of(name: &str) -> Option<BuildKind> {
    match name {
        "pom.xml" => Some(BuildKind::Maven),
        "build.gradle" | "build.gradle.kts" => Some(BuildKind::Gradle),
        "cargo.lock" => Some(BuildKind::CargoLock),
        "directory.packages.props" => Some(BuildKind::MsBuild),
        _ if name.ends_with(".versions.toml") => Some(BuildKind::GradleCatalog),
        _ if name.ends_with(".csproj") => Some(BuildKind::MsBuild),
        _ => None,
    }
}

/// Whether a build file names a library whose version matters (one
/// Aho-Corasick pass): only those are parsed. A `pom.xml` with
/// `<modules>` is read too: it may be the parent that carries the
/// versions its modules inherit without naming the library itself.
pub fn wanted(kind: BuildKind, bytes: &[u8]) -> bool {
    static JVM: LazyLock<Needles> = LazyLock::new(|| {
        Needles::new([
            "resilience4j",
            "org.springframework",
            "spring-boot",
            "<modules>",
        ])
    });
    static CARGO: LazyLock<Needles> = LazyLock::new(|| {
        Needles::new([
            "\"reqwest-retry\"",
            "\"backon\"",
            "\"tokio-retry\"",
            "\"backoff\"",
            "\"retry\"",
        ])
    });
    // A project that references others: the libraries it runs
    // (`link`: a shared event bus's pipeline is each program's).
    // A test project (or a build): its folder's sources are test code.
    static NUGET: LazyLock<Needles> = LazyLock::new(|| {
        Needles::new(
            ["\"Polly", "'Polly", "<ProjectReference"]
                .into_iter()
                .chain(MSBUILD_TEST_MARKERS.iter().copied()),
        )
    });
    match kind {
        BuildKind::Maven | BuildKind::Gradle | BuildKind::GradleCatalog => JVM.any_in(bytes),
        BuildKind::CargoLock => CARGO.any_in(bytes),
        BuildKind::MsBuild => NUGET.any_in(bytes),
    }
}

/// Read one build file. `None` when it names no modelled library and is
/// no Maven parent (nothing to keep).
pub fn extract(kind: BuildKind, text: &str) -> Option<BuildFacts> {
    let mut facts = BuildFacts {
        kind,
        deps: Vec::new(),
        maven: None,
        variables: Vec::new(),
        project: None,
    };
    match kind {
        BuildKind::Maven => maven(text, &mut facts),
        BuildKind::Gradle => gradle(text, &mut facts),
        BuildKind::GradleCatalog => catalog(text, &mut facts),
        BuildKind::CargoLock => cargo_lock(text, &mut facts),
        BuildKind::MsBuild => msbuild(text, &mut facts),
    }
    let keep = !facts.deps.is_empty()
        || !facts.variables.is_empty()
        || facts.maven.is_some()
        || facts.project.is_some();
    keep.then_some(facts)
}

fn line_of(text: &str, offset: usize) -> u32 {
    let end = offset.min(text.len());
    let head = text.get(..end).unwrap_or(text);
    head.bytes().filter(|&b| b == b'\n').count() as u32 + 1
}

fn coords(e: &Element) -> Coords {
    Coords {
        group: e.text_of("groupId").to_string(),
        artifact: e.text_of("artifactId").to_string(),
        version: e.text_of("version").to_string(),
    }
}

/// `pom.xml`: its coordinates and parent, `<properties>`, the
/// dependencies and managed dependencies of modelled libraries (and the
/// Spring Boot plugin's version), and BOM imports.
fn maven(text: &str, facts: &mut BuildFacts) {
    let doc = xml::parse(text);
    let Some(project) = doc.child("project") else {
        return;
    };
    let mut m = MavenFacts {
        coords: coords(project),
        ..MavenFacts::default()
    };
    if let Some(parent) = project.child("parent") {
        let p = coords(parent);
        m.parent_path = parent.child("relativePath").map(|r| r.text.clone());
        if m.coords.group.is_empty() {
            m.coords.group = p.group.clone();
        }
        if m.coords.version.is_empty() {
            m.coords.version = p.version.clone();
        }
        // A parent of a modelled library (`spring-boot-starter-parent`)
        // gives its version.
        if let Some(lib) = Library::of_maven(&p.group, &p.artifact) {
            facts.deps.push(Dep {
                library: lib,
                artifact: p.artifact.clone(),
                version: p.version.clone(),
                line: line_of(text, parent.start),
            });
        }
        m.parent = Some(p);
    }
    if let Some(props) = project.child("properties") {
        for p in &props.children {
            m.properties.push((p.name.clone(), p.text.clone()));
        }
    }
    let add = |d: &Element, facts: &mut BuildFacts| {
        let c = coords(d);
        if let Some(lib) = Library::of_maven(&c.group, &c.artifact) {
            facts.deps.push(Dep {
                library: lib,
                artifact: c.artifact,
                version: c.version,
                line: line_of(text, d.start),
            });
        }
    };
    if let Some(deps) = project.child("dependencies") {
        for d in deps.children_named("dependency") {
            add(d, facts);
        }
    }
    if let Some(deps) = project
        .child("dependencyManagement")
        .and_then(|dm| dm.child("dependencies"))
    {
        for d in deps.children_named("dependency") {
            if d.text_of("scope") == "import" {
                m.imports.push(coords(d));
            }
            add(d, facts);
        }
    }
    if let Some(plugins) = project.child("build").and_then(|b| b.child("plugins")) {
        for p in plugins.children_named("plugin") {
            if p.text_of("groupId") == "org.springframework.boot"
                && !p.text_of("version").is_empty()
            {
                add(p, facts);
            }
        }
    }
    facts.maven = Some(m);
}

/// The quoted strings of a Gradle script (Groovy or Kotlin), with their
/// offsets; comments skipped.
fn quoted(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |k| i + 2 + k + 2);
            }
            q @ (b'"' | b'\'') => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != q && b[j] != b'\n' {
                    if b[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                if let Some(s) = text.get(start..j.min(b.len())) {
                    out.push((start, s));
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// `build.gradle(.kts)`: `"group:artifact:version"` strings of modelled
/// libraries (BOMs and platforms too), the Spring Boot plugin's version,
/// and simple version variables (`val x = "1.0"`, `def x = '1.0'`,
/// `x = '1.0'` in `ext {}`, `ext.x = '1.0'`, `extra["x"] = "1.0"`).
fn gradle(text: &str, facts: &mut BuildFacts) {
    let strings = quoted(text);
    for (k, &(at, s)) in strings.iter().enumerate() {
        let mut parts = s.splitn(3, ':');
        let (Some(group), Some(artifact)) = (parts.next(), parts.next()) else {
            // The Spring Boot plugin: `id("org.springframework.boot")
            // version "3.2.0"` / `id 'org.springframework.boot' version '3.2.0'`.
            if s == "org.springframework.boot"
                && let Some(&(vat, v)) = strings.get(k + 1)
                && text
                    .get(at + s.len()..vat)
                    .is_some_and(|between| between.contains("version") && between.len() < 40)
            {
                facts.deps.push(Dep {
                    library: Library::SpringBoot,
                    artifact: "org.springframework.boot".into(),
                    version: v.to_string(),
                    line: line_of(text, at),
                });
            }
            continue;
        };
        let Some(lib) = Library::of_maven(group, artifact) else {
            continue;
        };
        if artifact.is_empty() || artifact.contains(char::is_whitespace) {
            continue;
        }
        facts.deps.push(Dep {
            library: lib,
            artifact: artifact.to_string(),
            version: parts.next().unwrap_or("").to_string(),
            line: line_of(text, at),
        });
    }
    for line in text.lines() {
        if let Some(v) = variable(line.trim()) {
            facts.variables.push(v);
        }
    }
}

/// A version variable defined on one line, if it is one: a name that
/// says "version" (any case) set to one quoted string.
fn variable(line: &str) -> Option<(String, String)> {
    let (lhs, rhs) = line.split_once('=')?;
    if rhs.starts_with('=') || lhs.ends_with(['!', '<', '>']) {
        return None;
    }
    let rhs = rhs.trim().trim_end_matches(';').trim_end();
    let value = rhs
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| rhs.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))?;
    let lhs = lhs.trim();
    let name = lhs
        .strip_prefix("extra[")
        .and_then(|r| r.strip_suffix(']'))
        .map(|r| r.trim_matches(['"', '\'']))
        .unwrap_or_else(|| {
            let l = lhs
                .trim_start_matches("val ")
                .trim_start_matches("var ")
                .trim_start_matches("def ")
                .trim_start_matches("ext.")
                .trim();
            l.split(':').next().unwrap_or(l).trim()
        });
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
        && name.to_ascii_lowercase().contains("version");
    ok.then(|| (name.to_string(), value.to_string()))
}

/// A Gradle version catalog: `[libraries]` and `[plugins]` of modelled
/// libraries, their versions from `[versions]` resolved here.
fn catalog(text: &str, facts: &mut BuildFacts) {
    let Ok(table) = text.parse::<toml::Table>() else {
        return;
    };
    let versions = table.get("versions").and_then(|v| v.as_table());
    let version_of = |v: Option<&toml::Value>| -> String {
        match v {
            Some(toml::Value::String(s)) => s.clone(),
            Some(toml::Value::Table(t)) => {
                if let Some(r) = t.get("ref").and_then(|r| r.as_str()) {
                    return version_of_ref(versions, r);
                }
                rich(t)
            }
            _ => String::new(),
        }
    };
    let line = |key: &str| text.find(key).map_or(1, |at| line_of(text, at));
    for (alias, lib) in table
        .get("libraries")
        .and_then(|l| l.as_table())
        .into_iter()
        .flatten()
    {
        let (module, version) = match lib {
            toml::Value::String(s) => {
                let mut p = s.splitn(3, ':');
                let m = format!("{}:{}", p.next().unwrap_or(""), p.next().unwrap_or(""));
                (m, p.next().unwrap_or("").to_string())
            }
            toml::Value::Table(t) => {
                let module = match t.get("module").and_then(|m| m.as_str()) {
                    Some(m) => m.to_string(),
                    None => format!(
                        "{}:{}",
                        t.get("group").and_then(|g| g.as_str()).unwrap_or(""),
                        t.get("name").and_then(|g| g.as_str()).unwrap_or("")
                    ),
                };
                // `version.ref = "x"` is the table `version = { ref = "x" }`.
                (module, version_of(t.get("version")))
            }
            _ => continue,
        };
        let (group, artifact) = module.split_once(':').unwrap_or(("", ""));
        if let Some(library) = Library::of_maven(group, artifact) {
            facts.deps.push(Dep {
                library,
                artifact: artifact.to_string(),
                version,
                line: line(alias),
            });
        }
    }
    for (alias, p) in table
        .get("plugins")
        .and_then(|l| l.as_table())
        .into_iter()
        .flatten()
    {
        let (id, version) = match p {
            toml::Value::String(s) => {
                let (id, v) = s.split_once(':').unwrap_or((s, ""));
                (id.to_string(), v.to_string())
            }
            toml::Value::Table(t) => (
                t.get("id")
                    .and_then(|i| i.as_str())
                    .unwrap_or("")
                    .to_string(),
                version_of(t.get("version")),
            ),
            _ => continue,
        };
        if id == "org.springframework.boot" {
            facts.deps.push(Dep {
                library: Library::SpringBoot,
                artifact: id,
                version,
                line: line(alias),
            });
        }
    }
}

fn version_of_ref(versions: Option<&toml::Table>, name: &str) -> String {
    match versions.and_then(|v| v.get(name)) {
        Some(toml::Value::String(s)) => s.clone(),
        Some(toml::Value::Table(t)) => rich(t),
        _ => format!("${{{name}}}"),
    }
}

/// A rich version (`{ strictly = "..", require = "..", prefer = ".." }`).
fn rich(t: &toml::Table) -> String {
    ["strictly", "require", "prefer"]
        .iter()
        .find_map(|k| t.get(*k).and_then(|v| v.as_str()))
        .unwrap_or("")
        .to_string()
}

/// `Cargo.lock`: the exact version of each modelled crate.
fn cargo_lock(text: &str, facts: &mut BuildFacts) {
    let Ok(table) = text.parse::<toml::Table>() else {
        return;
    };
    for p in table
        .get("package")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
    {
        let name = p.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let Some(library) = Library::of_crate(name) else {
            continue;
        };
        let version = p.get("version").and_then(|n| n.as_str()).unwrap_or("");
        let at = text.find(&format!("name = \"{name}\"")).unwrap_or(0);
        facts.deps.push(Dep {
            library,
            artifact: name.to_string(),
            version: version.to_string(),
            line: line_of(text, at),
        });
    }
}

/// Whether a `*.csproj` builds a program (a web or worker project, an
/// `Exe`, an Aspire AppHost) rather than a library.
pub fn msbuild_is_program(text: &str) -> bool {
    text.contains("Microsoft.NET.Sdk.Web")
        || text.contains("Microsoft.NET.Sdk.Worker")
        || text.contains("<OutputType>Exe</OutputType>")
        || text.contains("<OutputType>WinExe</OutputType>")
        || msbuild_is_apphost(text)
}

/// Whether a `*.csproj` is a .NET Aspire AppHost: its project references
/// are the programs it runs, not libraries it builds in.
pub fn msbuild_is_apphost(text: &str) -> bool {
    text.contains("Aspire.AppHost.Sdk") || text.contains("<IsAspireHost>true</IsAspireHost>")
}

/// Whether a `*.csproj` is a test project or build logic, not a service:
/// it says so, or builds with a test SDK or framework (dotnet/eShop's
/// `tests/Basket.UnitTests` is an `Exe` of `MSTest.Sdk`; TUnit's packages
/// are `TUnit*`), hosts the program under test in memory
/// (`Microsoft.AspNetCore.Mvc.Testing`'s `WebApplicationFactory`,
/// `Microsoft.AspNetCore.TestHost`: bitwarden's `test/IntegrationTestCommon`),
/// references a mocking or assertion library only tests use (Moq,
/// NSubstitute, FakeItEasy, FluentAssertions, Shouldly: Ocelot's published
/// `Ocelot.Testing`), or is a NUKE or Cake build (`Nuke.Common`,
/// `Cake.Frosting`: kgrzybek/modular-monolith-with-ddd's `build/_build.csproj`
/// waits for SQL Server in a loop while it builds; build logic is not the
/// service, as Gradle's `buildSrc` is not).
pub fn msbuild_is_test(text: &str) -> bool {
    MSBUILD_TEST_MARKERS.iter().any(|m| text.contains(m))
}

/// What a test project's (or a build's) `*.csproj` says ([`msbuild_is_test`]).
const MSBUILD_TEST_MARKERS: &[&str] = &[
    "<IsTestProject>true</IsTestProject>",
    "Microsoft.NET.Test.Sdk",
    "MSTest.Sdk",
    "\"xunit",
    "\"NUnit",
    "\"MSTest.TestFramework",
    "\"TUnit",
    "\"Microsoft.AspNetCore.Mvc.Testing\"",
    "\"Microsoft.AspNetCore.TestHost\"",
    "\"Moq\"",
    "\"NSubstitute\"",
    "\"FakeItEasy\"",
    "\"FluentAssertions\"",
    "\"Shouldly\"",
    "\"Nuke.Common\"",
    "\"Cake.Frosting\"",
];

/// `*.csproj` `<PackageReference Include="Polly" Version="8.4.1" />` and
/// central package management's `<PackageVersion>`; the projects it
/// references (`<ProjectReference Include="..\Bus\Bus.csproj" />`).
fn msbuild(text: &str, facts: &mut BuildFacts) {
    fn walk(e: &Element, text: &str, facts: &mut BuildFacts, depth: usize) {
        if depth > 64 {
            return;
        }
        if e.name == "ProjectReference"
            && let Some(path) = e.attr("Include")
            && facts
                .project
                .as_ref()
                .is_none_or(|p| p.references.len() < MAX_REFERENCES)
        {
            facts
                .project
                .get_or_insert_with(|| MsBuildProject {
                    program: msbuild_is_program(text),
                    apphost: msbuild_is_apphost(text),
                    test: msbuild_is_test(text),
                    references: Vec::new(),
                })
                .references
                .push(path.replace('\\', "/"));
        }
        if e.name == "PackageReference" || e.name == "PackageVersion" {
            let id = e.attr("Include").or_else(|| e.attr("Update")).unwrap_or("");
            if let Some(library) = Library::of_nuget(id) {
                let version = e
                    .attr("Version")
                    .map(str::to_string)
                    .unwrap_or_else(|| e.text_of("Version").to_string());
                facts.deps.push(Dep {
                    library,
                    artifact: id.to_string(),
                    version,
                    line: line_of(text, e.start),
                });
            }
        }
        for c in &e.children {
            walk(c, text, facts, depth + 1);
        }
    }
    walk(&xml::parse(text), text, facts, 0);
    // A test project is kept even with no reference: its folder's sources
    // are test code (`extract::test_code::dotnet_test_project_files`).
    if facts.project.is_none() && msbuild_is_test(text) {
        facts.project = Some(MsBuildProject {
            program: msbuild_is_program(text),
            apphost: false,
            test: true,
            references: Vec::new(),
        });
    }
}

/// At most this many project references of one `*.csproj` are kept.
const MAX_REFERENCES: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    fn read(kind: BuildKind, text: &str) -> BuildFacts {
        extract(kind, text).expect("facts")
    }

    fn versions(f: &BuildFacts) -> Vec<(Library, &str, &str)> {
        f.deps
            .iter()
            .map(|d| (d.library, d.artifact.as_str(), d.version.as_str()))
            .collect()
    }

    #[test]
    fn a_pom_gives_parent_properties_dependencies_and_imports() {
        let pom = r#"<project>
  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>2.7.18</version></parent>
  <artifactId>orders</artifactId>
  <properties><resilience4j.version>1.7.0</resilience4j.version></properties>
  <dependencies>
    <dependency><groupId>io.github.resilience4j</groupId><artifactId>resilience4j-spring-boot2</artifactId><version>${resilience4j.version}</version></dependency>
    <dependency><groupId>com.example</groupId><artifactId>other</artifactId><version>9</version></dependency>
  </dependencies>
  <dependencyManagement><dependencies>
    <dependency><groupId>com.example</groupId><artifactId>bom</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>
</project>"#;
        let f = read(BuildKind::Maven, pom);
        assert_eq!(
            versions(&f),
            [
                (Library::SpringBoot, "spring-boot-starter-parent", "2.7.18"),
                (
                    Library::Resilience4j,
                    "resilience4j-spring-boot2",
                    "${resilience4j.version}"
                ),
            ]
        );
        assert_eq!(f.deps[1].line, 6);
        let m = f.maven.unwrap();
        assert_eq!(m.coords.group, "org.springframework.boot");
        assert_eq!(
            m.properties,
            [("resilience4j.version".into(), "1.7.0".into())]
        );
        assert_eq!(m.imports[0].artifact, "bom");
    }

    #[test]
    fn gradle_scripts_give_strings_plugins_and_variables() {
        let kts = "plugins {\n  id(\"org.springframework.boot\") version \"3.2.0\"\n}\nval resilience4jVersion = \"2.2.0\"\ndependencies {\n  // implementation(\"io.github.resilience4j:resilience4j-retry:0.1\")\n  implementation(\"io.github.resilience4j:resilience4j-spring-boot3:$resilience4jVersion\")\n  implementation(platform(\"io.github.resilience4j:resilience4j-bom:2.1.0\"))\n}\n";
        let f = read(BuildKind::Gradle, kts);
        assert_eq!(
            versions(&f),
            [
                (Library::SpringBoot, "org.springframework.boot", "3.2.0"),
                (
                    Library::Resilience4j,
                    "resilience4j-spring-boot3",
                    "$resilience4jVersion"
                ),
                (Library::Resilience4j, "resilience4j-bom", "2.1.0"),
            ]
        );
        assert_eq!(
            f.variables,
            [("resilience4jVersion".into(), "2.2.0".into())]
        );
        let groovy = "ext {\n  resilience4jVersion = '1.7.1'\n}\next.springBootVersion = '2.7.0'\nextra[\"otherVersion\"] = \"3\"\nplugins { id 'org.springframework.boot' version '2.7.0' }\n";
        let f = read(BuildKind::Gradle, groovy);
        assert_eq!(
            f.variables,
            [
                ("resilience4jVersion".into(), "1.7.1".into()),
                ("springBootVersion".into(), "2.7.0".into()),
                ("otherVersion".into(), "3".into())
            ]
        );
        assert_eq!(versions(&f)[0].2, "2.7.0");
    }

    #[test]
    fn a_version_catalog_resolves_its_own_references() {
        let toml = "[versions]\nresilience4j = \"2.2.0\"\nboot = { strictly = \"3.3.1\" }\n\n[libraries]\nr4j-boot3 = { module = \"io.github.resilience4j:resilience4j-spring-boot3\", version.ref = \"resilience4j\" }\nr4j-retry = { group = \"io.github.resilience4j\", name = \"resilience4j-retry\", version = \"2.1.0\" }\nguava = \"com.google.guava:guava:33.0.0-jre\"\n\n[plugins]\nspring-boot = { id = \"org.springframework.boot\", version.ref = \"boot\" }\n";
        let f = read(BuildKind::GradleCatalog, toml);
        assert_eq!(
            versions(&f),
            [
                (Library::Resilience4j, "resilience4j-spring-boot3", "2.2.0"),
                (Library::Resilience4j, "resilience4j-retry", "2.1.0"),
                (Library::SpringBoot, "org.springframework.boot", "3.3.1"),
            ]
        );
        assert_eq!(f.deps[0].line, 6);
    }

    #[test]
    fn cargo_lock_and_msbuild_files_give_exact_versions() {
        let lock = "version = 3\n\n[[package]]\nname = \"backon\"\nversion = \"1.2.0\"\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.0\"\n";
        let f = read(BuildKind::CargoLock, lock);
        assert_eq!(versions(&f), [(Library::Backon, "backon", "1.2.0")]);
        assert_eq!(f.deps[0].line, 4);
        let csproj = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <ItemGroup>\n    <PackageReference Include=\"Polly\" Version=\"7.2.4\" />\n    <PackageReference Include=\"Serilog\" Version=\"3\" />\n    <PackageReference Include=\"Polly.Core\"><Version>8.4.1</Version></PackageReference>\n  </ItemGroup>\n</Project>\n";
        let f = read(BuildKind::MsBuild, csproj);
        assert_eq!(
            versions(&f),
            [
                (Library::Polly, "Polly", "7.2.4"),
                (Library::Polly, "Polly.Core", "8.4.1")
            ]
        );
        assert_eq!(f.deps[0].line, 3);
        assert!(extract(BuildKind::MsBuild, "<Project/>").is_none());
    }

    #[test]
    fn a_csproj_names_the_projects_it_references_and_what_it_builds() {
        // dotnet/eShop's Basket.API (a BOM before the root, as there).
        let web = "\u{feff}<Project Sdk=\"Microsoft.NET.Sdk.Web\">\n  <ItemGroup>\n    <ProjectReference Include=\"..\\eShop.ServiceDefaults\\eShop.ServiceDefaults.csproj\" />\n    <ProjectReference Include=\"..\\EventBusRabbitMQ\\EventBusRabbitMQ.csproj\" />\n  </ItemGroup>\n</Project>\n";
        assert!(wanted(BuildKind::MsBuild, web.as_bytes()));
        let p = read(BuildKind::MsBuild, web).project.expect("project");
        assert_eq!(
            p.references,
            [
                "../eShop.ServiceDefaults/eShop.ServiceDefaults.csproj",
                "../EventBusRabbitMQ/EventBusRabbitMQ.csproj"
            ]
        );
        assert!(p.program && !p.apphost && !p.test);
        // eShop's tests/Basket.UnitTests: an `Exe` of `MSTest.Sdk`.
        let test = "<Project Sdk=\"MSTest.Sdk\"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup><ItemGroup><ProjectReference Include=\"..\\..\\src\\Basket.API\\Basket.API.csproj\" /></ItemGroup></Project>";
        assert!(
            read(BuildKind::MsBuild, test)
                .project
                .expect("project")
                .test
        );
        // A shared integration-test library that hosts the program in memory.
        let host = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include=\"Microsoft.AspNetCore.Mvc.Testing\" Version=\"9.0.0\" /><ProjectReference Include=\"../../src/Api/Api.csproj\" /></ItemGroup></Project>";
        assert!(msbuild_is_test(host));
        // A published testing library (mocks and assertions) and a NUKE build.
        assert!(msbuild_is_test(
            "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include=\"Moq\" Version=\"4.20.72\" /></ItemGroup></Project>"
        ));
        assert!(msbuild_is_test(
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup><ItemGroup><PackageReference Include=\"Nuke.Common\" Version=\"7.0.6\" /></ItemGroup></Project>"
        ));
        // A test project with no project reference is still kept.
        let alone = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include=\"xunit.v3.extensibility.core\" Version=\"3.0.0\" /></ItemGroup></Project>";
        assert!(
            read(BuildKind::MsBuild, alone)
                .project
                .expect("project")
                .test
        );
        assert!(!msbuild_is_test(
            "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><ItemGroup><PackageReference Include=\"Microsoft.AspNetCore.Mvc.Testing.Extra\" /></ItemGroup></Project>"
        ));
        let lib = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><ProjectReference Include=\"../EventBus/EventBus.csproj\" /></ItemGroup></Project>";
        let p = read(BuildKind::MsBuild, lib).project.expect("project");
        assert!(!p.program && !p.test);
        // No reference and no modelled library: nothing to keep.
        assert!(
            extract(
                BuildKind::MsBuild,
                "<Project Sdk=\"Microsoft.NET.Sdk.Web\"/>"
            )
            .is_none()
        );
    }

    #[test]
    fn only_build_files_that_name_a_modelled_library_are_wanted() {
        assert_eq!(kind_of("pom.xml"), Some(BuildKind::Maven));
        assert_eq!(
            kind_of("libs.versions.toml"),
            Some(BuildKind::GradleCatalog)
        );
        assert_eq!(kind_of("app.csproj"), Some(BuildKind::MsBuild));
        assert_eq!(kind_of("cargo.toml"), None);
        assert!(wanted(
            BuildKind::Maven,
            b"<artifactId>resilience4j-retry</artifactId>"
        ));
        assert!(!wanted(BuildKind::Maven, b"<artifactId>guava</artifactId>"));
        assert!(!wanted(BuildKind::CargoLock, b"name = \"serde\""));
        assert!(wanted(BuildKind::MsBuild, b"Include=\"Polly\""));
    }

    #[test]
    fn broken_build_files_do_not_panic() {
        for kind in [
            BuildKind::Maven,
            BuildKind::Gradle,
            BuildKind::GradleCatalog,
            BuildKind::CargoLock,
            BuildKind::MsBuild,
        ] {
            for t in [
                "",
                "<",
                "\"",
                "'io.github.resilience4j:",
                "[libraries]\nx = 1",
                "= '",
                "<project><parent>",
            ] {
                let _ = extract(kind, t);
            }
        }
    }
}
