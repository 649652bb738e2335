//! `retrylint rules`: the rule listing in each format.

use super::RulesFormat;
use crate::rules::RULES;

/// `retrylint rules` in each format; the Markdown table is the README's.
pub fn rules_listing(format: RulesFormat) -> String {
    match format {
        RulesFormat::Text => {
            // Columns as wide as their widest cell (`Severity`'s Display
            // ignores padding, so its text is padded).
            let name_w = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
            let cat_w = RULES
                .iter()
                .map(|r| r.category.as_str().len())
                .max()
                .unwrap_or(0);
            let mut out = String::new();
            for r in RULES {
                let line = format!(
                    "{}  {:<name_w$}  {:<7}  {:<cat_w$}  {}",
                    r.code,
                    r.name,
                    r.severity.as_str(),
                    r.category.as_str(),
                    r.formats.join(", ")
                );
                out.push_str(line.trim_end());
                out.push('\n');
            }
            out
        }
        RulesFormat::Markdown => {
            let mut out = String::from(
                "| code | name | severity | what it flags | formats |\n|---|---|---|---|---|\n",
            );
            for r in RULES {
                out.push_str(&format!(
                    "| [{}](rules/{}-{}.md) | {} | {} | {} | {} |\n",
                    r.code,
                    r.code,
                    r.name,
                    r.name,
                    r.severity,
                    r.summary,
                    r.formats.join(", ")
                ));
            }
            out
        }
        RulesFormat::Json => {
            let v: Vec<serde_json::Value> = RULES
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code, "name": r.name, "severity": r.severity,
                        "category": r.category, "since": r.since, "summary": r.summary,
                        "formats": r.formats,
                    })
                })
                .collect();
            let mut s = serde_json::to_string_pretty(&v).expect("serialisable");
            s.push('\n');
            s
        }
    }
}
