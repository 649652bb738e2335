//! The context every Java extractor reads: one parsed file, its variables,
//! fields and parameters, and the lookups over its tree (parents, enclosing
//! methods, names resolved to declarations).

use super::tree_index::{Index, index};
use super::*;

/// A variable, field or parameter: its declared type and initializer.
#[derive(Clone, Copy, Debug)]
pub struct Var<'a> {
    pub ty: &'a str,
    pub value: Option<Node<'a>>,
    pub node: Node<'a>,
    /// The method or constructor it is declared in (`None` for a field).
    pub scope: Option<usize>,
}

/// One parsed file and the indices the extractors share.
pub struct Ctx<'a> {
    pub src: &'a str,
    pub root: Node<'a>,
    /// Every named node, in source order.
    pub nodes: Vec<Node<'a>>,
    pub imports: Vec<&'a str>,
    vars: HashMap<&'a str, Vec<Var<'a>>>,
    /// Expression statements calling a method on a chain that starts at a
    /// variable (`builder.maxAttempts(3);`), by variable name, as indices
    /// into `nodes`: found on first need (two readers ask, of files
    /// building a policy). Owned keys keep `Ctx` covariant.
    mutations: std::cell::OnceCell<HashMap<String, Vec<usize>>>,
    /// Method declarations by name.
    pub(super) methods: HashMap<&'a str, Vec<Node<'a>>>,
    /// Values assigned to a name or `this.name` with `=`, by name.
    pub(super) assigns: HashMap<&'a str, Vec<Node<'a>>>,
    /// Names assigned to or incremented anywhere (`i++`, `x += 2`,
    /// `x = ..` after the declaration): their initializer is not their value.
    pub(super) mutated: std::collections::HashSet<&'a str>,
    /// Every write (`=`, `+=`, `++`, `--`) to a bare name or `this.name`,
    /// by name: a field's value is its initializer only when nothing else
    /// writes it.
    writes: HashMap<&'a str, Vec<Node<'a>>>,
    /// Each node's parent and subtree by node id (tree-sitter's own
    /// `parent()` walks down from the root, which is quadratic on deep
    /// trees).
    tree: Index,
}

/// An import's name as the readers compare it (`a.b.C`, `a.b.*`), from
/// the declaration's text (`import static a.b.C;`).
pub(super) fn import_name(declaration: &str) -> &str {
    declaration
        .trim_start_matches("import")
        .trim()
        .trim_start_matches("static ")
        .trim_end_matches(';')
        .trim()
}

impl<'a> Ctx<'a> {
    pub fn new(src: &'a str, root: Node<'a>) -> Self {
        Ctx::with_imports(src, root, None)
    }

    /// [`Ctx::new`] of a tree parsed without its `import` declarations,
    /// whose names are `imports` (`None`: read from the tree).
    pub fn with_imports(src: &'a str, root: Node<'a>, imports: Option<Vec<&'a str>>) -> Self {
        let (nodes, tree) = index(root);
        let pctx = Parents(&tree, &nodes);
        let from_tree = imports.is_none();
        let mut imports = imports.unwrap_or_default();
        let mut vars: HashMap<&'a str, Vec<Var<'a>>> = HashMap::new();
        let mut methods: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut assigns: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut mutated = std::collections::HashSet::new();
        let mut writes: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        for &n in &nodes {
            match n.kind_str() {
                "import_declaration" if from_tree => imports.push(import_name(text(n, src))),
                "variable_declarator" => {
                    let Some(name) = field(n, "name").map(|x| text(x, src)) else {
                        continue;
                    };
                    let ty = pctx
                        .parent(n)
                        .and_then(|p| field(p, "type"))
                        .map_or("", |t| text(t, src));
                    let scope = pctx.enclosing_method(n).map(|m| m.id());
                    vars.entry(name).or_default().push(Var {
                        ty,
                        value: field(n, "value"),
                        node: n,
                        scope,
                    });
                }
                // A try's resource (`try (ServerSocket s = new
                // ServerSocket(0))`) is a variable of its block too.
                "formal_parameter" | "catch_formal_parameter" | "resource" => {
                    let Some(name) = field(n, "name").map(|x| text(x, src)) else {
                        continue;
                    };
                    let ty = field(n, "type").map_or("", |t| text(t, src));
                    let scope = pctx.enclosing_method(n).map(|m| m.id());
                    vars.entry(name).or_default().push(Var {
                        ty,
                        value: field(n, "value"),
                        node: n,
                        scope,
                    });
                }
                "method_declaration" => {
                    if let Some(name) = field(n, "name") {
                        methods.entry(text(name, src)).or_default().push(n);
                    }
                }
                "update_expression" => {
                    if let Some(id) = named_children(n).first() {
                        if id.kind_str() == "identifier" {
                            mutated.insert(text(*id, src));
                        }
                        if let Some(name) = written_name(*id, src) {
                            writes.entry(name).or_default().push(n);
                        }
                    }
                }
                "assignment_expression" => {
                    if let Some(l) = field(n, "left")
                        && l.kind_str() == "identifier"
                    {
                        mutated.insert(text(l, src));
                    }
                    if let Some(name) = field(n, "left").and_then(|l| written_name(l, src)) {
                        writes.entry(name).or_default().push(n);
                    }
                    let op = field(n, "operator").map_or("", |o| text(o, src));
                    if let (Some(l), Some(r), "=") = (field(n, "left"), field(n, "right"), op) {
                        let name = match l.kind_str() {
                            "identifier" => Some(text(l, src)),
                            "field_access" => field(l, "field").map(|f| text(f, src)),
                            _ => None,
                        };
                        if let Some(name) = name {
                            assigns.entry(name).or_default().push(r);
                        }
                    }
                }
                _ => {}
            }
        }
        Ctx {
            src,
            root,
            nodes,
            imports,
            vars,
            mutations: std::cell::OnceCell::new(),
            methods,
            assigns,
            mutated,
            writes,
            tree,
        }
    }

    /// The value of a field that holds one value: its initializer when
    /// nothing writes it, or the one constructor assignment of a field
    /// declared without one (`private final int maxAttempts;` then
    /// `this.maxAttempts = 10;`). A field a setter or any other method
    /// writes (`this.maxAttempts = maxAttempts`) has no value the file
    /// shows. A write to a local or parameter of the same name is not the
    /// field's.
    fn field_value(&self, name: &str, v: &Var<'a>) -> Option<Node<'a>> {
        let own: Vec<Node<'a>> = self
            .writes
            .get(name)
            .map(|ws| {
                ws.iter()
                    .copied()
                    .filter(|w| {
                        let target = if w.kind_str() == "assignment_expression" {
                            field(*w, "left")
                        } else {
                            named_children(*w).first().copied()
                        };
                        target.is_some_and(|t| {
                            t.kind_str() == "field_access"
                                || self.var(name, t).is_none_or(|x| x.scope.is_none())
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        match (v.value, own.as_slice()) {
            (Some(init), []) => Some(init),
            (None, [w]) => {
                let in_ctor = Parents(&self.tree, &self.nodes)
                    .enclosing_method(*w)
                    .is_some_and(|m| m.kind_str() == "constructor_declaration");
                let plain = w.kind_str() == "assignment_expression"
                    && field(*w, "operator").is_some_and(|o| self.text(o) == "=");
                if in_ctor && plain {
                    field(*w, "right")
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    pub fn parent(&self, n: Node<'_>) -> Option<Node<'a>> {
        self.tree.parent(&self.nodes, n)
    }

    /// Every node below `root` (itself included), in source order:
    /// [`ast::descendants`] read off the file's one walk.
    pub fn descendants<'n>(&self, root: Node<'n>) -> Vec<Node<'n>>
    where
        'a: 'n,
    {
        self.descendants_until(root, |_| false)
    }

    /// [`ast::descendants_until`] read off the file's one walk (a node of
    /// no walk, such as an unnamed one, is walked as before).
    pub fn descendants_until<'n>(
        &self,
        root: Node<'n>,
        stop: impl Fn(Node<'n>) -> bool,
    ) -> Vec<Node<'n>>
    where
        'a: 'n,
    {
        match self.tree.of(root) {
            Some(i) => self.tree.below(&self.nodes, i, stop),
            None => ast::descendants_until(root, stop),
        }
    }

    /// [`ast::named_children`] read off the file's one walk.
    pub fn named_children<'n>(&self, n: Node<'n>) -> Vec<Node<'n>>
    where
        'a: 'n,
    {
        match self.tree.of(n) {
            Some(i) => self.tree.children(&self.nodes, i),
            None => ast::named_children(n),
        }
    }

    /// Whether `n` is the object of a method call (an inner link of a
    /// chain).
    pub fn is_chain_link(&self, n: Node<'_>) -> bool {
        self.parent(n).is_some_and(|p| {
            p.kind_str() == "method_invocation"
                && field(p, "object").is_some_and(|o| o.id() == n.id())
        })
    }

    /// The nearest ancestor of one of `kinds`.
    pub fn ancestor(&self, n: Node<'_>, kinds: &[&str]) -> Option<Node<'a>> {
        Parents(&self.tree, &self.nodes).ancestor(n, kinds)
    }

    /// The method or constructor that contains `n`, with its name.
    pub fn enclosing_method(&self, n: Node<'_>) -> Option<(Node<'a>, String)> {
        let m = Parents(&self.tree, &self.nodes).enclosing_method(n)?;
        let name = field(m, "name").map(|x| self.text(x).to_string())?;
        Some((m, name))
    }

    /// The name of the policy built at `n`: the variable it is assigned
    /// to, else the method it is built in (`@Bean Retryer feignRetryer()`).
    pub fn policy_name(&self, n: Node<'_>) -> Option<String> {
        match self.parent(n) {
            Some(par) if par.kind_str() == "variable_declarator" => {
                field(par, "name").map(|x| self.text(x).to_string())
            }
            _ => self.enclosing_method(n).map(|(_, m)| m),
        }
    }

    /// The value of a name as seen from `at`: its initializer, else the
    /// first value assigned to it.
    pub fn value_of(&self, name: &str, at: Node<'_>) -> Option<Node<'a>> {
        if let Some(v) = self.var(name, at)
            && let Some(val) = v.value
        {
            return Some(val);
        }
        self.assigns.get(name).and_then(|v| v.first().copied())
    }

    pub fn text(&self, n: Node<'_>) -> &'a str {
        self.src.get(n.start_byte()..n.end_byte()).unwrap_or("")
    }

    /// The text of a name (`retry`, `this.retry`, `a.b.Retry`), or "" for
    /// any other expression, so that callers never scan a long expression.
    pub fn name_of(&self, n: Option<Node<'_>>) -> &'a str {
        match n {
            Some(n)
                if matches!(
                    n.kind_str(),
                    "identifier"
                        | "field_access"
                        | "scoped_identifier"
                        | "type_identifier"
                        | "this"
                ) && n.end_byte() - n.start_byte() <= 256 =>
            {
                self.text(n)
            }
            _ => "",
        }
    }

    /// Whether the file imports `name` (a class or a package with `.*`).
    pub fn imports(&self, class: &str) -> bool {
        let pkg = class.rsplit_once('.').map_or("", |(p, _)| p);
        self.imports
            .iter()
            .any(|i| *i == class || (i.ends_with(".*") && i.trim_end_matches(".*") == pkg))
    }

    /// Whole method chains (not links of longer ones) whose root's last
    /// name segment is `root` and whose first call is one of `first`:
    /// `RetryPolicy.builder()...build()`, `Failsafe.with(..)...`.
    pub fn chains(&self, root: &str, first: &[&str]) -> Vec<(Node<'a>, ast::Chain<'a>)> {
        self.nodes
            .iter()
            .filter(|n| n.kind_str() == "method_invocation" && !self.is_chain_link(**n))
            .map(|&n| (n, ast::chain(n, self.src)))
            .filter(|(_, c)| {
                ast::last_segment(c.root_text(self.src)) == root
                    && c.first().is_some_and(|f| first.contains(&f.name.as_str()))
            })
            .collect()
    }

    /// `name` in this file's package (`com.acme.Name`), or `name` alone in
    /// the default package.
    pub fn qualified(&self, name: &str) -> String {
        let package = named_children(self.root)
            .into_iter()
            .find(|n| n.kind_str() == "package_declaration")
            .map(|p| {
                self.text(p)
                    .trim_start_matches("package")
                    .trim_end_matches(';')
                    .trim()
                    .to_string()
            });
        match package {
            Some(p) if !p.is_empty() => format!("{p}.{name}"),
            _ => name.to_string(),
        }
    }

    pub fn imports_prefix(&self, prefix: &str) -> bool {
        self.imports.iter().any(|i| i.starts_with(prefix))
    }

    /// The variable `name` as seen from `at`: a local of the same method
    /// declared before `at`, else a field, else any declaration.
    pub fn var(&self, name: &str, at: Node<'_>) -> Option<Var<'a>> {
        let vs = self.vars.get(name)?;
        let scope = self.enclosing_method(at).map(|(m, _)| m.id());
        vs.iter()
            .rev()
            .find(|v| {
                v.scope.is_some() && v.scope == scope && v.node.start_byte() <= at.start_byte()
            })
            .or_else(|| vs.iter().find(|v| v.scope.is_none()))
            .or_else(|| vs.iter().find(|v| v.scope == scope))
            .copied()
    }

    /// Statements calling methods on the variable `v` after its declaration,
    /// in the same method.
    pub fn mutations_of(&self, name: &str, v: &Var<'a>) -> Vec<Node<'a>> {
        let call = |i: usize| {
            named_children(self.nodes[i])
                .first()
                .copied()
                .filter(|e| e.kind_str() == "method_invocation")
        };
        self.mutations
            .get_or_init(|| {
                let mut mutations: HashMap<String, Vec<usize>> = HashMap::new();
                for (i, &n) in self.nodes.iter().enumerate() {
                    if n.kind_str() != "expression_statement" {
                        continue;
                    }
                    if let Some(e) = call(i)
                        && let Some(r) = ast::chain(e, self.src).root
                        && r.kind_str() == "identifier"
                    {
                        mutations
                            .entry(text(r, self.src).to_string())
                            .or_default()
                            .push(i);
                    }
                }
                mutations
            })
            .get(name)
            .map(|ms| {
                ms.iter()
                    .filter_map(|&i| call(i))
                    .filter(|m| {
                        m.start_byte() > v.node.start_byte()
                            && self.enclosing_method(*m).map(|(x, _)| x.id()) == v.scope
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn methods_named(&self, name: &str) -> &[Node<'a>] {
        self.methods.get(name).map_or(&[], |v| v.as_slice())
    }

    /// Follow an identifier to its initializer, a few steps deep.
    pub fn resolve(&self, n: Node<'a>) -> Node<'a> {
        let mut cur = unwrap_expr(n);
        for _ in 0..MAX_DEPTH {
            if cur.kind_str() != "identifier" {
                break;
            }
            match self.value_of(self.text(cur), cur) {
                Some(v) if v.id() != cur.id() && !ast::within(cur, v) => cur = unwrap_expr(v),
                _ => break,
            }
        }
        cur
    }

    /// An integer value: a literal, a constant, simple arithmetic, or a
    /// limit of `Integer`, `Long`, `Short` or `Byte` (`MAX_VALUE`,
    /// `MIN_VALUE`), each its own type's.
    pub fn int(&self, n: Node<'a>) -> Option<i128> {
        self.int_d(n, 0)
    }

    fn int_d(&self, n: Node<'a>, depth: usize) -> Option<i128> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = unwrap_expr(n);
        let t = self.text(n);
        match n.kind_str() {
            "decimal_integer_literal" | "hex_integer_literal" | "binary_integer_literal" => {
                ast::int_literal(t)
            }
            "identifier" => {
                let v = self.var(t, n)?;
                if v.scope.is_none() {
                    return self.int_d(self.field_value(t, &v)?, depth + 1);
                }
                // A variable that changes has no single value.
                if self.mutated.contains(t) {
                    return None;
                }
                self.int_d(v.value?, depth + 1)
            }
            // `this.maxAttempts`: the field.
            "field_access"
                if field(n, "object").is_some_and(|o| o.kind_str() == "this")
                    && let Some(f) = field(n, "field") =>
            {
                let name = self.text(f);
                let v = self
                    .vars
                    .get(name)?
                    .iter()
                    .find(|v| v.scope.is_none())
                    .copied()?;
                self.int_d(self.field_value(name, &v)?, depth + 1)
            }
            "field_access" | "scoped_identifier" => match t {
                // java.lang's limits (`Integer.MAX_VALUE` is 2^31-1, not
                // Long's 2^63-1).
                "Integer.MAX_VALUE" | "java.lang.Integer.MAX_VALUE" => Some(i32::MAX.into()),
                "Integer.MIN_VALUE" | "java.lang.Integer.MIN_VALUE" => Some(i32::MIN.into()),
                "Long.MAX_VALUE" | "java.lang.Long.MAX_VALUE" => Some(i64::MAX.into()),
                "Long.MIN_VALUE" | "java.lang.Long.MIN_VALUE" => Some(i64::MIN.into()),
                "Short.MAX_VALUE" | "java.lang.Short.MAX_VALUE" => Some(i16::MAX.into()),
                "Short.MIN_VALUE" | "java.lang.Short.MIN_VALUE" => Some(i16::MIN.into()),
                "Byte.MAX_VALUE" | "java.lang.Byte.MAX_VALUE" => Some(i8::MAX.into()),
                "Byte.MIN_VALUE" | "java.lang.Byte.MIN_VALUE" => Some(i8::MIN.into()),
                _ => None,
            },
            "unary_expression" => {
                let op = n.child(0).map(|c| self.text(c))?;
                let v = self.int_d(*named_children(n).first()?, depth + 1)?;
                match op {
                    "-" => Some(-v),
                    "+" => Some(v),
                    _ => None,
                }
            }
            "binary_expression" => {
                let l = self.int_d(field(n, "left")?, depth + 1)?;
                let r = self.int_d(field(n, "right")?, depth + 1)?;
                let op = field(n, "operator").map(|o| self.text(o))?;
                match op {
                    "*" => l.checked_mul(r),
                    "+" => l.checked_add(r),
                    "-" => l.checked_sub(r),
                    "/" if r != 0 => Some(l / r),
                    "<<" if (0..64).contains(&r) => l.checked_mul(1i128 << r),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A floating value (`1.5`, `2`, a constant).
    pub fn float(&self, n: Node<'a>) -> Option<f64> {
        let r = self.resolve(n);
        match r.kind_str() {
            "decimal_floating_point_literal" => ast::float_literal(self.text(r)),
            _ => self.int(r).map(|i| i as f64),
        }
    }

    /// A string value: a literal, a constant, or a concatenation of both.
    pub fn string(&self, n: Node<'a>) -> Option<String> {
        let mut out = String::new();
        let mut stack = vec![(n, 0usize)];
        while let Some((cur, depth)) = stack.pop() {
            if depth > MAX_DEPTH || out.len() > 4096 {
                return None;
            }
            let cur = unwrap_expr(cur);
            match cur.kind_str() {
                "string_literal" => out.push_str(ast::string_literal(cur, self.src)?),
                "identifier" => stack.push((self.var(self.text(cur), cur)?.value?, depth + 1)),
                "binary_expression"
                    if field(cur, "operator").map(|o| self.text(o)) == Some("+") =>
                {
                    stack.push((field(cur, "right")?, depth + 1));
                    stack.push((field(cur, "left")?, depth + 1));
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// A duration: `Duration.ofMillis(100)`, `Duration.of(2, SECONDS)`,
    /// `Duration.parse("PT1S")`, `TimeUnit.SECONDS.toMillis(2)`, or a
    /// number in `unit`.
    pub fn duration(&self, n: Node<'a>, unit: Duration) -> Option<Duration> {
        let n = self.resolve(n);
        if n.kind_str() == "method_invocation" {
            let c = ast::chain(n, self.src);
            let root = c.root_text(self.src);
            let first = c.first()?;
            let arg = |i: usize| first.args.get(i).copied();
            let base = if ast::last_segment(root) == "Duration" {
                let per = match first.name.as_str() {
                    "ofNanos" => Duration::from_nanos(1),
                    "ofMillis" => Duration::from_millis(1),
                    "ofSeconds" => Duration::from_secs(1),
                    "ofMinutes" => Duration::from_secs(60),
                    "ofHours" => Duration::from_secs(3600),
                    "ofDays" => Duration::from_secs(86400),
                    "of" => ast::time_unit(self.text(arg(1)?))?,
                    "parse" => {
                        let s = self.string(arg(0)?)?;
                        return crate::duration::parse_iso8601(&s).ok();
                    }
                    _ => return None,
                };
                ast::scale(per, self.int(arg(0)?)? as f64)?
            } else if let Some(u) = ast::time_unit(root) {
                let target = match first.name.as_str() {
                    "toMillis" => Duration::from_millis(1),
                    "toSeconds" => Duration::from_secs(1),
                    "toNanos" => Duration::from_nanos(1),
                    "toMicros" => Duration::from_micros(1),
                    _ => return None,
                };
                let d = ast::scale(u, self.int(arg(0)?)? as f64)?;
                // Re-express in `unit`: the number is in `target` units.
                let n = d.as_secs_f64() / target.as_secs_f64();
                return ast::scale(unit, n);
            } else {
                return None;
            };
            // `.plusMillis(..)` and the like are rare; only a bare factory
            // call is read.
            return (c.calls.len() == 1).then_some(base);
        }
        let v = self.int(n)?;
        (v >= 0).then(|| ast::scale(unit, v as f64)).flatten()
    }

    /// The methods whose bodies a method reference or lambda stands for.
    pub fn callable_bodies(&self, n: Node<'a>) -> Vec<Node<'a>> {
        let n = self.resolve(n);
        match n.kind_str() {
            "lambda_expression" => field(n, "body").into_iter().collect(),
            "method_reference" => {
                let kids = named_children(n);
                let Some(last) = kids.last() else {
                    return Vec::new();
                };
                let recv = kids.first().map(|k| self.text(*k)).unwrap_or("");
                if kids.len() == 2
                    && (recv == "this" || recv.chars().next().is_some_and(char::is_uppercase))
                {
                    self.methods_named(self.text(*last))
                        .iter()
                        .filter_map(|m| field(*m, "body"))
                        .collect()
                } else {
                    Vec::new()
                }
            }
            "object_creation_expression" => n
                .named_children(&mut n.walk())
                .filter(|c| c.kind_str() == "class_body")
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The name a write targets: `name` or `this.name`.
fn written_name<'a>(target: Node<'_>, src: &'a str) -> Option<&'a str> {
    match target.kind_str() {
        "identifier" => Some(text(target, src)),
        "field_access" if field(target, "object").is_some_and(|o| o.kind_str() == "this") => {
            field(target, "field").map(|f| text(f, src))
        }
        _ => None,
    }
}

/// Parent lookups over a prebuilt index.
struct Parents<'m, 'a>(&'m Index, &'m [Node<'a>]);

impl<'a> Parents<'_, 'a> {
    fn parent(&self, n: Node<'_>) -> Option<Node<'a>> {
        self.0.parent(self.1, n)
    }
    fn ancestor(&self, n: Node<'_>, kinds: &[&str]) -> Option<Node<'a>> {
        let mut cur = self.parent(n);
        while let Some(c) = cur {
            if kinds.contains(&c.kind_str()) {
                return Some(c);
            }
            cur = self.parent(c);
        }
        None
    }
    fn enclosing_method(&self, n: Node<'_>) -> Option<Node<'a>> {
        self.ancestor(n, &["method_declaration", "constructor_declaration"])
    }
}
