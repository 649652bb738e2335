//! Library versions from build files, for the defaults and keys that
//! changed between versions of a library retrylint models: the types.
//!
//! Two halves, like every other format:
//! - `extract::build`: a pure per-file extractor for `pom.xml`, `build.gradle`,
//!   `build.gradle.kts`, Gradle version catalogs (`*.versions.toml`),
//!   `Cargo.lock`, `*.csproj` and `Directory.Packages.props`, producing
//!   [`BuildFacts`]: the versions of the modelled libraries the file names,
//!   as written (a `${property}` is resolved later);
//! - `versions` (the link stage's step): a link step that resolves Maven parents, BOM imports and
//!   properties and Gradle variables inside the scanned tree, finds the
//!   build unit of each file that holds [`Versioned`] facts (the nearest
//!   build file upward) and applies the reading of the version it builds
//!   with.
//!
//! An extractor that reads a setting whose meaning depends on a library's
//! version writes the reading used when the version is unknown into its
//! facts and records in [`Versioned`] what changes on older or newer
//! versions.

use crate::diag::Diagnostic;
use crate::model::{Attempts, Located};
use crate::source::Span;
use serde::{Deserialize, Serialize};

/// A library whose version changes what retrylint reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Library {
    Resilience4j,
    SpringBoot,
    SpringFramework,
    SpringRetry,
    Polly,
    ReqwestRetry,
    Backon,
    TokioRetry,
    Backoff,
    /// The `retry` crate (jimmycuadra/retry).
    Retry,
}

impl Library {
    pub fn label(self) -> &'static str {
        match self {
            Library::Resilience4j => "Resilience4j",
            Library::SpringBoot => "Spring Boot",
            Library::SpringFramework => "Spring Framework",
            Library::SpringRetry => "Spring Retry",
            Library::Polly => "Polly",
            Library::ReqwestRetry => "reqwest-retry",
            Library::Backon => "backon",
            Library::TokioRetry => "tokio-retry",
            Library::Backoff => "backoff",
            Library::Retry => "retry",
        }
    }

    /// The library a Maven artifact (or Gradle module, or plugin id as
    /// group) belongs to.
    pub fn of_maven(group: &str, artifact: &str) -> Option<Library> {
        match group {
            "io.github.resilience4j" => Some(Library::Resilience4j),
            "org.springframework.boot" => Some(Library::SpringBoot),
            "org.springframework.retry" => Some(Library::SpringRetry),
            // spring-core, spring-context, spring-framework-bom, ...
            "org.springframework" if artifact.starts_with("spring-") => {
                Some(Library::SpringFramework)
            }
            _ => None,
        }
    }

    /// The library a NuGet package belongs to (`Polly` 7 and `Polly.Core`
    /// 8 share one version line).
    pub fn of_nuget(id: &str) -> Option<Library> {
        ["Polly", "Polly.Core"]
            .iter()
            .any(|p| p.eq_ignore_ascii_case(id))
            .then_some(Library::Polly)
    }

    /// The library a Rust crate is (the crates `systems::rust::extract` models).
    pub fn of_crate(name: &str) -> Option<Library> {
        match name {
            "reqwest-retry" => Some(Library::ReqwestRetry),
            "backon" => Some(Library::Backon),
            "tokio-retry" => Some(Library::TokioRetry),
            "backoff" => Some(Library::Backoff),
            "retry" => Some(Library::Retry),
            _ => None,
        }
    }

    /// What an artifact's name alone says of the version: Resilience4j
    /// published `resilience4j-spring-boot3` from 2.0.1 on and
    /// `resilience4j-spring-boot4` from 2.4.0 on; `resilience4j-spring-boot`
    /// and `resilience4j-spring-cloud` (Spring Boot 1) last in 1.3.1 (the
    /// module folders of the resilience4j/resilience4j tags v1.3.1, v1.4.0,
    /// v2.0.0, v2.0.1, v2.3.0, v2.4.0).
    pub fn implied_by_artifact(artifact: &str) -> Option<(Library, VersionRange)> {
        let range = match artifact {
            "resilience4j-spring-boot3" => VersionRange::at_least(Version::new(2, 0, 1)),
            "resilience4j-spring-boot4" => VersionRange::at_least(Version::new(2, 4, 0)),
            "resilience4j-spring-boot" | "resilience4j-spring-cloud" => {
                VersionRange::below(Version::new(1, 4, 0))
            }
            _ => return None,
        };
        Some((
            Library::Resilience4j,
            VersionRange {
                spec: format!("{} ({artifact})", range.spec),
                ..range
            },
        ))
    }
}

/// A release version: its first three numbers (`2.2.0`, `1.7.0-SNAPSHOT`
/// and `3.2.0.RELEASE` are 2.2.0, 1.7.0 and 3.2.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Version(pub [u64; 3]);

impl Version {
    pub const fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version([major, minor, patch])
    }

    /// The numbers a version starts with; `None` when it does not start
    /// with a digit (`latest.release`, `${x}`).
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim().trim_start_matches(['v', 'V']);
        if !text.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let mut parts = [0u64; 3];
        for (i, p) in text.split('.').take(3).enumerate() {
            let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() {
                break;
            }
            parts[i] = digits.parse().ok()?;
            if digits.len() != p.len() {
                break;
            }
        }
        Some(Version(parts))
    }

    /// The smallest version after every `x.y.z.*` of this one.
    fn after(self) -> Version {
        let [a, b, c] = self.0;
        Version([a, b, c.saturating_add(1)])
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c] = self.0;
        write!(f, "{a}.{b}.{c}")
    }
}

/// The versions a build may use: `[low, high)`, either end open, with the
/// specification as written for messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionRange {
    pub low: Option<Version>,
    pub high: Option<Version>,
    pub spec: String,
}

impl VersionRange {
    pub fn unknown(spec: &str) -> VersionRange {
        VersionRange {
            low: None,
            high: None,
            spec: spec.to_string(),
        }
    }

    pub fn at_least(v: Version) -> VersionRange {
        VersionRange {
            low: Some(v),
            high: None,
            spec: format!("{v} or later"),
        }
    }

    pub fn below(v: Version) -> VersionRange {
        VersionRange {
            low: None,
            high: Some(v),
            spec: format!("before {v}"),
        }
    }

    /// Read a version as a build file writes it: an exact version
    /// (`2.2.0`; a NuGet or Cargo version too), a Maven or NuGet range
    /// (`[1.7,2.0)`, `[8.0,]`), or a Gradle dynamic version (`2.+`,
    /// `2.2.+`); anything else (`latest.release`, an unresolved
    /// `${property}`) is unknown.
    pub fn parse(spec: &str) -> VersionRange {
        let s = spec.trim();
        let mut r = VersionRange::unknown(s);
        if s.contains('$') || s.is_empty() {
            return r;
        }
        if let Some(prefix) = s.strip_suffix('+').or_else(|| s.strip_suffix(".*")) {
            // Gradle `2.+` / NuGet `8.*`: the numbers before the wildcard.
            let nums: Vec<u64> = prefix
                .trim_end_matches('.')
                .split('.')
                .map_while(|p| p.parse().ok())
                .collect();
            if nums.is_empty() {
                return r;
            }
            let mut low = [0u64; 3];
            for (i, n) in nums.iter().take(3).enumerate() {
                low[i] = *n;
            }
            let mut high = low;
            let last = nums.len().min(3) - 1;
            high[last] = high[last].saturating_add(1);
            r.low = Some(Version(low));
            r.high = Some(Version(high));
            return r;
        }
        if s.starts_with(['[', '(']) {
            // One range; a union of ranges (`[1,2),[3,4)`) is not told.
            let inner = &s[1..];
            let Some(close) = inner.find([']', ')']) else {
                return r;
            };
            if inner[close + 1..].trim().starts_with(',') {
                return r;
            }
            let closed_high = inner[close..].starts_with(']');
            let body = &inner[..close];
            match body.split_once(',') {
                Some((lo, hi)) => {
                    r.low = Version::parse(lo);
                    r.high = Version::parse(hi).map(|v| if closed_high { v.after() } else { v });
                }
                None => {
                    r.low = Version::parse(body);
                    r.high = r.low.map(Version::after);
                }
            }
            return r;
        }
        if let Some(v) = Version::parse(s) {
            r.low = Some(v);
            r.high = Some(v.after());
        }
        r
    }

    /// Whether every version of the range is `v` or later: `None` when
    /// some are and some are not.
    pub fn is_at_least(&self, v: Version) -> Option<bool> {
        if self.low.is_some_and(|l| l >= v) {
            return Some(true);
        }
        if self.high.is_some_and(|h| h <= v) {
            return Some(false);
        }
        None
    }

    pub fn is_known(&self) -> bool {
        self.low.is_some() || self.high.is_some()
    }

    /// Both ranges at once (a version and what an artifact's name implies).
    pub fn intersect(&self, other: &VersionRange) -> VersionRange {
        let low = match (self.low, other.low) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let high = match (self.high, other.high) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let spec = if !self.is_known() {
            other.spec.clone()
        } else {
            self.spec.clone()
        };
        VersionRange { low, high, spec }
    }
}

/// Which kind of build file a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildKind {
    Maven,
    Gradle,
    /// A Gradle version catalog (`gradle/libs.versions.toml`): it serves
    /// every project of the build rooted above its `gradle` folder.
    GradleCatalog,
    CargoLock,
    /// `*.csproj`, `Directory.Packages.props`.
    MsBuild,
}

impl BuildKind {
    /// The comment markers of the build file's syntax (XML comments hold
    /// no `retrylint:` directives: a build file is read for versions only).
    pub fn comment_markers(self) -> &'static [&'static str] {
        match self {
            BuildKind::Gradle => &["//", "/*"],
            BuildKind::GradleCatalog | BuildKind::CargoLock => &["#"],
            BuildKind::Maven | BuildKind::MsBuild => &[],
        }
    }
}

/// One modelled library a build file names, with its version as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dep {
    pub library: Library,
    /// The artifact, module, crate or package.
    pub artifact: String,
    /// As written: `2.2.0`, `${resilience4j.version}`, `$r4jVersion`,
    /// `[1.7,2.0)`; empty when the file leaves it to a BOM or parent.
    pub version: String,
    /// Its 1-based line, for messages.
    pub line: u32,
}

/// Maven coordinates as written (properties unresolved).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coords {
    pub group: String,
    pub artifact: String,
    pub version: String,
}

/// What a `pom.xml` says beyond its dependencies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MavenFacts {
    /// Its own coordinates (group and version may come from the parent).
    pub coords: Coords,
    pub parent: Option<Coords>,
    /// `<parent><relativePath>`, default `../pom.xml`.
    pub parent_path: Option<String>,
    pub properties: Vec<(String, String)>,
    /// `<dependencyManagement>` imports (`<scope>import</scope>`).
    pub imports: Vec<Coords>,
}

/// What one build file says about library versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildFacts {
    pub kind: BuildKind,
    pub deps: Vec<Dep>,
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub maven: Option<MavenFacts>,
    /// Gradle version variables the file defines (`val x = "1.0"`,
    /// `ext { x = '1.0' }`, `extra["x"] = "1.0"`), for its dependencies
    /// and those of the projects below it.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub variables: Vec<(String, String)>,
    /// A `*.csproj`'s own project: what it builds and the projects it
    /// references (a library runs in the programs that reference it).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub project: Option<MsBuildProject>,
}

/// What a `*.csproj` builds and which projects it references.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MsBuildProject {
    /// A program (a web or worker project, an `Exe`, an Aspire AppHost)
    /// rather than a library.
    pub program: bool,
    /// A .NET Aspire AppHost: its references are the programs it runs.
    pub apphost: bool,
    /// A test project (`<IsTestProject>`, a test SDK or framework).
    pub test: bool,
    /// `<ProjectReference Include=".."/>` paths as written, `/`-separated.
    pub references: Vec<String>,
}

/// A reading of one file that depends on the version of `library`: the
/// facts hold the reading for an unknown version; on versions before
/// `since` (`older`) or from it on (`newer`) the changes apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versioned {
    pub library: Library,
    pub since: Version,
    pub older: Vec<Change>,
    pub newer: Vec<Change>,
}

kind_tagged! {
    "Change";
    /// One change of a file's facts for a known version.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Change {
        /// The policy at this index (and span) makes these attempts.
        Attempts {
            policy: usize,
            span: Span,
            attempts: Located<Attempts>,
        },
        /// The policy at this index (and span) waits this delay.
        Delay {
            policy: usize,
            span: Span,
            delay: Located<super::Delay>,
        },
        /// The finding of rule `code` at `span` is not made.
        Drop { code: String, span: Span },
        /// This finding is made. `{version}` in its message or help is
        /// replaced by the version and the build file that tells it.
        Add { diagnostic: Diagnostic },
    }
}

/// The version of a library a file's build unit uses, and where that is
/// said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub range: VersionRange,
    /// The build file (shown path) that tells it.
    pub from: String,
}

impl Resolved {
    /// For messages: "Resilience4j `2.2.0` (`svc/build.gradle.kts`)".
    pub fn describe(&self, library: Library) -> String {
        format!(
            "{} `{}` (`{}`)",
            library.label(),
            self.range.spec,
            self.from
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_ranges_are_read_as_builds_write_them() {
        assert_eq!(Version::parse("2.2.0"), Some(Version::new(2, 2, 0)));
        assert_eq!(
            Version::parse("1.7.0-SNAPSHOT"),
            Some(Version::new(1, 7, 0))
        );
        assert_eq!(Version::parse("3.2.0.RELEASE"), Some(Version::new(3, 2, 0)));
        assert_eq!(Version::parse("2"), Some(Version::new(2, 0, 0)));
        assert_eq!(Version::parse("latest.release"), None);
        let two = Version::new(2, 0, 0);
        let at = |s: &str| VersionRange::parse(s).is_at_least(two);
        assert_eq!(at("2.2.0"), Some(true));
        assert_eq!(at("1.7.1"), Some(false));
        assert_eq!(at("2.+"), Some(true));
        assert_eq!(at("1.+"), Some(false));
        assert_eq!(at("1.7.+"), Some(false));
        assert_eq!(at("[1.7,2.0)"), Some(false));
        assert_eq!(at("[1.7,2.0]"), None);
        assert_eq!(at("[2.0,)"), Some(true));
        assert_eq!(at("[1.7]"), Some(false));
        assert_eq!(at("[1,2),[3,4)"), None);
        assert_eq!(at("${resilience4j.version}"), None);
        assert_eq!(at("latest.release"), None);
        assert_eq!(at(""), None);
        // An artifact's name narrows an unknown version.
        let (lib, boot3) = Library::implied_by_artifact("resilience4j-spring-boot3").unwrap();
        assert_eq!(lib, Library::Resilience4j);
        assert_eq!(
            VersionRange::unknown("").intersect(&boot3).is_at_least(two),
            Some(true)
        );
    }
}
