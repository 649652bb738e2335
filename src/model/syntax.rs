//! The syntax a file is read with: decided once, when the file is read
//! (`systems::classify`), and kept on the [`super::ScannedFile`] so that
//! later stages (links, the graph, suppression comments) never guess it
//! again from the file name.

use super::versions::BuildKind;

/// The syntax a file is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    Yaml,
    Json,
    /// Java source, read with tree-sitter.
    Java,
    /// An AWS shared config or credentials file.
    Ini,
    /// JSON with comments and trailing commas (.NET `appsettings*.json`).
    Jsonc,
    /// Java `.properties` (Spring configuration).
    Properties,
    /// nginx configuration.
    Nginx,
    Rust,
    /// Python source, read with tree-sitter (`crate::systems::python`).
    Python,
    /// C# source, read with tree-sitter (`crate::systems::csharp`).
    CSharp,
    /// Go source, read with tree-sitter (`crate::systems::go`).
    Go,
    /// Varnish VCL (`crate::systems::varnish`).
    Vcl,
    /// An App Engine `queue.xml` (`crate::systems::cloud_tasks`).
    QueueXml,
    /// Terraform holding Cloud Tasks or SQS queues (`crate::systems::cloud_tasks`,
    /// `crate::systems::sqs`).
    Terraform,
    /// A build file read for library versions (`crate::versions`).
    Build(BuildKind),
}

impl Syntax {
    /// Whether the file is program source (its calls are made by the
    /// program it builds), not configuration.
    pub fn is_source(self) -> bool {
        matches!(
            self,
            Syntax::Java | Syntax::Rust | Syntax::Python | Syntax::CSharp | Syntax::Go
        )
    }

    /// The comment markers of the syntax, for `retrylint:` directives.
    pub fn comment_markers(self) -> &'static [&'static str] {
        match self {
            // YAML, nginx and TOML (a Cargo.lock or version catalog).
            Syntax::Yaml | Syntax::Nginx | Syntax::Python => &["#"],
            Syntax::Json => &[],
            // .NET's JSON configuration provider skips comments.
            Syntax::Jsonc | Syntax::Java | Syntax::Rust | Syntax::CSharp | Syntax::Go => {
                &["//", "/*"]
            }
            Syntax::Vcl | Syntax::Terraform => &["#", "//", "/*"],
            Syntax::QueueXml => &["<!--"],
            Syntax::Ini => &["#", ";"],
            Syntax::Properties => &["#", "!"],
            Syntax::Build(kind) => kind.comment_markers(),
        }
    }
}
