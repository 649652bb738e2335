//! Configuration blocks: the `configs.<name>` and `instances.<name>`
//! groups of properties, and the `baseConfig` chain a key is resolved along.

use super::*;

/// One `configs.<name>` or `instances.<name>` block.
#[derive(Debug, Default)]
pub(super) struct Block<'p> {
    pub(super) name: String,
    pub(super) is_config: bool,
    pub(super) name_span: Span,
    /// Property (normalised key) -> its props (several for lists).
    pub(super) fields: BTreeMap<String, Vec<&'p Prop>>,
}

impl<'p> Block<'p> {
    pub(super) fn one(&self, key: &str) -> Option<&'p Prop> {
        self.fields
            .get(&normalise_key(key))
            .and_then(|v| v.last().copied())
    }

    pub(super) fn label(&self) -> String {
        if self.is_config {
            format!("configs.{}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// Blocks of `resilience4j.<module>.{configs,instances,backends}.<name>`.
pub(super) fn group<'p>(props: &'p [Prop], module: &str) -> Vec<Block<'p>> {
    let mut blocks: Vec<Block<'p>> = Vec::new();
    let mut index: std::collections::HashMap<(String, bool), usize> = Default::default();
    for p in props {
        if p.segments.len() < 5 || !p.normalised_is(0, "resilience4j") || p.normalised(1) != module
        {
            continue;
        }
        let is_config = match p.normalised(2).as_str() {
            "configs" => true,
            "instances" | "backends" => false,
            _ => continue,
        };
        let name = p.segments[3].trim_matches(['[', ']']).to_string();
        let field = normalise_key(&p.segments[4]);
        let idx = match index.get(&(name.clone(), is_config)) {
            Some(i) => *i,
            None => {
                index.insert((name.clone(), is_config), blocks.len());
                blocks.push(Block {
                    name: name.clone(),
                    is_config,
                    name_span: p.seg_spans.get(3).copied().unwrap_or(p.key_span),
                    fields: BTreeMap::new(),
                });
                blocks.len() - 1
            }
        };
        blocks[idx].fields.entry(field).or_default().push(p);
    }
    blocks
}

/// The configs of a group by name, for constant-time `baseConfig` lookups.
pub(super) type Configs = std::collections::HashMap<String, usize>;

pub(super) fn configs(blocks: &[Block<'_>]) -> Configs {
    blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_config)
        .map(|(i, b)| (b.name.clone(), i))
        .collect()
}

/// `b` and the configs it inherits from, nearest first: its `baseConfig`,
/// or `configs.default` when it has none and is not named `default`.
pub(super) fn chain<'b, 'p>(
    blocks: &'b [Block<'p>],
    configs: &Configs,
    b: &'b Block<'p>,
) -> Vec<&'b Block<'p>> {
    let mut out = vec![b];
    let mut cur = b;
    let find = |name: &str| configs.get(name).and_then(|i| blocks.get(*i));
    for _ in 0..16 {
        let next = match cur.one("baseConfig") {
            Some(p) => find(p.value.trim()),
            None if cur.name != DEFAULT_CONFIG => find(DEFAULT_CONFIG),
            None => None,
        };
        match next {
            Some(n) if !out.iter().any(|o| std::ptr::eq(*o, n)) => {
                out.push(n);
                cur = n;
            }
            _ => break,
        }
    }
    out
}

/// A field resolved through inheritance: the prop and whether it was
/// inherited.
pub(super) struct Field<'p> {
    pub(super) prop: &'p Prop,
    pub(super) inherited: bool,
}

impl Field<'_> {
    pub(super) fn located<T>(&self, value: T, span: Span) -> Located<T> {
        if self.inherited {
            Located::inherited(value, span)
        } else {
            Located::written(value, span)
        }
    }
}

/// Resolve `key` along `chain` (nearest first); `inherited` when found
/// beyond `chain[0]`, or when `chain[0]` itself is not the policy's block.
pub(super) fn resolve<'p>(chain: &[&Block<'p>], key: &str, inherited: bool) -> Option<Field<'p>> {
    for (i, block) in chain.iter().enumerate() {
        if let Some(prop) = block.one(key) {
            return Some(Field {
                prop,
                inherited: inherited || i > 0,
            });
        }
    }
    None
}
