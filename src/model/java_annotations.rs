//! What Java files tell each other: retry annotations a file declares
//! (`@Retryable` on an `@interface`) and the uses of annotations it cannot
//! place, resolved across files by `link::java_retry_annotations`.

use crate::model::IdempotencyKey;
use crate::source::Span;

/// What Java files tell each other, resolved at link time
/// (`link::java_retry_annotations`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JavaFacts {
    /// Annotation types declared here with `@Retryable` on them
    /// (`@Retryable(..) @interface RetryOnIo {}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retry_annotations: Vec<RetryAnnotation>,
    /// Methods and classes annotated with an annotation this file cannot
    /// place: each is a retry when a scanned file declares that
    /// annotation with `@Retryable`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotation_uses: Vec<AnnotationUse>,
}

impl JavaFacts {
    pub fn is_empty(&self) -> bool {
        self.retry_annotations.is_empty() && self.annotation_uses.is_empty()
    }
}

/// A retry annotation declared in a file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RetryAnnotation {
    /// The simple name (`RetryOnIo`).
    pub name: String,
    /// With the file's package (`com.acme.retry.RetryOnIo`), when it has one.
    pub qualified: Option<String>,
    /// The index of the policy read from its `@Retryable`.
    pub policy: usize,
}

/// `@RetryOnIo` on a method or class.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnnotationUse {
    /// The annotation's simple name (`RetryOnIo`).
    pub annotation: String,
    /// Which annotation that is, when the file says: its single-type
    /// import, its qualified name as written, or the file's own package
    /// (no import of that name and no wildcard import). `None` when a
    /// wildcard import leaves it open.
    #[serde(default)]
    pub qualified: Option<String>,
    /// The annotation as written.
    pub span: Span,
    /// The method or class name.
    pub target: String,
    /// Idempotency keys minted in its body (in the method, or in the
    /// class's methods), as a retry of the whole would see them.
    pub keys: Vec<IdempotencyKey>,
}
