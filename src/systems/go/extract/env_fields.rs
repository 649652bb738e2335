//! Struct fields a Go file fills from the environment, read from the text
//! (a configuration loader is often a file no other reader parses):
//! `Config{Addr: os.Getenv("ADDR")}`, `c.Addr = os.Getenv("ADDR")`, and
//! a struct tag `env:"ADDR"` (caarlos0/env, `env.go` `parseField` reads
//! the tag's first comma-separated item as the variable's name;
//! ilyakaznacheev/cleanenv reads the same tag), and `helper(&x.Addr,
//! "ADDR")` where `helper` is a function of the file storing
//! `os.Getenv` of its key through its pointer parameter
//! (GoogleCloudPlatform/microservices-demo's `mustMapEnv`). The link step
//! (`link::go_fields`) gives a call whose target is such a field in
//! another file of the module the variable (Gergenus/Commerce: the
//! cart service dials `cfg.GRPCProductServiceAddress`, which
//! `internal/config` fills from `GRPC_PRODUCT_SERVICE_ADDRESS`).

use crate::model::{Facts, GoField, GoFieldKind};

/// Fields read from one file, at most.
const MAX_FIELDS: usize = 256;

/// Words of a text that may fill a field from the environment.
/// (The tag defaults: `default:"3"`, `envDefault:"3"`, [`tag_defaults`].)
pub(super) const NEEDLES: &[&str] = &["os.Getenv(", "env:\"", "default:\"", "envDefault:\""];

/// Whether the text may fill a field from the environment.
pub(super) fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

/// Record every field of the text filled from the environment, and the
/// defaults their tags give.
pub(super) fn extract(text: &str, facts: &mut Facts) {
    for (field, env, owner) in fields(text) {
        facts.go_fields.push(GoField {
            field,
            kind: GoFieldKind::FromEnv { env, owner },
        });
    }
    for (field, ty) in typed_fields(text) {
        facts.go_fields.push(GoField {
            field,
            kind: GoFieldKind::Typed { ty },
        });
    }
    for (field, value, line) in tag_defaults(text) {
        facts.go_fields.push(GoField {
            field,
            kind: GoFieldKind::Default { value, line },
        });
    }
}

/// (field, default) pairs of struct tags, in text order: the value a
/// field takes when its variable is unset. kelseyhightower/envconfig
/// (`envconfig.go` `Process`, commit 13674b2d056fb658a00ba3f36e78043ced07c924:
/// `def := ftype.Tag.Get("default")` taken when the variable is not set,
/// a `time.Duration` field parsed with `time.ParseDuration`) and
/// caarlos0/env (`env.go` `get`/`getOr`, commit
/// 47c223de4f6349b37dc06c0509f4d22ceeb42d91: `Tag.Lookup("envDefault")`
/// taken when the variable is not set); `link::values` gives it to a
/// read of the field in another file of the module (`cfg.RetryMax`).
pub(super) fn tag_defaults(text: &str) -> Vec<(String, String, usize)> {
    let mut out: Vec<(String, String, usize)> = Vec::new();
    for tag in ["default:\"", "envDefault:\""] {
        // Lines counted up to `upto`, once over the text per tag.
        let (mut upto, mut lines) = (0, 1);
        for (at, _) in text.match_indices(tag) {
            // The tag's key is `default`, not `mydefault`.
            if !text[..at].ends_with(['`', ' ']) || out.len() >= MAX_FIELDS {
                continue;
            }
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line = &text[line_start..at];
            // A field's tag: `Name Type `..``, not a raw string.
            let Some(head) = line.find('`').map(|b| &line[..b]) else {
                continue;
            };
            if head.contains(['=', '(', '"']) || head.split_whitespace().count() < 2 {
                continue;
            }
            let rest = &text[at + tag.len()..];
            let Some(end) = rest.find(['"', '\n']) else {
                continue;
            };
            let Some(f) = env_name(line.trim_start()) else {
                continue;
            };
            if f.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let value = rest[..end].to_string();
            lines += text[upto..at].matches('\n').count();
            upto = at;
            if !out.iter().any(|(g, v, _)| *g == f && *v == value) {
                out.push((f, value, lines));
            }
        }
    }
    out
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier that ends `before` (after trailing blanks), if any.
fn last_ident(before: &str) -> Option<(&str, &str)> {
    let t = before.trim_end_matches([' ', '\t']);
    let start = t
        .char_indices()
        .rev()
        .take_while(|&(_, c)| ident_char(c))
        .last()
        .map(|(i, _)| i)?;
    let id = &t[start..];
    (!id.starts_with(|c: char| c.is_ascii_digit())).then_some((&t[..start], id))
}

/// A variable name: letters, digits and `_`.
fn env_name(s: &str) -> Option<String> {
    let end = s.find(|c: char| !ident_char(c)).unwrap_or(s.len());
    (end > 0).then(|| s[..end].to_string())
}

/// The position of the `{` that `at` lies in (the braces between
/// balanced), looking back at most 16 KB.
fn open_brace(text: &str, at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let floor = at.saturating_sub(16 * 1024);
    for (i, b) in text.as_bytes()[floor..at].iter().enumerate().rev() {
        match b {
            b'}' => depth += 1,
            b'{' if depth == 0 => return Some(floor + i),
            b'{' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The struct type a field at `at` belongs to: the type of the composite
/// literal it is in (`Config{F: ..}`, `&config.Config{..}` give
/// `Config`), or the struct it is declared in (`ProductClient struct {`,
/// `type ProductClient struct {`).
fn owner(text: &str, at: usize) -> Option<String> {
    let before = text[..open_brace(text, at)?].trim_end();
    let before = before.strip_suffix("struct").unwrap_or(before);
    let (_, id) = last_ident(before)?;
    (!matches!(id, "return" | "type" | "var")).then(|| id.to_string())
}

/// (field, variable, owner) of the text, in text order.
pub(super) type Filled = (String, String, Option<String>);

/// (field, variable, the struct type it belongs to when the text says),
/// in text order.
pub(super) fn fields(text: &str) -> Vec<Filled> {
    let mut out: Vec<Filled> = Vec::new();
    let push = |f: &str, e: String, o: Option<String>, out: &mut Vec<Filled>| {
        if out.len() < MAX_FIELDS && !out.iter().any(|(g, v, w)| g == f && *v == e && *w == o) {
            out.push((f.to_string(), e, o));
        }
    };
    const CALL: &str = "os.Getenv(\"";
    for (at, _) in text.match_indices(CALL) {
        let Some(env) = env_name(&text[at + CALL.len()..]) else {
            continue;
        };
        let before = text[..at].trim_end_matches([' ', '\t']);
        if let Some(b) = before.strip_suffix(':') {
            // `Field: os.Getenv("X")` in a composite literal (not `:=`).
            if let Some((_, f)) = last_ident(b) {
                push(f, env, owner(text, at), &mut out);
            }
        } else if let Some(b) = before.strip_suffix('=')
            && !b.ends_with([':', '!', '=', '<', '>'])
        {
            // `x.Field = os.Getenv("X")`: a field, not a local.
            if let Some((rest, f)) = last_ident(b)
                && rest.ends_with('.')
            {
                push(f, env, None, &mut out);
            }
        }
    }
    helper_fields(text, &mut |f, e| push(f, e, None, &mut out));
    const TAG: &str = "env:\"";
    for (at, _) in text.match_indices(TAG) {
        // The tag's key is `env`, not `myenv` (`envDefault` ends apart).
        if !text[..at].ends_with(['`', ' ']) {
            continue;
        }
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..at];
        // Inside the field's backquoted tag: `Name Type `env:"X"``.
        if !line.contains('`') {
            continue;
        }
        let Some(env) = env_name(&text[at + TAG.len()..]) else {
            continue;
        };
        let head = line.trim_start();
        let Some(f) = env_name(head) else { continue };
        if f.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        push(&f, env, owner(text, at), &mut out);
    }
    out
}

/// (field, type) of the struct fields declared with a named type other
/// than their name (`Product *config.ProductClient `yaml:".."``; an
/// embedded field's name is its type's already), in text order.
pub(super) fn typed_fields(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (at, _) in text.match_indices("struct {") {
        let body = &text[at + "struct {".len()..];
        let end = body.find('}').unwrap_or(body.len());
        for line in body[..end].lines() {
            let mut words = line.split_whitespace();
            let (Some(name), Some(ty)) = (words.next(), words.next()) else {
                continue;
            };
            let ty = ty.trim_start_matches('*');
            let ty = ty.rsplit_once('.').map_or(ty, |(_, t)| t);
            let ident = |s: &str| {
                !s.is_empty()
                    && s.chars().all(ident_char)
                    && !s.starts_with(|c: char| c.is_ascii_digit())
            };
            // A named type: exported (`string`, `int` are not structs).
            if ident(name)
                && ident(ty)
                && name != ty
                && ty.starts_with(|c: char| c.is_ascii_uppercase())
                && out.len() < MAX_FIELDS
                && !out.iter().any(|(n, t)| n == name && t == ty)
            {
                out.push((name.to_string(), ty.to_string()));
            }
        }
    }
    out
}

/// `helper(&x.Field, "X")` with `helper` a function of the text that
/// stores `os.Getenv(key)` through its pointer parameter: (`Field`, `X`).
fn helper_fields(text: &str, push: &mut dyn FnMut(&str, String)) {
    let mut helpers: Vec<(&str, bool)> = Vec::new();
    for (at, _) in text.match_indices("(&") {
        // A function of the package, not a method or another package's.
        let Some((rest, fname)) = last_ident(&text[..at]) else {
            continue;
        };
        if rest.ends_with('.') {
            continue;
        }
        let args = &text[at + 1..];
        let Some(inner) = args.find(')').map(|k| &args[..k]) else {
            continue;
        };
        let Some((target, key)) = inner.split_once(',') else {
            continue;
        };
        let Some(field) = target
            .trim()
            .strip_prefix('&')
            .and_then(|p| p.rsplit_once('.'))
            .map(|(_, f)| f)
            .filter(|f| !f.is_empty() && f.chars().all(ident_char))
        else {
            continue;
        };
        let Some(env) = key
            .trim()
            .strip_prefix('"')
            .and_then(|k| k.strip_suffix('"'))
            .and_then(env_name)
        else {
            continue;
        };
        let stores = match helpers.iter().find(|(n, _)| *n == fname) {
            Some((_, s)) => *s,
            None => {
                if helpers.len() >= MAX_FIELDS {
                    continue;
                }
                let s = stores_env(text, fname);
                helpers.push((fname, s));
                s
            }
        };
        if stores {
            push(field, env);
        }
    }
}

/// Whether `func name(target *string, key string)` in the text does
/// `*target = ..` and `os.Getenv(key)` (or `os.LookupEnv(key)`).
fn stores_env(text: &str, name: &str) -> bool {
    let head = format!("func {name}(");
    let Some(at) = text.find(&head) else {
        return false;
    };
    let rest = &text[at + head.len()..];
    let Some(close) = rest.find(')') else {
        return false;
    };
    let params: Vec<(&str, &str)> = rest[..close]
        .split(',')
        .filter_map(|p| p.trim().split_once(' '))
        .map(|(n, t)| (n.trim(), t.trim()))
        .collect();
    let [(target, "*string"), (key, "string")] = params.as_slice() else {
        return false;
    };
    // The body, up to the function's closing brace (bounded).
    let body = &rest[close..];
    let mut end = body.find("\n}").unwrap_or(body.len()).min(4096);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let body = &body[..end];
    (body.contains(&format!("os.Getenv({key})")) || body.contains(&format!("os.LookupEnv({key})")))
        && (body.contains(&format!("*{target} =")) || body.contains(&format!("*{target}=")))
}

#[cfg(test)]
mod tests {
    use super::{fields, tag_defaults};

    #[test]
    fn struct_tag_defaults() {
        let text = "package config\ntype Config struct {\n\tRetryMax int `envconfig:\"RETRY_MAX\" default:\"4\"`\n\tWait time.Duration `env:\"WAIT\" envDefault:\"1500ms\"`\n\tOther int `json:\"other\" mydefault:\"9\"`\n}\nvar s = `default:\"8\"`\n";
        let got = tag_defaults(text);
        let want = [("RetryMax", "4", 3), ("Wait", "1500ms", 4)];
        assert_eq!(
            got,
            want.map(|(f, v, l)| (f.to_string(), v.to_string(), l))
                .to_vec()
        );
    }

    #[test]
    fn fields_filled_from_the_environment() {
        let text = r#"package config
type Config struct {
	ProductAddr string `env:"PRODUCT_ADDR,required" envDefault:"x"`
	Port        int    `myenv:"PORT"`
}
func Load() Config {
	local := os.Getenv("LOCAL")
	c := Config{
		GRPCProductServiceAddress: os.Getenv("GRPC_PRODUCT_SERVICE_ADDRESS"),
	}
	c.CartAddr = os.Getenv("CART_ADDR")
	mustMapEnv(&c.QuoteAddr, "QUOTE_ADDR")
	json.Unmarshal(b, &c.Other)
	if os.Getenv("DEBUG") == "1" {}
	x := map[string]string{"k": os.Getenv("NOT_A_FIELD")}
	return c
}
func mustMapEnv(target *string, envKey string) {
	v := os.Getenv(envKey)
	if v == "" {
		panic("unset")
	}
	*target = v
}
"#;
        let got = fields(text);
        let want = [
            (
                "GRPCProductServiceAddress",
                "GRPC_PRODUCT_SERVICE_ADDRESS",
                Some("Config"),
            ),
            ("CartAddr", "CART_ADDR", None),
            ("QuoteAddr", "QUOTE_ADDR", None),
            ("ProductAddr", "PRODUCT_ADDR", Some("Config")),
        ];
        assert_eq!(
            got,
            want.map(|(f, e, o)| (f.to_string(), e.to_string(), o.map(str::to_string)))
                .to_vec()
        );
    }

    /// thangchung/go-coffeeshop 22d33190 `cmd/counter/config/config.go`:
    /// two structs with a field `URL`, told apart by their types.
    #[test]
    fn the_struct_a_field_belongs_to() {
        let text = "package config\ntype (\n\tConfig struct {\n\t\tconfigs.App `yaml:\"app\"`\n\t\tRabbitMQ `yaml:\"rabbitmq\"`\n\t\tProductClient `yaml:\"product_client\"`\n\t\tOther *pkg.OtherClient `yaml:\"other\"`\n\t\tPort int\n\t}\n\tRabbitMQ struct {\n\t\tURL string `env-required:\"true\" yaml:\"url\" env:\"RABBITMQ_URL\"`\n\t}\n\tProductClient struct {\n\t\tURL string `yaml:\"url\" env:\"PRODUCT_CLIENT_URL\"`\n\t}\n)\n";
        let got = fields(text);
        let want = [
            ("URL", "RABBITMQ_URL", "RabbitMQ"),
            ("URL", "PRODUCT_CLIENT_URL", "ProductClient"),
        ];
        assert_eq!(
            got,
            want.map(|(f, e, o)| (f.to_string(), e.to_string(), Some(o.to_string())))
                .to_vec()
        );
        assert_eq!(
            super::typed_fields(text),
            [("Other".to_string(), "OtherClient".to_string())]
        );
    }
}
